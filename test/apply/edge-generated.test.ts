// Generated edits at both ends of real source files (edge-shapes.ts), with and without a final
// newline and a byte-order mark: every merge keeps every original line the expected file keeps,
// and the merges are byte-exact at the measured rate (docs/apply.md, branch shapew).
import { describe, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { editBothEnds, type EdgeOptions } from './edge-shapes.js';
import { drawShape, drawReport, expectShapeGate } from './shape-draws.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.9;

const VARIANTS: Array<[string, EdgeOptions]> = [
  ['both-ends', { bom: false, noFinalNewline: false }],
  ['both-ends-no-final-newline', { bom: false, noFinalNewline: true }],
  ['both-ends-bom', { bom: true, noFinalNewline: false }],
];

describe('generated edits at both ends of a file', () => {
  for (const [key, o] of VARIANTS) {
    it(`${key}: keep every original line and are mostly byte-exact`, () => {
      const d = drawShape((x) => editBothEnds(x, o), key, 2);
      console.log(drawReport(key, d));
      expectShapeGate(d, 100, EXACT_FLOOR);
    });
  }
});
