// Device-side dequantization of GGUF weight encodings (byte-exact with ggml-common.h, see
// shared/anchors/engine.md 1.4), in units of 32 consecutive weights of one row: a Q4_0/Q5_0/Q8_0
// block, one 32-value sub-block of a K-quant super-block, or 32 plain f32/f16/bf16 values.
// Everything lands in registers (w[32], indexed only by unrolled constants).
#pragma once
#include "cuda/common.cuh"
#include "kernels/kernels.h"

namespace infer {
namespace cu {

// 32 bytes from a 16-byte-aligned pointer in two 16-byte loads, as 8 little-endian words. Q4_K
// and Q5_K super-blocks (144 and 176 bytes) are multiples of 16, so their quant arrays are aligned.
__device__ __forceinline__ void ld_32_bytes(const uint8_t* p, uint32_t (&v)[8]) {
  const uint4 a = reinterpret_cast<const uint4*>(p)[0], b = reinterpret_cast<const uint4*>(p)[1];
  v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w, v[4] = b.x, v[5] = b.y, v[6] = b.z, v[7] = b.w;
}
__device__ __forceinline__ int byte_of(const uint32_t (&v)[8], int l) { return (v[l / 4] >> (8 * (l % 4))) & 0xFF; }

// K-quant 6-bit scale/min of sub-block j (ggml's get_scale_min_k4).
__device__ __forceinline__ void scale_min_k4(int j, const uint8_t* s, float& sc, float& m) {
  if (j < 4) {
    sc = static_cast<float>(s[j] & 63);
    m = static_cast<float>(s[j + 4] & 63);
  } else {
    sc = static_cast<float>((s[j + 4] & 0xF) | ((s[j - 4] >> 6) << 4));
    m = static_cast<float>((s[j + 4] >> 4) | ((s[j] >> 6) << 4));
  }
}

template <tensor_type T>
__device__ __forceinline__ void dequant_unit(const uint8_t* row, int u, float (&w)[32]);

template <>
__device__ __forceinline__ void dequant_unit<tensor_type::f32>(const uint8_t* row, int u, float (&w)[32]) {
  const float4* p = reinterpret_cast<const float4*>(row) + u * 8;  // rows of f32 are 16-byte aligned on device
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const float4 v = p[i];
    w[4 * i] = v.x; w[4 * i + 1] = v.y; w[4 * i + 2] = v.z; w[4 * i + 3] = v.w;
  }
}

template <>
__device__ __forceinline__ void dequant_unit<tensor_type::f16>(const uint8_t* row, int u, float (&w)[32]) {
  const uint4* p = reinterpret_cast<const uint4*>(row + u * 64);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const uint4 v = p[i];
    const uint32_t q[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      w[8 * i + 2 * k] = f16_to_f32(static_cast<uint16_t>(q[k] & 0xFFFF));
      w[8 * i + 2 * k + 1] = f16_to_f32(static_cast<uint16_t>(q[k] >> 16));
    }
  }
}

template <>
__device__ __forceinline__ void dequant_unit<tensor_type::bf16>(const uint8_t* row, int u, float (&w)[32]) {
  const uint4* p = reinterpret_cast<const uint4*>(row + u * 64);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const uint4 v = p[i];
    const uint32_t q[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      w[8 * i + 2 * k] = __uint_as_float(q[k] << 16);
      w[8 * i + 2 * k + 1] = __uint_as_float(q[k] & 0xFFFF0000u);
    }
  }
}

template <>
__device__ __forceinline__ void dequant_unit<tensor_type::q8_0>(const uint8_t* row, int u, float (&w)[32]) {
  const uint8_t* b = row + u * 34;
  const float d = f16_to_f32(ld_u16(b));
#pragma unroll
  for (int j = 0; j < 32; j += 2) {
    const uint16_t q = ld_u16(b + 2 + j);
    w[j] = d * static_cast<float>(static_cast<int8_t>(q & 0xFF));
    w[j + 1] = d * static_cast<float>(static_cast<int8_t>(q >> 8));
  }
}

