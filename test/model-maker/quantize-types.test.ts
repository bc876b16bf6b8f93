// The quantizers of the less common GGUF types (Q4_1, Q5_1, Q2_K, Q3_K, IQ4_NL, IQ4_XS, MXFP4):
// reconstruction error per type through the TS dequantizer, block formulas checked directly where
// the reference is closed-form (Q4_1 / Q5_1 / MXFP4), and the scale searches earning their keep.
// The native kernels read these blocks through their own code (native/tests/kernels_test.cc) and
// llama.cpp reads the generated files (test/exactness/forward-llamacpp.test.ts).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { f32ToF16Bits } from '../../src/gguf/fp16.js';
import { dequantize, e8m0ToF32Half, KVALUES_MXFP4, quantize } from '../../src/gguf/quantize.js';
import { BLOCK_LAYOUT, GgmlType, tensorBytes } from '../../src/gguf/types.js';
import { Rng } from '../../src/model-maker/prng.js';

const n = 256 * 64;
const x = new Float32Array(n);
new Rng('quant-types-test').fillNormal(x, 0.02);
for (let i = 0; i < 256; i++) x[i] = 0; // an all-zero super-block
x[300] = 0.5; // an outlier

function relErr(type: GgmlType, opts: { kSearch?: 'ref' | 'fast' } = {}): { rel: number; y: Float32Array; dst: Uint8Array } {
  const dst = new Uint8Array(tensorBytes(type, [n]));
  expect(quantize(type, x, dst, 0, opts)).toBe(dst.length);
  const y = dequantize(type, dst, 0, n);
  let err = 0;
  let ref = 0;
  for (let i = 0; i < n; i++) {
    err += (y[i]! - x[i]!) ** 2;
    ref += x[i]! ** 2;
  }
  return { rel: Math.sqrt(err / ref), y, dst };
}

describe('quantizers of the added types', () => {
  // Relative RMS error bounds, about 1.3x what was measured on this data (Q4_1 0.080, Q5_1 0.039,
  // Q2_K 0.292, Q3_K 0.152, IQ4_NL 0.080, IQ4_XS 0.081, MXFP4 0.116).
  const BOUNDS: Array<[string, GgmlType, number]> = [
    ['Q4_1', GgmlType.Q4_1, 0.105],
    ['Q5_1', GgmlType.Q5_1, 0.05],
    ['Q2_K', GgmlType.Q2_K, 0.38],
    ['Q3_K', GgmlType.Q3_K, 0.2],
    ['IQ4_NL', GgmlType.IQ4_NL, 0.105],
    ['IQ4_XS', GgmlType.IQ4_XS, 0.105],
    ['MXFP4', GgmlType.MXFP4, 0.15],
  ];
  it.each(BOUNDS)('%s reconstructs within its error bound', (_name, type, bound) => {
    const { rel, y, dst } = relErr(type);
    expect(rel).toBeLessThan(bound);
    for (let i = 0; i < 256; i++) expect(Math.abs(y[i]!)).toBe(0);
    expect(Math.abs(y[300]! - 0.5)).toBeLessThan(0.5 * bound);
    expect(dst.length / (n / BLOCK_LAYOUT[type].elems)).toBe(BLOCK_LAYOUT[type].bytes);
  });

  it('the scale searches (Q2_K, Q3_K, IQ4_NL, IQ4_XS) beat their initial fits', () => {
    for (const type of [GgmlType.Q2_K, GgmlType.Q3_K, GgmlType.IQ4_NL, GgmlType.IQ4_XS]) {
      expect(relErr(type).rel, `type ${type}`).toBeLessThan(relErr(type, { kSearch: 'fast' }).rel);
    }
    // IQ4_NL's non-linear grid fits normal data better than Q4_0's uniform one at the same size.
    expect(relErr(GgmlType.IQ4_NL).rel).toBeLessThan(relErr(GgmlType.Q4_0).rel);
  });

  it('Q4_1 / Q5_1 follow quantize_row_q4_1_ref: d = (max - min) / nmax, m = min, q = trunc((x - min) / d + 0.5)', () => {
    const v = new Float32Array(32);
    for (let i = 0; i < 32; i++) v[i] = Math.fround(Math.sin(i * 1.7) * 0.3 + 0.1);
    for (const [type, nmax, qs] of [[GgmlType.Q4_1, 15, 4], [GgmlType.Q5_1, 31, 8]] as const) {
      const dst = new Uint8Array(BLOCK_LAYOUT[type].bytes);
      quantize(type, v, dst);
      const min = Math.min(...v);
      const max = Math.max(...v);
      const d = Math.fround(Math.fround(max - min) / nmax);
      const id = Math.fround(1 / d);
      expect(dst[0]! | (dst[1]! << 8)).toBe(f32ToF16Bits(d));
      expect(dst[2]! | (dst[3]! << 8)).toBe(f32ToF16Bits(min));
      const qh = nmax === 31 ? dst[4]! | (dst[5]! << 8) | (dst[6]! << 16) | (dst[7]! << 24) : 0;
      for (let i = 0; i < 32; i++) {
        const want = Math.min(nmax, Math.trunc(Math.fround(Math.fround(Math.fround(v[i]! - min) * id) + 0.5)));
        const byte = dst[qs + (i % 16)]!;
        const got = (i < 16 ? byte & 15 : byte >> 4) | (((qh >>> i) & 1) << 4);
        expect(got, `type ${type} element ${i}`).toBe(want);
      }
    }
  });

  it('MXFP4 follows quantize_row_mxfp4_ref: e = floor(log2(amax)) + 125, nearest kvalues_mxfp4 * 2^(e-128)', () => {
    const v = new Float32Array(32);
    for (let i = 0; i < 32; i++) v[i] = (i - 13) * 0.37;
    const dst = new Uint8Array(17);
    quantize(GgmlType.MXFP4, v, dst);
    const amax = Math.max(...Array.from(v, Math.abs));
    expect(dst[0]).toBe(Math.floor(Math.log2(amax)) - 2 + 127);
    const d = e8m0ToF32Half(dst[0]!);
    expect(d).toBe(2 ** (dst[0]! - 128));
    for (let i = 0; i < 32; i++) {
      const byte = dst[1 + (i % 16)]!;
      const got = KVALUES_MXFP4[i < 16 ? byte & 15 : byte >> 4]! * d;
      const bestErr = Math.min(...KVALUES_MXFP4.map((k) => Math.abs(k * d - v[i]!)));
      expect(Math.abs(got - v[i]!), `element ${i}`).toBe(bestErr);
    }
    // The E8M0 scale's ggml bit patterns: subnormal for e < 2, exponent field e - 1 above.
    expect(e8m0ToF32Half(0)).toBe(2 ** -128);
    expect(e8m0ToF32Half(1)).toBe(2 ** -127);
    expect(e8m0ToF32Half(128)).toBe(1);
    expect(e8m0ToF32Half(254)).toBe(2 ** 126);
  });

  it('is deterministic', () => {
    for (const [, type] of BOUNDS) {
      const a = new Uint8Array(tensorBytes(type, [n]));
      const b = new Uint8Array(tensorBytes(type, [n]));
      quantize(type, x, a);
      quantize(type, x, b);
      expect(createHash('sha256').update(a).digest('hex')).toBe(createHash('sha256').update(b).digest('hex'));
    }
  });
});
