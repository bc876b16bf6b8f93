// svc-v3-fast: greedy anchored segment alignment. Each segment is pinned at its rarest line (the
// occurrence with the most context agreeing around it), then the chain grows outwards one line at a
// time to the nearest occurrence, refusing block-crossing or context-free jumps. Linear-ish in the
// file size; reports every guess it had to make so `auto` can hand the request to svc-v3-large.
import { markedBodyEnd } from './marked-body.js';
import {
  crossesBlock, editedNeighbours, firstAtOrAbove, jumpSupported, lastBelow, neighbourAgreement, resumeAnchor, sameBlockHeader, strongLines, strongSupport,
  type Chain, type MergeContext, type Segment,
} from './merge-context.js';
import { inNamedScope } from './instruction-scope.js';
import { coincidentAnchor } from './coincident-anchors.js';
import { documentIndex, withoutNewDocuments } from './documents.js';
import { closesLeftOpenHeads, continuesOpenBlock, inCloneOf, openBlockRange, siblingBlockRange, uniqueOpenerBlock } from './open-blocks.js';
import { assignmentKey, opensBlock, solidRow } from './lines.js';
import { editedHunkRow } from './edited-hunk.js';
import { newSiblingOwner, underOtherHead } from './foreign-head.js';
import { ownerRow } from './line-identity.js';
import { withoutCopiedBlocks, writtenOutNotes } from './copied-anchor.js';
import { settingOfOtherItem } from './sibling-items.js';

export interface FastChains {
  chains: Chain[];
  ambiguities: string[];
}

/** Occurrences of a pivot examined for context agreement. */
const MAX_PIVOT_CANDIDATES = 32;
/** How far (in lines) an occurrence may sit from the pivot's implied position and still count as support. */
const SUPPORT_SLACK = 3;

/** Segment lines (the rarest) considered as the pivot. */
const MAX_PIVOT_LINES = 64;
/** Support a unique line needs to settle a tied pivot: two neighbouring lines agreeing, or one other segment line near its implied position. */
const MIN_UNIQUE_SUPPORT = 0.25;
/** Strong lines on each side of a pivot candidate consulted for support. */
const SUPPORT_RADIUS = 24;

/**
 * The pivot is the (line, occurrence) with the most agreeing context: other strong lines of the
 * segment found near their implied positions. Ties go to the rarer line, then the earlier position.
 */
