// Generated removals asked for by description (described-removal-shapes.ts) over the real source
// files the other generated edits use, several draws per file: every merge keeps every original line
// the expected file keeps, and is byte-exact at the measured rate (docs/apply.md, branch editn).
import { describe, expect, it } from 'vitest';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { lostLines } from '../../bench/apply/lost-lines.js';
import { findBlocks, rng } from './edit-gen.js';
import { describedRemoval } from './described-removal-shapes.js';
import { hash, npmSources, sampleSources } from './sources.js';

await ensureAllGrammars();

/** Another draw of the same files: APPLY_GENERATED_SEED=<any text>. */
const SEED = process.env.APPLY_GENERATED_SEED ?? '';
const DRAWS = 6;
/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.7;

describe('generated removals asked for by description', () => {
  it('keep every original line the expected file keeps and are byte-exact at the measured rate', () => {
    let edits = 0, exact = 0;
    const lossy: string[] = [];
    for (const src of [...npmSources(160), ...sampleSources()]) {
      const blocks = findBlocks(src.lines, src.lang);
      for (let n = 0; n < DRAWS; n++) {
        const e = describedRemoval({ lines: src.lines, lang: src.lang, blocks, r: rng(hash(`${SEED}${src.name}:described-removal#${n}`)) });
        if (!e) continue;
        edits++;
        const code = src.lines.join('\n') + '\n';
        const out = mergeApply({ code, update: e.update, instruction: e.instruction }, 'fast').content;
        if (out === e.expected) exact++;
        const lost = out === e.expected ? [] : lostLines(code, e.expected, out);
        if (lost.length > 0) lossy.push(`${src.name} #${n}: ${lost.slice(0, 2).join(' | ')}`);
      }
    }
    console.log(`described removals: ${exact}/${edits} exact, ${lossy.length} lossy`);
    expect(edits).toBeGreaterThan(30);
    expect(lossy.slice(0, 10)).toEqual([]);
    expect(exact / edits).toBeGreaterThanOrEqual(EXACT_FLOOR);
  });
});
