// The main API's keys: --api-key / SVC_API_KEYS when given; otherwise the keys stored in
// <data-dir>/api-key (one per line), the first of them generated (32 random bytes) on the first
// start and shown once, on stderr. The file is created with mode 0600 and never rewritten; keys
// never go to the logs.
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
  source: 'configured' | 'file' | 'generated';
  file?: string;
}

/** The keys of a key file, one per line (blank lines skipped); a line that cannot be a key is an
 *  error naming it, never a key that no client could send. */
function keysInFile(file: string, text: string): string[] {
  const keys: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const key = line.trim();
    if (!key) return;
    if (key.length < 8 || /\s/.test(key)) throw new Error(`${file} line ${i + 1} is not a usable key (at least 8 characters, no spaces)`);
    keys.push(key);
  });
  if (keys.length === 0) throw new Error(`${file} holds no usable key (delete it to generate a new one)`);
  return keys;
}

/** `announce` receives the one-time message with a freshly generated key. */
export function resolveApiKeys(configured: readonly string[], dataDir: string, announce: (message: string) => void): ResolvedKeys {
  if (configured.length) return { keys: [...configured], source: 'configured' };
  const file = resolve(join(dataDir, API_KEY_FILE));
  let stored: string | null = null;
  try {
    stored = readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  if (stored !== null) {
    const keys = keysInFile(file, stored);
    // Tighten a file someone loosened; the keys stay the same.
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return { keys, source: 'file', file };
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