export function pickPivot(ctx: MergeContext, seg: Segment, strong: number[], lo: number, hi = Infinity): { i: number; j: number; tied: boolean } | null {
  let bestI = -1;
  let bestJ = -1;
  let bestSupport = -1;
  let bestCount = Infinity;
  let tied = false;
  // The best-supported line the original has once from `lo` (see below).
  let unique: { i: number; j: number; support: number } | null = null;
  // Every line the original has once from `lo`, with its support weighted by how rare its supporters are (see below).
  const uniques: Array<{ i: number; j: number; rare: number }> = [];
  // Only the rarest lines are pivot candidates (a segment of 5,000 copies of one line stays cheap).
  const counted: Array<[number, number]> = [];
  for (let x = 0; x < strong.length; x++) {
    const pos = ctx.index.get(seg.lines.norm[strong[x]!]!);
    if (!pos) continue;
    const count = pos.length - firstAtOrAbove(pos, lo);
    if (count > 0) counted.push([x, count]);
  }
  counted.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  // A line the segment shows more often than the original has it (from `lo`) is new code at one of
  // its copies at least: it cannot say which copy stands where (the `return -1;` of a new `case`
  // copying its neighbour's guard). Such lines are pivots only when no other line is.
  const shownMore = overShown(ctx, seg, strong, counted);
  const usable = counted.filter(([x]) => !shownMore.has(strong[x]!));
  const candidates = (usable.length > 0 ? usable : counted).slice(0, MAX_PIVOT_LINES).sort((a, b) => a[0] - b[0]);
  // Lines of another document of the segment (past a `---`) do not support the pivot (documents.ts).
  const doc = documentIndex(seg.lines.norm);
  for (const [x, count] of candidates) {
    const i = strong[x]!;
    const pos = ctx.index.get(seg.lines.norm[i]!)!;
    const from = firstAtOrAbove(pos, lo);
    for (let c = from; c < pos.length && c < from + MAX_PIVOT_CANDIDATES && pos[c]! < hi; c++) {
      const q = pos[c]!;
      if (underOtherHead(ctx, seg, i, q)) continue;
      // A setting a new list item copies from another item is no anchor there (sibling-items.ts).
      if (settingOfOtherItem(ctx.orig, q, seg.lines, i)) continue;
      // Same indentation as the update writes it breaks ties between copies (`.header {` at the top
      // level or inside `@media`), then the same spacing inside the line (`tags      = var.tags`
      // aligned with its block's other fields, not the lone `tags = var.tags` of another block).
      let support = neighbourAgreement(ctx, seg, i, q) / 8 + editedNeighbours(ctx, seg, i, q) / 16 + (ctx.orig.indent[q] === seg.lines.indent[i] ? 1 / 64 : 0) +
        (ctx.orig.text[q]!.trim() === seg.lines.text[i]!.trim() ? 1 / 128 : 0) +
        (ctx.scopeNames && inNamedScope(ctx.orig, q, ctx.scopeNames) ? 1 / 256 : 0);
      const x0 = Math.max(0, x - SUPPORT_RADIUS);
      const x1 = Math.min(strong.length, x + SUPPORT_RADIUS + 1);
      let rare = 0;
      for (let y = x0; y < x1; y++) {
        if (y === x) continue;
        const i2 = strong[y]!;
        if (doc && doc[i2] !== doc[i]) continue;
        // Lines of a new sibling block (a copy of an original one) say nothing of where the segment stands.
        if (newSiblingOwner(ctx, seg.lines, i2) >= 0) continue;
        const p2 = ctx.index.get(seg.lines.norm[i2]!);
        if (!p2) continue;
        const want = q + (i2 - i);
        const k = firstAtOrAbove(p2, want - SUPPORT_SLACK);
        if (k < p2.length && p2[k]! <= want + SUPPORT_SLACK) {
          support++;
          rare += 1 / p2.length;
        }
      }
      if (count === 1) uniques.push({ i, j: q, rare });
      if (count === 1 && (!unique || support > unique.support)) unique = { i, j: q, support };
      const better = support > bestSupport || (support === bestSupport && count < bestCount);
      if (better) {
        // Same position reached through another line of the same block is not a tie.
        tied = false;
        bestI = i;
        bestJ = q;
        bestSupport = support;
        bestCount = count;
      } else if (support === bestSupport && count === bestCount && i === bestI) {
        // Another occurrence of the pivot line itself with as much context: a real tie.
        tied = true;
      }
    }
  }
  if (bestI < 0) return null;
  // Copies of the best line equally supported (a body the segment shares with its neighbours), or
  // a best occurrence on the wrong side of a line the original has once (a chain through both is
  // impossible): that unique line, supported by at least one other segment line near it, decides
  // (the segment's own definition header, a job's last step before a new job copying the others).
  if (unique && unique.support >= MIN_UNIQUE_SUPPORT && (tied || Math.sign(unique.i - bestI) !== Math.sign(unique.j - bestJ))) {
    return { i: unique.i, j: unique.j, tied: false };
  }
  const rival = bestCount === 1 ? rarerRival(uniques, bestI, bestJ) : null;
  if (rival) return { i: rival.i, j: rival.j, tied: false };
  return { i: bestI, j: bestJ, tied };
}

/**
 * Two lines the original has once stand in the segment in the opposite order to the original's:
 * a chain cannot take both, and the line with more supporters may owe them to lines the original
 * repeats everywhere (a new table row copying `wantErr: false,` and an old row's `want:` beside the
 * last old row's unique `name:` and `in:`). The unique line whose supporters are rarer (each counted
 * 1/copies) is the anchor; the best-supported one is new code copying another place.
 */
