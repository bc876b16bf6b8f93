// `def ship(…) =` (a header the previous segment ends on), a marker indented deeper (its body), then
// a segment of new lines at the header's own level (`def deliver(…) =` …) that anchors nowhere:
// the marker stands for the header's block, so the new sibling goes right after that block, not at
// the end of the free window (set l scala01).
import { CLOSER_LINE, type Lines } from './lines.js';
import type { Segment } from './merge-context.js';
import type { Span } from './merge-finish.js';

/**
 * The insertion line after the block headed by original line h: past its deeper lines and its own
 * closing line at h's level, when it has one. -1 when h heads no block.
 */
function afterBlock(o: Lines, h: number): number {
  let end = h + 1;
  for (let y = h + 1; y < o.text.length && (o.blank[y] || o.indent[y]! > o.indent[h]!); y++) if (!o.blank[y]) end = y + 1;
  if (end === h + 1) return -1;
  if (end < o.text.length && o.indent[end] === o.indent[h] && CLOSER_LINE.test(o.norm[end]!)) end++;
  return end;
}

/**
 * The span for an unanchored segment that starts at the level of the header the previous segment
 * ends on (matched, a deeper marker after it): inserted after that header's block, within [lo, hi].
 * The segment's trailing blank lines give way to the original's blank line there. Null otherwise.
 */
export function siblingAfterShownBlock(o: Lines, prev: Segment, prevSpan: Span, seg: Segment, lo: number, hi: number): Span | null {
  const p = prev.lines;
  let last = p.text.length - 1;
  while (last >= 0 && p.blank[last]) last--;
  const pair = prevSpan.pairs.find(([i]) => i === last);
  if (!pair || prev.markerAfterIndent === null || prev.markerAfterIndent <= p.indent[last]!) return null;
  const s = seg.lines;
  let first = 0;
  while (first < s.text.length && s.blank[first]) first++;
  if (first >= s.text.length || s.indent[first] !== p.indent[last] || CLOSER_LINE.test(s.norm[first]!)) return null;
  const at = afterBlock(o, pair[1]);
  if (at < 0 || at < lo || at > hi) return null;
  const drop = new Set<number>();
  if (at < o.text.length && o.blank[at]) for (let i = s.text.length - 1; i > first && s.blank[i]; i--) drop.add(i);
  return { start: at, end: at, pairs: [], delta: 0, drop };
}
