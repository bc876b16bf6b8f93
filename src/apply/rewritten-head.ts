// A block head that the output no longer holds, read against the update line that would be its edit.
// An edit of a definition keeps its name (a new signature over a new body) or keeps its body (a
// rename in place). A head of another name over a body most of which is gone is a new sibling that
// copied the definition's shape (`.row {` beside `.row--compact {`, a second route after the
// first): it is not the original's edit, so the original block must not be licensed away as replaced.
import { closesAt } from './brackets.js';
import { indentBlockEnd, type Lines } from './lines.js';
import { headName } from './line-identity.js';

/** End (exclusive) of the body of the block original line j heads: its closer's row, or the dedent. */
function bodyEnd(orig: Lines, j: number): number {
  const close = closesAt(orig.text, j);
  return close > j ? close : indentBlockEnd(orig, j);
}

/**
 * When original line j heads a block with a solid body line, less than half of them kept (`kept`),
 * and the update line `norm` names something else than j does: the end (exclusive) of j's body,
 * whose lines the new sibling's lines do not replace either. -1 otherwise.
 */
export function otherHeadOverRewrittenBody(orig: Lines, j: number, norm: string, kept: (row: number) => boolean): number {
  const end = bodyEnd(orig, j);
  let solid = 0;
  let stayed = 0;
  for (let y = j + 1; y < end; y++) {
    if (orig.blank[y] || orig.weak[y]) continue;
    solid++;
    if (kept(y)) stayed++;
  }
  // A rename keeps most of the body; a line or two the sibling copied verbatim do not make it one.
  return solid > 0 && stayed * 2 < solid && headName(orig.norm[j]!) !== headName(norm) ? end : -1;
}

