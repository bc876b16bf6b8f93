// A line the update shows inside a block whose head the original has (`enabled = true` under
// `versioning {` under `resource "aws_s3_bucket" "uploads" {`) does not stand at an original occurrence
// under other heads (the `versioning {` of the "assets" bucket): the update says which block it is in,
// and that block is in the file. Matching it there anyway pulled the hunk into the other block and read
// everything between as deleted (set p graphql02). merge-context.ts `sameBlockHeader` compares the
// nearest head for lines the original has several times; this walks the heads outwards for every line,
// as far as the update shows heads that are original lines (a new `if` wrapping old lines says nothing).
import { editedVersion, opensBlock as opensBlockText, solidRow, type Lines } from './lines.js';
import { newSiblingHead, renamedToken } from './new-name-evidence.js';
import { namesDiffer, ownerRow, renameShownInPlace } from './line-identity.js';
import { headerOf, type MergeContext, type Segment } from './merge-context.js';
import { headAcross, type PlacedUnder, type UpdateRow } from './shown-heads.js';
import { headDepth } from './flat-sections.js';

/** Heads compared outwards from a line: deeper nesting than this is not worth walking. */
const MAX_DEPTH = 12;

/**
 * Some head the update shows segment line i under (an original line) is none of original line j's
 * enclosing heads, in the same order. Heads of j the update does not show are passed over: a wrapper
 * the update deletes (`<div>` around a heading) leaves the heading under the wrapper's own head.
 */
export function underOtherHead(ctx: MergeContext, seg: Segment, i: number, j: number): boolean {
  // A line of a new sibling block (a handler copied under a new name) is no anchor into an original block.
  if (inOtherNewBlock(ctx, seg.lines, i, ctx.orig, j)) return true;
  // Heads are read across markers indented deeper than them (shown-heads.ts): `class B {`, an
  // indented marker, then a method that class A also has shows the method in B.
  const k = ctx.segments.indexOf(seg);
  if (k >= 0) return underOtherHeadAcross(ctx.orig, ctx.index, ctx.segments, k, i, j);
  const s = seg.lines;
  const up = (a: number): number | null => (headerOf(s, a) < 0 ? null : headLine(s, headerOf(s, a)));
  return headsNotAbove(ctx.orig, ctx.index, j, up(i), (a) => s.norm[a]!, (a) => s.weak[a]!, up);
}

/**
 * The same walk for a line of the update read as a whole (shown-heads.ts): the heads it is shown
 * under across markers indented deeper than them. Used where a child is matched to one of several
 * same-named originals (the syntax pass's definitions).
 */
export function underOtherHeadAcross(orig: Lines, index: Map<string, number[]>, segments: readonly Segment[], k: number, i: number, j: number): boolean {
  const at = (a: UpdateRow): Lines => segments[a[0]]!.lines;
  const head = isHead(orig, index);
  const placed = placedUnder(orig, index, segments);
  return headsNotAbove(orig, index, j, headAcross(segments, k, i, head, placed), (a) => at(a).norm[a[1]]!, (a) => at(a).weak[a[1]]!, (a) => headAcross(segments, a[0], a[1], head, placed));
}

/** shown-heads.ts's check: the original has the next hunk's first line it has at all under the heads shown above the marker (at one of its places). */
function placedUnder(orig: Lines, index: Map<string, number[]>, segments: readonly Segment[]): PlacedUnder {
  return (heads, next, depth) => {
    for (let y = 0; y < next.text.length; y++) {
      if (next.blank[y]) continue;
      if (next.indent[y]! <= depth) return false;
      const pos = next.weak[y] ? undefined : index.get(next.norm[y]!);
      if (!pos) continue;
      const at = (x: number): Lines => segments[heads[x]![0]]!.lines;
      const row = (x: number): number => heads[x]![1];
      return pos.some((j) => !headsNotAbove(orig, index, j, 0, (x) => at(x).norm[row(x)]!, (x) => at(x).weak[row(x)]!, (x) => (x + 1 < heads.length ? x + 1 : null)));
    }
    return false;
  };
}

/** The update shows some head (an original line opening a block) that none of original row j's heads is, in order. */
export function showsHeadAcross(orig: Lines, index: Map<string, number[]>, segments: readonly Segment[], k: number, i: number): boolean {
  const h = headAcross(segments, k, i, isHead(orig, index), placedUnder(orig, index, segments));
  if (h === null) return false;
  const l = segments[h[0]]!.lines;
  return !l.weak[h[1]] && opensBlock(orig, index, l.norm[h[1]]!);
}

