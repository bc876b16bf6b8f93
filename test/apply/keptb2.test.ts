// Misses at confidence 1, class B (docs/apply.md, branch `keptb2`): an original line the update never
// shows, kept right beside the new line that rewrote it — `return initialCartState;` under the new
// `return {…}`, `this.started = Date.now();` under `this.started = clock.now();`, `return 0, err` under
// `return 0, fmt.Errorf(…)`. Two lines at one indentation that set the same key, or that both
// return, cannot both stand: the update rewrote the old one there (rule (a)), so it goes, where the
// no-loss check licenses its drop (kept-beside-edit.ts `rewrittenBesideEdit`, merge.ts `withRewrittenBesideEdit`).
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, keepsEveryLine, mergedCase, readCase } from './bench-case.js';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { withoutRows } from '../../src/apply/kept-beside-edit.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('an original line kept beside its rewrite is replaced (keptb2)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('merges exactly in every mode (TS, Python, Go; an external writer and three probe sets)', () => {
    const cases: Array<[string, string]> = [
      ['external-2026-11-27as', 'ts03-'],
      ['probes-headz', 'ts01-'],
      ['probes-samex', 'py01-'],
      ['probes-keptb', 'go01-'],
    ];
    for (const [set, prefix] of cases) mergedCase(caseDir(set, prefix));
  });

  it('says what it replaced', () => {
    const c = readCase(caseDir('probes-keptb', 'go01-'));
    const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, 'fast');
    expect(r.report.replacedBesideEdit?.length).toBe(1);
    expect(r.confidence).toBe(1);
  });

  it('edge rewrites the merge already replaced stay exact, and siblings stay (controls)', () => {
    for (const prefix of ['hcl01-', 'js01-', 'php01-']) mergedCase(caseDir('probes-keptb2', prefix));
    // A compound `total += 1` beside `total += x`: nothing is replaced.
    const code = 'def f(x):\n    total = 0\n    total += x\n    return total\n\n\ndef g():\n    pass\n';
    const update = 'def f(x):\n    total = 0\n    total += x\n    total += 1\n    # ...\n';
    const r = mergeApply({ code, update, instruction: null }, 'fast');
    expect(r.content).toBe('def f(x):\n    total = 0\n    total += x\n    total += 1\n    return total\n\n\ndef g():\n    pass\n');
    expect(r.report.replacedBesideEdit).toBeUndefined();
  });

  it('keeps the old line, and says it guessed, where the no-loss check refuses its drop (open cases)', () => {
    // The licence refuses these expected files (a gap with new lines before the rewrite, a sibling-shaped
    // assignment): the line stays, nothing is lost, and the result is below confidence 0.9.
    for (const prefix of ['cs01-', 'yaml01-']) {
      const c = readCase(caseDir('probes-keptb2', prefix));
      const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, 'fast');
      expect(checkLoss(c.code, c.update, c.instruction, r.content).lost, prefix).toEqual([]);
      expect(r.confidence, prefix).toBeLessThan(0.9);
      keepsEveryLine(caseDir('probes-keptb2', prefix));
    }
  });

  it('drops a line with its doubled blank, and keeps the end of a file without a final newline', () => {
    expect(withoutRows('a\n\nb\n\nc\n', [2])).toBe('a\n\nc\n');
    expect(withoutRows('a\nb\nc', [2])).toBe('a\nb');
  });
});
