#include "tests/ref_quant.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace infer_test {

using infer::fp16_to_fp32;
using infer::fp32_to_fp16;
using infer::tensor_type;

namespace {

void put_f16(uint8_t* p, float v) {
  uint16_t h = fp32_to_fp16(v);
  std::memcpy(p, &h, 2);
}
float get_f16(const uint8_t* p) {
  uint16_t h;
  std::memcpy(&h, p, 2);
  return fp16_to_fp32(h);
}

int nearest(float v) { return static_cast<int>(std::nearbyint(v)); }

// Largest-magnitude value with its sign (llama.cpp's "max" in quantize_row_q4_0_ref etc.).
float signed_absmax(const float* x, int n) {
  float amax = 0, max = 0;
  for (int j = 0; j < n; j++)
    if (std::fabs(x[j]) > amax) {
      amax = std::fabs(x[j]);
      max = x[j];
    }
  return max;
}

void q8_0_block(const float* x, uint8_t* b) {
  float amax = 0;
  for (int j = 0; j < 32; j++) amax = std::max(amax, std::fabs(x[j]));
  const float d = amax / 127.0f;
  const float id = d ? 1.0f / d : 0.0f;
  put_f16(b, d);
  for (int j = 0; j < 32; j++) b[2 + j] = static_cast<uint8_t>(static_cast<int8_t>(std::roundf(x[j] * id)));
}

void q4_0_block(const float* x, uint8_t* b) {
  const float max = signed_absmax(x, 32);
  const float d = max / -8;
  const float id = d ? 1.0f / d : 0.0f;
  put_f16(b, d);
  for (int j = 0; j < 16; j++) {
    const uint8_t x0 = std::min<uint8_t>(15, static_cast<uint8_t>(static_cast<int8_t>(x[j] * id + 8.5f)));
    const uint8_t x1 = std::min<uint8_t>(15, static_cast<uint8_t>(static_cast<int8_t>(x[16 + j] * id + 8.5f)));
    b[2 + j] = static_cast<uint8_t>(x0 | (x1 << 4));
  }
}

void q5_0_block(const float* x, uint8_t* b) {
  const float max = signed_absmax(x, 32);
  const float d = max / -16;
  const float id = d ? 1.0f / d : 0.0f;
  put_f16(b, d);
  uint32_t qh = 0;
  for (int j = 0; j < 16; j++) {
    const uint8_t x0 = std::min<uint8_t>(31, static_cast<uint8_t>(static_cast<int8_t>(x[j] * id + 16.5f)));
    const uint8_t x1 = std::min<uint8_t>(31, static_cast<uint8_t>(static_cast<int8_t>(x[16 + j] * id + 16.5f)));
    b[6 + j] = static_cast<uint8_t>((x0 & 0x0F) | ((x1 & 0x0F) << 4));
    qh |= ((x0 & 0x10u) >> 4) << (j + 0);
    qh |= ((x1 & 0x10u) >> 4) << (j + 16);
  }
  std::memcpy(b + 2, &qh, 4);
}

// 6-bit scale/min packing of Q4_K/Q5_K (inverse of get_scale_min_k4).
void pack_scales_k4(const uint8_t* ls, const uint8_t* lm, uint8_t* s) {
  std::memset(s, 0, 12);
  for (int j = 0; j < 8; j++) {
    if (j < 4) {
      s[j] = ls[j];
      s[j + 4] = lm[j];
    } else {
      s[j + 4] = static_cast<uint8_t>((ls[j] & 0xF) | ((lm[j] & 0xF) << 4));
      s[j - 4] |= static_cast<uint8_t>((ls[j] >> 4) << 6);
      s[j - 0] |= static_cast<uint8_t>((lm[j] >> 4) << 6);
    }
  }
}
void unpack_scale_k4(int j, const uint8_t* q, int* d, int* m) {
  if (j < 4) {
    *d = q[j] & 63;
    *m = q[j + 4] & 63;
  } else {
    *d = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
    *m = (q[j + 4] >> 4) | ((q[j - 0] >> 6) << 4);
  }
}

// Q4_K (nmax 15) / Q5_K (nmax 31): per 32-sub-block affine x ~ scale*q - min, scales and mins
// quantized to 6 bits against the super-block d / dmin (as quantize_row_q4_K_ref stores them).
void qk_affine_block(const float* x, uint8_t* b, int nmax, bool five_bit) {
  float scales[8], mins[8];
  for (int s = 0; s < 8; s++) {
    float lo = 0, hi = 0;  // min clamped at 0 like make_qkx2_quants
    for (int j = 0; j < 32; j++) {
      lo = std::min(lo, x[s * 32 + j]);
      hi = std::max(hi, x[s * 32 + j]);
    }
    scales[s] = (hi - lo) / nmax;
    mins[s] = -lo;
  }
  float max_scale = *std::max_element(scales, scales + 8);
  float max_min = *std::max_element(mins, mins + 8);
  const float inv_scale = max_scale > 0 ? 63.f / max_scale : 0.f;
  const float inv_min = max_min > 0 ? 63.f / max_min : 0.f;
  uint8_t ls[8], lm[8];
  for (int s = 0; s < 8; s++) {
    ls[s] = static_cast<uint8_t>(std::min(63, nearest(inv_scale * scales[s])));
    lm[s] = static_cast<uint8_t>(std::min(63, nearest(inv_min * mins[s])));
  }
  const float d = max_scale / 63.f, dmin = max_min / 63.f;
  put_f16(b, d);
  put_f16(b + 2, dmin);
  pack_scales_k4(ls, lm, b + 4);
  const float dd = get_f16(b), ddmin = get_f16(b + 2);
  uint8_t L[256];
  for (int s = 0; s < 8; s++) {
    const float sd = dd * ls[s];
    const float sm = ddmin * lm[s];
    for (int j = 0; j < 32; j++) {
      int l = sd ? nearest((x[s * 32 + j] + sm) / sd) : 0;
      L[s * 32 + j] = static_cast<uint8_t>(std::max(0, std::min(nmax, l)));
    }
  }
  uint8_t* qs = five_bit ? b + 48 : b + 16;
  if (five_bit) std::memset(b + 16, 0, 32);
  for (int c = 0; c < 4; c++) {
    for (int l = 0; l < 32; l++) {
      int lo = L[64 * c + l], hi = L[64 * c + 32 + l];
      if (five_bit) {
        if (lo > 15) b[16 + l] |= static_cast<uint8_t>(1 << (2 * c));
        if (hi > 15) b[16 + l] |= static_cast<uint8_t>(2 << (2 * c));
      }
      qs[32 * c + l] = static_cast<uint8_t>((lo & 15) | ((hi & 15) << 4));
    }
  }
}

void q6_K_block(const float* x, uint8_t* b) {
  float scales[16];
  float max_scale = 0, max_abs_scale = 0;
  for (int g = 0; g < 16; g++) {
    scales[g] = signed_absmax(x + 16 * g, 16) / -32.f;
    if (std::fabs(scales[g]) > max_abs_scale) {
      max_abs_scale = std::fabs(scales[g]);
      max_scale = scales[g];
    }
  }
  uint8_t* ql = b;
  uint8_t* qh = b + 128;
  int8_t* sc = reinterpret_cast<int8_t*>(b + 192);
  std::memset(b, 0, 210);
  if (max_abs_scale == 0) return;
  const float iscale = -128.f / max_scale;
  put_f16(b + 208, 1 / iscale);
  const float d = get_f16(b + 208);
  uint8_t L[256];
  for (int g = 0; g < 16; g++) {
    sc[g] = static_cast<int8_t>(std::min(127, nearest(iscale * scales[g])));
    const float gd = d * sc[g];
    for (int j = 0; j < 16; j++) {
      int l = gd ? nearest(x[16 * g + j] / gd) : 0;
      L[16 * g + j] = static_cast<uint8_t>(std::max(-32, std::min(31, l)) + 32);
    }
  }
  for (int h = 0; h < 2; h++) {
    for (int l = 0; l < 32; l++) {
      const uint8_t q1 = L[128 * h + l] & 0xF, q2 = L[128 * h + l + 32] & 0xF;
      const uint8_t q3 = L[128 * h + l + 64] & 0xF, q4 = L[128 * h + l + 96] & 0xF;
      ql[64 * h + l] = static_cast<uint8_t>(q1 | (q3 << 4));
      ql[64 * h + l + 32] = static_cast<uint8_t>(q2 | (q4 << 4));
      qh[32 * h + l] = static_cast<uint8_t>((L[128 * h + l] >> 4) | ((L[128 * h + l + 32] >> 4) << 2) |
                                            ((L[128 * h + l + 64] >> 4) << 4) | ((L[128 * h + l + 96] >> 4) << 6));
    }
  }
}

// Q4_1 / Q5_1 (quantize_row_q4_1_ref): affine over the block's min..max.
void q_1_block(const float* x, uint8_t* b, bool five) {
  float lo = x[0], hi = x[0];
  for (int j = 1; j < 32; j++) {
    lo = std::min(lo, x[j]);
    hi = std::max(hi, x[j]);
  }
  const int nmax = five ? 31 : 15;
  const float d = (hi - lo) / nmax;
  const float id = d ? 1.0f / d : 0.0f;
  put_f16(b, d);
  put_f16(b + 2, lo);
  uint32_t qh = 0;
  uint8_t* qs = five ? b + 8 : b + 4;
  for (int j = 0; j < 16; j++) {
    const int x0 = std::min(nmax, static_cast<int>((x[j] - lo) * id + 0.5f));
    const int x1 = std::min(nmax, static_cast<int>((x[16 + j] - lo) * id + 0.5f));
    qs[j] = static_cast<uint8_t>((x0 & 0x0F) | ((x1 & 0x0F) << 4));
    qh |= static_cast<uint32_t>((x0 >> 4) & 1) << j;
    qh |= static_cast<uint32_t>((x1 >> 4) & 1) << (j + 16);
  }
  if (five) std::memcpy(b + 4, &qh, 4);
}

const int8_t kIq4nl[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
const int8_t kMxfp4[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

int nearest_index(const int8_t* table, float v) {
  int best = 0;
  for (int k = 1; k < 16; k++)
    if (std::fabs(table[k] - v) < std::fabs(table[best] - v)) best = k;
  return best;
}

// IQ4_NL without the scale search: d = max / -127 maps the largest magnitude onto -127.
void iq4_nl_block(const float* x, uint8_t* b) {
  const float d = signed_absmax(x, 32) / -127.f;
  put_f16(b, d);
  const float dd = get_f16(b);
  const float id = dd ? 1.0f / dd : 0.0f;
  for (int j = 0; j < 16; j++)
    b[2 + j] = static_cast<uint8_t>(nearest_index(kIq4nl, x[j] * id) | (nearest_index(kIq4nl, x[16 + j] * id) << 4));
}

double e8m0_half(uint8_t e) { return std::ldexp(1.0, static_cast<int>(e) - 128); }

// MXFP4 (quantize_row_mxfp4_ref): e = floor(log2(amax)) - 2 + 127, nearest table value.
void mxfp4_block(const float* x, uint8_t* b) {
  float amax = 0;
  for (int j = 0; j < 32; j++) amax = std::max(amax, std::fabs(x[j]));
  const uint8_t e = amax > 0 ? static_cast<uint8_t>(std::floor(std::log2(amax)) - 2 + 127) : 0;
  b[0] = e;
  const float d = static_cast<float>(e8m0_half(e));
  for (int j = 0; j < 16; j++)
    b[1 + j] = static_cast<uint8_t>(nearest_index(kMxfp4, x[j] / d) | (nearest_index(kMxfp4, x[16 + j] / d) << 4));
}

// Q2_K: per 16-group affine fit to 0..3, 4-bit scales and mins against d / dmin.
void q2_K_block(const float* x, uint8_t* b) {
  float scales[16], mins[16];
  for (int g = 0; g < 16; g++) {
    float lo = 0, hi = 0;
    for (int j = 0; j < 16; j++) {
      lo = std::min(lo, x[16 * g + j]);
      hi = std::max(hi, x[16 * g + j]);
    }
    scales[g] = (hi - lo) / 3;
    mins[g] = -lo;
  }
  const float max_scale = *std::max_element(scales, scales + 16), max_min = *std::max_element(mins, mins + 16);
  uint8_t* sc = b;
  uint8_t* qs = b + 16;
  std::memset(b, 0, 84);
  for (int g = 0; g < 16; g++) {
    const int ls = max_scale > 0 ? std::min(15, nearest(15.f / max_scale * scales[g])) : 0;
    const int lm = max_min > 0 ? std::min(15, nearest(15.f / max_min * mins[g])) : 0;
    sc[g] = static_cast<uint8_t>(ls | (lm << 4));
  }
  put_f16(b + 80, max_scale / 15.f);
  put_f16(b + 82, max_min / 15.f);
  const float d = get_f16(b + 80), dmin = get_f16(b + 82);
  uint8_t L[256] = {};
  for (int g = 0; g < 16; g++) {
    const float gd = d * (sc[g] & 15), gm = dmin * (sc[g] >> 4);
    for (int j = 0; j < 16; j++)
      L[16 * g + j] = static_cast<uint8_t>(gd ? std::max(0, std::min(3, nearest((x[16 * g + j] + gm) / gd))) : 0);
  }
  for (int h = 0; h < 2; h++)
    for (int l = 0; l < 32; l++)
      qs[32 * h + l] = static_cast<uint8_t>(L[128 * h + l] | (L[128 * h + l + 32] << 2) | (L[128 * h + l + 64] << 4) |
                                            (L[128 * h + l + 96] << 6));
}

// Q3_K: per 16-group symmetric fit to -4..3, signed 6-bit scales against d.
void q3_K_block(const float* x, uint8_t* b) {
  float scales[16];
  float max_scale = 0, amax = 0;
  for (int g = 0; g < 16; g++) {
    scales[g] = signed_absmax(x + 16 * g, 16) / -4.f;
    if (std::fabs(scales[g]) > amax) {
      amax = std::fabs(scales[g]);
      max_scale = scales[g];
    }
  }
  std::memset(b, 0, 110);
  uint8_t* hm = b;
  uint8_t* qs = b + 32;
  uint8_t* sc = b + 96;
  int8_t ls[16] = {};
  if (max_scale) {
    const float iscale = -32.f / max_scale;
    for (int g = 0; g < 16; g++) {
      ls[g] = static_cast<int8_t>(std::max(-32, std::min(31, nearest(iscale * scales[g]))));
      const int l = ls[g] + 32;
      if (g < 8) sc[g] = static_cast<uint8_t>(l & 0xF);
      else sc[g - 8] |= static_cast<uint8_t>((l & 0xF) << 4);
      sc[8 + g % 4] |= static_cast<uint8_t>((l >> 4) << (2 * (g / 4)));
    }
    put_f16(b + 108, 1 / iscale);
  }
  const float d = get_f16(b + 108);
  uint8_t L[256];
  for (int g = 0; g < 16; g++) {
    const float gd = d * ls[g];
    for (int j = 0; j < 16; j++)
      L[16 * g + j] = static_cast<uint8_t>((gd ? std::max(-4, std::min(3, nearest(x[16 * g + j] / gd))) : 0) + 4);
  }
  for (int j = 0; j < 256; j++) {
    // high bit of value j: hmask byte j % 32, bit j / 32
    if (L[j] > 3) hm[j % 32] |= static_cast<uint8_t>(1 << (j / 32));
  }
  for (int h = 0; h < 2; h++)
    for (int l = 0; l < 32; l++)
      qs[32 * h + l] = static_cast<uint8_t>((L[128 * h + l] & 3) | ((L[128 * h + l + 32] & 3) << 2) |
                                            ((L[128 * h + l + 64] & 3) << 4) | ((L[128 * h + l + 96] & 3) << 6));
}

// IQ4_XS without the scale search: per-32 scale max / -127, quantized to 6 bits against d.
void iq4_xs_block(const float* x, uint8_t* b) {
  float scales[8];
  float max_scale = 0, amax = 0;
  for (int s = 0; s < 8; s++) {
    scales[s] = signed_absmax(x + 32 * s, 32) / -127.f;
    if (std::fabs(scales[s]) > amax) {
      amax = std::fabs(scales[s]);
      max_scale = scales[s];
    }
  }
  std::memset(b, 0, 136);
  const float d = -max_scale / 32;
  put_f16(b, d);
  const float dd = get_f16(b);
  const float id = d ? 1 / d : 0.f;
  uint16_t sh = 0;
  for (int s = 0; s < 8; s++) {
    const int l = std::max(-32, std::min(31, nearest(id * scales[s])));
    const float dl = dd * l;
    const float idl = dl ? 1 / dl : 0.f;
    const int u = l + 32;
    b[4 + s / 2] |= static_cast<uint8_t>((u & 0xF) << (4 * (s % 2)));
    sh = static_cast<uint16_t>(sh | ((u >> 4) << (2 * s)));
    for (int j = 0; j < 16; j++)
      b[8 + 16 * s + j] = static_cast<uint8_t>(nearest_index(kIq4nl, idl * x[32 * s + j]) |
                                               (nearest_index(kIq4nl, idl * x[32 * s + 16 + j]) << 4));
  }
  std::memcpy(b + 2, &sh, 2);
}

uint16_t to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>((u + (0x7fffu + ((u >> 16) & 1))) >> 16);
}

}  // namespace

std::vector<uint8_t> quantize_rows(tensor_type t, const float* x, int64_t rows, int64_t n) {
  const size_t rb = infer::tensor_row_bytes(t, n);
  std::vector<uint8_t> out(rb * static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; r++) {
    const float* xr = x + r * n;
    uint8_t* o = out.data() + rb * static_cast<size_t>(r);
    switch (t) {
      case tensor_type::f32: std::memcpy(o, xr, static_cast<size_t>(n) * 4); break;
      case tensor_type::f16:
        for (int64_t j = 0; j < n; j++) put_f16(o + 2 * j, xr[j]);
        break;
      case tensor_type::bf16:
        for (int64_t j = 0; j < n; j++) {
          uint16_t h = to_bf16(xr[j]);
          std::memcpy(o + 2 * j, &h, 2);
        }
        break;
      case tensor_type::q8_0: for (int64_t i = 0; i < n / 32; i++) q8_0_block(xr + 32 * i, o + 34 * i); break;
      case tensor_type::q4_0: for (int64_t i = 0; i < n / 32; i++) q4_0_block(xr + 32 * i, o + 18 * i); break;
      case tensor_type::q5_0: for (int64_t i = 0; i < n / 32; i++) q5_0_block(xr + 32 * i, o + 22 * i); break;
      case tensor_type::q4_k:
        for (int64_t i = 0; i < n / 256; i++) qk_affine_block(xr + 256 * i, o + 144 * i, 15, false);
        break;
      case tensor_type::q5_k:
        for (int64_t i = 0; i < n / 256; i++) qk_affine_block(xr + 256 * i, o + 176 * i, 31, true);
        break;
      case tensor_type::q6_k: for (int64_t i = 0; i < n / 256; i++) q6_K_block(xr + 256 * i, o + 210 * i); break;
      case tensor_type::q4_1: for (int64_t i = 0; i < n / 32; i++) q_1_block(xr + 32 * i, o + 20 * i, false); break;
      case tensor_type::q5_1: for (int64_t i = 0; i < n / 32; i++) q_1_block(xr + 32 * i, o + 24 * i, true); break;
      case tensor_type::iq4_nl: for (int64_t i = 0; i < n / 32; i++) iq4_nl_block(xr + 32 * i, o + 18 * i); break;
      case tensor_type::mxfp4: for (int64_t i = 0; i < n / 32; i++) mxfp4_block(xr + 32 * i, o + 17 * i); break;
      case tensor_type::q2_k: for (int64_t i = 0; i < n / 256; i++) q2_K_block(xr + 256 * i, o + 84 * i); break;
      case tensor_type::q3_k: for (int64_t i = 0; i < n / 256; i++) q3_K_block(xr + 256 * i, o + 110 * i); break;
      case tensor_type::iq4_xs: for (int64_t i = 0; i < n / 256; i++) iq4_xs_block(xr + 256 * i, o + 136 * i); break;      case tensor_type::q8_0_r4: break;  // not a file type: made from Q8_0 at load (q8_0_r4_test.cc)
      case tensor_type::q4_k_r4: break;  // not a file type: made from Q4_K at load (q4_k_r4_test.cc)
      case tensor_type::q6_k_r4: break;  // nor this one (q6_k_r4_test.cc)
    }
  }
  return out;
}

double ref_element(tensor_type t, const uint8_t* row, int64_t j) {
  switch (t) {
    case tensor_type::f32: {
      float v;
      std::memcpy(&v, row + 4 * j, 4);
      return v;
    }
    case tensor_type::f16: return get_f16(row + 2 * j);
    case tensor_type::bf16: {
      uint16_t h;
      std::memcpy(&h, row + 2 * j, 2);
      uint32_t u = static_cast<uint32_t>(h) << 16;
      float v;
      std::memcpy(&v, &u, 4);
      return v;
    }
    case tensor_type::q8_0: {
      const uint8_t* b = row + 34 * (j / 32);
      return static_cast<double>(get_f16(b)) * static_cast<int8_t>(b[2 + j % 32]);
    }
    case tensor_type::q4_0: {
      const uint8_t* b = row + 18 * (j / 32);
      const int k = static_cast<int>(j % 32);
      const int nib = k < 16 ? (b[2 + k] & 15) : (b[2 + k - 16] >> 4);
      return static_cast<double>(get_f16(b)) * (nib - 8);
    }
    case tensor_type::q5_0: {
      const uint8_t* b = row + 22 * (j / 32);
      const int k = static_cast<int>(j % 32);
      uint32_t qh;
      std::memcpy(&qh, b + 2, 4);
      const int nib = k < 16 ? (b[6 + k] & 15) : (b[6 + k - 16] >> 4);
      const int hi = (qh >> k) & 1;
      return static_cast<double>(get_f16(b)) * ((nib | (hi << 4)) - 16);
    }
    case tensor_type::q4_k:
    case tensor_type::q5_k: {
      const bool five = t == tensor_type::q5_k;
      const uint8_t* b = row + (five ? 176 : 144) * (j / 256);
      const int k = static_cast<int>(j % 256);
      const int c = k / 64, within = k % 64, l = within % 32;
      const int sub = 2 * c + (within >= 32);
      const uint8_t byte = (five ? b + 48 : b + 16)[32 * c + l];
      int q = within < 32 ? (byte & 15) : (byte >> 4);
      if (five && ((b[16 + l] >> sub) & 1)) q += 16;
      int sc, m;
      unpack_scale_k4(sub, b + 4, &sc, &m);
      return static_cast<double>(get_f16(b)) * sc * q - static_cast<double>(get_f16(b + 2)) * m;
    }
    case tensor_type::q6_k: {
      const uint8_t* b = row + 210 * (j / 256);
      const int k = static_cast<int>(j % 256);
      const int h = k / 128, w = k % 128, qd = w / 32, l = w % 32;
      const uint8_t qlb = b[64 * h + l + ((qd & 1) ? 32 : 0)];
      const int lo = qd < 2 ? (qlb & 15) : (qlb >> 4);
      const int hi = (b[128 + 32 * h + l] >> (2 * qd)) & 3;
      const int sc = static_cast<int8_t>(b[192 + 8 * h + l / 16 + 2 * qd]);
      return static_cast<double>(get_f16(b + 208)) * sc * ((lo | (hi << 4)) - 32);
    }
    case tensor_type::q4_1:
    case tensor_type::q5_1: {
      const bool five = t == tensor_type::q5_1;
      const uint8_t* b = row + (five ? 24 : 20) * (j / 32);
      const int k = static_cast<int>(j % 32);
      const uint8_t* qs = five ? b + 8 : b + 4;
      int q = k < 16 ? (qs[k] & 15) : (qs[k - 16] >> 4);
      if (five) {
        uint32_t qh;
        std::memcpy(&qh, b + 4, 4);
        q |= static_cast<int>((qh >> k) & 1) << 4;
      }
      return static_cast<double>(get_f16(b)) * q + get_f16(b + 2);
    }
    case tensor_type::iq4_nl: {
      const uint8_t* b = row + 18 * (j / 32);
      const int k = static_cast<int>(j % 32);
      const int idx = k < 16 ? (b[2 + k] & 15) : (b[2 + k - 16] >> 4);
      return static_cast<double>(get_f16(b)) * kIq4nl[idx];
    }
    case tensor_type::mxfp4: {
      const uint8_t* b = row + 17 * (j / 32);
      const int k = static_cast<int>(j % 32);
      const int idx = k < 16 ? (b[1 + k] & 15) : (b[1 + k - 16] >> 4);
      return e8m0_half(b[0]) * kMxfp4[idx];
    }
    case tensor_type::q2_k: {
      // value k = 128h + 32s + l (s = shift index): bits 2s of qs[32h + l]; group k / 16
      const uint8_t* b = row + 84 * (j / 256);
      const int k = static_cast<int>(j % 256);
      const int h = k / 128, s2 = (k % 128) / 32, l = k % 32;
      const int q = (b[16 + 32 * h + l] >> (2 * s2)) & 3;
      const uint8_t sc = b[k / 16];
      return static_cast<double>(get_f16(b + 80)) * (sc & 15) * q - static_cast<double>(get_f16(b + 82)) * (sc >> 4);
    }
    case tensor_type::q3_k: {
      const uint8_t* b = row + 110 * (j / 256);
      const int k = static_cast<int>(j % 256);
      const int h = k / 128, s2 = (k % 128) / 32, l = k % 32;
      const int lo = (b[32 + 32 * h + l] >> (2 * s2)) & 3;
      const int hi = (b[l] >> (4 * h + s2)) & 1;
      const int g = k / 16;
      const int sc_lo = g < 8 ? (b[96 + g] & 15) : (b[96 + g - 8] >> 4);
      const int sc_hi = (b[96 + 8 + g % 4] >> (2 * (g / 4))) & 3;
      const int sc = (sc_lo | (sc_hi << 4)) - 32;
      return static_cast<double>(get_f16(b + 108)) * sc * (lo + 4 * hi - 4);
    }
    case tensor_type::iq4_xs: {
      const uint8_t* b = row + 136 * (j / 256);
      const int k = static_cast<int>(j % 256);
      const int s = k / 32, w = k % 32;
      uint16_t sh;
      std::memcpy(&sh, b + 2, 2);
      const int ls = ((b[4 + s / 2] >> (4 * (s % 2))) & 15) | (((sh >> (2 * s)) & 3) << 4);
      const uint8_t byte = b[8 + 16 * s + w % 16];
      const int idx = w < 16 ? (byte & 15) : (byte >> 4);
      return static_cast<double>(get_f16(b)) * (ls - 32) * kIq4nl[idx];
    }
    case tensor_type::q8_0_r4: break;  // not a file type
    case tensor_type::q4_k_r4: break;
    case tensor_type::q6_k_r4: break;
  }
  return 0;
}

std::vector<uint8_t> random_blocks(tensor_type t, int64_t rows, int64_t n, std::mt19937& rng) {
  const size_t rb = infer::tensor_row_bytes(t, n);
  std::vector<uint8_t> out(rb * static_cast<size_t>(rows));
  for (auto& b : out) b = static_cast<uint8_t>(rng());
  std::uniform_real_distribution<float> scale(0.0005f, 0.02f);
  std::uniform_real_distribution<float> f(-1.f, 1.f);
  const size_t bb = infer::tensor_type_block_bytes(t);
  for (size_t off = 0; off < out.size(); off += bb) {
    uint8_t* b = out.data() + off;
    switch (t) {
      case tensor_type::f32: {
        float v = f(rng);
        std::memcpy(b, &v, 4);
        break;
      }
      case tensor_type::f16: put_f16(b, f(rng)); break;
      case tensor_type::bf16: {
        uint16_t h = to_bf16(f(rng));
        std::memcpy(b, &h, 2);
        break;
      }
      case tensor_type::q8_0: case tensor_type::q4_0: case tensor_type::q5_0:
        put_f16(b, (rng() & 1 ? -1 : 1) * scale(rng));
        break;
      case tensor_type::q4_k: case tensor_type::q5_k:
        put_f16(b, scale(rng));
        put_f16(b + 2, scale(rng));
        break;
      case tensor_type::q6_k: put_f16(b + 208, scale(rng)); break;
      case tensor_type::q4_1: case tensor_type::q5_1:
        put_f16(b, scale(rng));
        put_f16(b + 2, (rng() & 1 ? -1 : 1) * scale(rng));
        break;
      case tensor_type::iq4_nl: case tensor_type::iq4_xs: put_f16(b, (rng() & 1 ? -1 : 1) * scale(rng) * 0.1f); break;
      case tensor_type::mxfp4: b[0] = static_cast<uint8_t>(118 + rng() % 6); break;  // 2^-10 .. 2^-5
      case tensor_type::q2_k: put_f16(b + 80, scale(rng)); put_f16(b + 82, scale(rng)); break;
      case tensor_type::q3_k: put_f16(b + 108, (rng() & 1 ? -1 : 1) * scale(rng)); break;      case tensor_type::q8_0_r4: break;  // not a file type
      case tensor_type::q4_k_r4: break;
      case tensor_type::q6_k_r4: break;
    }
  }
  return out;
}

}  // namespace infer_test
