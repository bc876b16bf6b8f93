// GGUF writer <-> reader round trip (every metadata type, nested arrays, alignment, tensor
// offsets), fp16/bf16 rounding, and the quantizers' reconstruction error per type.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bf16BitsToF32, f16BitsToF32, f32ToBf16Bits, f32ToF16Bits } from '../../src/gguf/fp16.js';
import { readGgufHeader } from '../../src/gguf/gguf-reader.js';
import { GgufWriter } from '../../src/gguf/gguf-writer.js';
import { dequantize, quantize } from '../../src/gguf/quantize.js';
import { BLOCK_LAYOUT, GgmlType, GgufValueType, tensorBytes } from '../../src/gguf/types.js';
import { Rng } from '../../src/model-maker/prng.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-gguf-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('GGUF writer and reader', () => {
  it('round-trips every metadata type and the tensor table', async () => {
    const w = new GgufWriter();
    w.add('u8', GgufValueType.UINT8, 255)
      .add('i8', GgufValueType.INT8, -128)
      .add('u16', GgufValueType.UINT16, 65535)
      .add('i16', GgufValueType.INT16, -32768)
      .add('u32', GgufValueType.UINT32, 4294967295)
      .add('i32', GgufValueType.INT32, -2147483648)
      .add('f32', GgufValueType.FLOAT32, 0.5)
      .add('bool', GgufValueType.BOOL, true)
      .add('str', GgufValueType.STRING, 'héllo ✓')
      .add('u64', GgufValueType.UINT64, 2n ** 63n)
      .add('i64', GgufValueType.INT64, -5n)
      .add('f64', GgufValueType.FLOAT64, Math.PI)
      .array('strs', GgufValueType.STRING, ['a', '', 'ü'])
      .array('i32s', GgufValueType.INT32, [1, -2, 3])
      .array('f32s', GgufValueType.FLOAT32, [0.25, -1])
      .array('nested', GgufValueType.ARRAY, [{ elemType: GgufValueType.UINT8, items: [1, 2] }, { elemType: GgufValueType.STRING, items: ['x'] }]);
    const data = new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]);
    w.addTensor({ name: 'a', dims: [3], type: GgmlType.F32, produce: (emit) => emit(new Uint8Array(data.buffer, 0, 12)) });
    w.addTensor({ name: 'b', dims: [32, 2], type: GgmlType.Q8_0, produce: (emit) => emit(new Uint8Array(68)) });
    const path = join(dir, 'all.gguf');
    const size = await w.write(path);
    const h = readGgufHeader(path);
    expect(h.fileSize).toBe(size);
    expect(h.alignment).toBe(32);
    expect(h.metadata).toMatchObject({
      u8: 255, i8: -128, u16: 65535, i16: -32768, u32: 4294967295, i32: -2147483648, f32: 0.5, bool: true, str: 'héllo ✓',
      u64: 2n ** 63n, i64: -5, f64: Math.PI, strs: ['a', '', 'ü'], nested: [[1, 2], ['x']],
    });
    expect(Array.from(h.metadata['i32s'] as Int32Array)).toEqual([1, -2, 3]);
    expect(Array.from(h.metadata['f32s'] as Float32Array)).toEqual([0.25, -1]);
    expect(h.tensors.map((t) => [t.name, t.dims, t.type])).toEqual([['a', [3], GgmlType.F32], ['b', [32, 2], GgmlType.Q8_0]]);
    for (const t of h.tensors) expect(t.offset % 32).toBe(0);
    expect(h.tensors[1]!.offset - h.tensors[0]!.offset).toBe(32); // 12 bytes padded to 32
    const bytes = readFileSync(path);
    expect(Array.from(new Float32Array(bytes.buffer.slice(bytes.byteOffset + h.tensors[0]!.offset, bytes.byteOffset + h.tensors[0]!.offset + 12)))).toEqual([1, 2, 3]);
    expect(size).toBe(h.tensors[1]!.offset + 68 + (32 - (68 % 32)));
  });

  it('rejects bad input with clear errors and leaves no partial file', async () => {
    const w = new GgufWriter();
    expect(() => w.addTensor({ name: 'x', dims: [31], type: GgmlType.Q8_0, produce: () => {} })).toThrow(/multiple of 32/);
    expect(() => w.add('k', GgufValueType.UINT8, 256)).not.toThrow(); // checked when written
    await expect(w.write(join(dir, 'bad.gguf'))).rejects.toThrow(/out of range/);
    const w2 = new GgufWriter();
    w2.addTensor({ name: 't', dims: [4], type: GgmlType.F32, produce: (emit) => emit(new Uint8Array(8)) });
    await expect(w2.write(join(dir, 'short.gguf'))).rejects.toThrow(/produced 8 bytes, expected 16/);
    expect(() => readGgufHeader(join(dir, 'short.gguf'))).toThrow(/ENOENT/);
    expect(() => new GgufWriter(24)).toThrow(/alignment/);
  });

  it('removes temporary files that an interrupted earlier write left, not those of live writers', async () => {
    const path = join(dir, 'tmps', 'm.gguf');
    mkdirSync(join(dir, 'tmps'), { recursive: true });
    const dead = `${path}.tmp-999999999-1`; // no such pid
    const live = `${path}.tmp-${process.ppid}-2`; // the test runner's parent: alive
    const other = join(dir, 'tmps', 'n.gguf.tmp-999999999-3'); // another file's
    for (const f of [dead, live, other]) writeFileSync(f, 'partial');
    await new GgufWriter().array('tokens', GgufValueType.STRING, ['a']).write(path);
    expect([existsSync(dead), existsSync(live), existsSync(other), existsSync(path)]).toEqual([false, true, true, true]);
  });

  it('reports truncated and foreign files', async () => {
    const path = join(dir, 'trunc.gguf');
    const w = new GgufWriter().array('tokens', GgufValueType.STRING, ['a', 'b', 'c']);
    await w.write(path);
    const full = readFileSync(path);
    const cut = join(dir, 'cut.gguf');
    writeFileSync(cut, full.subarray(0, 40));
    expect(() => readGgufHeader(cut)).toThrow(/truncated/);
    writeFileSync(cut, Buffer.from('not a gguf file at all'));
    expect(() => readGgufHeader(cut)).toThrow(/not a GGUF file/);
    // A whole header over tensor data cut short: not a model either (svc model info said it was).
    const withData = join(dir, 'data.gguf');
    const size = await new GgufWriter().addTensor({ name: 'w', dims: [32, 4], type: GgmlType.Q8_0, produce: (emit) => emit(new Uint8Array(136)) }).write(withData);
    const whole = readFileSync(withData);
    writeFileSync(cut, whole.subarray(0, size - 100));
    expect(() => readGgufHeader(cut)).toThrow(/tensor 'w' extends past the end of the file/);
  });
});

