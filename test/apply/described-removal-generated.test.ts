// Generated removals asked for by description (described-removal-shapes.ts) over the real source
// files the other generated edits use, several draws per file: every merge keeps every original line
// the expected file keeps, and is byte-exact at the measured rate (docs/apply.md, branch editn).
import { describe, expect, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { describedRemoval } from './described-removal-shapes.js';
import { drawShape } from './shape-draws.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.7;

describe('generated removals asked for by description', () => {
  it('keep every original line the expected file keeps and are byte-exact at the measured rate', () => {
    const d = drawShape(describedRemoval, 'described-removal', 6);
    console.log(`described removals: ${d.exact}/${d.edits} exact, ${d.lossy.length} lossy`);
    expect(d.edits).toBeGreaterThan(30);
    expect(d.lossy.slice(0, 10)).toEqual([]);
    expect(d.exact / d.edits).toBeGreaterThanOrEqual(EXACT_FLOOR);
  });
});
