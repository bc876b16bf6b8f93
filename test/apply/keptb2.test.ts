// Misses at confidence 1, class B (docs/apply.md, branch `keptb2`): an original line the update never
// shows, kept right beside the new line that rewrote it — `return initialCartState;` under the new
// `return {…}`, `WHERE status = 'active';` under `WHERE status = 'trialing';`, `runs-on: ubuntu-22.04`
// under `runs-on: ${{ matrix.os }}`. Two lines at one indentation that set the same key, or that both
// return, cannot both stand: the update rewrote the old one there (rule (a)), so it goes, where the
// no-loss check licenses it (kept-beside-edit.ts `rewrittenBesideEdit`, loss.ts's gap-edge reading).
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, keepsEveryLine, mergedCase } from './bench-case.js';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { withoutRows } from '../../src/apply/kept-beside-edit.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('an original line kept beside its rewrite is replaced (keptb2)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('merges exactly in every mode (TS, SQL, Lua, Python, Go, C#, YAML; two writers and five probe sets)', () => {
    const cases: Array<[string, string]> = [
      ['external-2026-11-27as', 'ts03-'],
      ['external-2026-11-28ce', 'sql01-'],
      ['probes-headz', 'ts01-'],
      ['probes-orderx', 'lua01-'],
      ['probes-samex', 'py01-'],
      ['probes-keptb', 'go01-'],
      ['probes-keptb2', 'cs01-'],
      ['probes-keptb2', 'yaml01-'],
    ];
    for (const [set, prefix] of cases) mergedCase(caseDir(set, prefix));
  });

  it('says what it replaced', () => {
    const code = 'jobs:\n  test:\n    needs: lint\n    runs-on: ubuntu-22.04\n    steps:\n      - run: npm test\n';
    const update = '  test:\n    needs: lint\n    strategy:\n      matrix:\n        os: [ubuntu-22.04, macos-14]\n    runs-on: ${{ matrix.os }}\n    # ... existing steps ...\n';
    const r = mergeApply({ code, update, instruction: null }, 'fast');
    expect(r.content).toBe('jobs:\n  test:\n    needs: lint\n    strategy:\n      matrix:\n        os: [ubuntu-22.04, macos-14]\n    runs-on: ${{ matrix.os }}\n    steps:\n      - run: npm test\n');
    expect(r.report.replacedBesideEdit).toEqual([3]);
    expect(checkLoss(code, update, null, r.content).lost).toEqual([]);
  });

  it('edge rewrites the merge already replaced stay exact, and siblings stay (controls)', () => {
    for (const prefix of ['hcl01-', 'js01-', 'php01-']) mergedCase(caseDir('probes-keptb2', prefix));
    // A new key beside an old one, a compound `+=`, a guarded return: nothing is replaced.
    const code = 'def f(x):\n    total = 0\n    total += x\n    return total\n\n\ndef g():\n    pass\n';
    const update = 'def f(x):\n    total = 0\n    total += x\n    total += 1\n    # ...\n';
    const r = mergeApply({ code, update, instruction: null }, 'fast');
    expect(r.content).toBe('def f(x):\n    total = 0\n    total += x\n    total += 1\n    return total\n\n\ndef g():\n    pass\n');
    expect(r.report.replacedBesideEdit).toBeUndefined();
  });

  it('licenses the old line as rewritten only beside a new line that sets the same key', () => {
    const code = 'function f() {\n  a = 1;\n  b = 2;\n}\n';
    // `b = 2` gone beside a new `c = 3`: another key, lost.
    expect(checkLoss(code, 'function f() {\n  a = 1;\n  c = 3;\n  // ...\n', null, 'function f() {\n  a = 1;\n  c = 3;\n}\n').lost).toEqual([2]);
    // `b = 2` gone beside a new `b = scaled(options.factor)`: the same key, rewritten there.
    expect(checkLoss(code, 'function f() {\n  a = 1;\n  b = scaled(options.factor);\n  // ...\n', null, 'function f() {\n  a = 1;\n  b = scaled(options.factor);\n}\n').lost).toEqual([]);
    keepsEveryLine(caseDir('probes-keptb2', 'cs01-'));
  });

  it('drops a line with its doubled blank, and keeps the end of a file without a final newline', () => {
    expect(withoutRows('a\n\nb\n\nc\n', [2])).toBe('a\n\nc\n');
    expect(withoutRows('a\nb\nc', [2])).toBe('a\nb');
  });
});
