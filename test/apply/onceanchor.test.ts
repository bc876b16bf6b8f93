// A line the original has once, copied inside new code, anchored the new code at the old place
// (docs/apply.md, branch `onceanchor`).
// - 28bp go18: `fmt.Fprintln(os.Stderr, err)` / `os.Exit(1)` copied into a new `if err := enc.Encode(out);
//   err != nil {` inside a new `if *asJSON {` block; the old check's head was read as edited and lost.
//   copied-anchor.ts copiedBlockRows: such rows are no anchors when new code stands around their block.
// - 27ac vue01: a bare `<td>` (once in the original) heading the name cell written out over three lines;
//   the email and role cells were lost. A bare head whose block writes out another original line is no
//   anchor, and the merge says its placement is a guess (confidence below 1).
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase, readCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { lostLines } from '../../bench/apply/lost-lines.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('a once-only line copied inside new code is no anchor (onceanchor)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('keeps the old error check beside a new block copying its body (28bp go18)', () => {
    mergedCase(caseDir('external-2026-11-28bp', 'go18-'));
  });

  it('keeps every cell when a bare <td> opens a one-line cell written out (27ac vue01), and says it guessed', () => {
    const c = readCase(caseDir('external-2026-11-27ac', 'vue01-'));
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode);
      expect(lostLines(c.code, c.expected, r.content), mode).toEqual([]);
      expect(r.confidence, mode).toBeLessThan(1);
    }
  });

  it('writes a one-line element out over lines in place (probe jsx01)', () => {
    mergedCase('probes-onceanchor/jsx01-span-written-out-over-lines-bare-span-below');
  });

  it('still moves a block wrapped whole, head edited, into a new one, and rewrites a bare head\'s body (controls)', () => {
    mergedCase(caseDir('external-2026-11-28bo', 'dart01-'));
    mergedCase('probes-onceanchor/vue01-control-bare-cell-body-rewritten');
    mergedCase('probes-onceanchor/py01-new-output-option-copies-error-report');
    mergedCase('probes-onceanchor/ts01-new-seed-block-copies-exit-call');
  });
});
