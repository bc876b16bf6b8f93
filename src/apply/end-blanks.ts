// Blank lines a segment placed by position ends with, before a marker: where the original goes on
// without a blank line (its end, or the class's `}` a new method went in before), they are layout
// around the marker, not new lines (a hunk written first but placed last, a new method after a
// marker inside its class). The anchored placement drops them already (merge-finish.ts,
// marker-blanks.ts); this is the same for a segment placed by position.
import type { Lines } from './lines.js';

/** Rows of the segment's trailing blank lines to leave out, or null when they stay. */
export function trailingLayoutBlanks(s: Lines, markerAfter: boolean, end: number, o: Lines): Set<number> | null {
  const N = o.text.length;
  if (!markerAfter || N === 0 || (end >= N ? o.blank[N - 1] : o.blank[end])) return null;
  const rows = trailingBlankRows(s);
  return rows.size > 0 && rows.size < s.text.length ? rows : null;
}

/** The segment's trailing blank rows. */
export function trailingBlankRows(s: Lines): Set<number> {
  const rows = new Set<number>();
  for (let i = s.text.length - 1; i >= 0 && s.blank[i]; i--) rows.add(i);
  return rows;
}
