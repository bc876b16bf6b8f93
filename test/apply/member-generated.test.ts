// Generated edits of a new member appended under a shown container head (member-shapes.ts) over the
// real source files the other generated edits use, several draws per file: every merge keeps every
// original line the expected file keeps, and the merges are byte-exact at the measured rate
// (docs/apply.md, branch classx).
import { describe, expect, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { newMemberAtShownHead } from './member-shapes.js';
import { drawShape, drawReport } from './shape-draws.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.9;
/** Lossy ceiling: a class whose Allman head the update shows without its `{` and whose closer ends
 *  the file is not reached (docs/apply.md, branch classx: Users.php, set m cs02 and php01). */
const LOSSY_CEILING = 0.06;

describe('generated new-member-at-shown-head edits', () => {
  it('keep every original line and are mostly byte-exact', () => {
    const d = drawShape(newMemberAtShownHead, 'new-member-at-shown-head', 3);
    console.log(drawReport('new-member-at-shown-head', d));
    expect(d.edits).toBeGreaterThan(50);
    expect(d.lossy.length / d.edits).toBeLessThanOrEqual(LOSSY_CEILING);
    expect(d.exact / d.edits).toBeGreaterThanOrEqual(EXACT_FLOOR);
  });
});
