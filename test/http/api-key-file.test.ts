// The API key file: generated once (0600), then read back one key per line.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveApiKeys } from '../../src/server/api-key-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-keys-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveApiKeys', () => {
  it('generates a key once, then reads it back', () => {
    const said: string[] = [];
    const first = resolveApiKeys([], dir, (m) => said.push(m));
    expect(first.source).toBe('generated');
    expect(said.join('')).toContain(first.keys[0]);
    expect(statSync(join(dir, 'api-key')).mode & 0o777).toBe(0o600);
    expect(resolveApiKeys([], dir, () => said.push('again'))).toMatchObject({ keys: first.keys, source: 'file' });
    expect(said).toHaveLength(1);
  });

  it('reads one key per line; a line that cannot be a key is named, not accepted', () => {
    const file = join(dir, 'api-key');
    writeFileSync(file, 'key-one-11111\r\n\n  key-two-22222  \n', { mode: 0o600 });
    expect(resolveApiKeys([], dir, () => {}).keys).toEqual(['key-one-11111', 'key-two-22222']);
    writeFileSync(file, 'key-one-11111\nshort\n');
    expect(() => resolveApiKeys([], dir, () => {})).toThrow(/line 2 is not a usable key/);
    writeFileSync(file, 'two words here\n');
    expect(() => resolveApiKeys([], dir, () => {})).toThrow(/line 1 is not a usable key/);
    writeFileSync(file, '\n\n');
    expect(() => resolveApiKeys([], dir, () => {})).toThrow(/holds no usable key/);
    expect(readFileSync(file, 'utf8')).toBe('\n\n'); // never rewritten
  });

  it('configured keys (flags or environment) win over the file', () => {
    expect(resolveApiKeys(['sk-configured-1'], dir, () => {})).toEqual({ keys: ['sk-configured-1'], source: 'configured' });
  });
});
