// Row encoders for every tensor type the generator writes, following llama.cpp's reference
// quantize_row_*_ref routines (ggml-quants.c). Q8_0/Q4_0/Q5_0/Q4_1/Q5_1 use fp32 arithmetic step
// by step (Math.fround) so their blocks match the reference byte for byte; the K-quants follow
// make_qkx2_quants / make_qx_quants / make_q3_quants, IQ4_NL/IQ4_XS quantize_row_iq4_nl_impl
// (without an importance matrix, as llama-quantize without --imatrix) and MXFP4
// quantize_row_mxfp4_ref, in double precision (valid blocks, not bit-exact).
import { f32ToBf16Bits, f32ToF16Bits, f16BitsToF32 } from './fp16.js';
import { BLOCK_LAYOUT, GgmlType, ggmlTypeName } from './types.js';

const fr = Math.fround;
const QK_K = 256;
const GROUP_MAX_EPS = 1e-15;

/** roundf: half away from zero. */
function roundf(v: number): number {
  return v < 0 ? -Math.round(-v) : Math.round(v);
}

/** ggml's nearest_int: fp32 round to nearest even via the 1.5*2^23 trick. */
function nearestInt(v: number): number {
  return fr(fr(v) + 12582912) - 12582912;
}

/** Round to nearest even in double precision (1.5*2^52 trick): the search loops' rounding, which
 *  differs from nearestInt only when fp32 rounding of the argument would move it across .5. */
function rne(v: number): number {
  return v + 6755399441055744 - 6755399441055744;
}

function putF16(dst: Uint8Array, o: number, v: number): number {
  const h = f32ToF16Bits(v);
  dst[o] = h & 0xff;
  dst[o + 1] = h >>> 8;
  return f16BitsToF32(h);
}

export interface QuantizeOptions {
  /** K-quant scale search: 'ref' runs llama.cpp's grid search (make_qkx2_quants 16-21 steps,
   *  make_qx_quants 18 steps); 'fast' keeps only the initial fit (valid blocks, a bit more error,
   *  several times faster: for benchmark-sized models whose weights are noise anyway). */
  kSearch?: 'ref' | 'fast';
}

/** Encodes src (length a multiple of the type's block size) into dst at offset; returns bytes written. */
export function quantize(type: GgmlType, src: Float32Array, dst: Uint8Array, offset = 0, opts: QuantizeOptions = {}): number {
  const fast = opts.kSearch === 'fast';
  const layout = BLOCK_LAYOUT[type];
  if (src.length % layout.elems !== 0) throw new Error(`${ggmlTypeName(type)}: ${src.length} is not a multiple of ${layout.elems}`);
  const n = (src.length / layout.elems) * layout.bytes;
  if (offset + n > dst.length) throw new Error(`${ggmlTypeName(type)}: destination too small`);
  switch (type) {
    case GgmlType.F32:
      dst.set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength), offset);
      break;
    case GgmlType.F16:
      for (let i = 0, o = offset; i < src.length; i++, o += 2) {
        const h = f32ToF16Bits(src[i]!);
        dst[o] = h & 0xff;
        dst[o + 1] = h >>> 8;
      }
      break;
    case GgmlType.BF16:
      for (let i = 0, o = offset; i < src.length; i++, o += 2) {
        const h = f32ToBf16Bits(src[i]!);
        dst[o] = h & 0xff;
        dst[o + 1] = h >>> 8;
      }
      break;
    case GgmlType.Q8_0:
      quantizeQ8_0(src, dst, offset);
      break;
    case GgmlType.Q4_0:
      quantizeQ4_0(src, dst, offset);
      break;
    case GgmlType.Q5_0:
      quantizeQ5_0(src, dst, offset);
      break;
    case GgmlType.Q4_K:
      quantizeQ45K(src, dst, offset, false, fast);
      break;
    case GgmlType.Q5_K:
      quantizeQ45K(src, dst, offset, true, fast);
      break;
    case GgmlType.Q6_K:
      quantizeQ6K(src, dst, offset, fast);
      break;
    case GgmlType.Q4_1:
      quantizeQ_1(src, dst, offset, false);
      break;
    case GgmlType.Q5_1:
      quantizeQ_1(src, dst, offset, true);
      break;
    case GgmlType.Q2_K:
      quantizeQ2K(src, dst, offset, fast);
      break;
    case GgmlType.Q3_K:
      quantizeQ3K(src, dst, offset, fast);
      break;
    case GgmlType.IQ4_NL:
      for (let b = 0, o = offset; b < src.length; b += 32, o += 18) quantizeIq4(src, b, 32, dst, o, fast ? 0 : 7);
      break;
    case GgmlType.IQ4_XS:
      for (let b = 0, o = offset; b < src.length; b += QK_K, o += 136) quantizeIq4(src, b, QK_K, dst, o, fast ? 0 : 7);
      break;
    case GgmlType.MXFP4:
      quantizeMxfp4(src, dst, offset);
      break;
    default:
      throw new Error(`quantize: unsupported type ${ggmlTypeName(type)}`);
  }
  return n;
}

/** The value of largest magnitude among x[start .. start+n), sign kept (the first on ties, 0 for
 *  an all-zero run): what ggml's quantizers scale by. */
function signedAbsMax(x: Float32Array, start: number, n: number): number {
  let amax = 0;
  let max = 0;
  for (let i = start; i < start + n; i++) {
    const v = x[i]!;
    if (Math.abs(v) > amax) {
      amax = Math.abs(v);
      max = v;
    }
  }
  return max;
}

