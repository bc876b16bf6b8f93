// Generated edits of a child under one of two parents that hold the same child (parent-shapes.ts)
// over the real source files the other generated edits use, several draws per file: every merge
// keeps every original line the expected file keeps, and the merges are byte-exact at the measured
// rate (docs/apply.md, branch parentv).
import { describe, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { childUnderShownParent } from './parent-shapes.js';
import { drawShape, drawReport, expectShapeGate } from './shape-draws.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.8;

describe('generated child-under-shown-parent edits', () => {
  it('keep every original line and are mostly byte-exact', () => {
    const d = drawShape(childUnderShownParent, 'child-under-shown-parent', 3);
    console.log(drawReport('child-under-shown-parent', d));
    expectShapeGate(d, 50, EXACT_FLOOR);
  });
});
