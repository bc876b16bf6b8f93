// Generated edits that delete a definition by adjacency after its sibling's shown tail
// (removal-shapes.ts) over the real source files the other generated edits use, several draws per
// file: every merge keeps every original line the expected file keeps, and the merges are byte-exact
// at the measured rate (docs/apply.md, branches removy and removz: deletions between siblings a
// marker-less update shows, and below a closer the file has once).
import { describe, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { deleteAfterShownTail, deleteBelowUniqueCloser, deleteBetweenShownSiblings } from './removal-shapes.js';
import { drawShape, drawReport, expectShapeGate } from './shape-draws.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.85;

describe('generated delete-after-shown-tail edits', () => {
  it('keep every original line and are mostly byte-exact', () => {
    const d = drawShape(deleteAfterShownTail, 'delete-after-shown-tail', 3);
    console.log(drawReport('delete-after-shown-tail', d));
    expectShapeGate(d, 50, EXACT_FLOOR);
  });
});

describe('generated delete-between-shown-siblings edits (marker-less, branch removz)', () => {
  it('keep every original line and are mostly byte-exact', () => {
    const d = drawShape(deleteBetweenShownSiblings, 'delete-between-shown-siblings', 3);
    console.log(drawReport('delete-between-shown-siblings', d));
    expectShapeGate(d, 50, EXACT_FLOOR);
  });
});

describe('generated delete-below-unique-closer edits (branch removz)', () => {
  it('keep every original line and are mostly byte-exact', () => {
    const d = drawShape(deleteBelowUniqueCloser, 'delete-below-unique-closer', 3);
    console.log(drawReport('delete-below-unique-closer', d));
    expectShapeGate(d, 15, EXACT_FLOOR);
  });
});
