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
 * The segment's trailing blank lines give way to the original's blank line there. Otherwise, a segment
 * shallower than the marker before it resumes after the block that marker stands for (restOfBlock).
 * Null when neither holds.
 */
export function siblingAfterShownBlock(o: Lines, prev: Segment, prevSpan: Span, seg: Segment, lo: number, hi: number): Span | null {
  const p = prev.lines;
  const s = seg.lines;
  let first = 0;
  while (first < s.text.length && s.blank[first]) first++;
  if (first >= s.text.length || prev.markerAfterIndent === null || CLOSER_LINE.test(s.norm[first]!)) return null;
  let last = p.text.length - 1;
  while (last >= 0 && p.blank[last]) last--;
  const pair = prevSpan.pairs.find(([i]) => i === last);
  if (!pair || prev.markerAfterIndent <= p.indent[last]! || s.indent[first] !== p.indent[last]) {
    return s.indent[first]! < prev.markerAfterIndent ? restOfBlock(o, s, first, prevSpan, lo, hi) : null;
  }
  const at = afterBlock(o, pair[1]);
  if (at < 0 || at < lo || at > hi) return null;
  const drop = new Set<number>();
  if (at < o.text.length && o.blank[at]) for (let i = s.text.length - 1; i > first && s.blank[i]; i--) drop.add(i);
  return { start: at, end: at, pairs: [], delta: 0, drop };
}

/**
 * `# ... rest of loop unchanged ...` after a wrapped loop body, then the function's `return result`
 * (set bq py02): segment line `first`, shallower than the marker before it, at the level of a header
 * enclosing the previous segment's last paired line, resumes after that header's block. Its lines are
 * weak, so the original must have that very line there (the only evidence of the place); the run of
 * lines equal to the original's from there is paired. Null otherwise.
 */
function restOfBlock(o: Lines, s: Lines, first: number, prevSpan: Span, lo: number, hi: number): Span | null {
  const shown = prevSpan.pairs.filter(([, j]) => !o.blank[j]);
  if (shown.length === 0) return null;
  const j0 = shown[shown.length - 1]![1];
  const level = s.indent[first]! + prevSpan.delta;
  if (level >= o.indent[j0]!) return null;
  let h = j0 - 1;
  while (h >= 0 && (o.blank[h] || o.indent[h]! > level)) h--;
  if (h < 0 || o.indent[h] !== level) return null;
  const at = afterBlock(o, h);
  if (at < 0 || at < lo || at >= hi || o.norm[at] !== s.norm[first]) return null;
  const pairs: Array<[number, number]> = [];
  for (let i = first, j = at; i < s.text.length && j < hi && s.norm[i] === o.norm[j] && s.blank[i] === o.blank[j]; i++, j++) pairs.push([i, j]);
  return { start: at, end: at + pairs.length, pairs, delta: 0 };
}
