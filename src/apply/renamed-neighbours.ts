// A rename carried across the file in several hunks shows the new name on the hunks' context lines
// too: the renamed head's neighbour is the renamed call above it (`reload()` over `fun reload() {`,
// where the original has `refresh()` over `fun refresh() {`). Judging a line as renamed in place by
// its neighbours, a neighbour that is the original's with the same name changed the same way is the
// original's neighbour, when it lies in another block than the judged line: the end of the block
// above (deeper than the line) or past the line's block (shallower). Renamed lines at one depth, or
// a renamed head over its renamed body, are a sibling copied under a new name, not a rename.
import { strongRow, type Lines } from './lines.js';
import { renamedToken } from './new-name-evidence.js';

/**
 * The nearest solid update line from row i in direction dir stands for the original's nearest solid
 * line from row j: the same text, or (in another block, as above) that text with the one name that
 * row i renames in row j changed the same way. Both missing counts as the same; one missing does not.
 */
export function sameNeighbour(s: Lines, i: number, o: Lines, j: number, dir: 1 | -1): boolean {
  const y = strongRow(s, i, dir);
  const z = strongRow(o, j, dir);
  if (y < 0 || z < 0) return y < 0 && z < 0;
  if (s.norm[y] === o.norm[z]) return true;
  const outside = (l: Lines, a: number, b: number): boolean => (dir < 0 ? l.indent[b]! > l.indent[a]! : l.indent[b]! < l.indent[a]!);
  if (!outside(s, i, y) || !outside(o, j, z)) return false;
  const change = renamedToken(o.norm[j]!, s.norm[i]!);
  if (change === null) return false;
  const there = renamedToken(o.norm[z]!, s.norm[y]!);
  return there !== null && there.from === change.from && there.to === change.to;
}
