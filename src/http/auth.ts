// API key check. Keys are kept only as SHA-256 digests and compared with timingSafeEqual
// against every configured key (no early exit), so timing reveals neither key nor match index.
import * as crypto from 'node:crypto';

// crypto.hash (Node 20.12+) is the one-shot form: no Hash object per request.
const oneShot = (crypto as { hash?: (alg: string, data: string, enc: 'buffer') => Buffer }).hash;

function digest(key: string): Buffer {
  return oneShot ? oneShot('sha256', key, 'buffer') : crypto.createHash('sha256').update(key, 'utf8').digest();
}

/** The credential a request presents: `Authorization: Bearer <key>` and/or `x-api-key: <key>`. */
export function presentedKeys(authorization: string | undefined, xApiKey: string | undefined): string[] {
  const keys: string[] = [];
  if (authorization) {
    const m = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
    if (m) keys.push(m[1]!);
  }
  if (xApiKey && xApiKey.trim()) keys.push(xApiKey.trim());
  return keys;
}

export class ApiKeyAuth {
  private readonly digests: Buffer[];

  constructor(keys: readonly string[]) {
    this.digests = keys.filter((k) => k.length > 0).map(digest);
  }

  get keyCount(): number {
    return this.digests.length;
  }

  /** Index of the configured key that matches any presented key, or -1. Both header forms may be
   *  sent at once (some clients add both); the request passes when either carries a valid key. */
  check(presented: readonly string[]): number {
    let found = -1;
    for (const key of presented) {
      const d = digest(key);
      for (let i = 0; i < this.digests.length; i++) {
        if (crypto.timingSafeEqual(d, this.digests[i]!) && found < 0) found = i;
      }
    }
    return found;
  }
}
