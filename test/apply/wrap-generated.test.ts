// Generated wrap edits (wrap-shapes.ts) over the real source files the other generated edits use,
// several draws per file: every merge keeps every original line the expected file keeps, and the
// merges are byte-exact at the measured rate (docs/apply.md, branches shapep and shapev).
import { describe, expect, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { wrapHoistedDeclaration, wrapInnerBlock, wrapToBlockEnd } from './wrap-shapes.js';
import { drawShape } from './shape-draws.js';
import type { ShapeInput } from './edit-shapes.js';

await ensureAllGrammars();

/** Byte-exact floor (measured, rounded down). */
const EXACT_FLOOR = 0.9;

function checkDraws(shape: Parameters<typeof drawShape>[0], key: string, draws: number): void {
  const d = drawShape(shape, key, draws);
  console.log(`${key}: ${d.exact}/${d.edits} exact, ${d.lossy.length} lossy ${d.lossy.slice(0, 5).join(' ;; ')}; misses: ${d.misses.slice(0, 12).join(', ')}`);
  expect(d.edits).toBeGreaterThan(100);
  expect(d.lossy.slice(0, 10)).toEqual([]);
  expect(d.exact / d.edits).toBeGreaterThanOrEqual(EXACT_FLOOR);
}

const SHAPES: Array<[string, (x: ShapeInput) => ReturnType<typeof wrapToBlockEnd>, number]> = [
  ['wrap-to-block-end', wrapToBlockEnd, 3],
  ['wrap-inner-block', wrapInnerBlock, 2],
  ['wrap-hoisted-declaration', wrapHoistedDeclaration, 2],
];

describe('generated wrap edits', () => {
  for (const [key, shape, draws] of SHAPES) {
    it(`${key}: keep every original line and are mostly byte-exact`, () => checkDraws(shape, key, draws));
  }
});
