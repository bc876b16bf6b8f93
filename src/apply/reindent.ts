// A snippet written shallower than the code it edits (copied out of a function and pasted at column
// 0) whose outermost line is not among its anchors: `try {` at column 0 over a body whose anchored
// `req.user = {` sits 2 columns left of the original. When every anchor is shifted by the same
// amount and an outermost snippet line, moved by it, is an original line just above the anchors, that
// line is the segment's first anchor: the lines between are the edited body, and the segment's
// indentation is rebased by the shift (segmentDelta in merge-finish.ts).
import type { Lines } from './lines.js';

/** How many original lines above the first anchor the outermost line may be, per snippet line between them. */
const ABOVE_REACH = 2;

/** The [snippet, original] pair to anchor the segment's outermost line on, or null. */
export function shallowSnippetLead(s: Lines, o: Lines, chain: ReadonlyArray<readonly [number, number]>, lo: number): [number, number] | null {
  if (chain.length === 0) return null;
  const [fi, fj] = chain[0]!;
  const d = o.indent[fj]! - s.indent[fi]!;
  if (d <= 0) return null;
  for (const [i, j] of chain) if (o.indent[j]! - s.indent[i]! !== d) return null;
  let segMin = Infinity;
  for (let i = 0; i < s.text.length; i++) if (!s.blank[i]) segMin = Math.min(segMin, s.indent[i]!);
  if (chain.some(([i]) => s.indent[i] === segMin)) return null;
  // The nearest outermost line above the anchors; the lines between it and them are inside its block.
  let i = fi - 1;
  while (i >= 0 && (s.blank[i] || s.indent[i]! > segMin)) i--;
  if (i < 0 || s.weak[i] && !/[{:(]$/.test(s.norm[i]!)) return null;
  const reach = ABOVE_REACH * (fi - i) + 1;
  for (let j = fj - 1; j >= lo && j >= fj - reach; j--) {
    if (o.norm[j] !== s.norm[i] || o.indent[j] !== segMin + d) continue;
    // The original lines down to the anchor are inside that line's block too.
    for (let y = j + 1; y < fj; y++) if (!o.blank[y] && o.indent[y]! <= o.indent[j]!) return null;
    return [i, j];
  }
  return null;
}
