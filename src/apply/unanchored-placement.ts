// Places segments that no anchor chain placed: at a file edge, after the imports, at the end of a
// shown block, before an outer closer, or on an edited line or common lines found in their window.
import { inOtherNewBlock, underOtherHead } from './foreign-head.js';
import { bracketDelta } from './brackets.js';
import { separatorChanged } from './member-separators.js';
import type { Lines } from './lines.js';
import { dice, editedVersion, firstToken, sliceLines, solidRow, tokens } from './lines.js';
import type { Chain, MergeContext, Segment } from './merge-context.js';
import { otherStyleRule } from './block-names.js';
import { namesDiffer, renameShownInPlace, sameDepth, sameOwner } from './line-identity.js';
import { newTrailingDefinition, newTrailingDefinitions } from './appended-definition.js';
import { CLOSER_ONLY } from './closer-pins.js';
import { copiedRanges, outsideCopies } from './copied-sibling.js';
import { otherDefinition } from './edge-growth.js';
import { fillChain, fillGap } from './gap-fill.js';
import type { Span } from './merge-finish.js';

/** Net count of opening minus closing brackets over lines [a, b) (string contents are not skipped). */
function bracketBalance(l: Lines, a: number, b: number): number {
  let d = 0;
  for (let j = a; j < b; j++) d += bracketDelta(l.text[j]!);
  return d;
}

/** How far from the file's edge an unanchored edge segment may reach, in multiples of its length. */
const EDGE_REACH = 3;
const MAX_EDGE_REACH = 64;

/**
 * An unanchored segment at the file's start or end: the span [a, hi) ('tail') or [lo, b) ('head')
 * whose LCS with the segment, minus the original lines it would delete, is best.
 */
function bestEdgeSpan(s: Lines, o: Lines, lo: number, hi: number, side: 'head' | 'tail' | 'whole'): Span {
  if (side === 'whole') {
    const pairs: Array<[number, number]> = [];
    fillGap(s, -1, s.text.length, o, lo - 1, hi, 0, pairs);
    return { start: lo, end: hi, pairs, delta: 0 };
  }
  const n = s.text.length;
  const segBalance = bracketBalance(s, 0, n);
  const reach = Math.min(hi - lo, EDGE_REACH * n + 2, MAX_EDGE_REACH);
  let best: Span = side === 'tail' ? { start: hi, end: hi, pairs: [], delta: 0 } : { start: lo, end: lo, pairs: [], delta: 0 };
  let bestScore = 0;
  for (let len = 1; len <= reach; len++) {
    const a = side === 'tail' ? hi - len : lo;
    const b = side === 'tail' ? hi : lo + len;
    const pairs: Array<[number, number]> = [];
    fillGap(s, -1, n, o, a - 1, b, 0, pairs);
    // Every original line in the span must be matched or it is deleted; the span's outer edge must match.
    const edgeMatched = pairs.some(([, j]) => j === (side === 'tail' ? a : b - 1));
    if (!edgeMatched) continue;
    // The replaced original text must open and close as many brackets as the segment does, so a
    // new block's `}` does not stand in for the original's.
    if (bracketBalance(o, a, b) !== segBalance) continue;
    const score = pairs.length - 1.01 * (len - pairs.length);
    if (score > bestScore) {
      bestScore = score;
      best = { start: a, end: b, pairs, delta: 0 };
    }
  }
  return best;
}