function quantizeQ8_0(x: Float32Array, dst: Uint8Array, offset: number): void {
  for (let b = 0, o = offset; b < x.length; b += 32, o += 34) {
    let amax = 0;
    for (let j = 0; j < 32; j++) {
      const a = Math.abs(x[b + j]!);
      if (a > amax) amax = a;
    }
    const d = fr(amax / 127);
    const id = d !== 0 ? fr(1 / d) : 0;
    putF16(dst, o, d);
    for (let j = 0; j < 32; j++) {
      const v = fr(x[b + j]! * id);
      dst[o + 2 + j] = Math.trunc(v + (v < 0 ? -0.5 : 0.5)) & 0xff; // roundf (exact: v + 0.5 is exact in double)
    }
  }
}

function quantizeQ4_0(x: Float32Array, dst: Uint8Array, offset: number): void {
  for (let b = 0, o = offset; b < x.length; b += 32, o += 18) {
    const max = signedAbsMax(x, b, 32);
    const d = fr(max / -8);
    const id = d !== 0 ? fr(1 / d) : 0;
    putF16(dst, o, d);
    for (let j = 0; j < 16; j++) {
      const x0 = fr(x[b + j]! * id);
      const x1 = fr(x[b + 16 + j]! * id);
      const xi0 = Math.min(15, Math.trunc(fr(x0 + 8.5)));
      const xi1 = Math.min(15, Math.trunc(fr(x1 + 8.5)));
      dst[o + 2 + j] = xi0 | (xi1 << 4);
    }
  }
}

function quantizeQ5_0(x: Float32Array, dst: Uint8Array, offset: number): void {
  for (let b = 0, o = offset; b < x.length; b += 32, o += 22) {
    const max = signedAbsMax(x, b, 32);
    const d = fr(max / -16);
    const id = d !== 0 ? fr(1 / d) : 0;
    putF16(dst, o, d);
    let qh = 0;
    for (let j = 0; j < 16; j++) {
      const x0 = fr(x[b + j]! * id);
      const x1 = fr(x[b + 16 + j]! * id);
      const xi0 = Math.min(31, Math.trunc(fr(x0 + 16.5)));
      const xi1 = Math.min(31, Math.trunc(fr(x1 + 16.5)));
      dst[o + 6 + j] = (xi0 & 0x0f) | ((xi1 & 0x0f) << 4);
      qh |= ((xi0 & 0x10) >>> 4) << j;
      qh |= ((xi1 & 0x10) >>> 4) << (j + 16);
    }
    dst[o + 2] = qh & 0xff;
    dst[o + 3] = (qh >>> 8) & 0xff;
    dst[o + 4] = (qh >>> 16) & 0xff;
    dst[o + 5] = (qh >>> 24) & 0xff;
  }
}

// Scratch buffers reused across blocks (the generator is single-threaded).
const L = new Uint8Array(QK_K);
const Laux = new Uint8Array(32);
const weights = new Float64Array(32);
const scalesK = new Float64Array(QK_K / 16);
const minsK = new Float64Array(QK_K / 32);
const minOut = new Float64Array(1);
const sc8 = new Uint8Array(12);

const dx = new Float64Array(32);

/** make_qkx2_quants: asymmetric (scale, min) fit of n values to 0..nmax by a small grid search. */
function makeQkx2(x: Float32Array, xo: number, n: number, nmax: number, lo: number, rmin: number, rdelta: number, nstep: number, useMad = false): number {
  let min = x[xo]!;
  let max = x[xo]!;
  let sumW = weights[0]!;
  let sumX = sumW * x[xo]!;
  for (let i = 1; i < n; i++) {
    const v = x[xo + i]!;
    if (v < min) min = v;
    if (v > max) max = v;
    const w = weights[i]!;
    sumW += w;
    sumX += w * v;
  }
  if (min > 0) min = 0;
  if (max === min) {
    for (let i = 0; i < n; i++) L[lo + i] = 0;
    minOut[0] = -min;
    return 0;
  }
  let range = max - min;
  let iscale = nmax / range;
  let scale = 1 / iscale;
  let bestMad = 0;
  for (let i = 0; i < n; i++) {
    dx[i] = x[xo + i]! - min;
    let l = rne(iscale * dx[i]!);
    l = l < 0 ? 0 : l > nmax ? nmax : l;
    L[lo + i] = l;
    const diff = scale * l + min - x[xo + i]!;
    bestMad += weights[i]! * (useMad ? Math.abs(diff) : diff * diff);
  }
  if (nstep < 1) {
    minOut[0] = -min;
    return scale;
  }
  for (let is = 0; is <= nstep; is++) {
    iscale = (rmin + rdelta * is + nmax) / range;
    let sumL = 0;
    let sumL2 = 0;
    let sumXL = 0;
    for (let i = 0; i < n; i++) {
      let l = rne(iscale * dx[i]!);
      l = l < 0 ? 0 : l > nmax ? nmax : l;
      Laux[i] = l;
      const wl = weights[i]! * l;
      sumL += wl;
      sumL2 += wl * l;
      sumXL += wl * x[xo + i]!;
    }
    const D = sumW * sumL2 - sumL * sumL;
    if (D > 0) {
      let thisScale = (sumW * sumXL - sumX * sumL) / D;
      let thisMin = (sumL2 * sumX - sumL * sumXL) / D;
      if (thisMin > 0) {
        thisMin = 0;
        thisScale = sumXL / sumL2;
      }
      let mad = 0;
      for (let i = 0; i < n; i++) {
        const diff = thisScale * Laux[i]! + thisMin - x[xo + i]!;
        mad += weights[i]! * (useMad ? Math.abs(diff) : diff * diff);
      }
      if (mad < bestMad) {
        for (let i = 0; i < n; i++) L[lo + i] = Laux[i]!;
        bestMad = mad;
        scale = thisScale;
        min = thisMin;
        // The reference keeps searching from the new min (iscale and x - min use it).
        range = max - min;
        for (let i = 0; i < n; i++) dx[i] = x[xo + i]! - min;
      }
    }
  }
  minOut[0] = -min;
  return scale;
}

