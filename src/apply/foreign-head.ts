// A line the update shows inside a block whose head the original has (`enabled = true` under
// `versioning {` under `resource "aws_s3_bucket" "uploads" {`) does not stand at an original occurrence
// under other heads (the `versioning {` of the "assets" bucket): the update says which block it is in,
// and that block is in the file. Matching it there anyway pulled the hunk into the other block and read
// everything between as deleted (set p graphql02). merge-context.ts `sameBlockHeader` compares the
// nearest head for lines the original has several times; this walks the heads outwards for every line,
// as far as the update shows heads that are original lines (a new `if` wrapping old lines says nothing).
import { editedVersion, solidRow, type Lines } from './lines.js';
import { newSiblingHead, renamedToken } from './new-name-evidence.js';
import { namesDiffer, ownerRow, renameShownInPlace } from './line-identity.js';
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
  // A line of a new sibling block (a handler copied under a new name) is no anchor into an original block.
  if (inOtherNewBlock(ctx, s, i, o, j)) return true;
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
 * The head of the new sibling block segment line i sits in (see `inOtherNewBlock`), or -1: the
 * nearest head above i that the original lacks (heads the original has are walked past: `return {`
 * inside a copied `case`), when the update shows it as a new sibling (new-name-evidence.ts).
 */
export function newSiblingOwner(ctx: MergeContext, s: Lines, i: number): number {
  let head = ownerRow(s, i);
  for (let depth = 0; head >= 0 && ctx.index.has(s.norm[head]!) && depth < MAX_DEPTH; depth++) head = ownerRow(s, head);
  return head >= 0 && !ctx.index.has(s.norm[head]!) && newSiblingHead(s, head, ctx.orig) ? head : -1;
}

/**
 * Segment line i sits in a block whose head the original lacks (at any depth) and that the update
 * shows as a new sibling (new-name-evidence.ts newSiblingHead: a copy of an original head under a
 * new name that the update brings in beside the old one), and none of the heads above original line
 * j is that head as it was (equal, edited under the same name, renamed in place): i is a line of the
 * copy, whatever text it shares with j. Its copied lines are no anchors into an original block, and
 * its changed lines no edits of the original's.
 */
export function inOtherNewBlock(ctx: MergeContext, s: Lines, i: number, o: Lines, j: number): boolean {
  const head = newSiblingOwner(ctx, s, i);
  if (head < 0) return false;
  const shown = s.norm[head]!;
  for (let h = ownerRow(o, j), depth = 0; h >= 0 && depth < MAX_DEPTH; h = ownerRow(o, h), depth++) {
    const was = o.norm[h]!;
    const renamed = namesDiffer(was, shown) || renamedToken(was, shown) !== null;
    if (renamed ? renameShownInPlace(s, head, o, h) : editedVersion(was, shown)) return false;
  }
  return true;
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