function rarerRival(uniques: ReadonlyArray<{ i: number; j: number; rare: number }>, bestI: number, bestJ: number): { i: number; j: number } | null {
  const best = uniques.find((u) => u.i === bestI && u.j === bestJ);
  if (!best) return null;
  let out: { i: number; j: number; rare: number } | null = null;
  for (const u of uniques) {
    if (Math.sign(u.i - bestI) === Math.sign(u.j - bestJ)) continue;
    if (u.rare > best.rare && (!out || u.rare > out.rare)) out = u;
  }
  return out;
}

/** Segment lines (of `strong`) whose text the segment shows more times than the original has it from `lo` (`counted`). */
function overShown(ctx: MergeContext, seg: Segment, strong: number[], counted: Array<[number, number]>): Set<number> {
  const shown = new Map<string, number>();
  for (const i of strong) shown.set(seg.lines.norm[i]!, (shown.get(seg.lines.norm[i]!) ?? 0) + 1);
  const out = new Set<number>();
  for (const [x, count] of counted) if (shown.get(seg.lines.norm[strong[x]!]!)! > count) out.add(strong[x]!);
  return out;
}

/** Strong segment lines looked ahead for a unique line a repeated match would pass over. */
const UNIQUE_LOOKAHEAD = 64;

/**
 * Taking a repeated line's occurrence j (the chain now at `from`) is wrong when a line further on in
 * the segment, in the growth direction, occurs once in the original strictly between `from` and j:
 * the chain could then never reach that unique anchor (a new method copying `h.mu.Lock()` from the
 * next one, whose unique header the segment shows after it). The repeated line is then new code.
 */
function passesUnique(ctx: MergeContext, seg: Segment, strong: number[], x: number, dir: 1 | -1, a: number, b: number): boolean {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  for (let y = x + dir, n = 0; y >= 0 && y < strong.length && n < UNIQUE_LOOKAHEAD; y += dir, n++) {
    const pos = ctx.index.get(seg.lines.norm[strong[y]!]!);
    if (pos && pos.length === 1 && pos[0]! > lo && pos[0]! < hi) return true;
  }
  return false;
}

/**
 * Per segment k, the sorted original rows of lines the original has once that the segments after k
 * may anchor on (anchorRows).
 */
function laterOnceRows(ctx: MergeContext, rows: ReadonlyArray<readonly number[]>): number[][] {
  const out: number[][] = [];
  let acc: number[] = [];
  for (let k = rows.length - 1; k >= 0; k--) {
    out[k] = acc;
    const once = onceRows(ctx, ctx.segments[k]!, rows[k]!);
    if (once.length > 0) acc = [...acc, ...once].sort((a, b) => a - b);
  }
  return out;
}

/** The original rows of the segment's lines `rows` that the original has once. */
function onceRows(ctx: MergeContext, seg: Segment, rows: readonly number[]): number[] {
  const once: number[] = [];
  for (const i of rows) {
    const pos = ctx.index.get(seg.lines.norm[i]!);
    if (pos && pos.length === 1) once.push(pos[0]!);
  }
  return once;
}

/** Lines of later hunks, the original's once, that a forward jump must not pass over. */
const LATER_HUNK_LINES = 2;

/**
 * passesUnique across hunks: taking a repeated line's copy j forwards from `from` is wrong when the
 * segments after this one show at least two lines the original has once strictly between them (rows
 * `later`, sorted). The hunks go in file order here (fileOrder reorders them first), so the jump would
 * leave the next hunk's place behind: a new `DECLARE` section of one PL/pgSQL function is no edit of
 * the next function's `DECLARE` when the following hunk shows this function's own body.
 */
function passesLaterHunk(later: number[], from: number, j: number): boolean {
  if (j - from <= 1) return false;
  return firstAtOrAbove(later, j) - firstAtOrAbove(later, from + 1) >= LATER_HUNK_LINES;
}

