// Longest-common-subsequence alignment of two line sequences, fast on the sizes apply sees
// (10,000-line files): the common prefix first, then lines unique to both sides anchor the
// alignment (patience diff) where the rest is large, and the gaps between anchors are solved
// exactly by dynamic programming when small, or by their common suffix when nothing is unique.

/** Cells above which a gap is first split at lines unique to both sides (patience). */
const MAX_DP_CELLS = 40_000;
/** Cells above which a gap without unique lines is left unmatched in its middle. */
const MAX_BIG_DP_CELLS = 2_000_000;

/** Matched index pairs [a index, b index], ascending in both. */
export type Pairs = Array<[number, number]>;

/**
 * `lateDeletions`: where equal lines make several alignments equally long, prefer the one whose
 * unmatched lines come last (common prefix taken first) rather than first (common suffix first).
 */
export function alignLines(a: readonly string[], b: readonly string[], lateDeletions = false): Pairs {
  const out: Pairs = [];
  if (lateDeletions) {
    solve(a, 0, a.length, b, 0, b.length, out, 0);
    return out;
  }
  // Early deletions: align the reversed sequences with the same routine and mirror the result.
  const ra = [...a].reverse();
  const rb = [...b].reverse();
  solve(ra, 0, ra.length, rb, 0, rb.length, out, 0);
  return out.map(([i, j]) => [a.length - 1 - i, b.length - 1 - j] as [number, number]).reverse();
}

function solve(a: readonly string[], a0: number, a1: number, b: readonly string[], b0: number, b1: number, out: Pairs, depth: number): void {
  // Common prefix.
  while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) out.push([a0++, b0++]);
  const n = a1 - a0;
  const m = b1 - b0;
  if (n === 0 || m === 0) return;
  // Small middles: the exact LCS, whose traceback matches as early as it can. Large ones: lines
  // unique on both sides anchor the alignment first (no common-suffix trim before that: it would
  // move the unmatched lines forward, away from where the exact LCS puts them).
  if (n * m <= MAX_DP_CELLS) {
    dpLcs(a, a0, a1, b, b0, b1, out);
    return;
  }
  if (depth < 12 && patience(a, a0, a1, b, b0, b1, out, depth)) return;
  // Nothing unique: the common suffix, then the exact LCS when it became small enough.
  const tail: Pairs = [];
  while (a1 > a0 && b1 > b0 && a[a1 - 1] === b[b1 - 1]) tail.push([--a1, --b1]);
  if ((a1 - a0) * (b1 - b0) <= MAX_BIG_DP_CELLS) dpLcs(a, a0, a1, b, b0, b1, out);
  for (let k = tail.length - 1; k >= 0; k--) out.push(tail[k]!);
}

function dpLcs(a: readonly string[], a0: number, a1: number, b: readonly string[], b0: number, b1: number, out: Pairs): void {
  const n = a1 - a0;
  const m = b1 - b0;
  const w = m + 1;
  const dp = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    const ai = a[a0 + i];
    for (let j = m - 1; j >= 0; j--) {
      dp[i * w + j] = ai === b[b0 + j] ? dp[(i + 1) * w + j + 1]! + 1 : Math.max(dp[(i + 1) * w + j]!, dp[i * w + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[a0 + i] === b[b0 + j]) {
      out.push([a0 + i, b0 + j]);
      i++;
      j++;
    } else if (dp[(i + 1) * w + j]! >= dp[i * w + j + 1]!) i++;
    else j++;
  }
}

/** Lines occurring exactly once on each side, aligned by their longest increasing run; gaps recurse. */
function patience(a: readonly string[], a0: number, a1: number, b: readonly string[], b0: number, b1: number, out: Pairs, depth: number): boolean {
  const countA = new Map<string, number>();
  for (let i = a0; i < a1; i++) countA.set(a[i]!, (countA.get(a[i]!) ?? 0) + 1);
  const posB = new Map<string, number>();
  const countB = new Map<string, number>();
  for (let j = b0; j < b1; j++) {
    countB.set(b[j]!, (countB.get(b[j]!) ?? 0) + 1);
    posB.set(b[j]!, j);
  }
  const cand: Pairs = [];
  for (let i = a0; i < a1; i++) {
    const s = a[i]!;
    if (countA.get(s) === 1 && countB.get(s) === 1) cand.push([i, posB.get(s)!]);
  }
  const anchors = longestIncreasing(cand);
  if (anchors.length === 0) return false;
  let pa = a0;
  let pb = b0;
  for (const [i, j] of anchors) {
    solve(a, pa, i, b, pb, j, out, depth + 1);
    out.push([i, j]);
    pa = i + 1;
    pb = j + 1;
  }
  solve(a, pa, a1, b, pb, b1, out, depth + 1);
  return true;
}

/** Longest subsequence of pairs (sorted by first) increasing in the second, O(n log n). */
function longestIncreasing(pairs: Pairs): Pairs {
  const tailIdx: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let k = 0; k < pairs.length; k++) {
    const v = pairs[k]![1];
    let lo = 0;
    let hi = tailIdx.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tailIdx[mid]!]![1] < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tailIdx[lo - 1]!;
    tailIdx[lo] = k;
  }
  const res: Pairs = [];
  let k = tailIdx.length > 0 ? tailIdx[tailIdx.length - 1]! : -1;
  while (k >= 0) {
    res.push(pairs[k]!);
    k = prev[k]!;
  }
  return res.reverse();
}

/** What an output keeps of an original, by aligning their lines: each side's row on the other, -1 where none. */
export interface KeptRows {
  /** Per output row, the original row it keeps (-1: a new line). */
  from: Int32Array;
  /** Per original row, the output row that keeps it (-1: not kept). */
  at: Int32Array;
}

/** The alignment of original lines `orig` with output lines `out` (normalized texts), read both ways. */
export function keptRows(orig: readonly string[], out: readonly string[]): KeptRows {
  const from = new Int32Array(out.length).fill(-1);
  const at = new Int32Array(orig.length).fill(-1);
  for (const [j, k] of alignLines(orig, out)) {
    from[k] = j;
    at[j] = k;
  }
  return { from, at };
}
