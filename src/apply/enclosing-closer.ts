// A segment that opens, after a marker, with a closer left of every line the previous segment shows
// (`  &--warning { … }` / `  /* ... */` / `}`): it closes a block opened above the snippet, whose head
// no segment shows, so closer-resume.ts (which needs that opener) finds nothing. The marker stands for
// the rest of that block, so the closer is the original's first line after the previous segment's
// last anchor that is back at the closer's level — matched by structure, not by the first equal
// trimmed line (a nested rule's `  }`), which would drop that inner closer and keep the block's own.
import { CLOSER_LINE, type Lines } from './lines.js';
import type { Segment } from './merge-context.js';

/**
 * [segment line, original line] for the segment's first line when it is such a closer; null otherwise.
 * Only where the update keeps the original's indentation at every anchor of the previous segment, so
 * that columns in the update mean the original's columns.
 */
export function enclosingCloser(o: Lines, prev: Segment, prevPairs: ReadonlyArray<readonly [number, number]>, seg: Segment): [number, number] | null {
  if (!seg.markerBefore || prev.markerAfterIndent === null || prevPairs.length === 0) return null;
  const s = seg.lines;
  let f = 0;
  while (f < s.text.length && s.blank[f]) f++;
  if (f >= s.text.length || !CLOSER_LINE.test(s.norm[f]!)) return null;
  const level = s.indent[f]!;
  if (prev.markerAfterIndent <= level) return null;
  const p = prev.lines;
  for (let x = 0; x < p.text.length; x++) if (!p.blank[x] && p.indent[x]! <= level) return null;
  let last = -1;
  for (const [i, j] of prevPairs) {
    if (p.indent[i] !== o.indent[j]) return null;
    last = Math.max(last, j);
  }
  for (let y = last + 1; y < o.text.length; y++) {
    if (o.blank[y] || o.indent[y]! > level) continue;
    return o.indent[y] === level && o.norm[y] === s.norm[f] ? [f, y] : null;
  }
  return null;
}
