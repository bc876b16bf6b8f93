// An update line shown under heads the original has (`<ItemGroup Condition="… 'net8.0'">`; `"post": {`,
// a marker, `"responses": {`) is judged as an edit of original line j against j's siblings under those
// heads only. The equal-shaped lines of parallel blocks under other heads (`Options 6.0.0` of the
// net6.0 group, the `"401"` response of another operation) read as much like it as j does, and let
// rule (a) take the line for a new sibling; but the update has said which block it edits.
import { originalIndex } from './merge-context.js';
import type { Segment } from './merge-context.js';
import { underOtherHeadAcross } from './foreign-head.js';
import { distinctEdit } from './licence-rules.js';
import type { Lines } from './lines.js';

/**
 * Update line i of segment k (text `norm`) is j's edit among the siblings the update's heads leave:
 * j itself is under those heads, and no sibling under them reads as much like the line.
 */
export function distinctUnderShownHeads(segments: readonly Segment[], k: number, i: number, orig: Lines, j: number, norm: string): boolean {
  const index = originalIndex(orig);
  if (underOtherHeadAcross(orig, index, segments, k, i, j)) return false;
  return distinctEdit(orig, j, norm, (y) => !underOtherHeadAcross(orig, index, segments, k, i, y));
}
