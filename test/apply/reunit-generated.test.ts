// Generated edits whose update is written at another indentation unit than its file (reunit-shapes.ts:
// two spaces a level for a file of four or of tabs, four for a file of two), over the real source
// files the other generated edits use, several draws per file: every merge keeps every original line
// the expected file keeps (but the known losses below), and the merges are byte-exact at the measured
// rate (docs/apply.md, branch reindenty).
import { describe, expect, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { SHAPES, type Shape } from './edit-shapes.js';
import { childUnderShownParent } from './parent-shapes.js';
import { wrapInnerBlock, wrapToBlockEnd } from './wrap-shapes.js';
import { inOtherUnit } from './reunit-shapes.js';
import { drawShape, drawReport } from './shape-draws.js';

await ensureAllGrammars();

/**
 * [shape, draws per file, byte-exact floor (measured, rounded down), lossy edits allowed]. The losses
 * allowed are main's too, and the same edits lose the same lines written in the file's own unit:
 * Accounts.cs (a closer after an added method, branch parentv), site.css (a rule re-indented to
 * column 0), move.js (a wrapped block ending on `try {` before a marker).
 */
const REUNITED: Array<[string, Shape, number, number, number]> = [
  ['child-under-shown-parent', childUnderShownParent, 3, 0.95, 1],
  ['wrap-to-block-end', wrapToBlockEnd, 2, 0.65, 0],
  ['wrap-inner-block', wrapInnerBlock, 2, 0.95, 1],
  ['edit-in-function', SHAPES['edit-in-function']!, 2, 0.85, 0],
  ['anchor-new-marker', SHAPES['anchor-new-marker']!, 2, 0.85, 0],
  ['reindented-method', SHAPES['reindented-method']!, 2, 0.9, 2],
  ['method-without-class', SHAPES['method-without-class']!, 2, 0.9, 0],
];

describe('generated edits written at another indentation unit', () => {
  for (const [key, shape, draws, floor, lossyAllowed] of REUNITED) {
    it(`${key}, reunited: keep every original line and are mostly byte-exact`, () => {
      const d = drawShape(inOtherUnit(shape), `reunit-${key}`, draws);
      console.log(drawReport(`reunit-${key}`, d));
      expect(d.edits).toBeGreaterThan(50);
      expect(d.lossy.length).toBeLessThanOrEqual(lossyAllowed);
      expect(d.exact / d.edits).toBeGreaterThanOrEqual(floor);
    });
  }
});