/** get_scale_min_k4 over the packed 12-byte scales. */
function scaleMinK4(j: number, s: Uint8Array, so: number): [number, number] {
  if (j < 4) return [s[so + j]! & 63, s[so + j + 4]! & 63];
  return [(s[so + j + 4]! & 0xf) | ((s[so + j - 4]! >>> 6) << 4), (s[so + j + 4]! >>> 4) | ((s[so + j]! >>> 6) << 4)];
}

/** quantize_row_q4_K_ref / quantize_row_q5_K_ref. */
function quantizeQ45K(x: Float32Array, dst: Uint8Array, offset: number, five: boolean, fast: boolean): void {
  const bytes = five ? 176 : 144;
  const nmax = five ? 31 : 15;
  for (let b = 0, o = offset; b < x.length; b += QK_K, o += bytes) {
    let maxScale = 0;
    let maxMin = 0;
    for (let j = 0; j < QK_K / 32; j++) {
      const xo = b + 32 * j;
      let sumX2 = 0;
      for (let l = 0; l < 32; l++) sumX2 += x[xo + l]! * x[xo + l]!;
      const avX = Math.sqrt(sumX2 / 32);
      for (let l = 0; l < 32; l++) weights[l] = avX + Math.abs(x[xo + l]!);
      const s = five ? makeQkx2(x, xo, 32, nmax, 32 * j, -0.5, 0.1, fast ? 0 : 15) : makeQkx2(x, xo, 32, nmax, 32 * j, -1, 0.1, fast ? 0 : 20);
      scalesK[j] = s;
      minsK[j] = minOut[0]!;
      if (s > maxScale) maxScale = s;
      if (minOut[0]! > maxMin) maxMin = minOut[0]!;
    }
    const invScale = maxScale > 0 ? 63 / maxScale : 0;
    const invMin = maxMin > 0 ? 63 / maxMin : 0;
    sc8.fill(0);
    for (let j = 0; j < QK_K / 32; j++) {
      const ls = Math.min(63, nearestInt(invScale * scalesK[j]!));
      const lm = Math.min(63, nearestInt(invMin * minsK[j]!));
      if (j < 4) {
        sc8[j] = ls;
        sc8[j + 4] = lm;
      } else {
        sc8[j + 4] = (ls & 0xf) | ((lm & 0xf) << 4);
        sc8[j - 4]! |= (ls >>> 4) << 6;
        sc8[j]! |= (lm >>> 4) << 6;
      }
    }
    const d = putF16(dst, o, maxScale / 63);
    const dmin = putF16(dst, o + 2, maxMin / 63);
    for (let k = 0; k < 12; k++) dst[o + 4 + k] = sc8[k]!;
    for (let j = 0; j < QK_K / 32; j++) {
      const [sc, m] = scaleMinK4(j, sc8, 0);
      const dd = d * sc;
      if (dd === 0) continue;
      const dm = dmin * m;
      for (let ii = 0; ii < 32; ii++) {
        const l = nearestInt((x[b + 32 * j + ii]! + dm) / dd);
        L[32 * j + ii] = Math.max(0, Math.min(nmax, l));
      }
    }
    if (!five) {
      let q = o + 16;
      for (let j = 0; j < QK_K; j += 64) {
        for (let l = 0; l < 32; l++) dst[q + l] = L[j + l]! | (L[j + l + 32]! << 4);
        q += 32;
      }
    } else {
      const qh = o + 16;
      let ql = o + 48;
      for (let k = 0; k < 32; k++) dst[qh + k] = 0;
      let m1 = 1;
      let m2 = 2;
      for (let n = 0; n < QK_K; n += 64) {
        for (let j = 0; j < 32; j++) {
          let l1 = L[n + j]!;
          if (l1 > 15) {
            l1 -= 16;
            dst[qh + j]! |= m1;
          }
          let l2 = L[n + j + 32]!;
          if (l2 > 15) {
            l2 -= 16;
            dst[qh + j]! |= m2;
          }
          dst[ql + j] = l1 | (l2 << 4);
        }
        m1 <<= 2;
        m2 <<= 2;
        ql += 32;
      }
    }
  }
}

const L6 = new Int8Array(QK_K);

