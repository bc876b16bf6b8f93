// Generated removals asked for by description (described-removal-shapes.ts) over the real source
// files the other generated edits use, several draws per file: every merge keeps every original line
// the expected file keeps, and is byte-exact at the measured rate (docs/apply.md, branch editn).
import { describe, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { describedRemoval } from './described-removal-shapes.js';
import { drawShape, drawReport, expectShapeGate } from './shape-draws.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.7;

describe('generated removals asked for by description', () => {
  it('keep every original line the expected file keeps and are byte-exact at the measured rate', () => {
    const d = drawShape(describedRemoval, 'described-removal', 6);
    console.log(drawReport('described removals', d));
    expectShapeGate(d, 30, EXACT_FLOOR);
  });
});
