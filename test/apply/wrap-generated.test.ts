// Generated wrap-to-block-end edits (wrap-shapes.ts) over the real source files the other generated
// edits use, several draws per file: every merge keeps every original line the expected file keeps,
// and the merges are byte-exact at the measured rate (docs/apply.md, branch shapep).
import { describe, expect, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { wrapInnerBlock, wrapToBlockEnd } from './wrap-shapes.js';
import { drawShape } from './shape-draws.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.9;

describe('generated wrap-to-block-end edits', () => {
  it('keep every original line and are mostly byte-exact', () => {
    const d = drawShape(wrapToBlockEnd, 'wrap-to-block-end', 3);
    console.log(`wrap-to-block-end: ${d.exact}/${d.edits} exact, ${d.lossy.length} lossy ${d.lossy.slice(0, 5).join(" ;; ")}; misses: ${d.misses.slice(0, 12).join(', ')}`);
    expect(d.edits).toBeGreaterThan(100);
    expect(d.lossy.slice(0, 10)).toEqual([]);
    expect(d.exact / d.edits).toBeGreaterThanOrEqual(EXACT_FLOOR);
  });

  it('wrap-inner-block: keep every original line and are mostly byte-exact', () => {
    const d = drawShape(wrapInnerBlock, 'wrap-inner-block', 2);
    console.log(`wrap-inner-block: ${d.exact}/${d.edits} exact, ${d.lossy.length} lossy ${d.lossy.slice(0, 5).join(" ;; ")}; misses: ${d.misses.slice(0, 12).join(', ')}`);
    expect(d.edits).toBeGreaterThan(100);
    expect(d.lossy.slice(0, 10)).toEqual([]);
    expect(d.exact / d.edits).toBeGreaterThanOrEqual(EXACT_FLOOR);
  });
});
