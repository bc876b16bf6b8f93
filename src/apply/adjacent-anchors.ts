// Rule (b) of the no-loss invariant (loss.ts): original lines missing between two kept lines p and q
// may go only when one update segment shows p and q adjacent, no marker between, inside one block.
import { braceDelta, bracketDelta, closesAt } from './brackets.js';
import { type Lines } from './lines.js';
import { type Segment } from './merge-context.js';
import { blockEnd } from './definition-blocks.js';
import { closerOfEnclosing, wholeBlocksBetween } from './whole-blocks.js';
import { leftOutBlocks, siblingsShownAround } from './markerless-pieces.js';
import { lineIdentity, sameOwner } from './line-identity.js';
import { attachedAnnotations, loneOpener, unmentionedDefinitionRows } from './licence-rules.js';
import { coincidentAnchor } from './coincident-anchors.js';
import { closesPreviousOpener, nearestAtDepth } from './closer-pins.js';
import { indentOpener, orderAllows } from './nearest-pin.js';
import { copiedUnderNewHead } from './copied-anchor.js';
import { type UpdateView, key, inlineMarkerBetween, newCommentBetween } from './update-view.js';
import { contextHolds } from './anchor-context.js';

/**
 * The line heads a section or a definition (it has an identity). A CSS rule's selector names it for
 * placement (block-names.ts CLASS_RULE) but heads no section here: a rule deleted between its
 * neighbours is read as before that name existed.
 */
function headsSection(norm: string): boolean {
  const id = lineIdentity(norm);
  return id !== null && !id.startsWith('rule ');
}

