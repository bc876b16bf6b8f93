// Portable kernels: activation conversion (llama.cpp's quantize_row_q8_0_ref / q8_K_ref) and
// weight-row x activation-row dot products (ggml's generic vec_dot_*). These define the numerics;
// the AVX2 versions in quants_avx2.cc compute the same integer sums.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/quants.h"

namespace infer {
namespace kq {

act_format act_format_for(tensor_type w) {
  switch (w) {
    case tensor_type::f32: return act_format::f32;
    case tensor_type::f16: return act_format::f32_round_f16;
    case tensor_type::bf16: return act_format::f32_round_bf16;
    case tensor_type::q4_0: case tensor_type::q5_0: case tensor_type::q8_0: case tensor_type::iq4_nl:
    case tensor_type::mxfp4: case tensor_type::q8_0_r4:
      return act_format::q8_0;
    case tensor_type::q4_1: case tensor_type::q5_1: return act_format::q8_1;
    case tensor_type::q2_k: case tensor_type::q3_k: case tensor_type::q4_k: case tensor_type::q5_k:
    case tensor_type::q6_k: case tensor_type::iq4_xs: case tensor_type::q4_k_r4: case tensor_type::q6_k_r4:
      return act_format::q8_K;
  }
  return act_format::f32;
}

size_t act_row_bytes(act_format f, int64_t n) {
  switch (f) {
    case act_format::q8_0: return static_cast<size_t>(n / QK) * sizeof(block_q8_0x);
    case act_format::q8_K: return static_cast<size_t>(n / QK_K) * sizeof(block_q8_K);
    case act_format::q8_1: return static_cast<size_t>(n / QK) * sizeof(block_q8_1x);
    default: return static_cast<size_t>(n) * sizeof(float);
  }
}

void convert_act_row_ref(act_format f, const float* x, void* out, int64_t n) {
  switch (f) {
    case act_format::f32: std::memcpy(out, x, static_cast<size_t>(n) * 4); break;
    case act_format::f32_round_f16: {
      float* o = static_cast<float*>(out);
      for (int64_t j = 0; j < n; j++) o[j] = fp16_to_fp32(fp32_to_fp16(x[j]));
      break;
    }
    case act_format::f32_round_bf16: {
      float* o = static_cast<float*>(out);
      for (int64_t j = 0; j < n; j++) o[j] = bf16_to_fp32(fp32_to_bf16(x[j]));
      break;
    }
    case act_format::q8_0: {
      block_q8_0x* y = static_cast<block_q8_0x*>(out);
      for (int64_t i = 0; i < n / QK; i++) {
        float amax = 0.0f;
        for (int j = 0; j < QK; j++) amax = std::max(amax, std::fabs(x[i * QK + j]));
        const float d = amax / 127.0f;
        const float id = d ? 1.0f / d : 0.0f;
        y[i].d = fp16_to_fp32(fp32_to_fp16(d));
        // Round half to even (llama.cpp's AVX2 path does; its scalar ref uses roundf): the AVX2
        // kernel here gives bit-identical blocks.
        for (int j = 0; j < QK; j++) y[i].qs[j] = static_cast<int8_t>(std::nearbyintf(x[i * QK + j] * id));
        for (int k = 0; k < QK / 4; k++)
          y[i].s4[k] = y[i].qs[4 * k] + y[i].qs[4 * k + 1] + y[i].qs[4 * k + 2] + y[i].qs[4 * k + 3];
      }
      break;
    }
    case act_format::q8_1: {
      block_q8_1x* y = static_cast<block_q8_1x*>(out);
      for (int64_t i = 0; i < n / QK; i++) {
        float amax = 0.0f;
        for (int j = 0; j < QK; j++) amax = std::max(amax, std::fabs(x[i * QK + j]));
        const float d = amax / 127.0f;
        const float id = d ? 1.0f / d : 0.0f;
        y[i].d = fp16_to_fp32(fp32_to_fp16(d));
        int sum = 0;
        for (int j = 0; j < QK; j++) {
          y[i].qs[j] = static_cast<int8_t>(std::nearbyintf(x[i * QK + j] * id));
          sum += y[i].qs[j];
        }
        y[i].s = fp16_to_fp32(fp32_to_fp16(d * static_cast<float>(sum)));  // from the unrounded d, as ggml
      }
      break;
    }
    case act_format::q8_K: {
      block_q8_K* y = static_cast<block_q8_K*>(out);
      for (int64_t i = 0; i < n / QK_K; i++) {
        const float* xb = x + i * QK_K;
        float max = 0, amax = 0;
        for (int j = 0; j < QK_K; ++j) {
          float ax = std::fabs(xb[j]);
          if (ax > amax) {
            amax = ax;
            max = xb[j];
          }
        }
        if (!amax) {
          y[i].d = 0;
          std::memset(y[i].qs, 0, QK_K);
          std::memset(y[i].bsums, 0, sizeof y[i].bsums);
          continue;
        }
        const float iscale = -127.f / max;
        for (int j = 0; j < QK_K; ++j) {
          int v = static_cast<int>(std::nearbyintf(iscale * xb[j]));
          y[i].qs[j] = static_cast<int8_t>(std::min(127, v));
        }
        for (int j = 0; j < QK_K / 16; ++j) {
          int sum = 0;
          for (int ii = 0; ii < 16; ++ii) sum += y[i].qs[j * 16 + ii];
          y[i].bsums[j] = static_cast<int16_t>(sum);
        }
        y[i].d = 1 / iscale;
      }
      break;
    }
  }
}

namespace {

inline void scale_min_k4(int j, const uint8_t* q, int* d, int* m) {
  if (j < 4) {
    *d = q[j] & 63;
    *m = q[j + 4] & 63;
  } else {
    *d = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
    *m = (q[j + 4] >> 4) | ((q[j - 0] >> 6) << 4);
  }
}

float dot_f32(int64_t n, const float* w, const float* x) {
  double s = 0;  // portable path: favour accuracy over speed
  for (int64_t j = 0; j < n; j++) s += static_cast<double>(w[j]) * x[j];
  return static_cast<float>(s);
}

float dot_f16(int64_t n, const uint16_t* w, const float* x) {
  double s = 0;
  for (int64_t j = 0; j < n; j++) s += static_cast<double>(fp16_to_fp32(w[j])) * x[j];
  return static_cast<float>(s);
}

float dot_bf16(int64_t n, const uint16_t* w, const float* x) {
  double s = 0;
  for (int64_t j = 0; j < n; j++) s += static_cast<double>(bf16_to_fp32(w[j])) * x[j];
  return static_cast<float>(s);
}

float dot_q4_0(int64_t nb, const block_q4_0* x, const block_q8_0x* y) {
  float sumf = 0;
  for (int64_t i = 0; i < nb; i++) {
    int sumi = 0;
    for (int j = 0; j < QK / 2; ++j) {
      const int v0 = (x[i].qs[j] & 0x0F) - 8;
      const int v1 = (x[i].qs[j] >> 4) - 8;
      sumi += v0 * y[i].qs[j] + v1 * y[i].qs[j + QK / 2];
    }
    sumf += sumi * fp16_to_fp32(x[i].d) * y[i].d;
  }
  return sumf;
}

float dot_q5_0(int64_t nb, const block_q5_0* x, const block_q8_0x* y) {
  float sumf = 0;
  for (int64_t i = 0; i < nb; i++) {
    uint32_t qh;
    std::memcpy(&qh, x[i].qh, 4);
    int sumi = 0;
    for (int j = 0; j < QK / 2; ++j) {
      const uint8_t xh0 = ((qh & (1u << (j + 0))) >> (j + 0)) << 4;
      const uint8_t xh1 = ((qh & (1u << (j + 16))) >> (j + 12));
      const int x0 = ((x[i].qs[j] & 0x0F) | xh0) - 16;
      const int x1 = ((x[i].qs[j] >> 4) | xh1) - 16;
      sumi += x0 * y[i].qs[j] + x1 * y[i].qs[j + QK / 2];
    }
    sumf += sumi * fp16_to_fp32(x[i].d) * y[i].d;
  }
  return sumf;
}

float dot_q8_0(int64_t nb, const block_q8_0* x, const block_q8_0x* y) {
  float sumf = 0;
  for (int64_t i = 0; i < nb; i++) {
    int sumi = 0;
    for (int j = 0; j < QK; j++) sumi += x[i].qs[j] * y[i].qs[j];
    sumf += sumi * fp16_to_fp32(x[i].d) * y[i].d;
  }
  return sumf;
}

float dot_q4_K(int64_t nb, const block_q4_K* x, const block_q8_K* y) {
  float sumf = 0;
  for (int64_t i = 0; i < nb; i++) {
    int sc[8], m[8];
    for (int j = 0; j < 8; j++) scale_min_k4(j, x[i].scales, &sc[j], &m[j]);
    int sumi_mins = 0;
    for (int j = 0; j < 8; j++) sumi_mins += m[j] * (y[i].bsums[2 * j] + y[i].bsums[2 * j + 1]);
    const uint8_t* q = x[i].qs;
    const int8_t* a = y[i].qs;
    int sumi = 0;
    for (int j = 0; j < 4; j++) {
      int s1 = 0, s2 = 0;
      for (int l = 0; l < 32; l++) {
        s1 += (q[l] & 0xF) * a[l];
        s2 += (q[l] >> 4) * a[l + 32];
      }
      sumi += sc[2 * j] * s1 + sc[2 * j + 1] * s2;
      q += 32;
      a += 64;
    }
    const float d = y[i].d * fp16_to_fp32(x[i].d);
    const float dmin = y[i].d * fp16_to_fp32(x[i].dmin);
    sumf += d * sumi - dmin * sumi_mins;
  }
  return sumf;
}

float dot_q5_K(int64_t nb, const block_q5_K* x, const block_q8_K* y) {
  float sumf = 0;
  for (int64_t i = 0; i < nb; i++) {
    int sc[8], m[8];
    for (int j = 0; j < 8; j++) scale_min_k4(j, x[i].scales, &sc[j], &m[j]);
    int sumi_mins = 0;
    for (int j = 0; j < 8; j++) sumi_mins += m[j] * (y[i].bsums[2 * j] + y[i].bsums[2 * j + 1]);
    const uint8_t* ql = x[i].qs;
    const uint8_t* qh = x[i].qh;
    const int8_t* a = y[i].qs;
    int sumi = 0;
    uint8_t u1 = 1, u2 = 2;
    for (int j = 0; j < 4; j++) {
      int s1 = 0, s2 = 0;
      for (int l = 0; l < 32; l++) {
        s1 += ((ql[l] & 0xF) + (qh[l] & u1 ? 16 : 0)) * a[l];
        s2 += ((ql[l] >> 4) + (qh[l] & u2 ? 16 : 0)) * a[l + 32];
      }
      sumi += sc[2 * j] * s1 + sc[2 * j + 1] * s2;
      ql += 32;
      a += 64;
      u1 <<= 2;
      u2 <<= 2;
    }
    const float d = y[i].d * fp16_to_fp32(x[i].d);
    const float dmin = y[i].d * fp16_to_fp32(x[i].dmin);
    sumf += d * sumi - dmin * sumi_mins;
  }
  return sumf;
}

float dot_q6_K(int64_t nb, const block_q6_K* x, const block_q8_K* y) {
  float sumf = 0;
  for (int64_t i = 0; i < nb; i++) {
    const uint8_t* ql = x[i].ql;
    const uint8_t* qh = x[i].qh;
    const int8_t* sc = x[i].scales;
    const int8_t* a = y[i].qs;
    int sumi = 0;
    for (int h = 0; h < 2; h++) {
      int s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      for (int l = 0; l < 32; ++l) {
        const int is = l / 16;
        const int q1 = ((ql[l + 0] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
        const int q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
        const int q3 = ((ql[l + 0] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
        const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
        s[is + 0] += q1 * a[l];
        s[is + 2] += q2 * a[l + 32];
        s[is + 4] += q3 * a[l + 64];
        s[is + 6] += q4 * a[l + 96];
      }
      for (int k = 0; k < 8; k++) sumi += sc[k] * s[k];
      ql += 64;
      qh += 32;
      sc += 8;
      a += 128;
    }
    sumf += y[i].d * fp16_to_fp32(x[i].d) * sumi;
  }
  return sumf;
}

float dot_q4_1(int64_t nb, const block_q4_1* x, const block_q8_1x* y) {
  float sumf = 0;
  for (int64_t i = 0; i < nb; i++) {
    int sumi = 0;
    for (int j = 0; j < QK / 2; ++j)
      sumi += (x[i].qs[j] & 0x0F) * y[i].qs[j] + (x[i].qs[j] >> 4) * y[i].qs[j + QK / 2];
    sumf += fp16_to_fp32(x[i].d) * y[i].d * sumi + fp16_to_fp32(x[i].m) * y[i].s;
  }
  return sumf;
}

float dot_q5_1(int64_t nb, const block_q5_1* x, const block_q8_1x* y) {
  float sumf = 0;
  for (int64_t i = 0; i < nb; i++) {
    uint32_t qh;
    std::memcpy(&qh, x[i].qh, 4);
    int sumi = 0;
    for (int j = 0; j < QK / 2; ++j) {
      const int x0 = (x[i].qs[j] & 0x0F) | (((qh >> j) & 1) << 4);
      const int x1 = (x[i].qs[j] >> 4) | (((qh >> (j + 16)) & 1) << 4);
      sumi += x0 * y[i].qs[j] + x1 * y[i].qs[j + QK / 2];
    }
    sumf += fp16_to_fp32(x[i].d) * y[i].d * sumi + fp16_to_fp32(x[i].m) * y[i].s;
  }
  return sumf;
}

// IQ4_NL / MXFP4: table lookups, integer sums per block, one float scale per block.
float dot_iq4_nl(int64_t nb, const block_iq4_nl* x, const block_q8_0x* y) {
  float sumf = 0;
  for (int64_t i = 0; i < nb; i++) {
    int sumi = 0;
    for (int j = 0; j < QK / 2; ++j)
      sumi += kvalues_iq4nl[x[i].qs[j] & 0xF] * y[i].qs[j] + kvalues_iq4nl[x[i].qs[j] >> 4] * y[i].qs[j + QK / 2];
    sumf += fp16_to_fp32(x[i].d) * y[i].d * sumi;
  }
  return sumf;
}

float dot_mxfp4(int64_t nb, const block_mxfp4* x, const block_q8_0x* y) {
  float sumf = 0;
  for (int64_t i = 0; i < nb; i++) {
    int sumi = 0;
    for (int j = 0; j < QK / 2; ++j)
      sumi += kvalues_mxfp4[x[i].qs[j] & 0xF] * y[i].qs[j] + kvalues_mxfp4[x[i].qs[j] >> 4] * y[i].qs[j + QK / 2];
    sumf += y[i].d * e8m0_to_fp32_half(x[i].e) * sumi;
  }
  return sumf;
}

float dot_q2_K(int64_t nb, const block_q2_K* x, const block_q8_K* y) {
  float sumf = 0;
  for (int64_t i = 0; i < nb; i++) {
    const uint8_t* q2 = x[i].qs;
    const int8_t* a = y[i].qs;
    const uint8_t* sc = x[i].scales;
    int summs = 0;
    for (int j = 0; j < 16; ++j) summs += y[i].bsums[j] * (sc[j] >> 4);
    int isum = 0, is = 0;
    for (int k = 0; k < QK_K / 128; ++k) {
      for (int shift = 0; shift < 8; shift += 2) {
        for (int half = 0; half < 2; half++) {
          int s = 0;
          for (int l = 16 * half; l < 16 * half + 16; ++l) s += a[l] * ((q2[l] >> shift) & 3);
          isum += (sc[is++] & 0xF) * s;
        }
        a += 32;
      }
      q2 += 32;
    }
    const float dall = y[i].d * fp16_to_fp32(x[i].d);
    const float dmin = y[i].d * fp16_to_fp32(x[i].dmin);
    sumf += dall * isum - dmin * summs;
  }
  return sumf;
}

float dot_q3_K(int64_t nb, const block_q3_K* x, const block_q8_K* y) {
  float sumf = 0;
  for (int64_t i = 0; i < nb; i++) {
    int8_t sc[16];
    unpack_q3_K_scales(x[i].scales, sc);
    const uint8_t* q3 = x[i].qs;
    const uint8_t* hm = x[i].hmask;
    const int8_t* a = y[i].qs;
    int isum = 0, is = 0;
    // The high bit of each weight, as a bit index rather than a shifted uint8_t mask: GCC 12's
    // AVX-512 vectorization of the mask form gave wrong sums (portable_kernels_against_references
    // on an AVX-512 VM), this form vectorizes correctly.
    int bit = 0;
    for (int k = 0; k < QK_K / 128; ++k) {
      for (int shift = 0; shift < 8; shift += 2) {
        for (int half = 0; half < 2; half++) {
          int s = 0;
          for (int l = 16 * half; l < 16 * half + 16; ++l)
            s += a[l] * (((q3[l] >> shift) & 3) - 4 * (1 - ((hm[l] >> bit) & 1)));
          isum += sc[is++] * s;
        }
        a += 32;
        bit++;
      }
      q3 += 32;
    }
    sumf += y[i].d * fp16_to_fp32(x[i].d) * isum;
  }
  return sumf;
}

float dot_iq4_xs(int64_t nb, const block_iq4_xs* x, const block_q8_K* y) {
  float sumf = 0;
  for (int64_t i = 0; i < nb; i++) {
    const uint8_t* qs = x[i].qs;
    const int8_t* a = y[i].qs;
    int isum = 0;
    for (int ib = 0; ib < QK_K / 32; ++ib) {
      const int ls = ((x[i].scales_l[ib / 2] >> 4 * (ib % 2)) & 0xf) | (((x[i].scales_h >> 2 * ib) & 3) << 4);
      int s = 0;
      for (int j = 0; j < 16; ++j) s += a[j] * kvalues_iq4nl[qs[j] & 0xf] + a[j + 16] * kvalues_iq4nl[qs[j] >> 4];
      isum += (ls - 32) * s;
      qs += 16;
      a += 32;
    }
    sumf += fp16_to_fp32(x[i].d) * y[i].d * isum;
  }
  return sumf;
}

}  // namespace

float vec_dot_ref(tensor_type w, int64_t n, const void* wr, const void* ar) {
  switch (w) {
    case tensor_type::f32: return dot_f32(n, static_cast<const float*>(wr), static_cast<const float*>(ar));
    case tensor_type::f16: return dot_f16(n, static_cast<const uint16_t*>(wr), static_cast<const float*>(ar));
    case tensor_type::bf16: return dot_bf16(n, static_cast<const uint16_t*>(wr), static_cast<const float*>(ar));
    case tensor_type::q4_0:
      return dot_q4_0(n / QK, static_cast<const block_q4_0*>(wr), static_cast<const block_q8_0x*>(ar));
    case tensor_type::q5_0:
      return dot_q5_0(n / QK, static_cast<const block_q5_0*>(wr), static_cast<const block_q8_0x*>(ar));
    case tensor_type::q8_0:
      return dot_q8_0(n / QK, static_cast<const block_q8_0*>(wr), static_cast<const block_q8_0x*>(ar));
    case tensor_type::q4_k:
      return dot_q4_K(n / QK_K, static_cast<const block_q4_K*>(wr), static_cast<const block_q8_K*>(ar));
    case tensor_type::q5_k:
      return dot_q5_K(n / QK_K, static_cast<const block_q5_K*>(wr), static_cast<const block_q8_K*>(ar));
    case tensor_type::q6_k:
      return dot_q6_K(n / QK_K, static_cast<const block_q6_K*>(wr), static_cast<const block_q8_K*>(ar));
    case tensor_type::q4_1:
      return dot_q4_1(n / QK, static_cast<const block_q4_1*>(wr), static_cast<const block_q8_1x*>(ar));
    case tensor_type::q5_1:
      return dot_q5_1(n / QK, static_cast<const block_q5_1*>(wr), static_cast<const block_q8_1x*>(ar));
    case tensor_type::iq4_nl:
      return dot_iq4_nl(n / QK, static_cast<const block_iq4_nl*>(wr), static_cast<const block_q8_0x*>(ar));
    case tensor_type::mxfp4:
      return dot_mxfp4(n / QK, static_cast<const block_mxfp4*>(wr), static_cast<const block_q8_0x*>(ar));
    case tensor_type::q2_k:
      return dot_q2_K(n / QK_K, static_cast<const block_q2_K*>(wr), static_cast<const block_q8_K*>(ar));
    case tensor_type::q3_k:
      return dot_q3_K(n / QK_K, static_cast<const block_q3_K*>(wr), static_cast<const block_q8_K*>(ar));
    case tensor_type::iq4_xs:
      return dot_iq4_xs(n / QK_K, static_cast<const block_iq4_xs*>(wr), static_cast<const block_q8_K*>(ar));
    case tensor_type::q8_0_r4: break;  // groups of 4 rows: gemm_tile routes it to gemm_q8_0_r4
    case tensor_type::q4_k_r4: break;  // and these to gemm_q4_k_r4 / gemm_q6_k_r4
    case tensor_type::q6_k_r4: break;
  }
  return 0;
}

}  // namespace kq
}  // namespace infer