template <>
__device__ __forceinline__ void dequant_unit<tensor_type::q4_0>(const uint8_t* row, int u, float (&w)[32]) {
  const uint8_t* b = row + u * 18;
  const float d = f16_to_f32(ld_u16(b));
#pragma unroll
  for (int j = 0; j < 16; j += 2) {
    const uint16_t q = ld_u16(b + 2 + j);
    const int q0 = q & 0xFF, q1 = q >> 8;
    w[j] = d * static_cast<float>((q0 & 0xF) - 8);
    w[j + 1] = d * static_cast<float>((q1 & 0xF) - 8);
    w[j + 16] = d * static_cast<float>((q0 >> 4) - 8);
    w[j + 17] = d * static_cast<float>((q1 >> 4) - 8);
  }
}

template <>
__device__ __forceinline__ void dequant_unit<tensor_type::q5_0>(const uint8_t* row, int u, float (&w)[32]) {
  const uint8_t* b = row + u * 22;
  const float d = f16_to_f32(ld_u16(b));
  const uint32_t qh = ld_u32(b + 2);
#pragma unroll
  for (int j = 0; j < 16; j += 2) {
    const uint16_t pair = ld_u16(b + 6 + j);
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      const int q = (pair >> (8 * k)) & 0xFF;
      const int xh0 = ((qh >> (j + k)) << 4) & 0x10;
      const int xh1 = (qh >> (j + k + 12)) & 0x10;
      w[j + k] = d * static_cast<float>(((q & 0xF) | xh0) - 16);
      w[j + k + 16] = d * static_cast<float>(((q >> 4) | xh1) - 16);
    }
  }
}

template <>
__device__ __forceinline__ void dequant_unit<tensor_type::q4_k>(const uint8_t* row, int u, float (&w)[32]) {
  const uint8_t* b = row + (u / 8) * 144;
  const int sub = u % 8;
  float sc, m;
  scale_min_k4(sub, b + 4, sc, m);
  const float d = f16_to_f32(ld_u16(b)) * sc, mn = f16_to_f32(ld_u16(b + 2)) * m;
  uint32_t q[8];
  ld_32_bytes(b + 16 + 32 * (sub / 2), q);
  const int shift = (sub & 1) * 4;
#pragma unroll
  for (int l = 0; l < 32; ++l) w[l] = d * static_cast<float>((byte_of(q, l) >> shift) & 0xF) - mn;
}

template <>
__device__ __forceinline__ void dequant_unit<tensor_type::q5_k>(const uint8_t* row, int u, float (&w)[32]) {
  const uint8_t* b = row + (u / 8) * 176;
  const int sub = u % 8;
  float sc, m;
  scale_min_k4(sub, b + 4, sc, m);
  const float d = f16_to_f32(ld_u16(b)) * sc, mn = f16_to_f32(ld_u16(b + 2)) * m;
  uint32_t qh[8], q[8];
  ld_32_bytes(b + 16, qh);
  ld_32_bytes(b + 48 + 32 * (sub / 2), q);
  const int shift = (sub & 1) * 4;
  const int hbit = 1 << sub;  // u1 = 1 << 2c for low nibbles, u2 = 2 << 2c for high
#pragma unroll
  for (int l = 0; l < 32; ++l)
    w[l] = d * static_cast<float>(((byte_of(q, l) >> shift) & 0xF) + ((byte_of(qh, l) & hbit) ? 16 : 0)) - mn;
}

template <>
__device__ __forceinline__ void dequant_unit<tensor_type::q6_k>(const uint8_t* row, int u, float (&w)[32]) {
  const uint8_t* b = row + (u / 8) * 210;
  const int sub = u % 8, half = sub / 4, g = sub % 4;
  const uint8_t* ql = b + 64 * half + ((g & 1) ? 32 : 0);
  const uint8_t* qh = b + 128 + 32 * half;
  const int8_t* sc = reinterpret_cast<const int8_t*>(b + 192) + 8 * half + 2 * g;
  const float d = f16_to_f32(ld_u16(b + 208));
  const int lshift = (g >= 2) ? 4 : 0, hshift = 2 * g;
  const float d0 = d * static_cast<float>(sc[0]), d1 = d * static_cast<float>(sc[1]);
#pragma unroll
  for (int l = 0; l < 32; l += 2) {  // Q6_K blocks are 210 bytes: 2-byte loads only
    const uint16_t lo = ld_u16(ql + l), hi = ld_u16(qh + l);
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      const int q = (((lo >> (8 * k)) >> lshift) & 0xF) | ((((hi >> (8 * k)) >> hshift) & 3) << 4);
      w[l + k] = (l < 16 ? d0 : d1) * static_cast<float>(q - 32);
    }
  }
}

}  // namespace cu
}  // namespace infer
