// Generated rename-and-callers edits (rename-shapes.ts) over the real source files the other generated
// edits use, several draws per file: every merge keeps every original line the expected file keeps,
// and the merges are byte-exact at the measured rate (docs/apply.md, branch editn).
import { describe, expect, it } from 'vitest';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { lostLines } from '../../bench/apply/lost-lines.js';
import { findBlocks, rng } from './edit-gen.js';
import { renameAndCallers } from './rename-shapes.js';
import { hash, npmSources, sampleSources } from './sources.js';

await ensureAllGrammars();

/** Another draw of the same files: APPLY_GENERATED_SEED=<any text>. */
const SEED = process.env.APPLY_GENERATED_SEED ?? '';
/** Draws per source file. */
const DRAWS = 3;
/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.8;

describe('generated rename-and-callers edits', () => {
  it('keep every original line and are mostly byte-exact', () => {
    const sources = [...npmSources(160), ...sampleSources()];
    let edits = 0, exact = 0;
    const lossy: string[] = [];
    const misses: string[] = [];
    for (const src of sources) {
      const blocks = findBlocks(src.lines, src.lang);
      for (let n = 0; n < DRAWS; n++) {
        const e = renameAndCallers({ lines: src.lines, lang: src.lang, blocks, r: rng(hash(`${SEED}${src.name}:rename#${n}`)) });
        if (!e) continue;
        edits++;
        const code = src.lines.join('\n') + '\n';
        const out = mergeApply({ code, update: e.update, instruction: e.instruction }, 'fast').content;
        if (out === e.expected) exact++;
        else misses.push(`${src.name} #${n}`);
        const lost = out === e.expected ? [] : lostLines(code, e.expected, out);
        if (lost.length > 0) lossy.push(`${src.name} #${n}: ${lost.slice(0, 2).join(' | ')}`);
      }
    }
    console.log(`rename-and-callers: ${exact}/${edits} exact, ${lossy.length} lossy; misses: ${misses.slice(0, 12).join(', ')}`);
    expect(edits).toBeGreaterThan(100);
    expect(lossy.slice(0, 10)).toEqual([]);
    expect(exact / edits).toBeGreaterThanOrEqual(EXACT_FLOOR);
  });
});