/**
 * passesUnique for a line of a new block (its head the original lacks: a `location /v1/stream {`
 * copying the `proxy_pass` lines of the `location / {` the segment shows after it): taking the copy
 * of a repeated line at j is wrong when a block head the segment shows further on (in the growth
 * direction) has its nearest original occurrence strictly between the chain and j. The new block's
 * copied lines would pull the chain into the old block, and its head to another block's copy.
 */
function passesShownHead(ctx: MergeContext, seg: Segment, strong: number[], x: number, dir: 1 | -1, from: number, j: number): boolean {
  const s = seg.lines;
  const owner = ownerRow(s, strong[x]!);
  if (owner < 0 || ctx.index.has(s.norm[owner]!) || !opensBlock(s.norm[owner]!)) return false;
  for (let y = x + dir, n = 0; y >= 0 && y < strong.length && n < UNIQUE_LOOKAHEAD; y += dir, n++) {
    const t = strong[y]!;
    if (s.indent[t]! > s.indent[owner]! || !opensBlock(s.norm[t]!)) continue;
    const pos = ctx.index.get(s.norm[t]!);
    if (!pos) continue;
    const c = dir === 1 ? firstAtOrAbove(pos, from + 1) : lastBelow(pos, from);
    if (c >= 0 && c < pos.length && (dir === 1 ? pos[c]! < j : pos[c]! > j)) return true;
  }
  return false;
}

/**
 * The segment shows the same line twice (`if d.IsDir() {` inside a new `if`, then again at its old
 * place): original line j goes to the copy further on (in the growth direction) when that copy keeps
 * the chain's indentation shift and this one does not.
 */
function twinFitsBetter(ctx: MergeContext, seg: Segment, strong: number[], x: number, dir: 1 | -1, j: number, from: [number, number]): boolean {
  const s = seg.lines;
  const o = ctx.orig;
  const shift = o.indent[from[1]]! - s.indent[from[0]]!;
  const i = strong[x]!;
  if (o.indent[j]! - s.indent[i]! === shift) return false;
  for (let y = x + dir, n = 0; y >= 0 && y < strong.length && n < UNIQUE_LOOKAHEAD; y += dir, n++) {
    const t = strong[y]!;
    if (s.norm[t] === s.norm[i] && o.indent[j]! - s.indent[t]! === shift) return true;
  }
  return false;
}

/**
 * A last segment with no marker after it that ends with the original's last line (a twin class's
 * method at the file's end): of a tied pivot's copies, the one at the same distance from the end.
 */
function atFileEnd(ctx: MergeContext, seg: Segment, pivot: { i: number; j: number }, lo: number): { i: number; j: number; tied: boolean } | null {
  if (seg.markerAfter) return null;
  const s = seg.lines;
  const o = ctx.orig;
  const sLast = solidRow(s, s.text.length, -1);
  const oLast = solidRow(o, o.text.length, -1);
  if (sLast < 0 || oLast < 0 || s.norm[sLast] !== o.norm[oLast]) return null;
  const want = oLast - (sLast - pivot.i);
  const pos = ctx.index.get(s.norm[pivot.i]!);
  return want >= lo && pos && pos.includes(want) ? { i: pivot.i, j: want, tied: false } : null;
}

/** The segment's rows that may anchor it: strong, not in a new document, not a copied block's body (copied-anchor.ts). */
export function anchorRows(ctx: MergeContext, seg: Segment): number[] {
  const rows = withoutNewDocuments(strongLines(seg), seg.lines.norm, seg.lines.blank, ctx.index);
  return withoutCopiedBlocks(rows, seg, ctx.segments, ctx.orig, ctx.index);
}

