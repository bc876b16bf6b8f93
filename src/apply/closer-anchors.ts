// Closing lines of blocks that an earlier segment opened and left open across markers indented
// deeper than the closer. `namespace X {` / `class C {` / marker / new method / `    }` / `}`: the
// marker stands for the class's members, so the two closers are the class's and the namespace's own
// closing lines in the original, and the new method goes right before them. `func TestAdd(…) {` /
// marker / rows / marker / `}`: the `}` after the second marker still closes `TestAdd`, two
// segments back. Found by structure only (closer-resume.ts does the one-segment-back case for a
// segment's first line): the last shown line at or left of the closer's level in the segments
// before, which must be an opener at exactly that level, and the first original line back at that
// opener's level after it, which must read as the closer.
import { closersOnly } from './closer-resume.js';
import { CLOSER_LINE, type Lines } from './lines.js';
import type { Segment } from './merge-context.js';

interface PlacedSpan {
  readonly pairs: ReadonlyArray<readonly [number, number]>;
}

/**
 * The original line closing the block that segments before `k` left open at column `level`, when
 * it reads as `closer`; -1 otherwise. Every segment walked over must end with a marker indented
 * deeper than `level` and show no line at or left of it after the opener.
 */
function closerOfOpenBlock(o: Lines, segs: readonly Segment[], spans: ReadonlyArray<PlacedSpan | null>, k: number, level: number, closer: string): number {
  for (let q = k - 1; q >= 0; q--) {
    const prev = segs[q]!;
    const span = spans[q];
    if (!span || prev.markerAfterIndent === null || prev.markerAfterIndent <= level) return -1;
    const p = prev.lines;
    let x = p.text.length - 1;
    while (x >= 0 && (p.blank[x] || p.indent[x]! > level)) x--;
    if (x < 0) {
      if (!prev.markerBefore) return -1;
      continue;
    }
    if (p.indent[x] !== level || CLOSER_LINE.test(p.norm[x]!)) return -1;
    const pair = span.pairs.find(([i]) => i === x);
    if (!pair) return -1;
    const jp = pair[1];
    for (let y = jp + 1; y < o.text.length; y++) {
      if (o.blank[y] || o.indent[y]! > o.indent[jp]!) continue;
      return o.indent[y] === o.indent[jp] && o.norm[y] === closer ? y : -1;
    }
    return -1;
  }
  return -1;
}

/**
 * [segment line, original line] for a segment's first line when it closes a block opened two or
 * more segments back (the previous segment shows nothing at its level); null otherwise.
 */
export function closerResumeAcross(o: Lines, segs: readonly Segment[], spans: ReadonlyArray<PlacedSpan | null>, k: number): [number, number] | null {
  const seg = segs[k]!;
  // A last segment with no marker after it would end the file at the closer: left to the line merge.
  if (!seg.markerBefore || !seg.markerAfter || k === 0) return null;
  const s = seg.lines;
  let f = 0;
  while (f < s.text.length && s.blank[f]) f++;
  if (f >= s.text.length || !CLOSER_LINE.test(s.norm[f]!)) return null;
  const y = closerOfOpenBlock(o, segs, spans, k, s.indent[f]!, s.norm[f]!);
  return y >= 0 ? [f, y] : null;
}

/**
 * Anchors for a segment with no anchor of its own whose last lines close blocks opened before it
 * (new members, then the class's and namespace's closers): each trailing closer paired with its
 * block's closing line in the original, at or after `lo`, in order. Empty when any of them does not
 * resolve, when the segment is closers only (closer-resume's case), or when a line above a closer
 * sits at or left of its level (then it closes a block of the segment's own).
 */
export function closingTail(o: Lines, segs: readonly Segment[], spans: ReadonlyArray<PlacedSpan | null>, k: number, lo: number): Array<[number, number]> {
  const seg = segs[k]!;
  if (!seg.markerBefore || !seg.markerAfter || k === 0 || closersOnly(seg)) return [];
  const s = seg.lines;
  const tail: number[] = [];
  let x = s.text.length - 1;
  for (; x >= 0; x--) {
    if (s.blank[x]) continue;
    if (!CLOSER_LINE.test(s.norm[x]!)) break;
    tail.unshift(x);
  }
  if (tail.length === 0 || x < 0) return [];
  // A closer at or right of a line above it closes the segment's own block (the new method's `}`);
  // only those left of everything above them close blocks opened before.
  let minAbove = Infinity;
  for (let i = 0; i <= x; i++) if (!s.blank[i]) minAbove = Math.min(minAbove, s.indent[i]!);
  const pairs: Array<[number, number]> = [];
  let after = lo - 1;
  for (const i of tail) {
    if (s.indent[i]! >= minAbove) {
      if (pairs.length > 0) return [];
      continue;
    }
    minAbove = s.indent[i]!;
    const y = closerOfOpenBlock(o, segs, spans, k, s.indent[i]!, s.norm[i]!);
    if (y <= after) return [];
    pairs.push([i, y]);
    after = y;
  }
  return pairs;
}

/** Drops from the chains after `k` every anchor at or above original line `j` (chains stay in order). */
export function dropAnchorsAbove(chains: Array<Array<[number, number]>>, k: number, j: number): void {
  for (let q = k + 1; q < chains.length; q++) chains[q] = chains[q]!.filter(([, y]) => y > j);
}
