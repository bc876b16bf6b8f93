// Runs the C++ kernel and GGUF reader tests (native/tests, built by scripts/build.mjs into
// build/native/infer_native_tests) and asserts they all pass.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';

const exe = join(PACKAGE_ROOT, 'build', 'native', 'infer_native_tests');

describe('native kernels and GGUF reader (C++ tests)', () => {
  it('infer_native_tests exits 0', () => {
    expect(existsSync(exe), `${exe} missing: run \`node scripts/build.mjs --native-only\``).toBe(true);
    const r = spawnSync(exe, [], { encoding: 'utf8', timeout: 120_000 });
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
    const summary = out.split('\n').find((l) => l.startsWith('infer_native_tests:')) ?? '(no summary line)';
    console.log(summary);
    if (r.status !== 0) console.error(out);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(summary).toMatch(/ 0 failures/);
  }, 150_000);
});
