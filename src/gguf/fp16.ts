// IEEE half and bfloat16 conversions with the rounding ggml uses on x86 (round to nearest even).

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** fp32 -> fp16 bits, round to nearest even (as _cvtss_sh(x, 0) / GGML_FP32_TO_FP16). */
export function f32ToF16Bits(v: number): number {
  f32[0] = v;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant !== 0 ? 0x200 | (mant >>> 13) : 0);
  const e = exp - 112; // rebias 127 -> 15
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && (h & 1) !== 0)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1) !== 0)) h++; // a carry rolls into the exponent, as it should
  return sign | h;
}

let f16Table: Float32Array | null = null;

/** fp16 bits -> number (exact). */
export function f16BitsToF32(h: number): number {
  if (f16Table === null) {
    f16Table = new Float32Array(65536);
    for (let i = 0; i < 65536; i++) {
      const s = i & 0x8000 ? -1 : 1;
      const e = (i >>> 10) & 0x1f;
      const m = i & 0x3ff;
      f16Table[i] = e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
    }
  }
  return f16Table[h & 0xffff]!;
}

/** Rounds a number through fp16 and back (GGML_FP16_TO_FP32(GGML_FP32_TO_FP16(x))). */
export function roundF16(v: number): number {
  return f16BitsToF32(f32ToF16Bits(v));
}

/** fp32 -> bf16 bits as ggml_compute_fp32_to_bf16 (round to nearest even, quiet NaN). */
export function f32ToBf16Bits(v: number): number {
  f32[0] = v;
  const u = u32[0]!;
  if ((u & 0x7fffffff) > 0x7f800000) return ((u >>> 16) | 64) & 0xffff;
  return ((u + (0x7fff + ((u >>> 16) & 1))) >>> 16) & 0xffff;
}

export function bf16BitsToF32(b: number): number {
  u32[0] = (b & 0xffff) << 16;
  return f32[0]!;
}
