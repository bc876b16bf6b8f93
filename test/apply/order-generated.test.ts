// Generated two-hunk edits whose hunks a note separates (`// ... and in parseArgs:`, order-shapes.ts)
// over the real source files the other generated edits use, several draws per file: every merge
// keeps every original line the expected file keeps, and the merges are byte-exact at the measured
// rate (docs/apply.md, branch orderx).
import { describe, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { hunksInOrderWithNote, hunksReversedWithNote } from './order-shapes.js';
import { drawShape, drawReport, expectShapeGate } from './shape-draws.js';
import type { Shape } from './edit-shapes.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.95;

const SHAPES: Array<[string, Shape, number]> = [
  ['hunks-reversed-with-note', hunksReversedWithNote, 2],
  ['hunks-in-order-with-note', hunksInOrderWithNote, 2],
];

describe('generated hunks separated by a note', () => {
  for (const [key, shape, draws] of SHAPES) {
    it(`${key}: keep every original line and are mostly byte-exact`, () => {
      const d = drawShape(shape, key, draws);
      console.log(drawReport(key, d));
      expectShapeGate(d, 100, EXACT_FLOOR);
    }, 600_000);
  }
});
