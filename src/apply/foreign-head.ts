// A line the update shows inside a block whose head the original has (`enabled = true` under
// `versioning {` under `resource "aws_s3_bucket" "uploads" {`) does not stand at an original occurrence
// under other heads (the `versioning {` of the "assets" bucket): the update says which block it is in,
// and that block is in the file. Matching it there anyway pulled the hunk into the other block and read
// everything between as deleted (set p graphql02). merge-context.ts `sameBlockHeader` compares the
// nearest head for lines the original has several times; this walks the heads outwards for every line,
// as far as the update shows heads that are original lines (a new `if` wrapping old lines says nothing).
import { headerOf, type MergeContext, type Segment } from './merge-context.js';

/** Heads compared outwards from a line: deeper nesting than this is not worth walking. */
const MAX_DEPTH = 12;

/** Some head the update shows segment line i under (an original line) is not original line j's head at that depth. */
export function underOtherHead(ctx: MergeContext, seg: Segment, i: number, j: number): boolean {
  const s = seg.lines;
  const o = ctx.orig;
  let a = headerOf(s, i);
  let b = headerOf(o, j);
  for (let depth = 0; a >= 0 && depth < MAX_DEPTH; depth++) {
    if (s.weak[a] || !ctx.index.has(s.norm[a]!)) return false;
    // The update's head is itself an original line: an original head that merely reads like its edit is another block.
    if (b < 0 || o.norm[b] !== s.norm[a]) return true;
    a = headerOf(s, a);
    b = headerOf(o, b);
  }
  return false;
}
