// A hunk made of edited lines only (`export const WEEK_STARTS_ON = 1;` for the original's `= 0;`,
// written after a marker below hunks that come later in the file): none of its lines is in the
// original, so it has no exact anchor, yet each line names the one original line it edits. It goes
// where those lines are, not after the hunk the update wrote before it.
import { dice, editedVersion, firstToken } from './lines.js';
import type { MergeContext, Segment } from './merge-context.js';
import { underOtherHead } from './foreign-head.js';
import { sameSectionKey } from './flat-sections.js';

/** Lines of such a hunk looked at; a longer run of edits is not a hunk of edits only. */
const MAX_EDITED_HUNK = 6;

/** How much closer (bigram similarity) the edited line must be to its original than to any other. */
const EDIT_MARGIN = 0.1;

/**
 * Another segment of the update shows original row j unchanged, or edited more closely than `norm`
 * edits it: the row is that segment's (a definition's head edited in one hunk is not the edit of its
 * prototype shown in another, `f(a, b) {` beside `f(a, b);`).
 */
function shownElsewhere(ctx: MergeContext, seg: Segment, j: number, score: number): boolean {
  const row = ctx.orig.norm[j]!;
  const lead = firstToken(row);
  for (const other of ctx.segments) {
    if (other === seg) continue;
    const l = other.lines;
    for (let i = 0; i < l.text.length; i++) {
      if (l.blank[i] || firstToken(l.norm[i]!) !== lead) continue;
      if (l.norm[i] === row || (editedVersion(row, l.norm[i]!) && dice(row, l.norm[i]!) > score)) return true;
    }
  }
  return false;
}

/**
 * The original row that `norm` reads as an edit of, or -1: the closest of the rows it reads as an
 * edit of, by a margin (`TIMEOUT_MS = 10000;` is `TIMEOUT_MS = 5000;` edited, not its neighbour
 * `MAX_RECIPIENTS = 50;` that shares its `private static final int`). Rows another segment shows
 * are not candidates (shownElsewhere).
 */
function onlyEditedRow(ctx: MergeContext, seg: Segment, i: number): number {
  const o = ctx.orig;
  const norm = seg.lines.norm[i]!;
  const lead = firstToken(norm);
  const rows: number[] = [];
  for (let j = 0; j < o.text.length; j++) if (!o.weak[j] && firstToken(o.norm[j]!) === lead && (editedVersion(o.norm[j]!, norm) || sameSectionKey(o, j, norm))) rows.push(j);
  // Rows under the head the update shows the line under (across a marker, foreign-head.ts), where it
  // has any: the `features =` of the shown `[dev-dependencies.tokio]`, not the one of another table.
  const headed = rows.filter((j) => !underOtherHead(ctx, seg, i, j));
  let best = -1;
  let bestScore = -1;
  let second = -1;
  for (const j of headed.length > 0 ? headed : rows) {
    const score = dice(o.norm[j]!, norm);
    if (shownElsewhere(ctx, seg, j, score)) continue;
    if (score > bestScore) {
      second = bestScore;
      bestScore = score;
      best = j;
    } else if (score > second) second = score;
  }
  return best >= 0 && (second < 0 || bestScore - second >= EDIT_MARGIN) ? best : -1;
}

/**
 * The original row of the first line a hunk of edited lines only edits: every non-blank line is
 * strong, absent from the original, and an edit of one original line (onlyEditedRow), those lines in order
 * and adjacent (blank lines aside). Null otherwise.
 */
export function editedHunkRow(ctx: MergeContext, seg: Segment): number | null {
  const s = seg.lines;
  const o = ctx.orig;
  const rows: number[] = [];
  for (let i = 0; i < s.text.length; i++) {
    if (s.blank[i]) continue;
    if (s.weak[i] || ctx.index.has(s.norm[i]!) || rows.length >= MAX_EDITED_HUNK) return null;
    const j = onlyEditedRow(ctx, seg, i);
    if (j < 0) return null;
    if (rows.length > 0) {
      let next = rows[rows.length - 1]! + 1;
      while (next < o.text.length && o.blank[next]) next++;
      if (j !== next) return null;
    }
    rows.push(j);
  }
  return rows.length > 0 ? rows[0]! : null;
}
