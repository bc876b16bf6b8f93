// The file's last lines edited, with new lines around them, and no marker after: `main(sys.argv)`
// becomes `if __name__ == "__main__":` / `sys.exit(main(sys.argv))`, `module.exports = { a };` becomes
// `module.exports = { a, b };` followed by a new export line. The segment does not end with the original's last
// lines, so edge-markers.ts would imply a marker after it and keep the old lines below the new ones;
// yet every original line after the segment's last sure anchor is shown, unchanged or edited, in order: the
// segment shows the file's end as surely as one that copies those lines unchanged.
import { editsEdgeLine } from './edge-line-edit.js';
import { strongLines, type MergeContext, type Segment } from './merge-context.js';

/** Original lines after the anchor that may be shown edited; more is a rewrite, not an edit of the end. */
const MAX_EDITED_TAIL = 3;

/**
 * The segment's last strong line that the original has once is row j, the original's content lines
 * after j are at most MAX_EDITED_TAIL, and each of them is shown after that line, in order, unchanged
 * or edited (edge-line-edit.ts), at least one edited, with only new lines and closers between.
 */
export function editsFileTail(ctx: MergeContext, seg: Segment): boolean {
  const s = seg.lines;
  const o = ctx.orig;
  let anchor = -1;
  let row = -1;
  for (const i of strongLines(seg)) {
    const pos = ctx.index.get(s.norm[i]!);
    if (pos && pos.length === 1) [anchor, row] = [i, pos[0]!];
  }
  if (anchor < 0) return false;
  const tail: number[] = [];
  for (let j = row + 1; j < o.text.length; j++) if (!o.blank[j]) tail.push(j);
  if (tail.length === 0 || tail.length > MAX_EDITED_TAIL) return false;
  let t = 0;
  let edited = false;
  for (let i = anchor + 1; i < s.text.length && t < tail.length; i++) {
    if (s.blank[i]) continue;
    // A solid line the original has is no new line: the segment would go on past an original line
    // unshown. Closers (`end`, `}`) close the new lines' own blocks.
    if (!s.weak[i] && ctx.index.has(s.norm[i]!)) return false;
    const tailRow = o.norm[tail[t]!]!;
    if (tailRow === s.norm[i]) t++;
    else if (editsEdgeLine(tailRow, s.norm[i]!)) {
      t++;
      edited = true;
    }
  }
  return edited && t === tail.length;
}
