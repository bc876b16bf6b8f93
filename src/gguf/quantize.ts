// Row encoders for every tensor type the generator writes, following llama.cpp's reference
// quantize_row_*_ref routines (ggml-quants.c). Q8_0/Q4_0/Q5_0 use fp32 arithmetic step by step
// (Math.fround) so their blocks match the reference byte for byte; the K-quants follow
// make_qkx2_quants / make_qx_quants in double precision (valid blocks, not bit-exact).
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
    default:
      throw new Error(`quantize: unsupported type ${ggmlTypeName(type)}`);
  }
  return n;
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
    let amax = 0;
    let max = 0;
    for (let j = 0; j < 32; j++) {
      const v = x[b + j]!;
      if (amax < Math.abs(v)) {
        amax = Math.abs(v);
        max = v;
      }
    }
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
    let amax = 0;
    let max = 0;
    for (let j = 0; j < 32; j++) {
      const v = x[b + j]!;
      if (amax < Math.abs(v)) {
        amax = Math.abs(v);
        max = v;
      }
    }
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
function makeQkx2(x: Float32Array, xo: number, n: number, nmax: number, lo: number, rmin: number, rdelta: number, nstep: number): number {
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
    bestMad += weights[i]! * diff * diff;
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
        mad += weights[i]! * diff * diff;
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
  let max = 0;
  let amax = 0;
  for (let i = 0; i < n; i++) {
    const ax = Math.abs(x[xo + i]!);
    if (ax > amax) {
      amax = ax;
      max = x[xo + i]!;
    }
  }
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
    default:
      throw new Error(`dequantize: unsupported type ${ggmlTypeName(type)}`);
  }
}
