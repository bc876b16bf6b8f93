// Generated rename-and-callers edits (rename-shapes.ts) over the real source files the other generated
// edits use, several draws per file: every merge keeps every original line the expected file keeps,
// and the merges are byte-exact at the measured rate (docs/apply.md, branch editn).
import { describe, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { renameAndCallers } from './rename-shapes.js';
import { drawShape, drawReport, expectShapeGate } from './shape-draws.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.9;

describe('generated rename-and-callers edits', () => {
  it('keep every original line and are mostly byte-exact', () => {
    const d = drawShape(renameAndCallers, 'rename', 3);
    console.log(drawReport('rename-and-callers', d));
    expectShapeGate(d, 100, EXACT_FLOOR);
  });
});