describe('fp16 / bf16 rounding', () => {
  it('rounds to nearest even like _cvtss_sh', () => {
    const cases: Array<[number, number]> = [
      [0, 0x0000], [-0, 0x8000], [1, 0x3c00], [-2, 0xc000], [65504, 0x7bff], [65520, 0x7c00], [1e9, 0x7c00], [-Infinity, 0xfc00],
      [2 ** -24, 0x0001], [2 ** -25, 0x0000], [3 * 2 ** -25, 0x0002], [2 ** -14, 0x0400],
      [1 + 2 ** -11, 0x3c00], [1 + 3 * 2 ** -11, 0x3c02], [1 + 2 ** -10, 0x3c01], [0.1, 0x2e66],
    ];
    for (const [v, h] of cases) expect(f32ToF16Bits(v), `f16(${v})`).toBe(h);
    expect(f32ToF16Bits(NaN) & 0x7c00).toBe(0x7c00);
    expect(f16BitsToF32(0x3555)).toBeCloseTo(0.33325, 5);
    expect(f32ToBf16Bits(1)).toBe(0x3f80);
    expect(f32ToBf16Bits(1 + 2 ** -8)).toBe(0x3f80); // tie -> even
    expect(f32ToBf16Bits(1 + 3 * 2 ** -8)).toBe(0x3f82);
    expect(bf16BitsToF32(0xc040)).toBe(-3);
  });
});

