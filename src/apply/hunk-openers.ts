// Which lines of an update open a hunk: its first solid line, the first after each marker, and the
// first after a line a reader took out or wrote over (a comment saying where the code goes). The
// readers of such comments (location-comments.ts, prose-locators.ts) walk the update with this one
// cursor, so they agree on where a hunk opens.
import type { Lines } from './lines.js';

export interface HunkPlace {
  /** The row opens a hunk. */
  opens: boolean;
  /** The row is the update's first solid one (no marker above it). */
  first: boolean;
}

export interface HunkCursor {
  /** Row i's place, rows visited in order; null for a blank row or a marker (a marker opens the next hunk). */
  at(i: number): HunkPlace | null;
  /** The next solid row opens a hunk: the reader took out or wrote the lines before it. */
  reopen(): void;
}

/** A cursor over update `u`, `marker` its marker rows (markers.ts markerLines). */
export function hunkCursor(u: Lines, marker: readonly boolean[]): HunkCursor {
  let opens = true;
  let first = true;
  return {
    at(i) {
      if (u.blank[i]) return null;
      if (marker[i]) {
        opens = true;
        first = false;
        return null;
      }
      const place = { opens, first };
      opens = first = false;
      return place;
    },
    reopen() {
      opens = true;
    },
  };
}
