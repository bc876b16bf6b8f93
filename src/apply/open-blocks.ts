// A segment that opens by closing blocks the segments before it left open (`asyncHandler(… => {`,
// marker, `})` / `);` / a new route; `if err != nil {`, marker, `}` / the function's rest) goes on
// from the block they opened: the update is written in file order up to it, whatever its own
// lines copy from elsewhere (set j js01, set h go02). Used by the hunk ordering (merge-fast.ts
// fileOrder, hunk-order.ts): such a segment travels with the one before it.
import { codeBracketDelta, startsWithCloser } from './brackets.js';
import { CLOSER_LINE, solidRow } from './lines.js';
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
