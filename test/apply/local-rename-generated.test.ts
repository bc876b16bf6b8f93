// Generated local-variable renames (local-rename-shapes.ts) over the real source files the other
// generated edits use, several draws per file: every merge keeps every original line the expected
// file keeps, and the merges are byte-exact at the measured rate (docs/apply.md, branch shapep).
import { describe, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { localRename } from './local-rename-shapes.js';
import { drawShape, drawReport, expectShapeGate } from './shape-draws.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.9;

describe('generated local-variable renames', () => {
  it('keep every original line and are byte-exact at the measured rate', () => {
    const d = drawShape(localRename, 'local-rename', 3);
    console.log(drawReport('local-rename', d));
    expectShapeGate(d, 20, EXACT_FLOOR);
  });
});