const IMPORT_LIKE = /^(import\b|from\s+\S+\s+import\b|#include\b|using\b|use\b|require\b|const\s+\w+\s*=\s*require\(|@import\b|package\b)/;

/**
 * Places a segment with no anchor inside the free window [lo, hi): at the file's end when it is the
 * last segment and no marker follows, at the start when it is the first and none precedes, after the
 * imports when it is imports, else just before hi. Context lines it shares with the window's edges are absorbed.
 */
export function placeUnanchored(ctx: MergeContext, seg: Segment, lo: number, hi: number, isFirst: boolean, isLast: boolean): Span {
  const o = ctx.orig;
  const s = seg.lines;
  const n = s.text.length;
  const pairs: Array<[number, number]> = [];
  const insertAt = (g: number): Span => closersAt(s, o, g, hi) ?? { start: g, end: g, pairs, delta: 0 };
  if (!seg.markerAfter && isLast) {
    // A new definition after a marker is appended, not matched against the last one (appended-definition.ts).
    // So is one followed by the closers of the blocks it goes into (`}` of the class): those are the original's (closersAt).
    const own = sliceLines(s, 0, outerClosersStart(s));
    if (seg.markerBefore && (newTrailingDefinition(own, o) || newTrailingDefinitions(own, o))) return insertAt(beforeOuterClosers(o, s, lo, hi));
    // The segment ends the file: choose its start so it replaces the original tail it matches best.
    const tail = pastCopiedLead(s, o, bestEdgeSpan(s, o, lo, hi, seg.markerBefore ? 'tail' : 'whole'));
    // New lines only, after a marker: like a new definition, inside the blocks the window's closers end.
    if (seg.markerBefore && tail.pairs.length === 0 && tail.start === hi && tail.end === hi) return insertAt(beforeOuterClosers(o, s, lo, hi));
    return tail;
  }
  if (!seg.markerBefore && isFirst) return bestEdgeSpan(s, o, lo, hi, 'head');
  let firstContent = 0;
  while (firstContent < n && s.blank[firstContent]) firstContent++;
  if (IMPORT_LIKE.test(s.norm[firstContent] ?? '')) {
    let lastImport = -1;
    for (let j = lo; j < hi; j++) if (IMPORT_LIKE.test(o.norm[j]!)) lastImport = j;
    if (lastImport >= 0) return insertAt(lastImport + 1);
  }
  // Just before hi, past trailing blank lines of the window so the insert sits after the last code.
  let g = beforeOuterClosers(o, s, lo, hi);
  while (g > lo && o.blank[g - 1]) g--;
  return insertAt(g);
}

/**
 * Where the segment's trailing closers that close blocks opened above it begin (`}` of the object a
 * new method is appended to: the segment's bracket count runs negative there); the segment's length
 * when its last lines close only its own blocks.
 */
function outerClosersStart(s: Lines): number {
  let last = s.text.length - 1;
  while (last >= 0 && s.blank[last]) last--;
  let first = last;
  while (first >= 0 && !s.blank[first] && CLOSER_ONLY.test(s.norm[first]!) && bracketDelta(s.text[first]!) < 0) first--;
  first++;
  if (first > last) return s.text.length;
  let open = bracketBalance(s, 0, first);
  let outer = first;
  while (outer <= last && open + bracketDelta(s.text[outer]!) >= 0) open += bracketDelta(s.text[outer++]!);
  return outer > last ? s.text.length : outer;
}

/**
 * A segment going in at g, right before original closers, that ends with those same closers
 * (outerClosersStart): they are the original's closers shown, paired with them, not new ones
 * written before them. Null when the segment has no such closers or they differ from the
 * original's in [g, hi) (text or indentation).
 */
function closersAt(s: Lines, o: Lines, g: number, hi: number): Span | null {
  const outer = outerClosersStart(s);
  if (outer >= s.text.length) return null;
  const pairs: Array<[number, number]> = [];
  for (let i = outer, j = g; i < s.text.length; i++, j++) {
    if (s.blank[i]) break;
    if (j >= hi || o.blank[j] || o.norm[j] !== s.norm[i] || o.indent[j] !== s.indent[i]) return null;
    pairs.push([i, j]);
  }
  return { start: g, end: g + pairs.length, pairs, delta: 0 };
}

/**
 * A tail span whose segment opens (blank lines aside) with a block copied from the original block
 * it was matched into (copied-sibling.ts: a new route written like the last one): the copy is new
 * lines, so the span starts after that original block, which stays, and its lines pair with nothing.
 */
function pastCopiedLead(s: Lines, o: Lines, span: Span): Span {
  const copies = copiedRanges(s, o, span.pairs);
  if (copies.length === 0) return span;
  const first = Math.min(...copies.map(([sb]) => sb[0]));
  if (span.pairs.some(([i]) => i < first && !s.blank[i])) return span;
  const past = Math.max(...copies.map(([, ob]) => ob[1] + 1));
  if (past > span.end) return span;
  return { ...span, start: Math.max(span.start, past), pairs: outsideCopies(span.pairs, copies).filter(([, j]) => j >= past) };
}

/**
 * Where new lines written at a member's depth go when the previous hunk stands inside a block whose
 * closer the update does not show (`companion object {…}` after `// ... the other methods ...`, the
 * class's `}` left out): before that closer, the first line after lo shallower than the segment, when
 * it lies in the window [lo, hi). hi otherwise: a segment at column 0, no previous hunk, a previous
 * hunk outside such a block, a block ended by a dedent rather than a closer.
 */
function beforeOuterClosers(o: Lines, s: Lines, lo: number, hi: number): number {
  let first = 0;
  while (first < s.text.length && s.blank[first]) first++;
  const depth = s.indent[first] ?? 0;
  const above = solidRow(o, lo, -1);
  if (depth === 0 || above < 0 || o.indent[above]! < depth) return hi;
  for (let y = lo; y < hi; y++) {
    if (o.blank[y] || o.indent[y]! >= depth) continue;
    return CLOSER_ONLY.test(o.norm[y]!) ? y : hi;
  }
  return hi;
}

/**
 * `branches:` (a block header ending the previous segment), an indented marker, then new lines with
 * no anchor (`- next`): the marker stands for the block's existing lines, so the new lines go at the
 * end of that block. Returns the insertion line, or -1 when the previous segment does not end on a
 * matched header that the segment and its marker sit inside.
 */
export function endOfShownBlock(o: Lines, prev: Segment, prevSpan: Span, seg: Segment, lo: number, hi: number): number {
  const p = prev.lines;
  let last = p.text.length - 1;
  while (last >= 0 && p.blank[last]) last--;
  const pair = prevSpan.pairs.find(([i]) => i === last);
  if (!pair || prev.markerAfterIndent === null) return -1;
  const h = pair[1];
  const s = seg.lines;
  let first = 0;
  while (first < s.text.length && s.blank[first]) first++;
  if (first >= s.text.length || !/[:{[(]$/.test(o.norm[h]!)) return -1;
  if (prev.markerAfterIndent <= p.indent[last]! || s.indent[first]! <= p.indent[last]!) return -1;
  // The header's block: deeper lines after it (its closing line, when it has one, stays after the insert).
  let end = h + 1;
  for (let y = h + 1; y < o.text.length && (o.blank[y] || o.indent[y]! > o.indent[h]!); y++) if (!o.blank[y]) end = y + 1;
  return end >= lo && end <= hi ? end : -1;
}

/** Segment lines and window lines examined when looking for an edited-line anchor. */
const MAX_SIMILAR_SEGMENT_LINES = 24;
const MAX_SIMILAR_WINDOW = 20_000;
/**
 * For a segment whose lines all changed: the most similar (segment line, original line) pair in the
 * window, e.g. `timeoutMs: 30000,` for `timeoutMs: 10000,`.
 */
export function similarAnchor(ctx: MergeContext, seg: Segment, lo: number, hi: number, leads: string[]): Chain {
  const o = ctx.orig;
  const s = seg.lines;
  const found: Array<{ i: number; j: number; score: number }> = [];
  let seen = 0;
  for (let i = 0; i < s.text.length && seen < MAX_SIMILAR_SEGMENT_LINES; i++) {
    if (s.weak[i]) continue;
    seen++;
    const lead = firstToken(s.norm[i]!);
    for (let j = lo; j < hi && j - lo < MAX_SIMILAR_WINDOW; j++) {
      // Same first token first (cheap), then the full test: edits rarely change how a line starts.
      if (o.weak[j] || leads[j] !== lead || !editedVersion(o.norm[j]!, s.norm[i]!)) continue;
      if (otherDefinition(o.norm[j]!, s.norm[i]!) || (otherStyleRule(o.norm[j]!, s.norm[i]!) && !renameShownInPlace(s, i, o, j)) || (namesDiffer(o.norm[j]!, s.norm[i]!) && !renameShownInPlace(s, i, o, j)) || !sameOwner(s, i, o, j) || !sameDepth(s, i, o, j) || inOtherNewBlock(ctx, s, i, o, j)) continue;
      // Not a line under another head than the one the update shows it under (foreign-head.ts): such
      // a line is no candidate at all, so the twin under the shown head is picked among the rest.
      if (underOtherHead(ctx, seg, i, j)) continue;
      found.push({ i, j, score: dice(o.norm[j]!, s.norm[i]!) });
    }
  }
  if (found.length === 0) return [];
  found.sort((a, b) => b.score - a.score || a.j - b.j);
  // One candidate per implied stretch (the most similar line in it).
  const starts = new Set<number>();
  const stretches = found.filter(({ i, j }) => !starts.has(j - i) && starts.add(j - i));
  // A line shown with only its trailing separator changed is that line (a member appended after it):
  // it outweighs real edits of other lines, whose stretches may hold more of the segment's tokens
  // when its new lines copy their neighbours (`akka-http-testkit` beside `akka-http`).
  const unchanged = stretches.filter(({ i, j }) => separatorChanged(o.norm[j]!, s.norm[i]!));
  const cands = (unchanged.length > 0 ? unchanged : stretches).slice(0, MAX_SIMILAR_CANDIDATES);
  const picked = cands.length > 1 ? distinctiveCandidate(s, o, cands) : cands[0]!;
  return [[picked.i, picked.j]];
}

/** Edited-line candidates compared by the segment's distinctive tokens. */
const MAX_SIMILAR_CANDIDATES = 8;

/**
 * Twin lines (a Prev and a Next button) are both edited versions of the segment's changed line, and
 * the one most alike character by character may be the wrong twin. The original stretch each
 * candidate implies (as long as the segment) is scored by the segment's tokens it holds, each token
 * weighted by how few candidate stretches hold it (`Next`, `+` decide; `button`, `onClick` do not).
 * Ties keep the most similar line.
 */
function distinctiveCandidate(s: Lines, o: Lines, cands: Array<{ i: number; j: number; score: number }>): { i: number; j: number; score: number } {
  const segTokens = new Set<string>();
  for (let i = 0; i < s.text.length; i++) if (!s.blank[i]) for (const t of tokens(s.norm[i]!)) segTokens.add(t);
  const windows = cands.map(({ i, j }) => {
    const held = new Set<string>();
    const a = Math.max(0, j - i);
    for (let y = a; y < Math.min(o.text.length, a + s.text.length); y++) for (const t of tokens(o.norm[y]!)) if (segTokens.has(t)) held.add(t);
    return held;
  });
  const holders = new Map<string, number>();
  for (const w of windows) for (const t of w) holders.set(t, (holders.get(t) ?? 0) + 1);
  let best = 0;
  let bestScore = -1;
  windows.forEach((w, c) => {
    let score = 0;
    for (const t of w) score += 1 / holders.get(t)!;
    if (score > bestScore + 1e-9) {
      bestScore = score;
      best = c;
    }
  });
  return cands[best]!;
}

/** Cells above which the weak-line alignment of an unanchored segment is skipped. */
const MAX_WEAK_CELLS = 2_000_000;
export const MAX_WEAK_TOTAL_CELLS = 20_000_000;

/**
 * A segment made only of new lines and common ones (`return true;`, `}`): align it to its window by
 * LCS (indentation-exact) and keep the densest cluster of non-blank matches as its anchors.
 */
export function weakAnchor(ctx: MergeContext, seg: Segment, lo: number, hi: number, budget: { cells: number }): Chain {
  const s = seg.lines;
  const o = ctx.orig;
  const cells = (hi - lo) * s.text.length;
  if (cells > MAX_WEAK_CELLS || cells > budget.cells || hi <= lo) return [];
  budget.cells -= cells;
  const pairs: Array<[number, number]> = [];
  fillGap(s, -1, s.text.length, o, lo - 1, hi, 0, pairs);
  const solid = pairs.filter(([i]) => !s.blank[i]);
  if (solid.length === 0) return [];
  let best: Chain = [];
  let cur: Chain = [];
  for (const p of solid) {
    const prev = cur[cur.length - 1];
    if (prev && p[1] - prev[1] > p[0] - prev[0] + 3) {
      if (cur.length > best.length) best = cur;
      cur = [];
    }
    cur.push(p);
  }
  if (cur.length > best.length) best = cur;
  return best;
}

/**
 * An edited-line chain without the pairs inside a block the segment copies from the one it was
 * matched into (copied-sibling.ts): the head of a new sibling (`post("/{id}/renew") {` written like
 * `post("/{id}/return") {`) read as that head's edit would stand the copy in for its neighbour.
 */
export function outsideCopiedHeads(s: Lines, o: Lines, chain: Chain, renamedOnly = false): Chain {
  if (chain.length === 0) return chain;
  const copies = copiedRanges(s, o, fillChain(s, o, chain), renamedOnly);
  return copies.length === 0 ? chain : outsideCopies(chain, copies);
}

/**
 * New lines going in at the end of a shown block (before original line p, its closer): when the
 * segment ends with the block's own last lines (`return nil` / `}`, as the original has them up to
 * and including p), those are paired with them and the new lines go before them (set j go05).
 */
export function closingTailAt(s: Lines, o: Lines, p: number, lo: number): Span {
  const pairs: Array<[number, number]> = [];
  let i = s.text.length - 1;
  let j = p;
  while (i >= 0 && s.blank[i]) i--;
  // Net brackets the segment opens before row x: a line closing a block the segment itself opened is new.
  let open = 0;
  for (let x = 0; x < i; x++) open += bracketDelta(s.text[x]!);
  while (i >= 0 && j >= lo && j < o.text.length && !s.blank[i] && !o.blank[j] && s.norm[i] === o.norm[j] && s.indent[i] === o.indent[j] && open <= 0) {
    pairs.unshift([i, j]);
    i--;
    j--;
    if (i >= 0) open -= bracketDelta(s.text[i]!);
  }
  // Only the closer itself, or nothing, matched: the plain insertion before p.
  if (pairs.length < 2) return { start: p, end: p, pairs: [], delta: 0 };
  return { start: j + 1, end: p + 1, pairs, delta: 0 };
}