/** Rule (b): one segment shows original lines p and q in order with no marker between them. */
export function shownAdjacent(view: UpdateView, orig: Lines, p: number, q: number, missing: number[], keptRow: (row: number) => boolean = () => false): boolean {
  const N = orig.text.length;
  // An Allman `{` opens the block of the head right above it, not of an anchor further up.
  if (q < N && loneOpener(orig.norm[q]!)) {
    let above = q - 1;
    while (above > p && orig.blank[above]) above--;
    if (above !== p) return false;
  }
  // Attributes of the declaration q (`[ApiController]` above a class) belong to it, not to the gap.
  if (q < N && attachedAnnotations(orig, q).some((j) => j > p)) return false;
  const segs = view.segments;
  const gapKeys = new Set(missing.map((j) => key(orig.norm[j]!)));
  const headsSomething = missing.some((j) => headsSection(orig.norm[j]!));
  // Segments that show a line of the gap the original has once (`type Store struct {` in a hunk
  // written out of file order): the gap is that hunk's place, not code two other lines close over.
  const showingGap = new Set<number>();
  for (const j of missing) {
    if (orig.weak[j] || view.origCount.get(key(orig.norm[j]!)) !== 1) continue;
    for (const [s2] of view.where.get(key(orig.norm[j]!)) ?? []) showingGap.add(s2);
  }
  // Same block: missing lines left of both anchors are block boundaries (`}`, `case x:`, a new
  // function's head); the update must show as many boundaries of its own between the anchors.
  const bound = Math.min(p >= 0 ? orig.indent[p]! : 0, q < N ? orig.indent[q]! : 0);
  const shallow = missing.filter((j) => orig.indent[j]! < bound).length;
  // Brackets the gap leaves open or closes (the `}` ending p's blocks, then whole definitions up to q)
  // must be left open or closed by the update's own lines between the anchors as well: a gap that is
  // not balanced the way the new lines are is not a run the update closes over but the rest of p's
  // block, which a snippet that stops without its closers (a fragment) never showed.
  const gapDelta = missing.reduce((d, j) => d + braceDelta(orig.text[j]!), 0);
  const blockOk = (seg: Segment, i1: number, i2: number): boolean => {
    const l = seg.lines;
    let shownDelta = 0;
    for (let x = Math.max(0, i1 + 1); x < i2; x++) if (!l.blank[x]) shownDelta += braceDelta(l.text[x]!);
    if (shownDelta !== gapDelta) return false;
    if (shallow === 0) return true;
    const ub = Math.min(i1 >= 0 ? l.indent[i1]! : 0, i2 < l.text.length ? l.indent[i2]! : 0);
    let shown = 0;
    for (let x = Math.max(0, i1 + 1); x < i2; x++) if (!l.blank[x] && l.indent[x]! < ub) shown++;
    return shown >= shallow;
  };
  const startOk = (s: number): boolean => s === 0 && !segs[0]!.markerBefore && !view.hasMarkers && view.wholeFile;
  const endOk = (s: number): boolean => s === segs.length - 1 && !segs[s]!.markerAfter && !view.hasMarkers && view.wholeFile;
  const ps: Array<[number, number]> = p < 0 ? segs.map((_, s) => [s, -1] as [number, number]).filter(([s]) => startOk(s)) : (view.where.get(key(orig.norm[p]!)) ?? []);
  for (const [s, i1] of ps) {
    const seg = segs[s]!;
    const first = s === 0;
    const last = s === segs.length - 1;
    // A closer opening the segment after a marker closes the block the segment before left open (closer-pins.ts).
    const pHolds = p < 0 || contextHolds(view, seg, first, last, i1, orig, p, -1) || (seg.markerBefore && closesPreviousOpener(segs[s - 1]?.lines, segs[s - 1]?.markerAfterIndent, seg.lines, i1, orig, p, (u) => view.uniqueRow.get(key(segs[s - 1]!.lines.norm[u]!))));
    if (q >= N) {
      if (pHolds && endOk(s) && shallow === 0) return true;
      continue;
    }
    for (const [s2, i2] of view.where.get(key(orig.norm[q]!)) ?? []) {
      if (s2 !== s || i2 <= i1) continue;
      // The update shows them adjacent only if it shows none of the missing lines between them.
      let showsMissing = false;
      for (let x = Math.max(0, i1 + 1); x < i2 && !showsMissing; x++) if (!seg.lines.blank[x] && gapKeys.has(key(seg.lines.norm[x]!))) showsMissing = true;
      if (showsMissing || [...showingGap].some((s2) => s2 !== s)) continue;
      // A marker inside a line between them (`{"get", cmd_get}, /* ... */ {"save", cmd_save},`) that
      // was not expanded stands for code as a whole-line marker does: they are not shown adjacent.
      if (inlineMarkerBetween(view, seg, i1, i2)) continue;
      if (!blockOk(seg, i1, i2)) continue;
      // A new comment where whole definitions stood (`# (constructor and _expected unchanged)`) is a
      // marker in other words: the definitions it stands for, never named by the update, stay.
      if (newCommentBetween(view, seg, i1, i2) && unmentionedDefinitionRows(orig, p + 1, q, view.ids).size > 0) continue;
      // A marker-less update that is not the whole file shows pieces: whole blocks between two were left out (markerless-pieces.ts).
      if (!view.hasMarkers && !view.wholeFile && leftOutBlocks(orig, p, q, view.ids, (n) => view.where.has(key(n))) && !siblingsShownAround(orig, seg.lines, i1, p, q, missing)) continue;
      // Anchors inside blocks of other names (a new resource's `bucket = …`) are not these lines.
      if ((i1 >= 0 && !sameOwner(seg.lines, i1, orig, p)) || !sameOwner(seg.lines, i2, orig, q)) continue;
      // Nor anchors under a new head while the original's head over them stays (copied-anchor.ts).
      const once = (n: string): boolean => view.origCount.get(key(n)) === 1;
      const isOriginal = (n: string): boolean => view.origCount.has(key(n));
      if ((i1 >= 0 && copiedUnderNewHead(seg.lines, i1, orig, p, isOriginal, once, keptRow)) || copiedUnderNewHead(seg.lines, i2, orig, q, isOriginal, once, keptRow)) continue;
      // A closer q of a block opened after p (another message's `}`) is shown only by a closer of a
      // block with the same head: the update's `}` of p's own block is not it.
      if (p >= 0 && i1 >= 0 && !sameCloser(seg.lines.text, i1, i2, orig, p, q)) continue;
      // Nor elsewhere in the segment: a line the original has once between p and q (nearest-pin.ts).
      const onlyRow = (n: string): number | undefined => view.uniqueRow.get(key(n));
      if (!orderAllows(seg.lines, i2, q, 1, onlyRow) || (i1 >= 0 && !orderAllows(seg.lines, i1, p, -1, onlyRow))) continue;
      const qHolds = contextHolds(view, seg, first, last, i2, orig, q, 1);
      if (pHolds && qHolds) return true;
      if (p < 0) continue;
      // One side pinned, the other found by structure (q closes the block p opens, in the update
      // and in the original) or as the nearest occurrence next to the pinned one.
      const structural = i1 >= 0 && closesAt(seg.lines.text, i1) === i2 && closesAt(orig.text, p) === q;
      if ((pHolds || qHolds) && structural) return true;
      // Found as the nearest occurrence only when no missing line heads something (a section, a
      // definition): past one, the nearest opening fence is another section's, not the one the update shows.
      // Unless the gap is whole blocks only (whole-blocks.ts): a definition deleted between its neighbours.
      // Not, under an instruction that removes nothing, when the anchor after them is only the enclosing block's closer (whole-blocks.ts).
      if (headsSomething && (!wholeBlocksBetween(orig, missing, q, blockEnd) || (view.removesNothing && closerOfEnclosing(orig, missing, q)))) continue;
      // New code between them whose repeated line only happens to equal that occurrence pins nothing (coincident-anchors.ts).
      const repeats = (j: number): boolean => (view.origCount.get(key(orig.norm[j]!)) ?? 0) > 1;
      const sameAs = (r: number) => (j: number): boolean => key(orig.norm[j]!) === key(orig.norm[r]!);
      if (pHolds && (nearestAfter(view, orig, p, q) || nearestAtDepth(orig, p, q, q, sameAs(q), seg.lines, i1, p, i2, q)) && sameCloser(seg.lines.text, i1, i2, orig, p, q) && !coincidentAnchor(seg.lines, orig, i1, p, i2, q, 1, repeats(q), true)) return true;
      if (qHolds && (nearestBefore(view, orig, p, q) || nearestAtDepth(orig, p, q, p, sameAs(p), seg.lines, i1, p, i2, q)) && !coincidentAnchor(seg.lines, orig, i2, q, i1, p, -1, repeats(p), true)) return true;
    }
  }
  return false;
}

