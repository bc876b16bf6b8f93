// svc-v3-large: global sequence alignment of the update against the original. Every occurrence of
// every strong segment line is a candidate; a sparse dynamic programme chooses, over all segments
// at once, the monotone chains with the best score (line weights and surrounding-line agreement,
// minus deletion, block-crossing and context-free jump penalties). So an early hunk cannot grab an
// occurrence a later hunk needs, and repeated anchors are resolved by order and context. It also
// measures how far the chosen placement is ahead of the best alternative (the confidence signal).
import {
  crossesBlock, editedNeighbours, jumpSupported, neighbourAgreement, resumeAnchor, sameBlockHeader, strongSupport,
  type Chain, type MergeContext, type Segment,
} from './merge-context.js';
import { inNamedScope } from './instruction-scope.js';
import { coincidentAnchor } from './coincident-anchors.js';
import { anchorRows } from './merge-fast.js';
import { writtenOutNotes } from './copied-anchor.js';
import { underOtherHead } from './foreign-head.js';
import { settingOfOtherItem } from './sibling-items.js';

export interface LargeChains {
  chains: Chain[];
  ambiguities: string[];
  /** 0..1: the smallest margin, over segments, between the chosen placement and the next best one. */
  confidence: number;
  /** False when the candidate set was too large and the caller should use the fast chains. */
  complete: boolean;
}

/** Occurrences above which a line is too common to be a candidate (it is matched by the fill). */
const MAX_OCCURRENCES = 64;
/** Candidates per segment the quadratic chain step accepts. */
const MAX_CANDIDATES = 4000;
/** Segments × original lines above which the per-segment state arrays get too big: use fast chains. */
const MAX_STATE_CELLS = 8_000_000;
/** Per deleted original line: a tie-breaker toward compact spans, small enough that deletions by omission still win. */
const DELETE_PENALTY = 0.0005;
/** Deleting across a block boundary or jumping without context costs more than any single match earns. */
const CROSS_PENALTY = 2.5;
const JUMP_PENALTY = 2.5;
/** A segment with no anchor at all. */
const UNANCHORED_PENALTY = 0;
/** Weight added to a segment's resume anchor (its first line, unique in the original): more than a few coinciding lines. */
const RESUME_BONUS = 5;
/** Margin (in score units) below which two placements are called ambiguous. */
const AMBIGUITY_MARGIN = 0.3;

interface Cand {
  i: number;
  j: number;
  w: number;
  best: number;
  /** Predecessor candidate in this segment, or -1 when the chain starts here. */
  back: number;
  /** When the chain starts here: the previous segments' state (end position) it continues from. */
  from: number;
}

function weight(norm: string, occurrences: number): number {
  return 1 + Math.min(norm.length, 60) / 60 + (occurrences === 1 ? 0.25 : 0);
}

/** Segment lines on each side searched for a unique line a repeated candidate conflicts with. */
const UNIQUE_REACH = 64;
/** Slack (original lines) beyond the segment distance within which a conflict counts. */
const UNIQUE_SLACK = 8;
/** What a conflicting repeated candidate keeps of its weight. */
const CONFLICT_FACTOR = 0.1;

/**
 * A repeated line's occurrence that the chain could not take together with a nearby line the original
 * has once (the unique line further on in the segment sits earlier in the file, or the other way
 * round, within the segment's own distance): mostly new code copying the next function's lines, so
 * it weighs little against that unique anchor (merge-fast.ts `passesUnique`, the same rule greedily).
 */
function discountUniqueConflicts(ctx: MergeContext, seg: Segment, cands: Cand[]): void {
  const unique: Array<[number, number]> = [];
  for (const c of cands) if (ctx.index.get(seg.lines.norm[c.i]!)?.length === 1) unique.push([c.i, c.j]);
  if (unique.length === 0) return;
  for (const c of cands) {
    if ((ctx.index.get(seg.lines.norm[c.i]!)?.length ?? 0) <= 1) continue;
    for (const [ui, uj] of unique) {
      const di = ui - c.i;
      if (di === 0 || Math.abs(di) > UNIQUE_REACH) continue;
      const dj = uj - c.j;
      if (Math.sign(dj) !== -Math.sign(di) || Math.abs(dj) > Math.abs(di) + UNIQUE_SLACK) continue;
      c.w *= CONFLICT_FACTOR;
      break;
    }
  }
}

