// Generated wrap edits (wrap-shapes.ts) over the real source files the other generated edits use,
// several draws per file: every merge keeps every original line the expected file keeps, and the
// merges are byte-exact at the measured rate (docs/apply.md, branches shapep and shapev).
import { describe, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { wrapHoistedDeclaration, wrapInnerBlock, wrapToBlockEnd } from './wrap-shapes.js';
import { drawShape, drawReport, expectShapeGate } from './shape-draws.js';
import type { ShapeInput } from './edit-shapes.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.9;

function checkDraws(shape: Parameters<typeof drawShape>[0], key: string, draws: number): void {
  const d = drawShape(shape, key, draws);
  console.log(drawReport(key, d));
  expectShapeGate(d, 100, EXACT_FLOOR);
}

const SHAPES: Array<[string, (x: ShapeInput) => ReturnType<typeof wrapToBlockEnd>, number]> = [
  ['wrap-to-block-end', wrapToBlockEnd, 3],
  ['wrap-inner-block', wrapInnerBlock, 2],
  ['wrap-hoisted-declaration', wrapHoistedDeclaration, 2],
];

describe('generated wrap edits', () => {
  for (const [key, shape, draws] of SHAPES) {
    it(`${key}: keep every original line and are mostly byte-exact`, () => checkDraws(shape, key, draws));
  }
});
