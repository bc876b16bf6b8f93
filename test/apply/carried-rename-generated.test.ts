// Generated renames carried across the file in small hunks (rename-shapes.ts) over the real source
// files the other generated edits use, several draws per file: every merge keeps every original line
// the expected file keeps, and the merges are byte-exact at the measured rate (docs/apply.md, branch fieldsy).
import { describe, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { renameCarriedAcrossHunks } from './carried-rename-shapes.js';
import { drawShape, drawReport, expectShapeGate } from './shape-draws.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.9;

describe('generated renames carried across hunks', () => {
  it('keep every original line and are byte-exact at the measured rate', () => {
    const d = drawShape(renameCarriedAcrossHunks, 'rename-carried-across-hunks', 3);
    console.log(drawReport('rename-carried-across-hunks', d));
    expectShapeGate(d, 50, EXACT_FLOOR);
  });
});
