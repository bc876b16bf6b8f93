// The main API's keys: --api-key / SVC_API_KEYS when given; otherwise the key stored in
// <data-dir>/api-key, generated (32 random bytes) on the first start and shown once, on stderr.
// The file is created with mode 0600 and never rewritten; keys never go to the logs.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const API_KEY_FILE = 'api-key';

export function generateApiKey(): string {
  return 'sk-svc-' + randomBytes(32).toString('base64url');
}

export interface ResolvedKeys {
  keys: string[];
  /** Where the key came from, for a startup message (never the key itself). */
  source: 'flags' | 'file' | 'generated';
  file?: string;
}

/** `announce` receives the one-time message with a freshly generated key. */
export function resolveApiKeys(configured: readonly string[], dataDir: string, announce: (message: string) => void): ResolvedKeys {
  if (configured.length) return { keys: [...configured], source: 'flags' };
  const file = resolve(join(dataDir, API_KEY_FILE));
  let stored: string | null = null;
  try {
    stored = readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  if (stored !== null) {
    if (stored.length < 8) throw new Error(`${file} holds no usable key (delete it to generate a new one)`);
    // Tighten a file someone loosened; the key stays the same.
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return { keys: [stored], source: 'file', file };
  }
  const key = generateApiKey();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, key + '\n', { mode: 0o600, flag: 'wx' });
  announce(
    `svc: no API key configured; generated one and stored it in ${file} (mode 0600).\n` +
      `svc: it is shown only this once:\n\n    ${key}\n\n` +
      `svc: send it as \`Authorization: Bearer <key>\` or \`x-api-key: <key>\`.`,
  );
  return { keys: [key], source: 'generated', file };
}
