// Wrong outputs at confidence 1 (branch conf1d): a run of lines the merge writes twice in a row where
// neither the original nor the update holds it twice — a loop's `done` doubled under a new `if … fi`
// (the new `fi` taken for the original's closer), a copied `case` tail (`conn_printf(…); break;`) both
// kept and restated, a widget's `),` closing twice. The content stays (which copy is meant is not
// known), the confidence drops to 0.6 so `auto` escalates (doubled-runs.ts). Controls: a new case
// copying a sibling's tail, a line the update itself writes twice, and every expected file of the cases.
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { doubledRuns } from '../../src/apply/doubled-runs.js';
import { mergeApply } from '../../src/apply/merge.js';
import { readCase } from './bench-case.js';

const lowered = [
  'external-2026-11-29cg/sh01-bash-deploy-script-edit-one-of-similar-functions',
  'external-2026-11-29ch/c02-kvd-add-incrby-switch-case',
  'external-2026-11-27av/dart01-add-field-and-uses-across-widgets',
  'probes-prosex/sh01-loop-line-wrapped-in-new-if-else',
  'probes-conf1d/sh01-for-loop-line-wrapped-in-new-if-else-done-doubled',
  'probes-conf1d/js01-new-switch-case-copies-tail-of-shown-case',
];
const controls = ['probes-conf1d/go01-new-switch-case-copies-tail-control', 'probes-conf1d/py01-update-writes-a-line-twice-control'];

describe('a run of lines written twice in a row (conf1d)', () => {
  for (const id of lowered) {
    for (const mode of ['fast', 'large'] as const) {
      it(`${id} (${mode}): nothing lost, the doubled run reported below 0.9`, () => {
        const p = readCase(id);
        const r = mergeApply({ code: p.code, update: p.update, instruction: p.instruction }, mode);
        expect(checkLoss(p.code, p.update, p.instruction, r.content).lost).toEqual([]);
        expect(r.confidence).toBeLessThan(0.9);
        expect(r.report.doubledRuns?.length ?? 0).toBeGreaterThan(0);
      });
    }
  }

  for (const id of controls) {
    // Exact at confidence 1 through the served path (tree-sitter prepared: par.sh, apply1); here, with
    // the line merge alone, the Python control keeps its old thread line, so only the signal is judged.
    it(`${id}: nothing lost, no doubled run reported`, () => {
      const p = readCase(id);
      for (const mode of ['fast', 'large'] as const) {
        const r = mergeApply({ code: p.code, update: p.update, instruction: p.instruction }, mode);
        expect(checkLoss(p.code, p.update, p.instruction, r.content).lost).toEqual([]);
        expect(r.report.doubledRuns).toBeUndefined();
      }
    });
  }

  it('never fires on the expected file of any of these cases', () => {
    for (const id of [...lowered, ...controls]) {
      const p = readCase(id);
      expect(doubledRuns(p.code, p.update, p.expected)).toEqual([]);
    }
  });

  it('a run the original or the update already holds twice in a row is no doubling; blank lines are no run', () => {
    const code = 'flush()\nflush()\nx = 1\n';
    expect(doubledRuns(code, 'x = 2\n', 'flush()\nflush()\nx = 2\n')).toEqual([]);
    expect(doubledRuns('a\nb\n', 'a\nput(None)\nput(None)\nb\n', 'a\nput(None)\nput(None)\nb\n')).toEqual([]);
    expect(doubledRuns('a\n\nb\n', 'a\n\n\nb\n', 'a\n\n\nb\n')).toEqual([]);
  });

  it('finds a two-line run repeated, and a closer doubled at one indentation, by output row', () => {
    const code = '  case 1:\n    emit(n);\n    break;\n  case 2:\n';
    const out = '  case 1:\n    emit(n);\n    break;\n    emit(n);\n    break;\n  case 2:\n';
    expect(doubledRuns(code, '  case 1:\n', out)).toEqual([1]);
    // `  done` under `    done` is two closers of two loops; `  done` twice is one loop closed twice.
    expect(doubledRuns('for a; do\n  for b; do\n    x\n  done\ndone\n', 'x\n', 'for a; do\n  for b; do\n    x\n  done\ndone\n')).toEqual([]);
    expect(doubledRuns('for a; do\n  x\ndone\n', 'x\n', 'for a; do\n  x\ndone\ndone\n')).toEqual([2]);
  });
});