/**
 * The line in (lo, hi) whose block hi closes, or -1: the nearest j above hi with closesAt(j) = hi,
 * found in one backward walk. With r(j) the net brackets of lines j..hi, j qualifies when r(j) ≤ 0
 * and r(j) exceeds every r(t) for t in (j, hi] (its block stays open until hi).
 */
function openerOf(text: readonly string[], lo: number, hi: number): number {
  let r = bracketDelta(text[hi]!);
  let max = r;
  for (let j = hi - 1; j > lo; j--) {
    r += bracketDelta(text[j]!);
    if (r <= 0 && r > max) return j;
    if (r > max) max = r;
  }
  return -1;
}

/**
 * When the original's q closes a block opened after p (another function's `}`), the update's q
 * must close a block with the same head: a closing brace of new code does not stand for the
 * first `}` after the anchor (an anchor, new code, then a marker kept the next function only by
 * luck before: issue 28's external held-out set).
 */
function sameCloser(u: readonly string[], i1: number, i2: number, orig: Lines, p: number, q: number): boolean {
  const o = openerOf(orig.text, p, q);
  // A closer without brackets (`</td>`) that closes a block the update opens between the anchors
  // closes, in the original too, a block with that head (nearest-pin.ts).
  if (o < 0) {
    const uo = orig.weak[q] ? indentOpener(u, i1, i2) : -1;
    return uo < 0 || sameHead(u, uo, orig, indentOpener(orig.text, p, q));
  }
  return sameHead(u, openerOf(u, i1, i2), orig, o);
}

/** Update row uo and original row o (o < 0: none to match) are the same head. */
function sameHead(u: readonly string[], uo: number, orig: Lines, o: number): boolean {
  if (o < 0) return true;
  return uo >= 0 && u[uo]!.trim() === orig.text[o]!.trim();
}

/** q is the first line after p with its text. */
function nearestAfter(view: UpdateView, orig: Lines, p: number, q: number): boolean {
  const k = key(orig.norm[q]!);
  for (let j = p + 1; j < q; j++) if (key(orig.norm[j]!) === k) return false;
  return true;
}

/** p is the last line before q with its text. */
function nearestBefore(view: UpdateView, orig: Lines, p: number, q: number): boolean {
  const k = key(orig.norm[p]!);
  for (let j = p + 1; j < q; j++) if (key(orig.norm[j]!) === k) return false;
  return true;
}
