// A segment that opens by closing blocks the segments before it left open (`asyncHandler(… => {`,
// marker, `})` / `);` / a new route; `if err != nil {`, marker, `}` / the function's rest) goes on
// from the block they opened: the update is written in file order up to it, whatever its own
// lines copy from elsewhere (set j js01, set h go02). Used by the hunk ordering (merge-fast.ts
// fileOrder, hunk-order.ts): such a segment travels with the one before it.
import { codeBracketDelta, startsWithCloser } from './brackets.js';
import { assignmentKey, CLOSER_LINE, indentBlockEnd, solidRow, type Lines } from './lines.js';
import { ownerRow } from './line-identity.js';
import { sharedLines } from './look-alike-blocks.js';
import type { MergeContext } from './merge-context.js';

export function continuesOpenBlock(ctx: MergeContext, k: number): boolean {
  if (k === 0) return false;
  const l = ctx.segments[k]!.lines;
  let f = 0;
  while (f < l.text.length && l.blank[f]) f++;
  if (f >= l.text.length || !startsWithCloser(l.norm[f]!)) return false;
  let depth = 0;
  for (let q = 0; q < k; q++) for (const t of ctx.segments[q]!.lines.text) depth += codeBracketDelta(t);
  return depth > 0;
}

/**
 * Indentations of the heads the segment leaves open over its last line, innermost first: each line
 * above it less indented than every line after it (`scope "/admin" … do`, `live_session :admin,`),
 * and the last line itself when the marker after it is deeper. Empty when one of them is a closer.
 */
function leftOpenHeads(p: Lines, x: number, markerIndent: number): number[] {
  const heads: number[] = [];
  if (markerIndent > p.indent[x]! && !CLOSER_LINE.test(p.norm[x]!)) heads.push(p.indent[x]!);
  let level = p.indent[x]!;
  for (let r = x - 1; r >= 0 && level > 0; r--) {
    if (p.blank[r] || p.indent[r]! >= level) continue;
    level = p.indent[r]!;
    if (CLOSER_LINE.test(p.norm[r]!)) return [];
    heads.push(level);
  }
  return heads;
}

/**
 * The segment before `k` leaves blocks open with a marker inside the innermost, and segment k,
 * written deeper than that block's head, closes those blocks at their heads' indentations, innermost
 * first (`end` / `end`, `}` / `}`), up to the last of them or its own end: it goes on inside them,
 * right after that segment, whatever its lines copy from a look-alike block elsewhere (a second
 * `live_session` showing a route the first one has once). Keyword closers count, which bracket
 * depth (continuesOpenBlock) does not see.
 */
export function closesLeftOpenHeads(ctx: MergeContext, k: number): boolean {
  if (k === 0) return false;
  const prev = ctx.segments[k - 1]!;
  const seg = ctx.segments[k]!;
  if (!seg.markerBefore || prev.markerAfterIndent === null) return false;
  const p = prev.lines;
  const x = solidRow(p, p.text.length, -1);
  if (x < 0) return false;
  const heads = leftOpenHeads(p, x, prev.markerAfterIndent);
  // A top-level head (a Go `func main() {`) has no parent to keep the segment in: its hunks are ordered
  // by their own anchors as before (a new block there copies lines of another function).
  if (heads.length === 0 || heads[0]! === 0 || prev.markerAfterIndent <= heads[0]!) return false;
  const s = seg.lines;
  let closed = 0;
  let body = 0;
  for (let r = 0; r < s.text.length && closed < heads.length; r++) {
    if (s.blank[r]) continue;
    if (s.indent[r]! > heads[closed]!) {
      body++;
      continue;
    }
    if (s.indent[r] !== heads[closed] || !CLOSER_LINE.test(s.norm[r]!)) return false;
    closed++;
  }
  return closed > 0 && body > 0;
}

/**
 * The segment before `k` ends on a line with a marker indented deeper after it, and segment k's
 * first line is indented deeper than that line too: it goes on inside that line's block. Returns
 * the previous segment's last content line, or -1.
 */
