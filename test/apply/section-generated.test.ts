// Generated edits of a key under one of several flat sections that hold it (section-shapes.ts), over
// the INI and TOML files of the committed sets: no merge loses an original line the expected file
// keeps, and the merges are byte-exact at the measured rate (docs/apply.md, branch keysy).
import { describe, expect, it } from 'vitest';
import { mergeApply } from '../../src/apply/merge.js';
import { lostLines } from '../../bench/apply/lost-lines.js';
import { sectionKeyEdits } from './section-shapes.js';

/** Another draw: APPLY_GENERATED_SEED=<any text>. */
const SEED = process.env.APPLY_GENERATED_SEED ?? '';
/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.9;

describe('generated key-under-shown-section edits', () => {
  it('keep every original line and are mostly byte-exact', () => {
    const edits = sectionKeyEdits(3, SEED);
    let exact = 0;
    const lossy: string[] = [];
    const misses: string[] = [];
    for (const e of edits) {
      const out = mergeApply({ code: e.code, update: e.update, instruction: null }, 'fast').content;
      if (out === e.expected) exact++;
      else {
        misses.push(e.name);
        if (lostLines(e.code, e.expected, out).length > 0) lossy.push(e.name);
      }
    }
    console.log(`key-under-shown-section: ${exact}/${edits.length} exact, ${lossy.length} lossy ${lossy.slice(0, 5).join(' ;; ')}; misses: ${misses.slice(0, 12).join(', ')}`);
    expect(edits.length).toBeGreaterThan(20);
    expect(lossy).toEqual([]);
    expect(exact / edits.length).toBeGreaterThanOrEqual(EXACT_FLOOR);
  });
});