export function fastChains(ctx: MergeContext): FastChains {
  const chains: Chain[] = [];
  const ambiguities: string[] = [];
  let lo = 0;
  const segs = ctx.segments;
  const rows = segs.map((seg) => anchorRows(ctx, seg));
  const later = laterOnceRows(ctx, rows);
  for (let k = 0; k < segs.length; k++) {
    const seg = segs[k]!;
    const strong = rows[k]!;
    ambiguities.push(...writtenOutNotes(k, seg, segs, ctx.orig, ctx.index));
    const resume = resumeAnchor(ctx, seg, lo);
    let pivot = resume ? { i: resume[0], j: resume[1], tied: false } : null;
    // A segment resuming inside the block the one before it opened, or beside its last line's
    // siblings where it would otherwise land in a clone of that block, is pinned there (open-blocks.ts).
    const opened = pivot || k === 0 ? null : openBlockRange(ctx, k, chains[k - 1]!);
    let sibling = pivot || k === 0 || opened ? null : siblingBlockRange(ctx, k, chains[k - 1]!);
    if (sibling) {
      const free = pickPivot(ctx, seg, strong, lo);
      if (!free || !inCloneOf(ctx.orig, sibling.from, sibling.to, free.j)) sibling = null;
    }
    let inBlock = opened ?? sibling;
    // Unless a line of that part is one the original has once, elsewhere: the marker reached past the
    // block. Beside siblings, a key the block sets too is that key's new value (`memory: 1Gi`), no sign.
    const released = (i: number): boolean =>
      uniqueOutside(ctx, seg.lines.norm[i]!, inBlock!.from, inBlock!.to) && !(sibling && setsKeyOfBlock(ctx, seg.lines.norm[i]!, sibling.from, sibling.to));
    if (inBlock && strong.some((i) => i < inBlock!.end && released(i))) inBlock = null;
    // There, a changed or renamed head resumes it first (a twin class's method of the same name further down is another).
    const resumedInBlock = inBlock ? resumeAnchor(ctx, seg, Math.max(lo, inBlock.from), inBlock.to) : null;
    if (resumedInBlock) pivot = { i: resumedInBlock[0], j: resumedInBlock[1], tied: false };
    else if (inBlock) pivot = pickPivot(ctx, seg, strong.filter((i) => i < inBlock.end), Math.max(lo, inBlock.from), inBlock.to);
    pivot ??= pickPivot(ctx, seg, strong, lo);
    if (pivot?.tied && k === segs.length - 1) pivot = atFileEnd(ctx, seg, pivot, lo) ?? pivot;
    if (!pivot) {
      chains.push([]);
      continue;
    }
    if (pivot.tied) ambiguities.push(`segment ${k + 1}: anchor "${seg.lines.norm[pivot.i]}" occurs several times with equal context`);
    const chain: Chain = [[pivot.i, pivot.j]];
    // Backwards from the pivot: nearest earlier occurrence.
    let nextJ = pivot.j;
    for (let x = strong.indexOf(pivot.i) - 1; x >= 0; x--) {
      const i = strong[x]!;
      const pos = ctx.index.get(seg.lines.norm[i]!);
      if (!pos) continue;
      const c = lastBelow(pos, nextJ);
      if (c < 0 || pos[c]! < lo) continue;
      const j = pos[c]!;
      if (pos.length > 1 && (!sameBlockHeader(ctx, seg, i, j) || passesUnique(ctx, seg, strong, x, -1, j, nextJ) || passesShownHead(ctx, seg, strong, x, -1, nextJ, j))) continue;
      if (underOtherHead(ctx, seg, i, j)) continue;
      if (twinFitsBetter(ctx, seg, strong, x, -1, j, chain[0]!)) continue;
      const nextI = chain[0]![0];
      if (coincidentAnchor(seg.lines, ctx.orig, nextI, nextJ, i, j, -1, pos.length > 1)) continue;
      if (nextJ - j - 1 > nextI - i - 1) {
        if (crossesBlock(ctx, j, nextJ, seg, i, nextI) && !strongSupport(ctx, seg, nextI, nextJ)) {
          ambiguities.push(`segment ${k + 1}: skipped a block-crossing match for "${seg.lines.norm[i]}"`);
          continue;
        }
        if (!jumpSupported(ctx, seg, i, j, nextI, nextJ)) continue;
      }
      chain.unshift([i, j]);
      nextJ = j;
    }
    // Forwards: nearest later occurrence.
    let prevJ = pivot.j;
    for (let x = strong.indexOf(pivot.i) + 1; x < strong.length; x++) {
      const i = strong[x]!;
      const pos = ctx.index.get(seg.lines.norm[i]!);
      if (!pos) continue;
      const c = firstAtOrAbove(pos, prevJ + 1);
      if (c >= pos.length) continue;
      const j = pos[c]!;
      if (pos.length > 1 && (!sameBlockHeader(ctx, seg, i, j) || passesUnique(ctx, seg, strong, x, 1, prevJ, j) || passesShownHead(ctx, seg, strong, x, 1, prevJ, j) || passesLaterHunk(later[k]!, prevJ, j))) continue;
      if (underOtherHead(ctx, seg, i, j)) continue;
      if (twinFitsBetter(ctx, seg, strong, x, 1, j, chain[chain.length - 1]!)) continue;
      const prevI = chain[chain.length - 1]![0];
      if (coincidentAnchor(seg.lines, ctx.orig, prevI, prevJ, i, j, 1, pos.length > 1)) continue;
      if (j - prevJ - 1 > i - prevI - 1) {
        if (crossesBlock(ctx, prevJ, j, seg, prevI, i) && !strongSupport(ctx, seg, i, j)) {
          ambiguities.push(`segment ${k + 1}: skipped a block-crossing match for "${seg.lines.norm[i]}"`);
          continue;
        }
        if (!jumpSupported(ctx, seg, prevI, prevJ, i, j)) continue;
      }
      chain.push([i, j]);
      prevJ = j;
    }
    chains.push(chain);
    // A marker deeper than the header ending this segment keeps that header's body (marked-body.ts).
    lo = Math.max(prevJ + 1, markedBodyEnd(ctx.orig, seg, chain, segs[k + 1]));
  }
  return { chains, ambiguities };
}