export function resumesInsideOpener(ctx: MergeContext, k: number): number {
  if (k === 0) return -1;
  const prev = ctx.segments[k - 1]!;
  const seg = ctx.segments[k]!;
  if (!seg.markerBefore || prev.markerAfterIndent === null) return -1;
  const p = prev.lines;
  const x = solidRow(p, p.text.length, -1);
  // A closing line (`}` ending a class, then a marker at member depth) opens nothing.
  if (x < 0 || prev.markerAfterIndent <= p.indent[x]! || CLOSER_LINE.test(p.norm[x]!)) return -1;
  const s = seg.lines;
  const f = solidRow(s, -1, 1);
  return f >= 0 && s.indent[f]! > p.indent[x]! ? x : -1;
}

/**
 * The original range a segment resumes in when the one before it ends on a block's opening line
 * (`worker:`, `<ul class="features">`, `def run(self):`) with a marker indented deeper after it:
 * the marker stands for lines inside that block, so the segment's first lines, indented deeper
 * than the opener too, are in that block, not in a twin block elsewhere (set j yaml06: a compose
 * service's `redis:` / `condition:` copied from the api service; set h html02: a pricing card's
 * `<li>SSO</li>` that the next card has too). Returns [from, to) in the original and the segment
 * lines [first, end) that lie in the block, or null.
 */
export function openBlockRange(ctx: MergeContext, k: number, prevChain: ReadonlyArray<readonly [number, number]>): { from: number; to: number; end: number } | null {
  const x = resumesInsideOpener(ctx, k);
  if (x < 0 || prevChain.length === 0) return null;
  const p = ctx.segments[k - 1]!.lines;
  const s = ctx.segments[k]!.lines;
  let last = prevChain[prevChain.length - 1]!;
  // An Allman head anchored, its lone `{` (a weak line, no anchor) the opener: the block is that `{`'s.
  if (last[0] !== x && p.norm[x] === '{' && solidRow(p, last[0], 1) === x && ctx.orig.norm[solidRow(ctx.orig, last[1], 1)] === '{') last = [x, solidRow(ctx.orig, last[1], 1)];
  if (last[0] !== x) return null;
  const f = solidRow(s, -1, 1);
  let end = f;
  while (end < s.text.length && (s.blank[end] || s.indent[end]! > p.indent[x]!)) end++;
  const o = ctx.orig;
  const jp = last[1];
  let to = jp + 1;
  while (to < o.text.length && (o.blank[to] || o.indent[to]! > o.indent[jp]!)) to++;
  if (to === jp + 1) return null;
  return { from: jp + 1, to, end };
}

/**
 * The segment before `k` ends on a body line anchored at its last chain entry, with a marker at that
 * line's own depth after it, and segment k starts at that depth too: the marker stands for the
 * line's next siblings, so the segment goes on inside the same parent, not in a twin parent further
 * down (set br yaml41: a Deployment's `image:`, `# ...`, then `resources:` that another Deployment
 * matches better). Top-level lines have no parent to keep. Same shape as openBlockRange, or null.
 */
export function siblingBlockRange(ctx: MergeContext, k: number, prevChain: ReadonlyArray<readonly [number, number]>): { from: number; to: number; end: number } | null {
  if (k === 0 || prevChain.length === 0) return null;
  const prev = ctx.segments[k - 1]!;
  const seg = ctx.segments[k]!;
  if (!seg.markerBefore || prev.markerAfterIndent === null) return null;
  const p = prev.lines;
  const x = solidRow(p, p.text.length, -1);
  if (x < 0 || p.indent[x]! === 0 || prev.markerAfterIndent !== p.indent[x]! || CLOSER_LINE.test(p.norm[x]!)) return null;
  // The last anchor may stand a little above (an edited `image:` line), not above x's parent.
  const last = prevChain[prevChain.length - 1]!;
  if (last[0] > x || p.indent[last[0]]! < p.indent[x]! - 2) return null;
  for (let r = last[0] + 1; r < x; r++) if (!p.blank[r] && p.indent[r]! < p.indent[x]!) return null;
  const s = seg.lines;
  const f = solidRow(s, -1, 1);
  if (f < 0 || s.indent[f]! !== p.indent[x]!) return null;
  let end = f;
  while (end < s.text.length && (s.blank[end] || s.indent[end]! >= p.indent[x]!)) end++;
  const o = ctx.orig;
  const jp = last[1];
  const depth = o.indent[jp]! + p.indent[x]! - p.indent[last[0]]!;
  let to = jp + 1;
  while (to < o.text.length && (o.blank[to] || o.indent[to]! >= depth)) to++;
  if (to === jp + 1) return null;
  return { from: jp + 1, to, end };
}

