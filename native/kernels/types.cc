// Type table, fp16/bf16 scalar conversions and row dequantization (reference formulas of
// llama.cpp's ggml-quants.c dequantize_row_*).
#include <cmath>
#include <cstring>

#include "kernels/kernels.h"
#include "kernels/quants.h"

namespace infer {

namespace {
inline float from_bits(uint32_t w) { float f; std::memcpy(&f, &w, 4); return f; }
inline uint32_t to_bits(float f) { uint32_t w; std::memcpy(&w, &f, 4); return w; }
}  // namespace

// Exact IEEE half <-> float conversions (Maratyszcza's FP16 method, as ggml uses without F16C).
float fp16_to_fp32(uint16_t h) {
  const uint32_t w = static_cast<uint32_t>(h) << 16;
  const uint32_t sign = w & 0x80000000u;
  const uint32_t two_w = w + w;
  const uint32_t exp_offset = 0xE0u << 23;
  const float exp_scale = 0x1.0p-112f;
  const float normalized = from_bits((two_w >> 4) + exp_offset) * exp_scale;
  const uint32_t magic_mask = 126u << 23;
  const float magic_bias = 0.5f;
  const float denormalized = from_bits((two_w >> 17) | magic_mask) - magic_bias;
  const uint32_t denormalized_cutoff = 1u << 27;
  const uint32_t result = sign | (two_w < denormalized_cutoff ? to_bits(denormalized) : to_bits(normalized));
  return from_bits(result);
}

uint16_t fp32_to_fp16(float f) {
  const float scale_to_inf = 0x1.0p+112f;
  const float scale_to_zero = 0x1.0p-110f;
  float base = (std::fabs(f) * scale_to_inf) * scale_to_zero;
  const uint32_t w = to_bits(f);
  const uint32_t shl1_w = w + w;
  const uint32_t sign = w & 0x80000000u;
  uint32_t bias = shl1_w & 0xFF000000u;
  if (bias < 0x71000000u) bias = 0x71000000u;
  base = from_bits((bias >> 1) + 0x07800000u) + base;
  const uint32_t bits = to_bits(base);
  const uint32_t exp_bits = (bits >> 13) & 0x00007C00u;
  const uint32_t mantissa_bits = bits & 0x00000FFFu;
  const uint32_t nonsign = exp_bits + mantissa_bits;
  return static_cast<uint16_t>((sign >> 16) | (shl1_w > 0xFF000000u ? 0x7E00u : nonsign));
}

float bf16_to_fp32(uint16_t h) { return from_bits(static_cast<uint32_t>(h) << 16); }

namespace kq {
uint16_t fp32_to_bf16(float f) {
  uint32_t u = to_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 64);  // quiet NaN
  return static_cast<uint16_t>((u + (0x7fffu + ((u >> 16) & 1))) >> 16);
}
}  // namespace kq

const char* tensor_type_name(tensor_type t) {
  switch (t) {
    case tensor_type::f32: return "f32";
    case tensor_type::f16: return "f16";
    case tensor_type::bf16: return "bf16";
    case tensor_type::q4_0: return "q4_0";
    case tensor_type::q5_0: return "q5_0";
    case tensor_type::q8_0: return "q8_0";
    case tensor_type::q4_k: return "q4_k";
    case tensor_type::q5_k: return "q5_k";
    case tensor_type::q6_k: return "q6_k";
    case tensor_type::q4_1: return "q4_1";
    case tensor_type::q5_1: return "q5_1";
    case tensor_type::q2_k: return "q2_k";
    case tensor_type::q3_k: return "q3_k";
    case tensor_type::iq4_nl: return "iq4_nl";
    case tensor_type::iq4_xs: return "iq4_xs";
    case tensor_type::mxfp4: return "mxfp4";
    case tensor_type::q8_0_r4: return "q8_0_r4";
    case tensor_type::q4_k_r4: return "q4_k_r4";
    case tensor_type::q6_k_r4: return "q6_k_r4";
  }
  return "?";
}

bool tensor_type_supported(uint32_t raw) {
  switch (raw) {
    case 0: case 1: case 2: case 3: case 6: case 7: case 8: case 10: case 11: case 12: case 13: case 14:
    case 20: case 23: case 30: case 39:
      return true;
    default: return false;
  }
}

