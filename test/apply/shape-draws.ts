// One generated shape drawn several times over every source file (sources.ts) and merged in fast
// mode: how many edits, how many byte-exact, which lose an original line the expected file keeps.
import { expect } from 'vitest';
import { mergeApply } from '../../src/apply/merge.js';
import { lostLines } from '../../bench/apply/lost-lines.js';
import { findBlocks, rng, type Edit } from './edit-gen.js';
import type { ShapeInput } from './edit-shapes.js';
import { hash, npmSources, sampleSources } from './sources.js';

/** Another draw of the same files: APPLY_GENERATED_SEED=<any text>. */
const SEED = process.env.APPLY_GENERATED_SEED ?? '';

export interface ShapeDraws {
  edits: number;
  exact: number;
  misses: string[];
  lossy: string[];
}

export function drawShape(shape: (x: ShapeInput) => Omit<Edit, 'shape'> | null, key: string, draws: number): ShapeDraws {
  const out: ShapeDraws = { edits: 0, exact: 0, misses: [], lossy: [] };
  for (const src of [...npmSources(160), ...sampleSources()]) {
    const blocks = findBlocks(src.lines, src.lang);
    for (let n = 0; n < draws; n++) {
      const e = shape({ lines: src.lines, lang: src.lang, blocks, r: rng(hash(`${SEED}${src.name}:${key}#${n}`)) });
      if (!e) continue;
      out.edits++;
      // A shape that built its own file (twins) edits that file.
      const code = e.original ?? src.lines.join('\n') + '\n';
      const merged = mergeApply({ code, update: e.update, instruction: e.instruction }, 'fast').content;
      if (merged === e.expected) {
        out.exact++;
        continue;
      }
      out.misses.push(`${src.name} #${n}`);
      const lost = lostLines(code, e.expected, merged);
      if (lost.length > 0) out.lossy.push(`${src.name} #${n}: ${lost.slice(0, 2).join(' | ')}`);
    }
  }
  return out;
}

/** The line a shape's test prints: counts, the first lossy edits and the first misses. */
export function drawReport(label: string, d: ShapeDraws): string {
  return `${label}: ${d.exact}/${d.edits} exact, ${d.lossy.length} lossy ${d.lossy.slice(0, 5).join(' ;; ')}; misses: ${d.misses.slice(0, 12).join(', ')}`;
}

/** The common gate of a shape's draws: more than `minEdits` edits, none lossy, byte-exact at least at `exactFloor`. */
export function expectShapeGate(d: ShapeDraws, minEdits: number, exactFloor: number): void {
  expect(d.edits).toBeGreaterThan(minEdits);
  expect(d.lossy.slice(0, 10)).toEqual([]);
  expect(d.exact / d.edits).toBeGreaterThanOrEqual(exactFloor);
}