describe('quantizers', () => {
  const n = 256 * 64;
  const x = new Float32Array(n);
  new Rng('quant-test').fillNormal(x, 0.02);
  for (let i = 0; i < 32; i++) x[i] = 0; // an all-zero block
  x[100] = 0.5; // an outlier

  // Relative RMS error bounds (measured 0.2-0.75x of these on this data).
  const BOUNDS: Array<[GgmlType, number]> = [
    [GgmlType.F16, 1e-3], [GgmlType.BF16, 6e-3], [GgmlType.Q8_0, 8e-3], [GgmlType.Q6_K, 3e-2], [GgmlType.Q5_0, 7e-2],
    [GgmlType.Q5_K, 5e-2], [GgmlType.Q4_0, 1.4e-1], [GgmlType.Q4_K, 1e-1],
  ];
  it.each(BOUNDS)('type %i reconstructs within its error bound', (type, bound) => {
    const dst = new Uint8Array(tensorBytes(type, [n]));
    expect(quantize(type, x, dst)).toBe(dst.length);
    const y = dequantize(type, dst, 0, n);
    let err = 0;
    let ref = 0;
    for (let i = 0; i < n; i++) {
      err += (y[i]! - x[i]!) ** 2;
      ref += x[i]! ** 2;
    }
    const rel = Math.sqrt(err / ref);
    expect(rel).toBeLessThan(bound);
    for (let i = 0; i < 32; i++) expect(Math.abs(y[i]!)).toBe(0);
    expect(Math.abs(y[100]! - 0.5)).toBeLessThan(0.5 * bound * 4);
    expect(dst.length / (n / BLOCK_LAYOUT[type].elems)).toBe(BLOCK_LAYOUT[type].bytes);
  });

  it('K-quants beat the legacy types of the same width (the scale/min search works)', () => {
    const rel = (type: GgmlType) => {
      const dst = new Uint8Array(tensorBytes(type, [n]));
      quantize(type, x, dst);
      const y = dequantize(type, dst, 0, n);
      let e = 0;
      for (let i = 0; i < n; i++) e += (y[i]! - x[i]!) ** 2;
      return e;
    };
    expect(rel(GgmlType.Q4_K)).toBeLessThan(rel(GgmlType.Q4_0));
    expect(rel(GgmlType.Q5_K)).toBeLessThan(rel(GgmlType.Q5_0));
  });

  it.each([GgmlType.Q4_K, GgmlType.Q5_K, GgmlType.Q6_K])("type %i with kSearch 'fast' stays within its bound", (type) => {
    const dst = new Uint8Array(tensorBytes(type, [n]));
    quantize(type, x, dst, 0, { kSearch: 'fast' });
    const y = dequantize(type, dst, 0, n);
    let err = 0;
    let ref = 0;
    for (let i = 0; i < n; i++) {
      err += (y[i]! - x[i]!) ** 2;
      ref += x[i]! ** 2;
    }
    expect(Math.sqrt(err / ref)).toBeLessThan(BOUNDS.find(([t]) => t === type)![1]);
  });

  it('Q8_0 follows quantize_row_q8_0_ref: d = fp16(amax/127), q = roundf(x * (1/d))', () => {
    const v = new Float32Array(32);
    for (let i = 0; i < 32; i++) v[i] = (i - 16) * 0.0625 + 0.03125; // ties after scaling exercise roundf
    const dst = new Uint8Array(34);
    quantize(GgmlType.Q8_0, v, dst);
    let amax = 0;
    for (const a of v) amax = Math.max(amax, Math.abs(a));
    const d = Math.fround(amax / 127);
    expect(dst[0]! | (dst[1]! << 8)).toBe(f32ToF16Bits(d));
    const id = Math.fround(1 / d);
    for (let i = 0; i < 32; i++) {
      const s = Math.fround(v[i]! * id);
      const q = s < 0 ? -Math.round(-s) : Math.round(s);
      expect((dst[2 + i]! << 24) >> 24, `element ${i}`).toBe(q);
    }
  });

  it('is deterministic', () => {
    for (const [type] of BOUNDS) {
      const a = new Uint8Array(tensorBytes(type, [n]));
      const b = new Uint8Array(tensorBytes(type, [n]));
      quantize(type, x, a);
      quantize(type, x, b);
      expect(createHash('sha256').update(a).digest('hex')).toBe(createHash('sha256').update(b).digest('hex'));
    }
  });
});