int64_t tensor_type_block_elems(tensor_type t) {
  switch (t) {
    case tensor_type::f32: case tensor_type::f16: case tensor_type::bf16: return 1;
    case tensor_type::q4_0: case tensor_type::q4_1: case tensor_type::q5_0: case tensor_type::q5_1:
    case tensor_type::q8_0: case tensor_type::iq4_nl: case tensor_type::mxfp4: case tensor_type::q8_0_r4:
      return kq::QK;
    case tensor_type::q2_k: case tensor_type::q3_k: case tensor_type::q4_k: case tensor_type::q5_k:
    case tensor_type::q6_k: case tensor_type::iq4_xs: case tensor_type::q4_k_r4: case tensor_type::q6_k_r4:
      return kq::QK_K;
  }
  return 1;
}

size_t tensor_type_block_bytes(tensor_type t) {
  switch (t) {
    case tensor_type::f32: return 4;
    case tensor_type::f16: case tensor_type::bf16: return 2;
    case tensor_type::q4_0: return sizeof(kq::block_q4_0);
    case tensor_type::q5_0: return sizeof(kq::block_q5_0);
    case tensor_type::q8_0: case tensor_type::q8_0_r4: return sizeof(kq::block_q8_0);  // r4: per row
    case tensor_type::q4_k: case tensor_type::q4_k_r4: return sizeof(kq::block_q4_K);  // r4: per row
    case tensor_type::q5_k: return sizeof(kq::block_q5_K);
    case tensor_type::q6_k: case tensor_type::q6_k_r4: return sizeof(kq::block_q6_K);  // r4: per row
    case tensor_type::q4_1: return sizeof(kq::block_q4_1);
    case tensor_type::q5_1: return sizeof(kq::block_q5_1);
    case tensor_type::q2_k: return sizeof(kq::block_q2_K);
    case tensor_type::q3_k: return sizeof(kq::block_q3_K);
    case tensor_type::iq4_nl: return sizeof(kq::block_iq4_nl);
    case tensor_type::iq4_xs: return sizeof(kq::block_iq4_xs);
    case tensor_type::mxfp4: return sizeof(kq::block_mxfp4);
  }
  return 0;
}

size_t tensor_row_bytes(tensor_type t, int64_t n) {
  return static_cast<size_t>(n / tensor_type_block_elems(t)) * tensor_type_block_bytes(t);
}

namespace {

using namespace kq;

inline void get_scale_min_k4(int j, const uint8_t* q, uint8_t* d, uint8_t* m) {
  if (j < 4) {
    *d = q[j] & 63;
    *m = q[j + 4] & 63;
  } else {
    *d = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
    *m = (q[j + 4] >> 4) | ((q[j - 0] >> 6) << 4);
  }
}

void deq_q4_0(const block_q4_0* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; i++) {
    const float d = fp16_to_fp32(x[i].d);
    for (int j = 0; j < QK / 2; j++) {
      y[i * QK + j] = ((x[i].qs[j] & 0x0F) - 8) * d;
      y[i * QK + j + QK / 2] = ((x[i].qs[j] >> 4) - 8) * d;
    }
  }
}

void deq_q5_0(const block_q5_0* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; i++) {
    const float d = fp16_to_fp32(x[i].d);
    uint32_t qh;
    std::memcpy(&qh, x[i].qh, 4);
    for (int j = 0; j < QK / 2; j++) {
      const uint8_t xh0 = ((qh >> (j + 0)) << 4) & 0x10;
      const uint8_t xh1 = ((qh >> (j + 12))) & 0x10;
      y[i * QK + j] = (((x[i].qs[j] & 0x0F) | xh0) - 16) * d;
      y[i * QK + j + QK / 2] = (((x[i].qs[j] >> 4) | xh1) - 16) * d;
    }
  }
}

void deq_q8_0(const block_q8_0* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; i++) {
    const float d = fp16_to_fp32(x[i].d);
    for (int j = 0; j < QK; j++) y[i * QK + j] = x[i].qs[j] * d;
  }
}

void deq_q4_K(const block_q4_K* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; i++) {
    const uint8_t* q = x[i].qs;
    const float d = fp16_to_fp32(x[i].d);
    const float min = fp16_to_fp32(x[i].dmin);
    int is = 0;
    uint8_t sc, m;
    for (int j = 0; j < QK_K; j += 64) {
      get_scale_min_k4(is + 0, x[i].scales, &sc, &m);
      const float d1 = d * sc, m1 = min * m;
      get_scale_min_k4(is + 1, x[i].scales, &sc, &m);
      const float d2 = d * sc, m2 = min * m;
      for (int l = 0; l < 32; ++l) *y++ = d1 * (q[l] & 0xF) - m1;
      for (int l = 0; l < 32; ++l) *y++ = d2 * (q[l] >> 4) - m2;
      q += 32;
      is += 2;
    }
  }
}