/** make_qx_quants with rmse_type 1 (weights x^2): symmetric fit to -nmax..nmax-1. */
function makeQx(x: Float32Array, xo: number, n: number, nmax: number, lo: number, fast: boolean): number {
  const max = signedAbsMax(x, xo, n);
  const amax = Math.abs(max);
  if (amax < GROUP_MAX_EPS) {
    for (let i = 0; i < n; i++) L6[lo + i] = 0;
    return 0;
  }
  let iscale = -nmax / max;
  let sumlx = 0;
  let suml2 = 0;
  for (let i = 0; i < n; i++) {
    const v = x[xo + i]!;
    const l = Math.max(-nmax, Math.min(nmax - 1, rne(iscale * v)));
    L6[lo + i] = l + nmax;
    const w = v * v;
    sumlx += w * v * l;
    suml2 += w * l * l;
  }
  let scale = suml2 ? sumlx / suml2 : 0;
  if (fast) return scale;
  let best = scale * sumlx;
  for (let is = -9; is <= 9; is++) {
    if (is === 0) continue;
    iscale = -(nmax + 0.1 * is) / max;
    sumlx = 0;
    suml2 = 0;
    for (let i = 0; i < n; i++) {
      const v = x[xo + i]!;
      const l = Math.max(-nmax, Math.min(nmax - 1, rne(iscale * v)));
      const w = v * v;
      sumlx += w * v * l;
      suml2 += w * l * l;
    }
    if (suml2 > 0 && sumlx * sumlx > best * suml2) {
      for (let i = 0; i < n; i++) L6[lo + i] = nmax + Math.max(-nmax, Math.min(nmax - 1, rne(iscale * x[xo + i]!)));
      scale = sumlx / suml2;
      best = scale * sumlx;
    }
  }
  return scale;
}

/** quantize_row_q6_K_ref. Layout: ql[128], qh[64], scales[16] (int8), d (fp16, last). */
function quantizeQ6K(x: Float32Array, dst: Uint8Array, offset: number, fast: boolean): void {
  for (let b = 0, o = offset; b < x.length; b += QK_K, o += 210) {
    let maxScale = 0;
    let maxAbsScale = 0;
    for (let ib = 0; ib < QK_K / 16; ib++) {
      const s = makeQx(x, b + 16 * ib, 16, 32, 16 * ib, fast);
      scalesK[ib] = s;
      if (Math.abs(s) > maxAbsScale) {
        maxAbsScale = Math.abs(s);
        maxScale = s;
      }
    }
    if (maxAbsScale < GROUP_MAX_EPS) {
      dst.fill(0, o, o + 210);
      continue;
    }
    const iscale = -128 / maxScale;
    const d = putF16(dst, o + 208, 1 / iscale);
    for (let ib = 0; ib < QK_K / 16; ib++) dst[o + 192 + ib] = Math.min(127, nearestInt(iscale * scalesK[ib]!)) & 0xff;
    for (let j = 0; j < QK_K / 16; j++) {
      const sc = (dst[o + 192 + j]! << 24) >> 24;
      const dd = d * sc;
      if (dd === 0) continue;
      for (let ii = 0; ii < 16; ii++) {
        const l = Math.max(-32, Math.min(31, nearestInt(x[b + 16 * j + ii]! / dd)));
        L6[16 * j + ii] = l + 32;
      }
    }
    let ql = o;
    let qh = o + 128;
    for (let j = 0; j < QK_K; j += 128) {
      for (let l = 0; l < 32; l++) {
        const a = L6[j + l]!;
        const c = L6[j + l + 32]!;
        const e = L6[j + l + 64]!;
        const f = L6[j + l + 96]!;
        dst[ql + l] = (a & 0xf) | ((e & 0xf) << 4);
        dst[ql + l + 32] = (c & 0xf) | ((f & 0xf) << 4);
        dst[qh + l] = (a >> 4) | ((c >> 4) << 2) | ((e >> 4) << 4) | ((f >> 4) << 6);
      }
      ql += 64;
      qh += 32;
    }
  }
}

