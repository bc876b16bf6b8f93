// Limits on rule (b) (loss.ts shownAdjacent) where a repeated or short anchor (`<td>`, `</TableCell>`)
// is as often the new code's own opener or closer as the original's: the update must not contradict
// the reading.
// - `indentOpener`: a closer without brackets (`</td>`, `end`) closes the block its indentation opens;
//   the original's and the update's closer must close blocks with the same head (`sameCloser` in
//   loss.ts does this for brackets);
// - `orderAllows`: the lines the segment shows beyond the anchors that the original has once stand
//   beyond them in the original too (a `<td>` taken three cells on while the segment shows the second
//   cell after it is not that `<td>`).
import { bracketDelta } from './brackets.js';
import { indentColumns } from './lines.js';

/**
 * The line in (lo, hi) that opens, by indentation, the block line hi closes, or -1: hi is a line
 * without brackets right after deeper lines, and the opener is the nearest line above at its depth.
 */
export function indentOpener(text: readonly string[], lo: number, hi: number): number {
  const closer = text[hi]!;
  if (bracketDelta(closer) !== 0) return -1;
  const depth = indentColumns(closer);
  let deeper = false;
  for (let j = hi - 1; j > lo; j--) {
    if (text[j]!.trim() === '') continue;
    const d = indentColumns(text[j]!);
    if (d > depth) {
      deeper = true;
      continue;
    }
    return d === depth && deeper ? j : -1;
  }
  return -1;
}

/**
 * The segment rows beyond row `from` in direction dir (after it: 1, before it: -1) that the original
 * has once all stand beyond original row `at` in that direction. Before the first anchor, rows deeper
 * than it are left alone: they are the block it closes, where a new wrapper (a retry loop) holds lines
 * moved from after it (sets ah ts45, ao go01). `uniqueRow` gives a line's only row.
 */
export function orderAllows(seg: { norm: readonly string[]; blank: readonly boolean[]; indent: readonly number[] }, from: number, at: number, dir: 1 | -1, uniqueRow: (norm: string) => number | undefined): boolean {
  for (let x = from + dir; x >= 0 && x < seg.norm.length; x += dir) {
    if (seg.blank[x] || (dir < 0 && seg.indent[x]! > seg.indent[from]!)) continue;
    const r = uniqueRow(seg.norm[x]!);
    if (r !== undefined && (r - at) * dir < 0) return false;
  }
  return true;
}