void deq_q5_K(const block_q5_K* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; i++) {
    const uint8_t* ql = x[i].qs;
    const uint8_t* qh = x[i].qh;
    const float d = fp16_to_fp32(x[i].d);
    const float min = fp16_to_fp32(x[i].dmin);
    int is = 0;
    uint8_t sc, m;
    uint8_t u1 = 1, u2 = 2;
    for (int j = 0; j < QK_K; j += 64) {
      get_scale_min_k4(is + 0, x[i].scales, &sc, &m);
      const float d1 = d * sc, m1 = min * m;
      get_scale_min_k4(is + 1, x[i].scales, &sc, &m);
      const float d2 = d * sc, m2 = min * m;
      for (int l = 0; l < 32; ++l) *y++ = d1 * ((ql[l] & 0xF) + (qh[l] & u1 ? 16 : 0)) - m1;
      for (int l = 0; l < 32; ++l) *y++ = d2 * ((ql[l] >> 4) + (qh[l] & u2 ? 16 : 0)) - m2;
      ql += 32;
      is += 2;
      u1 <<= 2;
      u2 <<= 2;
    }
  }
}

void deq_q6_K(const block_q6_K* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; i++) {
    const float d = fp16_to_fp32(x[i].d);
    const uint8_t* ql = x[i].ql;
    const uint8_t* qh = x[i].qh;
    const int8_t* sc = x[i].scales;
    for (int n = 0; n < QK_K; n += 128) {
      for (int l = 0; l < 32; ++l) {
        int is = l / 16;
        const int8_t q1 = static_cast<int8_t>(((ql[l + 0] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32);
        const int8_t q2 = static_cast<int8_t>(((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32);
        const int8_t q3 = static_cast<int8_t>(((ql[l + 0] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32);
        const int8_t q4 = static_cast<int8_t>(((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32);
        y[l + 0] = d * sc[is + 0] * q1;
        y[l + 32] = d * sc[is + 2] * q2;
        y[l + 64] = d * sc[is + 4] * q3;
        y[l + 96] = d * sc[is + 6] * q4;
      }
      y += 128;
      ql += 64;
      qh += 32;
      sc += 8;
    }
  }
}

void deq_q4_1(const block_q4_1* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; i++) {
    const float d = fp16_to_fp32(x[i].d), m = fp16_to_fp32(x[i].m);
    for (int j = 0; j < QK / 2; j++) {
      y[i * QK + j] = (x[i].qs[j] & 0x0F) * d + m;
      y[i * QK + j + QK / 2] = (x[i].qs[j] >> 4) * d + m;
    }
  }
}

void deq_q5_1(const block_q5_1* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; i++) {
    const float d = fp16_to_fp32(x[i].d), m = fp16_to_fp32(x[i].m);
    uint32_t qh;
    std::memcpy(&qh, x[i].qh, 4);
    for (int j = 0; j < QK / 2; j++) {
      const uint8_t xh0 = ((qh >> (j + 0)) << 4) & 0x10;
      const uint8_t xh1 = ((qh >> (j + 12))) & 0x10;
      y[i * QK + j] = ((x[i].qs[j] & 0x0F) | xh0) * d + m;
      y[i * QK + j + QK / 2] = ((x[i].qs[j] >> 4) | xh1) * d + m;
    }
  }
}

void deq_iq4_nl(const block_iq4_nl* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; i++) {
    const float d = fp16_to_fp32(x[i].d);
    for (int j = 0; j < QK / 2; j++) {
      y[i * QK + j] = d * kvalues_iq4nl[x[i].qs[j] & 0x0F];
      y[i * QK + j + QK / 2] = d * kvalues_iq4nl[x[i].qs[j] >> 4];
    }
  }
}

void deq_mxfp4(const block_mxfp4* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; i++) {
    const float d = e8m0_to_fp32_half(x[i].e);
    for (int j = 0; j < QK / 2; j++) {
      y[i * QK + j] = kvalues_mxfp4[x[i].qs[j] & 0x0F] * d;
      y[i * QK + j + QK / 2] = kvalues_mxfp4[x[i].qs[j] >> 4] * d;
    }
  }
}

void deq_q2_K(const block_q2_K* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; i++) {
    const float d = fp16_to_fp32(x[i].d), min = fp16_to_fp32(x[i].dmin);
    const uint8_t* q = x[i].qs;
    int is = 0;
    for (int n = 0; n < QK_K; n += 128) {
      for (int shift = 0; shift < 8; shift += 2) {
        for (int half = 0; half < 2; half++) {
          const uint8_t sc = x[i].scales[is++];
          const float dl = d * (sc & 0xF), ml = min * (sc >> 4);
          for (int l = 0; l < 16; ++l) *y++ = dl * ((q[l + 16 * half] >> shift) & 3) - ml;
        }
      }
      q += 32;
    }
  }
}

void deq_q3_K(const block_q3_K* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; i++) {
    const float d_all = fp16_to_fp32(x[i].d);
    int8_t scales[16];
    unpack_q3_K_scales(x[i].scales, scales);
    const uint8_t* q = x[i].qs;
    const uint8_t* hm = x[i].hmask;
    uint8_t m = 1;
    int is = 0;
    for (int n = 0; n < QK_K; n += 128) {
      for (int shift = 0; shift < 8; shift += 2) {
        for (int half = 0; half < 2; half++) {
          const float dl = d_all * scales[is++];
          for (int l = 16 * half; l < 16 * half + 16; ++l)
            *y++ = dl * (((q[l] >> shift) & 3) - ((hm[l] & m) ? 0 : 4));
        }
        m <<= 1;
      }
      q += 32;
    }
  }
}

void deq_iq4_xs(const block_iq4_xs* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; i++) {
    const float d = fp16_to_fp32(x[i].d);
    const uint8_t* qs = x[i].qs;
    for (int ib = 0; ib < QK_K / 32; ++ib) {
      const int ls = ((x[i].scales_l[ib / 2] >> 4 * (ib % 2)) & 0xf) | (((x[i].scales_h >> 2 * ib) & 3) << 4);
      const float dl = d * (ls - 32);
      for (int j = 0; j < 16; ++j) {
        y[j] = dl * kvalues_iq4nl[qs[j] & 0xf];
        y[j + 16] = dl * kvalues_iq4nl[qs[j] >> 4];
      }
      y += 32;
      qs += 16;
    }
  }
}

}  // namespace