/** quantize_row_q4_1_ref / quantize_row_q5_1_ref: d = (max - min) / nmax, m = min, q = (x - min) / d + 0.5 truncated. */
function quantizeQ_1(x: Float32Array, dst: Uint8Array, offset: number, five: boolean): void {
  const bytes = five ? 24 : 20;
  const nmax = five ? 31 : 15;
  const qs = five ? 8 : 4;
  for (let b = 0, o = offset; b < x.length; b += 32, o += bytes) {
    let min = Infinity;
    let max = -Infinity;
    for (let j = 0; j < 32; j++) {
      const v = x[b + j]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const d = fr(fr(max - min) / nmax);
    const id = d !== 0 ? fr(1 / d) : 0;
    putF16(dst, o, d);
    putF16(dst, o + 2, min);
    let qh = 0;
    for (let j = 0; j < 16; j++) {
      const x0 = fr(fr(x[b + j]! - min) * id);
      const x1 = fr(fr(x[b + 16 + j]! - min) * id);
      const xi0 = Math.min(nmax, Math.trunc(fr(x0 + 0.5)));
      const xi1 = Math.min(nmax, Math.trunc(fr(x1 + 0.5)));
      dst[o + qs + j] = (xi0 & 0x0f) | ((xi1 & 0x0f) << 4);
      qh |= ((xi0 & 0x10) >>> 4) << j;
      qh |= ((xi1 & 0x10) >>> 4) << (j + 16);
    }
    if (five) {
      dst[o + 4] = qh & 0xff;
      dst[o + 5] = (qh >>> 8) & 0xff;
      dst[o + 6] = (qh >>> 16) & 0xff;
      dst[o + 7] = (qh >>> 24) & 0xff;
    }
  }
}

const scales16 = new Float64Array(16);
const mins16 = new Float64Array(16);

/** Packs L (values 0..3, 256 of them) into Q2_K/Q3_K's qs: 4 values of one 128-half per byte. */
function pack2bit(Lsrc: ArrayLike<number>, dst: Uint8Array, q: number): void {
  for (let j = 0; j < QK_K; j += 128) {
    for (let l = 0; l < 32; l++) {
      dst[q + j / 4 + l] = (Lsrc[j + l]! & 3) | ((Lsrc[j + l + 32]! & 3) << 2) | ((Lsrc[j + l + 64]! & 3) << 4) | ((Lsrc[j + l + 96]! & 3) << 6);
    }
  }
}

/** quantize_row_q2_K_ref: per 16 values an affine fit to 0..3 (make_qkx2_quants weighted by |x|,
 *  mean absolute error), 4-bit scales and mins against fp16 d / dmin. Layout: scales[16], qs[64], d, dmin. */
function quantizeQ2K(x: Float32Array, dst: Uint8Array, offset: number, fast: boolean): void {
  for (let b = 0, o = offset; b < x.length; b += QK_K, o += 84) {
    let maxScale = 0;
    let maxMin = 0;
    for (let j = 0; j < 16; j++) {
      for (let l = 0; l < 16; l++) weights[l] = Math.abs(x[b + 16 * j + l]!);
      const sc = makeQkx2(x, b + 16 * j, 16, 3, 16 * j, -0.5, 0.1, fast ? 0 : 15, true);
      scales16[j] = sc;
      mins16[j] = minOut[0]!;
      if (sc > maxScale) maxScale = sc;
      if (minOut[0]! > maxMin) maxMin = minOut[0]!;
    }
    for (let j = 0; j < 16; j++) dst[o + j] = 0;
    let d = 0;
    let dmin = 0;
    if (maxScale > 0) {
      const iscale = 15 / maxScale;
      for (let j = 0; j < 16; j++) dst[o + j] = nearestInt(iscale * scales16[j]!) & 0xf;
      d = putF16(dst, o + 80, maxScale / 15);
    } else {
      putF16(dst, o + 80, 0);
    }
    if (maxMin > 0) {
      const iscale = 15 / maxMin;
      for (let j = 0; j < 16; j++) dst[o + j]! |= (nearestInt(iscale * mins16[j]!) & 0xf) << 4;
      dmin = putF16(dst, o + 82, maxMin / 15);
    } else {
      putF16(dst, o + 82, 0);
    }
    for (let j = 0; j < 16; j++) {
      const dd = d * (dst[o + j]! & 0xf);
      if (dd === 0) continue;
      const dm = dmin * (dst[o + j]! >> 4);
      for (let ii = 0; ii < 16; ii++) L[16 * j + ii] = Math.max(0, Math.min(3, nearestInt((x[b + 16 * j + ii]! + dm) / dd)));
    }
    pack2bit(L, dst, o + 16);
  }
}

/** make_q3_quants with do_rmse: symmetric fit to -nmax..nmax-1 weighted by x^2, then up to 5
 *  rounds of moving single quants while that improves the weighted fit. L6 gets l + nmax. */
function makeQ3(x: Float32Array, xo: number, n: number, nmax: number, lo: number, doRmse: boolean): number {
  const max = signedAbsMax(x, xo, n);
  const amax = Math.abs(max);
  if (amax < GROUP_MAX_EPS) {
    for (let i = 0; i < n; i++) L6[lo + i] = 0;
    return 0;
  }
  const iscale = -nmax / max;
  if (!doRmse) {
    for (let i = 0; i < n; i++) L6[lo + i] = Math.max(-nmax, Math.min(nmax - 1, nearestInt(iscale * x[xo + i]!))) + nmax;
    return 1 / iscale;
  }
  let sumlx = 0;
  let suml2 = 0;
  for (let i = 0; i < n; i++) {
    const v = x[xo + i]!;
    const l = Math.max(-nmax, Math.min(nmax - 1, nearestInt(iscale * v)));
    L6[lo + i] = l;
    const w = v * v;
    sumlx += w * v * l;
    suml2 += w * l * l;
  }
  for (let itry = 0; itry < 5; itry++) {
    let changed = 0;
    for (let i = 0; i < n; i++) {
      const v = x[xo + i]!;
      const w = v * v;
      const li = L6[lo + i]!;
      let slx = sumlx - w * v * li;
      if (slx > 0) {
        let sl2 = suml2 - w * li * li;
        const newL = Math.max(-nmax, Math.min(nmax - 1, nearestInt((v * sl2) / slx)));
        if (newL !== li) {
          slx += w * v * newL;
          sl2 += w * newL * newL;
          if (sl2 > 0 && slx * slx * suml2 > sumlx * sumlx * sl2) {
            L6[lo + i] = newL;
            sumlx = slx;
            suml2 = sl2;
            changed++;
          }
        }
      }
    }
    if (!changed) break;
  }
  for (let i = 0; i < n; i++) L6[lo + i] = L6[lo + i]! + nmax;
  return sumlx / suml2;
}

/** quantize_row_q3_K_ref. Layout: hmask[32] (third bit), qs[64] (two low bits), scales[12] (16 x
 *  6 bits, offset 32: low nibbles in bytes 0-7, high 2 bits in bytes 8-11), d. */
function quantizeQ3K(x: Float32Array, dst: Uint8Array, offset: number, fast: boolean): void {
  const sc = o3Scales;
  for (let b = 0, o = offset; b < x.length; b += QK_K, o += 110) {
    let maxScale = 0;
    let amax = 0;
    for (let j = 0; j < 16; j++) {
      const s = makeQ3(x, b + 16 * j, 16, 4, 16 * j, !fast);
      scales16[j] = s;
      if (Math.abs(s) > amax) {
        amax = Math.abs(s);
        maxScale = s;
      }
    }
    dst.fill(0, o, o + 110);
    let d = 0;
    if (maxScale !== 0) {
      const iscale = -32 / maxScale;
      for (let j = 0; j < 16; j++) {
        let l = Math.max(-32, Math.min(31, nearestInt(iscale * scales16[j]!))) + 32;
        if (j < 8) dst[o + 96 + j] = l & 0xf;
        else dst[o + 96 + j - 8]! |= (l & 0xf) << 4;
        l >>= 4;
        dst[o + 104 + (j % 4)]! |= l << (2 * Math.trunc(j / 4));
      }
      d = putF16(dst, o + 108, 1 / iscale);
    } else {
      putF16(dst, o + 108, 0);
    }
    for (let j = 0; j < 16; j++) {
      const lo4 = j < 8 ? dst[o + 96 + j]! & 0xf : dst[o + 96 + j - 8]! >> 4;
      sc[j] = (lo4 | (((dst[o + 104 + (j % 4)]! >> (2 * Math.trunc(j / 4))) & 3) << 4)) - 32;
      const dd = d * sc[j]!;
      if (dd === 0) continue;
      for (let ii = 0; ii < 16; ii++) L6[16 * j + ii] = Math.max(-4, Math.min(3, nearestInt(x[b + 16 * j + ii]! / dd))) + 4;
    }
    // The third bit of value j goes to hmask[j % 32], bit j / 32.
    for (let j = 0; j < QK_K; j++) {
      if (L6[j]! > 3) {
        dst[o + (j % 32)]! |= 1 << (j >> 5);
        L6[j] = L6[j]! - 4;
      }
    }
    pack2bit(L6, dst, o + 32);
  }
}
const o3Scales = new Int8Array(16);

/** ggml's kvalues_iq4nl: the non-linear 4-bit grid of IQ4_NL / IQ4_XS. */
export const KVALUES_IQ4NL = [-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113] as const;
/** ggml's kvalues_mxfp4: the FP4 E2M1 values, doubled. */
export const KVALUES_MXFP4 = [0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12] as const;

/** best_index_int8: nearest grid value by bisection (the grid is sorted). */
function bestIndexIq4(v: number): number {
  const val = KVALUES_IQ4NL;
  if (v <= val[0]) return 0;
  if (v >= val[15]) return 15;
  let ml = 0;
  let mu = 15;
  while (mu - ml > 1) {
    const mav = (ml + mu) >> 1;
    if (v < val[mav]!) mu = mav;
    else ml = mav;
  }
  return v - val[mu - 1]! < val[mu]! - v ? mu - 1 : mu;
}

const iq4Scales = new Float64Array(8);
const iq4Weight = new Float64Array(32);

/** quantize_row_iq4_nl_impl without an importance matrix (weights x^2): per 32 values the scale
 *  that best fits the grid over 2*ntry+1 candidate scales; IQ4_XS (superBlock 256) then stores
 *  those scales as 6-bit multiples of d = -max_scale/32 and re-picks the grid indices.
 *  Layouts: IQ4_NL d, qs[16]; IQ4_XS d, scales_h (u16), scales_l[4], qs[128]. */
function quantizeIq4(x: Float32Array, xo: number, superBlock: number, dst: Uint8Array, o: number, ntry: number): void {
  const nb = superBlock / 32;
  const qs = nb > 1 ? o + 8 : o + 2;
  let maxScale = 0;
  let amaxScale = 0;
  for (let ib = 0; ib < nb; ib++) {
    const b = xo + 32 * ib;
    let amax = 0;
    let max = 0;
    for (let j = 0; j < 32; j++) {
      const v = x[b + j]!;
      iq4Weight[j] = v * v;
      if (Math.abs(v) > amax) {
        amax = Math.abs(v);
        max = v;
      }
    }
    if (amax < GROUP_MAX_EPS) {
      iq4Scales[ib] = 0;
      for (let j = 0; j < 32; j++) L[32 * ib + j] = bestIndexIq4(0);
      continue;
    }
    let d = ntry > 0 ? -max / KVALUES_IQ4NL[0] : max / KVALUES_IQ4NL[0];
    let id = 1 / d;
    let sumqx = 0;
    let sumq2 = 0;
    for (let j = 0; j < 32; j++) {
      const l = bestIndexIq4(id * x[b + j]!);
      L[32 * ib + j] = l;
      const q = KVALUES_IQ4NL[l]!;
      const w = iq4Weight[j]!;
      sumqx += w * q * x[b + j]!;
      sumq2 += w * q * q;
    }
    d = sumqx / sumq2;
    let best = d * sumqx;
    for (let itry = -ntry; itry <= ntry; itry++) {
      id = (itry + KVALUES_IQ4NL[0]) / max;
      sumqx = 0;
      sumq2 = 0;
      for (let j = 0; j < 32; j++) {
        const q = KVALUES_IQ4NL[bestIndexIq4(id * x[b + j]!)]!;
        const w = iq4Weight[j]!;
        sumqx += w * q * x[b + j]!;
        sumq2 += w * q * q;
      }
      if (sumq2 > 0 && sumqx * sumqx > best * sumq2) {
        d = sumqx / sumq2;
        best = d * sumqx;
      }
    }
    iq4Scales[ib] = d;
    if (Math.abs(d) > amaxScale) {
      amaxScale = Math.abs(d);
      maxScale = d;
    }
  }
  if (nb > 1) {
    let scalesH = 0;
    for (let k = 0; k < 4; k++) dst[o + 4 + k] = 0;
    const d = -maxScale / 32;
    const dh = putF16(dst, o, d);
    const id = d !== 0 ? 1 / d : 0;
    for (let ib = 0; ib < nb; ib++) {
      let l = Math.max(-32, Math.min(31, nearestInt(id * iq4Scales[ib]!)));
      const dl = dh * l;
      const idl = dl !== 0 ? 1 / dl : 0;
      for (let j = 0; j < 32; j++) L[32 * ib + j] = bestIndexIq4(idl * x[xo + 32 * ib + j]!);
      l += 32;
      dst[o + 4 + (ib >> 1)]! |= (l & 0xf) << (4 * (ib & 1));
      scalesH |= (l >> 4) << (2 * ib);
    }
    dst[o + 2] = scalesH & 0xff;
    dst[o + 3] = scalesH >>> 8;
  } else {
    const dh = putF16(dst, o, iq4Scales[0]!);
    if (ntry > 0) {
      const id = dh !== 0 ? 1 / dh : 0;
      for (let j = 0; j < 32; j++) L[j] = bestIndexIq4(id * x[xo + j]!);
    }
  }
  for (let i = 0; i < nb; i++) {
    for (let j = 0; j < 16; j++) dst[qs + 16 * i + j] = L[32 * i + j]! | (L[32 * i + 16 + j]! << 4);
  }
}

/** ggml_e8m0_to_fp32_half: 2^(e - 128). */
export function e8m0ToF32Half(e: number): number {
  return 2 ** (e - 128);
}

/** quantize_row_mxfp4_ref: e = floor(log2(amax)) - 2 + 127 (so amax lands within the grid's top
 *  values), each value the nearest of kvalues_mxfp4 * 2^(e-128) (first index on ties). */
function quantizeMxfp4(x: Float32Array, dst: Uint8Array, offset: number): void {
  for (let b = 0, o = offset; b < x.length; b += 32, o += 17) {
    let amax = 0;
    for (let j = 0; j < 32; j++) amax = Math.max(amax, Math.abs(x[b + j]!));
    const e = amax > 0 ? Math.max(0, Math.min(255, Math.floor(Math.log2(amax)) - 2 + 127)) : 0;
    const d = e8m0ToF32Half(e);
    dst[o] = e;
    const best = (v: number) => {
      let bi = 0;
      let be = Math.abs(KVALUES_MXFP4[0] * d - v);
      for (let i = 1; i < 16; i++) {
        const err = Math.abs(KVALUES_MXFP4[i]! * d - v);
        if (err < be) {
          bi = i;
          be = err;
        }
      }
      return bi;
    };
    for (let j = 0; j < 16; j++) dst[o + 1 + j] = best(x[b + j]!) | (best(x[b + 16 + j]!) << 4);
  }
}

/** Dequantizes n elements (a multiple of the block size) starting at byte offset; used by tests and tools. */
export function dequantize(type: GgmlType, src: Uint8Array, offset: number, n: number, out = new Float32Array(n)): Float32Array {
  const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const h = (o: number) => f16BitsToF32(dv.getUint16(o, true));
  switch (type) {
    case GgmlType.F32:
      for (let i = 0; i < n; i++) out[i] = dv.getFloat32(offset + 4 * i, true);
      return out;
    case GgmlType.F16:
      for (let i = 0; i < n; i++) out[i] = h(offset + 2 * i);
      return out;
    case GgmlType.BF16:
      for (let i = 0; i < n; i++) out[i] = new Float32Array(new Uint32Array([dv.getUint16(offset + 2 * i, true) << 16]).buffer)[0]!;
      return out;
    case GgmlType.Q8_0:
      for (let b = 0, o = offset; b < n; b += 32, o += 34) {
        const d = h(o);
        for (let j = 0; j < 32; j++) out[b + j] = d * dv.getInt8(o + 2 + j);
      }
      return out;
    case GgmlType.Q4_0:
      for (let b = 0, o = offset; b < n; b += 32, o += 18) {
        const d = h(o);
        for (let j = 0; j < 16; j++) {
          const q = src[o + 2 + j]!;
          out[b + j] = d * ((q & 0xf) - 8);
          out[b + j + 16] = d * ((q >> 4) - 8);
        }
      }
      return out;
    case GgmlType.Q5_0:
      for (let b = 0, o = offset; b < n; b += 32, o += 22) {
        const d = h(o);
        const qh = dv.getUint32(o + 2, true);
        for (let j = 0; j < 16; j++) {
          const q = src[o + 6 + j]!;
          const xh0 = ((qh >>> j) << 4) & 0x10;
          const xh1 = (qh >>> (j + 12)) & 0x10;
          out[b + j] = d * (((q & 0xf) | xh0) - 16);
          out[b + j + 16] = d * (((q >> 4) | xh1) - 16);
        }
      }
      return out;
    case GgmlType.Q4_K:
    case GgmlType.Q5_K: {
      const five = type === GgmlType.Q5_K;
      const bytes = five ? 176 : 144;
      for (let b = 0, o = offset; b < n; b += QK_K, o += bytes) {
        const d = h(o);
        const dmin = h(o + 2);
        let q = o + (five ? 48 : 16);
        const qh = o + 16;
        let u1 = 1;
        let u2 = 2;
        for (let j = 0, is = 0; j < QK_K; j += 64, is += 2) {
          const [s1, m1] = scaleMinK4(is, src, o + 4);
          const [s2, m2] = scaleMinK4(is + 1, src, o + 4);
          for (let l = 0; l < 32; l++) {
            const hi1 = five && src[qh + l]! & u1 ? 16 : 0;
            const hi2 = five && src[qh + l]! & u2 ? 16 : 0;
            out[b + j + l] = d * s1 * ((src[q + l]! & 0xf) + hi1) - dmin * m1;
            out[b + j + l + 32] = d * s2 * ((src[q + l]! >> 4) + hi2) - dmin * m2;
          }
          q += 32;
          u1 <<= 2;
          u2 <<= 2;
        }
      }
      return out;
    }
    case GgmlType.Q6_K:
      for (let b = 0, o = offset; b < n; b += QK_K, o += 210) {
        const d = h(o + 208);
        let ql = o;
        let qh = o + 128;
        let sc = o + 192;
        for (let half = 0; half < 2; half++) {
          const y = b + half * 128;
          for (let l = 0; l < 32; l++) {
            const is = l >> 4;
            const q1 = ((src[ql + l]! & 0xf) | (((src[qh + l]! >> 0) & 3) << 4)) - 32;
            const q2 = ((src[ql + l + 32]! & 0xf) | (((src[qh + l]! >> 2) & 3) << 4)) - 32;
            const q3 = ((src[ql + l]! >> 4) | (((src[qh + l]! >> 4) & 3) << 4)) - 32;
            const q4 = ((src[ql + l + 32]! >> 4) | (((src[qh + l]! >> 6) & 3) << 4)) - 32;
            out[y + l] = d * dv.getInt8(sc + is) * q1;
            out[y + l + 32] = d * dv.getInt8(sc + is + 2) * q2;
            out[y + l + 64] = d * dv.getInt8(sc + is + 4) * q3;
            out[y + l + 96] = d * dv.getInt8(sc + is + 6) * q4;
          }
          ql += 64;
          qh += 32;
          sc += 8;
        }
      }
      return out;
    case GgmlType.Q4_1:
    case GgmlType.Q5_1: {
      const five = type === GgmlType.Q5_1;
      const bytes = five ? 24 : 20;
      for (let b = 0, o = offset; b < n; b += 32, o += bytes) {
        const d = h(o);
        const m = h(o + 2);
        const qh = five ? dv.getUint32(o + 4, true) : 0;
        const qs = o + (five ? 8 : 4);
        for (let j = 0; j < 16; j++) {
          const q = src[qs + j]!;
          out[b + j] = d * ((q & 0xf) | (((qh >>> j) & 1) << 4)) + m;
          out[b + j + 16] = d * ((q >> 4) | (((qh >>> (j + 16)) & 1) << 4)) + m;
        }
      }
      return out;
    }
    case GgmlType.Q2_K:
      for (let b = 0, o = offset; b < n; b += QK_K, o += 84) {
        const d = h(o + 80);
        const dmin = h(o + 82);
        for (let k = 0; k < QK_K; k++) {
          const half = k >> 7;
          const shift = 2 * ((k & 127) >> 5);
          const q = (src[o + 16 + 32 * half + (k & 31)]! >> shift) & 3;
          const sc = src[o + (k >> 4)]!;
          out[b + k] = d * (sc & 0xf) * q - dmin * (sc >> 4);
        }
      }
      return out;
    case GgmlType.Q3_K:
      for (let b = 0, o = offset; b < n; b += QK_K, o += 110) {
        const d = h(o + 108);
        for (let k = 0; k < QK_K; k++) {
          const half = k >> 7;
          const s2 = (k & 127) >> 5;
          const l = k & 31;
          const lo = (src[o + 32 + 32 * half + l]! >> (2 * s2)) & 3;
          const hi = (src[o + l]! >> (4 * half + s2)) & 1;
          const g = k >> 4;
          const lo4 = g < 8 ? src[o + 96 + g]! & 0xf : src[o + 96 + g - 8]! >> 4;
          const sc = (lo4 | (((src[o + 104 + (g % 4)]! >> (2 * (g >> 2))) & 3) << 4)) - 32;
          out[b + k] = d * sc * (lo + 4 * hi - 4);
        }
      }
      return out;
    case GgmlType.IQ4_NL:
      for (let b = 0, o = offset; b < n; b += 32, o += 18) {
        const d = h(o);
        for (let j = 0; j < 16; j++) {
          out[b + j] = d * KVALUES_IQ4NL[src[o + 2 + j]! & 0xf]!;
          out[b + j + 16] = d * KVALUES_IQ4NL[src[o + 2 + j]! >> 4]!;
        }
      }
      return out;
    case GgmlType.IQ4_XS:
      for (let b = 0, o = offset; b < n; b += QK_K, o += 136) {
        const d = h(o);
        const sh = dv.getUint16(o + 2, true);
        for (let ib = 0; ib < 8; ib++) {
          const ls = ((src[o + 4 + (ib >> 1)]! >> (4 * (ib & 1))) & 0xf) | (((sh >> (2 * ib)) & 3) << 4);
          const dl = d * (ls - 32);
          for (let j = 0; j < 16; j++) {
            const q = src[o + 8 + 16 * ib + j]!;
            out[b + 32 * ib + j] = dl * KVALUES_IQ4NL[q & 0xf]!;
            out[b + 32 * ib + j + 16] = dl * KVALUES_IQ4NL[q >> 4]!;
          }
        }
      }
      return out;
    case GgmlType.MXFP4:
      for (let b = 0, o = offset; b < n; b += 32, o += 17) {
        const d = e8m0ToF32Half(src[o]!);
        for (let j = 0; j < 16; j++) {
          out[b + j] = KVALUES_MXFP4[src[o + 1 + j]! & 0xf]! * d;
          out[b + j + 16] = KVALUES_MXFP4[src[o + 1 + j]! >> 4]! * d;
        }
      }
      return out;
    default:
      throw new Error(`dequantize: unsupported type ${ggmlTypeName(type)}`);
  }
}
