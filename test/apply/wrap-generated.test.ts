// Generated wrap edits (wrap-shapes.ts) over the real source files the other generated edits use,
// several draws per file: every merge keeps every original line the expected file keeps, and the
// merges are byte-exact at the measured rate (docs/apply.md, branches shapep and shapev).
import { describe, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { wrapEditedRun, wrapHoistedDeclaration, wrapInnerBlock, wrapToBlockEnd } from './wrap-shapes.js';
import { drawShape, drawReport, expectShapeGate } from './shape-draws.js';
import type { ShapeInput } from './edit-shapes.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.9;

/** An edited line moved with its run (branch wrapz): measured 0.86 on the pinned draw, 0.85-0.87 on others. */
const EDITED_RUN_FLOOR = 0.85;

function checkDraws(shape: Parameters<typeof drawShape>[0], key: string, draws: number, floor = EXACT_FLOOR): void {
  const d = drawShape(shape, key, draws);
  console.log(drawReport(key, d));
  expectShapeGate(d, 100, floor);
}

const SHAPES: Array<[string, (x: ShapeInput) => ReturnType<typeof wrapToBlockEnd>, number, number?]> = [
  ['wrap-to-block-end', wrapToBlockEnd, 3],
  ['wrap-inner-block', wrapInnerBlock, 2],
  ['wrap-hoisted-declaration', wrapHoistedDeclaration, 2],
  ['wrap-edited-run', wrapEditedRun, 2, EDITED_RUN_FLOOR],
];

describe('generated wrap edits', () => {
  for (const [key, shape, draws, floor] of SHAPES) {
    it(`${key}: keep every original line and are mostly byte-exact`, () => checkDraws(shape, key, draws, floor));
  }
});
