// New lines, then an edited line, at a segment's edge: `# syntax=…` (anchor), `ARG NODE_VERSION=20`
// (new), `FROM node:${NODE_VERSION} AS deps` (the next original line, edited), then a marker. Growing
// from the anchor, the new line does not match the original's next line and the growth stopped, so
// the edited line was taken as new as well and the original line kept beside it. The segment's
// outermost line, read as an edit of the original line the growth stands at, is that line: the lines
// between are inserted before it. Only the outermost line qualifies (nothing of the segment follows
// it but blank lines), so new code in the middle of a segment is never paired past.
import type { Lines } from './lines.js';

/** Tests whether segment line i reads as an edit of original line j (merge-finish's edge test). */
export type EdgeMatch = (i: number, j: number) => boolean;

/**
 * Pairs for the segment's outermost content line taken as the edit of original line j (with, when j
 * is blank, the blank segment line just inside the edited one paired to it), or null. `dir` is the
 * growth direction, `i` the first segment line the growth could not pair, `inOrig` bounds j.
 */
export function editedBeyondInsert(s: Lines, o: Lines, i: number, j: number, dir: 1 | -1, inOrig: (y: number) => boolean, match: EdgeMatch): Array<[number, number]> | null {
  let x = dir > 0 ? s.text.length - 1 : 0;
  while (x !== i && s.blank[x]) x -= dir;
  if ((x - i) * dir <= 0 || s.blank[x] || s.weak[x]) return null;
  const pairs: Array<[number, number]> = [];
  let y = j;
  if (o.blank[y]) {
    // The original's blank before the edited line pairs with the segment's blank before it.
    if (!s.blank[x - dir] || (x - dir - i) * dir < 0) return null;
    pairs.push([x - dir, y]);
    y += dir;
    if (!inOrig(y) || o.blank[y]) return null;
  }
  if (!match(x, y)) return null;
  pairs.push([x, y]);
  return dir > 0 ? pairs : pairs.reverse();
}