/**
 * The segment goes on inside the block of a unique line the one before it ends on (open-blocks.ts)
 * and has an anchor there (a compose service's `environment:` under `worker:`, whatever it copies
 * from the api service): it travels with that segment. A hunk that merely follows a marker written
 * at body depth, with nothing in that block, is ordered by its own anchor.
 */
export function staysInOpenerBlock(ctx: MergeContext, k: number): boolean {
  const block = uniqueOpenerBlock(ctx, k);
  if (!block) return false;
  const seg = ctx.segments[k]!;
  const strong = strongLines(seg).filter((i) => i < block.end);
  return strong.length > 0 && pickPivot(ctx, seg, strong, block.from, block.to) !== null;
}

/** The original has `norm` once, outside [from, to). */
function uniqueOutside(ctx: MergeContext, norm: string, from: number, to: number): boolean {
  const pos = ctx.index.get(norm);
  return pos !== undefined && pos.length === 1 && (pos[0]! < from || pos[0]! >= to);
}

/** Original lines [from, to) set the key `norm` sets. */
function setsKeyOfBlock(ctx: MergeContext, norm: string, from: number, to: number): boolean {
  const key = assignmentKey(norm);
  if (key === null) return false;
  for (let j = from; j < to; j++) if (assignmentKey(ctx.orig.norm[j]!) === key) return true;
  return false;
}

/** A line that only closes blocks (`end)`, `});`): no anchor of its own. */
const CLOSING_ONLY = /^(?:[)}\]][)}\];,]*|end\b[)}\];,]*)$/;

/**
 * The segment's only strong line found in the original, closers aside, is line i, and the original
 * has it more than once.
 */
function loneRepeatedAnchor(ctx: MergeContext, seg: Segment, strong: number[], i: number): boolean {
  const copies = ctx.index.get(seg.lines.norm[i]!) ?? [];
  if (copies.length < 2) return false;
  // Unless the segment shows the edit of a line next to one copy only (`spec:` / `replicas: 5`, where
  // one `spec:` has `replicas: 3` under it): that copy is the anchor.
  if (copies.length <= MAX_PIVOT_CANDIDATES && copies.filter((q) => editedNeighbours(ctx, seg, i, q) > 0).length === 1) return false;
  return strong.every((x) => x === i || CLOSING_ONLY.test(seg.lines.norm[x]!) || !ctx.index.has(seg.lines.norm[x]!));
}