function headsNotAbove<P>(o: Lines, index: Map<string, number[]>, j: number, first: P | null, norm: (a: P) => string, weak: (a: P) => boolean, up: (a: P) => P | null): boolean {
  let a = first;
  let b = headLine(o, headerOf(o, j));
  for (let depth = 0; a !== null && depth < MAX_DEPTH; depth++) {
    // A new head (`try {` wrapping old lines, an edited signature) or a weak one (`{`, `else`) says
    // nothing itself; the heads around it still do.
    if (weak(a) || !opensBlock(o, index, norm(a))) {
      a = up(a);
      continue;
    }
    // The update's head is itself an original line: an original head that merely reads like its edit is another block.
    let up2 = 0;
    while (b >= 0 && o.norm[b] !== norm(a) && up2 < MAX_DEPTH) {
      b = headLine(o, headerOf(o, b));
      up2++;
    }
    if (b < 0 || o.norm[b] !== norm(a)) return true;
    a = up(a);
    b = headLine(o, headerOf(o, b));
  }
  return false;
}

/** A line opens a block: by its text (lines.ts), or an original line with a deeper one below it. */
function isHead(o: Lines, index: Map<string, number[]>): (norm: string) => boolean {
  return (norm) => opensBlockText(norm) || opensBlock(o, index, norm);
}

/**
 * The line a block's head starts on, for a head indentation alone does not see: an Allman `{`
 * (alone, at its head's indentation) stands for the line right above it (`public class Ledger`,
 * `{`); a line closing a multi-line head (`) : ViewModel() {` after `class NotesViewModel(` and its
 * deeper parameter lines) for the line that opened it.
 */
export function headLine(l: Lines, h: number): number {
  if (h < 0) return h;
  if (l.norm[h] === '{') {
    const above = solidRow(l, h, -1);
    return above >= 0 && l.indent[above] === l.indent[h] ? above : h;
  }
  if (!/^[)\]]/.test(l.norm[h]!)) return h;
  for (let y = solidRow(l, h, -1); y >= 0; y = solidRow(l, y, -1)) {
    if (l.indent[y]! > l.indent[h]!) continue;
    return l.indent[y] === l.indent[h] && /[([]$/.test(l.norm[y]!) ? y : h;
  }
  return h;
}

/**
 * The original has the line and some copy of it opens a block (the next line is deeper, or is an
 * Allman `{`): a head. A
 * shallower line above a snippet cut from inside a function (an import of a marker-less update) is not.
 */
function opensBlock(o: Lines, index: Map<string, number[]>, norm: string): boolean {
  return (index.get(norm) ?? []).some((p) => {
    const next = solidRow(o, p, 1);
    // An Allman head's `{` stands at its own indentation, its body below it.
    return next >= 0 && (o.indent[next]! > headDepth(o, p) || (o.norm[next] === '{' && o.indent[next] === o.indent[p]));
  });
}

/**
 * The head of the new sibling block segment line i sits in (see `inOtherNewBlock`), or -1: the
 * nearest head above i that the original lacks and the update shows as a new sibling
 * (new-name-evidence.ts). Heads the original has are walked past (`return {` inside a copied
 * `case`), and so are other new heads (the `if (fan_set_limit(arg) != 0) {` inside a new `case
 * CMD_LIMIT:`: its body is the copied case's too).
 */
export function newSiblingOwner(ctx: MergeContext, s: Lines, i: number): number {
  for (let head = ownerRow(s, i), depth = 0; head >= 0 && depth < MAX_DEPTH; head = ownerRow(s, head), depth++) {
    if (!ctx.index.has(s.norm[head]!) && opensBlockIn(s, head) && newSiblingHead(s, head, ctx.orig)) return head;
  }
  return -1;
}

/**
 * Row h of `l` opens a block: by its text, with a deeper line below it, or with an Allman `{` below
 * it at its own indentation (a new record field that a `}` follows opens none).
 */
function opensBlockIn(l: Lines, h: number): boolean {
  const next = solidRow(l, h, 1);
  return opensBlockText(l.norm[h]!) || (next >= 0 && (l.indent[next]! > l.indent[h]! || (l.norm[next] === '{' && l.indent[next] === l.indent[h])));
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
