// Seeded generators for the model maker: xoshiro128** streams keyed by (seed, tensor name), so a
// tensor's values do not depend on which other tensors were generated or in which order.

function cyrb128(str: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare = NaN;

  constructor(key: string) {
    [this.a, this.b, this.c, this.d] = cyrb128(key);
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** Uniform u32. */
  nextU32(): number {
    const r = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return r;
  }

  /** Uniform in (0, 1]. */
  uniform(): number {
    return (this.nextU32() + 1) / 4294967296;
  }

  /** Standard normal (Marsaglia polar method, both values used: no trigonometry). */
  normal(): number {
    if (!Number.isNaN(this.spare)) {
      const s = this.spare;
      this.spare = NaN;
      return s;
    }
    for (;;) {
      const u = this.nextU32() / 2147483648 - 1;
      const v = this.nextU32() / 2147483648 - 1;
      const s = u * u + v * v;
      if (s >= 1 || s === 0) continue;
      const m = Math.sqrt((-2 * Math.log(s)) / s);
      this.spare = v * m;
      return u * m;
    }
  }

  fillNormal(out: Float32Array, scale: number): void {
    for (let i = 0; i < out.length; i++) out[i] = this.normal() * scale;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