/**
 * Segment k shows a line the original has once below every such line of the segment before it:
 * the update goes on forwards from that segment, whatever else its lines match above. A hunk
 * written before one above it (reversed hunks, the same closers) has its lines all above.
 */
function reachesPastPrevious(ctx: MergeContext, k: number): boolean {
  const prev = onceRows(ctx, ctx.segments[k - 1]!, anchorRows(ctx, ctx.segments[k - 1]!));
  if (prev.length === 0) return false;
  const last = Math.max(...prev);
  return onceRows(ctx, ctx.segments[k]!, anchorRows(ctx, ctx.segments[k]!)).some((j) => j > last);
}

/**
 * Segment k closes the blocks the one before it left open (open-blocks.ts closesLeftOpenHeads) and
 * goes on below it: it is written inside those blocks, in the update's order, whatever its lines
 * copy from a look-alike block above.
 */
export function closesBlocksGoingOn(ctx: MergeContext, k: number): boolean {
  return k > 0 && closesLeftOpenHeads(ctx, k) && reachesPastPrevious(ctx, k);
}

/**
 * Where fileOrder puts segment k by its own lines: 'previous' when it travels with the segment
 * before it (no anchor of its own, or it goes on inside that segment's block), else the original
 * row of its anchor; null when that anchor is tied.
 */
export function segmentPlace(ctx: MergeContext, k: number): number | 'previous' | null {
  const seg = ctx.segments[k]!;
  // A segment closing the block the one before it left open, or going on inside the block the one
  // before it ends on, goes on right after it (open-blocks.ts).
  if (k > 0 && (continuesOpenBlock(ctx, k) || closesBlocksGoingOn(ctx, k) || staysInOpenerBlock(ctx, k))) return 'previous';
  const strong = anchorRows(ctx, seg);
  const p = strong.length > 0 ? pickPivot(ctx, seg, strong, 0) : null;
  // A segment with no exact anchor but an edited definition header at its start is placed there;
  // so is one whose lines are repeated in other bodies (a helper's `resp.raise_for_status()`).
  const resumed = p && !p.tied ? null : resumeAnchor(ctx, seg, 0);
  if (resumed) return resumed[1];
  // So is a hunk of edited lines only, on the lines it edits (edited-hunk.ts).
  const edited = p ? null : editedHunkRow(ctx, seg);
  if (edited !== null) return edited;
  // A segment with no anchor at all (closing lines after `import (` and a marker, a new method
  // after a marker inside its class) goes with the one before it, as the update wrote it.
  // So does one whose only line the original has is a common one it has several times (`case _ => false`
  // of a new `match`): new code, no anchor to reorder by.
  if ((!p || loneRepeatedAnchor(ctx, seg, strong, p.i)) && k > 0) return 'previous';
  if (!p || p.tied) return null;
  // The anchor's own position: a segment that opens with new lines (a function added before an
  // existing one) would otherwise seem to start before the previous segment's anchor.
  return p.j;
}

/**
 * Hunks written out of file order (a model answering the second request first): each segment's
 * best anchor looked up over the whole file. Returns the segment order by anchor position when that
 * differs from the update's order and every segment has an untied anchor; null otherwise.
 */
export function fileOrder(ctx: MergeContext): number[] | null {
  const segs = ctx.segments;
  if (segs.length < 2) return null;
  const at: number[] = [];
  for (let k = 0; k < segs.length; k++) {
    const place = segmentPlace(ctx, k);
    if (place === null) return null;
    at.push(place === 'previous' ? at[k - 1]! : place);
  }
  let ordered = true;
  for (let k = 1; k < at.length; k++) if (at[k]! < at[k - 1]!) ordered = false;
  if (ordered) return null;
  return at.map((_, k) => k).sort((a, b) => at[a]! - at[b]! || a - b);
}
