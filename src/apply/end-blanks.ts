// Blank lines a segment ends with before a marker that keeps nothing: the segment went in at the
// file's end (a hunk written first but placed last, or one with no anchor that follows it there),
// and the original ends without a blank line, so they are layout around the marker, not new lines.
// The anchored placement drops them already (merge-finish.ts); this is the same for a segment
// placed by position.
import type { Lines } from './lines.js';

/** Rows of the segment's trailing blank lines to leave out, or null when they stay. */
export function blanksAtFileEnd(s: Lines, markerAfter: boolean, end: number, o: Lines): Set<number> | null {
  const N = o.text.length;
  if (!markerAfter || end < N || N === 0 || o.blank[N - 1]) return null;
  const rows = new Set<number>();
  for (let i = s.text.length - 1; i >= 0 && s.blank[i]; i--) rows.add(i);
  return rows.size > 0 && rows.size < s.text.length ? rows : null;
}
