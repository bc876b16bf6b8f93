// An anchor the update shows under a block head of its own. A new check written like an existing
// one (`if (CheckOut.DayNumber …) { yield return new ValidationResult(…); }` beside `if (CheckOut <=
// CheckIn) { … }`) repeats the old body's lines; read as the old lines, they license the old block
// between them as removed. When the original's head over the line is still in the output, the old
// block was not rewritten: the update's line is a copy in new code, not the original one.
import { bracketDelta, openedAt, startsWithCloser } from './brackets.js';
import { solidRow, type Lines } from './lines.js';

/** The head of the brace block row x sits in (or, for a closer, closes); an Allman `{` gives the row above it. -1: none. */
function blockHead(l: Lines, x: number): number {
  let o = -1;
  if (startsWithCloser(l.norm[x]!) && bracketDelta(l.text[x]!) < 0) o = openedAt(l.text, x, 0);
  else {
    let depth = 0;
    for (let j = x - 1; j >= 0; j--) {
      depth += bracketDelta(l.text[j]!);
      if (depth > 0) {
        o = j;
        break;
      }
    }
  }
  return o >= 0 && l.norm[o] === '{' ? solidRow(l, o, -1) : o;
}

/**
 * Update row i (showing original row j's text) sits under a head the original does not have, while
 * the head over j is a line the original has once and the output keeps (`keptRow`).
 */
export function copiedUnderNewHead(u: Lines, i: number, orig: Lines, j: number, isOriginal: (norm: string) => boolean, once: (norm: string) => boolean, keptRow: (row: number) => boolean): boolean {
  const hu = blockHead(u, i);
  const ho = blockHead(orig, j);
  if (hu < 0 || ho < 0) return false;
  return !isOriginal(u.norm[hu]!) && once(orig.norm[ho]!) && keptRow(ho);
}
