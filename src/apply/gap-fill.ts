// Matches segment lines against original lines between two anchors (or a segment against a
// window) by LCS: equal text, weak lines only at the expected indentation shift.
import type { Lines } from './lines.js';

/** Above this many cells the gap between two anchors is matched from both ends instead of by LCS. */
const MAX_FILL_CELLS = 4_000_000;

export function fillEqual(s: Lines, i: number, o: Lines, j: number, delta: number): boolean {
  if (s.norm[i] !== o.norm[j]) return false;
  if (s.blank[i]) return true;
  if (!s.weak[i]) return true;
  return o.indent[j]! - s.indent[i]! === delta;
}

/** A chain with the lines between its anchors matched (fillGap), ascending. */
export function fillChain(s: Lines, o: Lines, chain: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let c = 0; c < chain.length; c++) {
    const cur = chain[c]!;
    if (c > 0) {
      const prev = chain[c - 1]!;
      const local = o.indent[prev[1]]! - s.indent[prev[0]]!;
      fillGap(s, prev[0], cur[0], o, prev[1], cur[1], local, pairs);
    }
    pairs.push(cur);
  }
  return pairs;
}

/** Matches segment lines (a0, a1) against original lines (b0, b1), exclusive bounds, by LCS. */
export function fillGap(s: Lines, a0: number, a1: number, o: Lines, b0: number, b1: number, delta: number, out: Array<[number, number]>): void {
  const n = a1 - a0 - 1;
  const m = b1 - b0 - 1;
  if (n <= 0 || m <= 0) return;
  if (n * m > MAX_FILL_CELLS) {
    const head: Array<[number, number]> = [];
    let i = a0 + 1;
    let j = b0 + 1;
    while (i < a1 && j < b1 && fillEqual(s, i, o, j, delta)) head.push([i++, j++]);
    const tail: Array<[number, number]> = [];
    let x = a1 - 1;
    let y = b1 - 1;
    while (x >= i && y >= j && fillEqual(s, x, o, y, delta)) tail.push([x--, y--]);
    out.push(...head, ...tail.reverse());
    return;
  }
  const w = m + 1;
  const dp = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i * w + j] = fillEqual(s, a0 + 1 + i, o, b0 + 1 + j, delta)
        ? dp[(i + 1) * w + j + 1]! + 1
        : Math.max(dp[(i + 1) * w + j]!, dp[i * w + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (fillEqual(s, a0 + 1 + i, o, b0 + 1 + j, delta) && dp[i * w + j] === dp[(i + 1) * w + j + 1]! + 1) {
      out.push([a0 + 1 + i, b0 + 1 + j]);
      i++;
      j++;
    } else if (dp[(i + 1) * w + j]! >= dp[i * w + j + 1]!) i++;
    else j++;
  }
}
