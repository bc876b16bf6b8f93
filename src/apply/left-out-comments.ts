// Comments a snippet leaves out are not deleted. Writers of an update quote the code they edit and
// drop the doc comment above a head they show, or the notes between a class's head and its first
// member; a run of original lines that are all comments, missing where the output has no line of its
// own, is therefore not licensed by rule (b) (between anchors shown adjacent). No committed expected
// output deletes such a run by adjacency alone: deleted comments go with the code they describe, or
// the instruction names them ("drop the commented-out block"), which still licenses them (c).
import { commentLine } from './licence-rules.js';
import type { Lines } from './lines.js';

/** Original rows `missing` are all comment lines, the output shows nothing in their place, and the instruction says nothing of comments. */
export function commentsLeftOut(orig: Lines, missing: readonly number[], out: Lines, kp: number, kq: number, instruction: string | null): boolean {
  if (missing.length === 0 || (instruction !== null && /\bcomment/i.test(instruction))) return false;
  for (let k = kp + 1; k < kq; k++) if (!out.blank[k]) return false;
  return missing.every((j) => commentText(orig.norm[j]!));
}

/** A comment line; a `*` opens a block comment's inner line only before a space or `/` (`*counts.entry(…)` is a dereference). */
function commentText(norm: string): boolean {
  return commentLine(norm) && !/^\*[^\s/]/.test(norm);
}
