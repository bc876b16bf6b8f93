// A marker-less update of a line or two that shares no line with the original but reads as an
// edit of one of its lines (`WHERE status <> 'x'` → `WHERE status NOT IN ('x', 'y')`) is a fix
// to that line, not a one-line rewrite of a 40-line file: models send such bug fixes bare.
import { editedVersion, sameStatementEdited } from './lines.js';

/** The update is at most this share of the original's non-blank lines. */
const MAX_SHARE = 0.2;
/** Originals shorter than this may really be rewritten by a short update. */
const MIN_ORIGINAL_LINES = 10;

/** `nb`, `un`: the original's and the update's non-blank normalised lines. */
export function isEditedLineSnippet(nb: readonly string[], un: readonly string[]): boolean {
  if (nb.length < MIN_ORIGINAL_LINES || un.length === 0 || un.length > MAX_SHARE * nb.length) return false;
  return un.some((u) => nb.some((o) => editedVersion(o, u) || sameStatementEdited(o, u)));
}
