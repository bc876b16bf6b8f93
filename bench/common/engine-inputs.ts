// Inputs and the summary the engine benchmarks (bench/engine) share.

/** `n` token ids from a fixed LCG seeded by `seed`, in [200, 200 + min(vocab - 300, 100000)):
 *  clear of the special tokens at the start of a vocabulary, and the same prompt run to run. */
export function randomTokens(n: number, seed: number, vocab: number): Uint32Array {
  const out = new Uint32Array(n);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out[i] = 200 + (x % Math.min(vocab - 300, 100000));
  }
  return out;
}

/** The middle sample (the lower of the two middle ones for an even count): always a rate that
 *  was measured, unlike src/bench/stats.ts' interpolated median; NaN for none. */
export function middleSample(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
}
