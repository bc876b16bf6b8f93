// Summary statistics for latency samples. Percentiles use linear interpolation between closest
// ranks (numpy's default), so results can be checked against any standard tool.

export interface Summary {
  count: number;
  mean: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p99: number;
}

/** q in [0, 1]; `sorted` ascending and non-empty. */
export function percentileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const pos = (n - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (pos - lo);
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return { count: 0, mean: Number.NaN, min: Number.NaN, max: Number.NaN, p50: Number.NaN, p90: Number.NaN, p99: Number.NaN };
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count: sorted.length,
    mean: sum / sorted.length,
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
    p50: percentileSorted(sorted, 0.5),
    p90: percentileSorted(sorted, 0.9),
    p99: percentileSorted(sorted, 0.99),
  };
}

export function median(values: readonly number[]): number {
  return summarize(values).p50;
}

/** Deterministic PRNG (mulberry32) so datasets and arrival schedules repeat run to run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Poisson process: exponential gaps with mean 1/rate seconds. */
export function poissonArrivals(ratePerSecond: number, count: number, rand: () => number): number[] {
  const times: number[] = [];
  let t = 0;
  for (let i = 0; i < count; i++) {
    times.push(t);
    t += -Math.log(1 - rand()) / ratePerSecond;
  }
  return times;
}