/** Share of two blocks' lines (by key for `key: value` lines) that must agree for clones. */
const CLONE_SHARE = 0.8;

/** A block's solid lines read by shape: a setting's key (its value aside), else the whole line. */
function skeleton(o: Lines, h: number): string[] {
  const out: string[] = [];
  const end = indentBlockEnd(o, h);
  for (let y = h + 1; y < end; y++) if (!o.blank[y]) out.push(assignmentKey(o.norm[y]!) ?? o.norm[y]!);
  return out;
}

/**
 * Original row j lies inside a clone of the block holding rows [from, to) (siblingBlockRange): the
 * block's head and the head above j at that head's depth are different lines whose blocks set the
 * same keys in the same shape (twin resources, Deployments, services). Only then does the pin choose
 * between look-alike parents; a hunk whose lines fit another, unlike block goes there as before.
 */
export function inCloneOf(o: Lines, from: number, to: number, j: number): boolean {
  if (j >= from && j < to) return false;
  const r = solidRow(o, from - 1, 1);
  if (r < 0 || r >= to) return false;
  const h = ownerRow(o, r);
  if (h < 0) return false;
  let g = ownerRow(o, j);
  while (g >= 0 && o.indent[g]! > o.indent[h]!) g = ownerRow(o, g);
  if (g < 0 || g === h || o.indent[g]! !== o.indent[h]! || o.norm[g] === o.norm[h]) return false;
  const a = skeleton(o, h);
  const b = skeleton(o, g);
  return a.length > 0 && sharedLines(a, b) >= CLONE_SHARE * Math.max(a.length, b.length);
}

/**
 * The last segment goes on inside the block of a line the original has once (resumesInsideOpener),
 * and that block ends before the file does: the segment ending like the file's last lines (a twin
 * class's method) does not make it the file's end (set h py01).
 */
export function insideBlockBeforeEnd(ctx: MergeContext): boolean {
  const k = ctx.segments.length - 1;
  const x = resumesInsideOpener(ctx, k);
  if (x < 0) return false;
  const pos = ctx.index.get(ctx.segments[k - 1]!.lines.norm[x]!);
  if (!pos || pos.length !== 1) return false;
  const o = ctx.orig;
  const jp = pos[0]!;
  let to = jp + 1;
  while (to < o.text.length && (o.blank[to] || o.indent[to]! > o.indent[jp]!)) to++;
  return to < o.text.length && to > jp + 1;
}

/**
 * For fileOrder: the block [from, to) of the line the segment before `k` ends on, when the segment
 * goes on inside it (resumesInsideOpener) and that line is one the original has once; with `end`,
 * the segment lines [0, end) indented deeper than it. Null otherwise.
 */
export function uniqueOpenerBlock(ctx: MergeContext, k: number): { from: number; to: number; end: number } | null {
  const x = resumesInsideOpener(ctx, k);
  if (x < 0) return null;
  const p = ctx.segments[k - 1]!.lines;
  const pos = ctx.index.get(p.norm[x]!);
  if (!pos || pos.length !== 1) return null;
  return openBlockRange(ctx, k, [[x, pos[0]!]]);
}