void dequantize_row(const tensor_view& w, int64_t row, float* out) {
  const uint8_t* p = static_cast<const uint8_t*>(w.data) + static_cast<size_t>(row) * w.row_bytes;
  const int64_t n = w.ne0;
  switch (w.type) {
    case tensor_type::f32: std::memcpy(out, p, static_cast<size_t>(n) * 4); break;
    case tensor_type::f16: {
      const uint16_t* h = reinterpret_cast<const uint16_t*>(p);
      for (int64_t j = 0; j < n; j++) out[j] = fp16_to_fp32(h[j]);
      break;
    }
    case tensor_type::bf16: {
      const uint16_t* h = reinterpret_cast<const uint16_t*>(p);
      for (int64_t j = 0; j < n; j++) out[j] = bf16_to_fp32(h[j]);
      break;
    }
    case tensor_type::q4_0: deq_q4_0(reinterpret_cast<const block_q4_0*>(p), out, n / QK); break;
    case tensor_type::q5_0: deq_q5_0(reinterpret_cast<const block_q5_0*>(p), out, n / QK); break;
    case tensor_type::q8_0: deq_q8_0(reinterpret_cast<const block_q8_0*>(p), out, n / QK); break;
    case tensor_type::q4_k: deq_q4_K(reinterpret_cast<const block_q4_K*>(p), out, n / QK_K); break;
    case tensor_type::q5_k: deq_q5_K(reinterpret_cast<const block_q5_K*>(p), out, n / QK_K); break;
    case tensor_type::q6_k: deq_q6_K(reinterpret_cast<const block_q6_K*>(p), out, n / QK_K); break;
    case tensor_type::q4_1: deq_q4_1(reinterpret_cast<const block_q4_1*>(p), out, n / QK); break;
    case tensor_type::q5_1: deq_q5_1(reinterpret_cast<const block_q5_1*>(p), out, n / QK); break;
    case tensor_type::iq4_nl: deq_iq4_nl(reinterpret_cast<const block_iq4_nl*>(p), out, n / QK); break;
    case tensor_type::mxfp4: deq_mxfp4(reinterpret_cast<const block_mxfp4*>(p), out, n / QK); break;
    case tensor_type::q2_k: deq_q2_K(reinterpret_cast<const block_q2_K*>(p), out, n / QK_K); break;
    case tensor_type::q3_k: deq_q3_K(reinterpret_cast<const block_q3_K*>(p), out, n / QK_K); break;
    case tensor_type::iq4_xs: deq_iq4_xs(reinterpret_cast<const block_iq4_xs*>(p), out, n / QK_K); break;
    case tensor_type::q8_0_r4: kq::dequantize_row_q8_0_r4(w, row, out); break;
    case tensor_type::q4_k_r4: kq::dequantize_row_q4_k_r4(w, row, out); break;
    case tensor_type::q6_k_r4: kq::dequantize_row_q6_k_r4(w, row, out); break;
  }
}

}  // namespace infer
