// Wrong outputs at confidence 1 (branch conf1e), two shapes of one piece put in two places:
// - a run written twice with blank lines between (doubled-runs.ts): a callback's closer rewritten with
//   a chained call or a further argument, the new block's own closer taken for the original one, the
//   original closer kept under the new block (`})`, blank, `})`); a heading restated over its section;
// - a statement right after a `return` at its depth (after-exit.ts): a guard the update rewrote kept
//   above the update's own `return null;`, an old route's body kept above the update's last line.
// The content stays (which copy is meant is not known); the confidence drops to 0.6 so `auto`
// escalates. Controls: exact cases whose returns are followed by a `case`, and every expected file.
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { doubledRuns } from '../../src/apply/doubled-runs.js';
import { linesAfterExit } from '../../src/apply/after-exit.js';
import { mergeApply, type MergeMode } from '../../src/apply/merge.js';
import { readCase } from './bench-case.js';

type Signal = 'doubledRuns' | 'linesAfterExit';

/** Case, the modes where main gave a wrong output at confidence 1, and the signal that lowers it. */
const lowered: Array<[string, MergeMode[], Signal]> = [
  ['external-2026-11-29cn/r02-shiny-validate-cache-and-observer', ['fast'], 'doubledRuns'],
  ['external-2026-11-28br/md21-readme-table-row-and-systemd-section', ['fast', 'large'], 'doubledRuns'],
  ['probes-conf1e/dart02-listen-closer-rewritten-and-new-listener-after', ['fast'], 'doubledRuns'],
  ['external-2026-11-27ba/php03-country-aware-zip-truncated', ['fast', 'large'], 'linesAfterExit'],
  ['external-2026-11-29co/py02-flask-blueprint-add-route-remove-deprecated', ['large'], 'linesAfterExit'],
  ['probes-conf1e/ts01-validator-guard-rewritten-snippet-drops-brace', ['fast', 'large'], 'linesAfterExit'],
  ['probes-conf1e/py01-fastapi-route-replaced-by-adjacency', ['large'], 'linesAfterExit'],
];
const controls = ['probes-conf1e/go01-new-case-after-returning-case', 'probes-conf1e/dart01-listen-closer-rewritten-then-new-listener'];

describe('one piece put in two places (conf1e)', () => {
  for (const [id, modes, signal] of lowered) {
    for (const mode of modes) {
      it(`${id} (${mode}): nothing lost, ${signal} reported below 0.9`, () => {
        const p = readCase(id);
        const r = mergeApply({ code: p.code, update: p.update, instruction: p.instruction }, mode);
        expect(checkLoss(p.code, p.update, p.instruction, r.content).lost).toEqual([]);
        expect(r.content).not.toBe(p.expected);
        expect(r.confidence).toBeLessThan(0.9);
        expect(r.report[signal]?.length ?? 0).toBeGreaterThan(0);
      });
    }
  }

  for (const id of controls) {
    it(`${id}: exact, neither signal reported`, () => {
      const p = readCase(id);
      for (const mode of ['fast', 'large'] as const) {
        const r = mergeApply({ code: p.code, update: p.update, instruction: p.instruction }, mode);
        expect(r.content).toBe(p.expected);
        expect(r.report.doubledRuns).toBeUndefined();
        expect(r.report.linesAfterExit).toBeUndefined();
      }
    });
  }

  it('neither signal fires on the expected file of any of these cases', () => {
    for (const id of [...lowered.map(([id]) => id), ...controls]) {
      const p = readCase(id);
      expect(doubledRuns(p.code, p.update, p.expected)).toEqual([]);
      expect(linesAfterExit(p.code, p.update, p.expected)).toEqual([]);
    }
  });

  it('a run repeated after blank lines is a doubling unless an input holds the same stretch', () => {
    const code = 'f <- reactive({\n  d\n})\n\nout <- 1\n';
    expect(doubledRuns(code, 'x\n', 'f <- reactive({\n  d\n}) %>% cache()\n\nobs({\n  y\n})\n\n})\n\nout <- 1\n')).toEqual([6]);
    // Two `})` parted by a blank line in the original are two blocks' closers, not a doubling.
    expect(doubledRuns('a({\n})\n\n})\n', 'x\n', 'a({\n})\n\n})\n')).toEqual([]);
  });

  it('after an exit: a closer, the next branch, a comment or a guarded Ruby return may follow; a statement may not', () => {
    const code = 'def f(x)\n  return 1 if x\n  return 2\nend\n';
    expect(linesAfterExit(code, 'x\n', code)).toEqual([]);
    expect(linesAfterExit('x\n', 'y\n', 'switch (v) {\n  case 1:\n    return a;\n  case 2:\n    return b;\n}\n')).toEqual([]);
    expect(linesAfterExit('x\n', 'y\n', 'if (!ok) {\n  return err;\n  // unreachable on purpose\n}\n')).toEqual([]);
    expect(linesAfterExit('x\n', 'y\n', 'def f():\n    return g(\n    )\n')).toEqual([]);
    expect(linesAfterExit('x\n', 'y\n', 'function v() {\n  return null;\n  if (bad) {\n    return "bad";\n  }\n}\n')).toEqual([2]);
    // Two lines the original already holds together are the original's own code.
    expect(linesAfterExit('  return null;\n  if (bad) {\n', 'y\n', 'function v() {\n  return null;\n  if (bad) {\n  }\n}\n')).toEqual([]);
  });
});
