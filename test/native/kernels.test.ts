// Runs the C++ kernel, GGUF reader and sampler tests (native/tests, built by scripts/build.mjs
// into build/native/infer_native_tests) once, and reports each C++ case as its own test: the
// case's "ok"/"FAIL" line and its failure messages ("FAIL [case] file:line: ...").
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';

const exe = join(PACKAGE_ROOT, 'build', 'native', 'infer_native_tests');

function caseNames(): string[] {
  if (!existsSync(exe)) return [];
  const r = spawnSync(exe, ['--list'], { encoding: 'utf8', timeout: 10_000 });
  return (r.stdout ?? '').split('\n').filter((l) => l.length > 0);
}

const names = caseNames();
const verdicts = new Map<string, 'ok' | 'FAIL'>();
const failures = new Map<string, string[]>();
let summary = '';

describe('native kernels, GGUF reader and sampler (C++ tests)', () => {
  beforeAll(() => {
    const r = spawnSync(exe, [], { encoding: 'utf8', timeout: 240_000 });
    for (const line of (r.stdout ?? '').split('\n')) {
      const m = /^(ok  |FAIL) (\S+) \(/.exec(line);
      if (m) verdicts.set(m[2]!, m[1] === 'FAIL' ? 'FAIL' : 'ok');
      if (line.startsWith('infer_native_tests:')) summary = line;
    }
    for (const line of (r.stderr ?? '').split('\n')) {
      const m = /^FAIL \[([^\]]+)\] (.*)$/.exec(line);
      if (m) failures.set(m[1]!, [...(failures.get(m[1]!) ?? []), m[2]!]);
    }
    console.log(summary || `(no summary line; exit ${r.status ?? r.signal})`);
  }, 250_000);

  it('infer_native_tests is built and lists its cases', () => {
    expect(existsSync(exe), `${exe} missing: run \`node scripts/build.mjs --native-only\``).toBe(true);
    expect(names.length).toBeGreaterThan(0);
  });

  it.each(names)('%s', (name) => {
    expect(failures.get(name) ?? [], `failures of ${name}`).toEqual([]);
    expect(verdicts.get(name), `${name} did not report (crash or timeout before it?)`).toBe('ok');
  });

  it('the run ends with 0 failures', () => {
    expect(summary).toMatch(/ 0 failures/);
  });
});
