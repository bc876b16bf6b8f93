// API key check. Keys are kept only as SHA-256 digests and compared with timingSafeEqual
// against every configured key (no early exit), so timing reveals neither key nor match index.
// A key that passed once is remembered by its string, so that the requests of a client with a
// valid key skip the hash (a few µs of event-loop CPU each, 3-4% of a 64-request burst's intake).
// The map holds only presented strings that matched, i.e. the configured keys themselves (at most
// one entry per key). A lookup hashes the presented string with V8's per-process seeded string
// hash and compares strings only on a hash match; a miss (every wrong key) then takes the
// constant-time path above, so wrong guesses learn nothing from the digest comparison.
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
  /** Presented keys that matched, by string: the configured keys seen so far. */
  private readonly accepted = new Map<string, number>();
  /** Digests computed by check() (tests: a remembered key is not hashed again). */
  hashes = 0;

  constructor(keys: readonly string[]) {
    this.digests = keys.filter((k) => k.length > 0).map(digest);
  }

  get keyCount(): number {
    return this.digests.length;
  }

  /** Index of the configured key that matches any presented key, or -1. Both header forms may be
   *  sent at once (some clients add both); the request passes when either carries a valid key. */
  check(presented: readonly string[]): number {
    // The first presented key decides when it is a remembered one (the same answer as the loop
    // below, which takes the first presented key that matches).
    const known = presented.length ? this.accepted.get(presented[0]!) : undefined;
    if (known !== undefined) return known;
    let found = -1;
    for (const key of presented) {
      const d = digest(key);
      this.hashes++;
      let match = -1;
      for (let i = 0; i < this.digests.length; i++) {
        if (crypto.timingSafeEqual(d, this.digests[i]!) && match < 0) match = i;
      }
      if (match >= 0) this.accepted.set(key, match);
      if (found < 0) found = match;
    }
    return found;
  }
}
