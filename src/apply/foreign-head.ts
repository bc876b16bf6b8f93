// A line the update shows inside a block whose head the original has (`enabled = true` under
// `versioning {` under `resource "aws_s3_bucket" "uploads" {`) does not stand at an original occurrence
// under other heads (the `versioning {` of the "assets" bucket): the update says which block it is in,
// and that block is in the file. Matching it there anyway pulled the hunk into the other block and read
// everything between as deleted (set p graphql02). merge-context.ts `sameBlockHeader` compares the
// nearest head for lines the original has several times; this walks the heads outwards for every line,
// as far as the update shows heads that are original lines (a new `if` wrapping old lines says nothing).
import { solidRow } from './lines.js';
import { headerOf, type MergeContext, type Segment } from './merge-context.js';

/** Heads compared outwards from a line: deeper nesting than this is not worth walking. */
const MAX_DEPTH = 12;

/**
 * Some head the update shows segment line i under (an original line) is none of original line j's
 * enclosing heads, in the same order. Heads of j the update does not show are passed over: a wrapper
 * the update deletes (`<div>` around a heading) leaves the heading under the wrapper's own head.
 */
export function underOtherHead(ctx: MergeContext, seg: Segment, i: number, j: number): boolean {
  const s = seg.lines;
  const o = ctx.orig;
  let a = headerOf(s, i);
  let b = headerOf(o, j);
  for (let depth = 0; a >= 0 && depth < MAX_DEPTH; depth++) {
    if (s.weak[a] || !opensBlock(ctx, s.norm[a]!)) return false;
    // The update's head is itself an original line: an original head that merely reads like its edit is another block.
    let up = 0;
    while (b >= 0 && o.norm[b] !== s.norm[a] && up < MAX_DEPTH) {
      b = headerOf(o, b);
      up++;
    }
    if (b < 0 || o.norm[b] !== s.norm[a]) return true;
    a = headerOf(s, a);
    b = headerOf(o, b);
  }
  return false;
}

/**
 * The original has the line and some copy of it opens a block (the next line is deeper): a head. A
 * shallower line above a snippet cut from inside a function (an import of a marker-less update) is not.
 */
function opensBlock(ctx: MergeContext, norm: string): boolean {
  const o = ctx.orig;
  return (ctx.index.get(norm) ?? []).some((p) => {
    const next = solidRow(o, p, 1);
    return next >= 0 && o.indent[next]! > o.indent[p]!;
  });
}