export function largeChains(ctx: MergeContext): LargeChains {
  const o = ctx.orig;
  const N = o.text.length;
  const segs = ctx.segments;
  if (segs.length * (N + 1) > MAX_STATE_CELLS) return { chains: [], ambiguities: [], confidence: 0, complete: false };
  // state[x]: best score of segments so far with the last span ending at or before x.
  let state = new Float64Array(N + 1);
  // Per segment, for backtracking: the candidates and, per end position, which candidate achieved it.
  const perSeg: Array<{ cands: Cand[]; endArg: Int32Array; prevArg: Int32Array }> = [];
  let prevArg = new Int32Array(N + 1).fill(-1);
  let confidence = 1;
  const ambiguities: string[] = [];

  for (let k = 0; k < segs.length; k++) {
    const seg = segs[k]!;
    const cands: Cand[] = [];
    // The line a segment resumes at after a marker outweighs what its new code shares with other lines.
    const resume = resumeAnchor(ctx, seg, 0);
    // An edited header is no exact candidate of its own: it joins as one, first (its line opens the segment).
    if (resume && seg.lines.norm[resume[0]] !== ctx.orig.norm[resume[1]]) {
      cands.push({ i: resume[0], j: resume[1], w: weight(seg.lines.norm[resume[0]]!, 1) + RESUME_BONUS, best: -Infinity, back: -1, from: -1 });
    }
    ambiguities.push(...writtenOutNotes(k, seg, segs, o, ctx.index));
    for (const i of anchorRows(ctx, seg)) {
      const pos = ctx.index.get(seg.lines.norm[i]!);
      if (!pos || pos.length > MAX_OCCURRENCES) continue;
      const w = weight(seg.lines.norm[i]!, pos.length);
      for (const j of pos) {
        if (pos.length > 1 && !sameBlockHeader(ctx, seg, i, j)) continue;
        if (underOtherHead(ctx, seg, i, j)) continue;
        // A setting a new list item copies from another item is no anchor there (sibling-items.ts).
        if (settingOfOtherItem(o, j, seg.lines, i)) continue;
        // Among copies: same indentation, then the same spacing inside the line (as in merge-fast's pivot).
        const context = 0.05 * neighbourAgreement(ctx, seg, i, j) + (pos.length > 1 ? 0.03 * editedNeighbours(ctx, seg, i, j) + (o.indent[j] === seg.lines.indent[i] ? 0.01 : 0) +
          (o.text[j]!.trim() === seg.lines.text[i]!.trim() ? 0.005 : 0) +
          (ctx.scopeNames && inNamedScope(o, j, ctx.scopeNames) ? 0.0025 : 0) : 0);
        const resumes = resume !== null && resume[0] === i && resume[1] === j ? RESUME_BONUS : 0;
        cands.push({ i, j, w: w + context + resumes, best: -Infinity, back: -1, from: -1 });
      }
    }
    if (cands.length > MAX_CANDIDATES) return { chains: [], ambiguities: [], confidence: 0, complete: false };
    discountUniqueConflicts(ctx, seg, cands);
    // Candidates come out grouped by i ascending, j ascending within a line.
    const headDeletion = k === 0 && !seg.markerBefore;
    const tailDeletion = k === segs.length - 1 && !seg.markerAfter;
    const repeated = cands.map((c) => (ctx.index.get(seg.lines.norm[c.i]!)?.length ?? 0) > 1);
    for (let c = 0; c < cands.length; c++) {
      const cur = cands[c]!;
      // Start a chain here, continuing the best earlier state that ends at or before j.
      let best = state[cur.j]! + cur.w - (headDeletion ? DELETE_PENALTY * cur.j : 0);
      let back = -1;
      for (let p = 0; p < c; p++) {
        const prev = cands[p]!;
        if (prev.i >= cur.i || prev.j >= cur.j) continue;
        let score = prev.best + cur.w;
        // New code sharing a repeated line with the original is no anchor there (coincident-anchors.ts).
        if (repeated[c] && coincidentAnchor(seg.lines, o, prev.i, prev.j, cur.i, cur.j, 1, true)) score -= JUMP_PENALTY;
        const deleted = cur.j - prev.j - 1 - (cur.i - prev.i - 1);
        if (deleted > 0) {
          score -= DELETE_PENALTY * deleted;
          if (crossesBlock(ctx, prev.j, cur.j, seg, prev.i, cur.i) && !strongSupport(ctx, seg, cur.i, cur.j)) score -= CROSS_PENALTY;
          if (!jumpSupported(ctx, seg, prev.i, prev.j, cur.i, cur.j)) score -= JUMP_PENALTY;
        }
        if (score > best) {
          best = score;
          back = p;
        }
      }
      cur.best = best;
      cur.back = back;
      cur.from = back < 0 ? cur.j : -1;
    }
    // New state: best end score per position; the segment may also stay unanchored.
    const next = new Float64Array(N + 1);
    const endArg = new Int32Array(N + 1).fill(-1);
    const endScore = new Float64Array(N + 1).fill(-Infinity);
    for (let c = 0; c < cands.length; c++) {
      const cur = cands[c]!;
      const e = cur.best - (tailDeletion ? DELETE_PENALTY * (N - 1 - cur.j) : 0);
      if (e > endScore[cur.j + 1]!) {
        endScore[cur.j + 1] = e;
        endArg[cur.j + 1] = c;
      }
    }
    let run = -Infinity;
    let runArg = -1;
    const nextPrevArg = new Int32Array(N + 1).fill(-1);
    for (let x = 0; x <= N; x++) {
      if (endScore[x]! > run) {
        run = endScore[x]!;
        runArg = x;
      }
      const passthrough = state[x]! - UNANCHORED_PENALTY;
      if (runArg >= 0 && run >= passthrough) {
        next[x] = run;
        nextPrevArg[x] = runArg;
      } else {
        next[x] = passthrough;
        nextPrevArg[x] = -2 - x; // unanchored: continue from state x of the previous segment
      }
    }
    perSeg.push({ cands, endArg, prevArg: nextPrevArg });
    prevArg = nextPrevArg;
    state = next;
  }

  // Backtrack from the final state at N.
  const chains: Chain[] = new Array(segs.length);
  let x = N;
  for (let k = segs.length - 1; k >= 0; k--) {
    const { cands, endArg, prevArg: pa } = perSeg[k]!;
    const arg = pa[x]!;
    if (arg <= -2) {
      chains[k] = [];
      ambiguities.push(`segment ${k + 1} has no anchor line in the original`);
      x = -2 - arg;
      continue;
    }
    let c = endArg[arg]!;
    const chain: Chain = [];
    const chosenEnd = cands[c]!;
    let startJ = chosenEnd.j;
    while (c >= 0) {
      const cand = cands[c]!;
      chain.unshift([cand.i, cand.j]);
      startJ = cand.j;
      if (cand.back < 0) break;
      c = cand.back;
    }
    chains[k] = chain;
    // Confidence: best end score of a chain lying wholly outside the chosen span.
    const chosenScore = chosenEnd.best;
    let alt = -Infinity;
    for (const cand of cands) {
      if (cand.j >= startJ && cand.j <= chosenEnd.j) continue;
      if (cand.best > alt) alt = cand.best;
    }
    if (alt > -Infinity) {
      const margin = chosenScore - alt;
      confidence = Math.min(confidence, Math.max(0, Math.min(1, margin / 2)));
      if (margin < AMBIGUITY_MARGIN) ambiguities.push(`segment ${k + 1}: another placement scores within ${margin.toFixed(2)}`);
    }
    x = startJ;
  }
  return { chains, ambiguities, confidence, complete: true };
}
