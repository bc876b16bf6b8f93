// Internal to native/kernels: ggml block layouts (byte-exact with llama.cpp's ggml-common.h), the
// activation formats the dot products consume, and the per-type kernels matmul.cc dispatches to.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/kernels.h"

namespace infer {
namespace kq {

constexpr int QK = 32;     // Q4_0 / Q4_1 / Q5_0 / Q5_1 / Q8_0 / IQ4_NL / MXFP4 block
constexpr int QK_K = 256;  // K-quant super-block

struct block_q4_0 { uint16_t d; uint8_t qs[QK / 2]; };
struct block_q5_0 { uint16_t d; uint8_t qh[4]; uint8_t qs[QK / 2]; };
struct block_q8_0 { uint16_t d; int8_t qs[QK]; };
struct block_q4_1 { uint16_t d; uint16_t m; uint8_t qs[QK / 2]; };
struct block_q5_1 { uint16_t d; uint16_t m; uint8_t qh[4]; uint8_t qs[QK / 2]; };
// IQ4_NL: 4-bit indices into the non-linear table kvalues_iq4nl, one fp16 scale per 32.
struct block_iq4_nl { uint16_t d; uint8_t qs[QK / 2]; };
// MXFP4 (OCP microscaling): E8M0 shared exponent + 32 FP4 (E2M1) values as indices into
// kvalues_mxfp4 (the E2M1 values doubled, so the scale is e8m0_to_fp32_half(e)).
struct block_mxfp4 { uint8_t e; uint8_t qs[QK / 2]; };
struct block_q4_K { uint16_t d; uint16_t dmin; uint8_t scales[12]; uint8_t qs[QK_K / 2]; };
struct block_q5_K { uint16_t d; uint16_t dmin; uint8_t scales[12]; uint8_t qh[QK_K / 8]; uint8_t qs[QK_K / 2]; };
struct block_q6_K { uint8_t ql[QK_K / 2]; uint8_t qh[QK_K / 4]; int8_t scales[QK_K / 16]; uint16_t d; };
// Q2_K: 16 groups of 16, each with a 4-bit scale (low nibble) and 4-bit min (high nibble).
struct block_q2_K { uint8_t scales[QK_K / 16]; uint8_t qs[QK_K / 4]; uint16_t d; uint16_t dmin; };
// Q3_K: 2 low bits in qs, the third in hmask; 16 signed 6-bit scales packed in 12 bytes.
struct block_q3_K { uint8_t hmask[QK_K / 8]; uint8_t qs[QK_K / 4]; uint8_t scales[12]; uint16_t d; };
// IQ4_XS: IQ4_NL values in 8 sub-blocks of 32 with 6-bit scales (low 4 bits in scales_l,
// high 2 bits in scales_h), one fp16 super-block scale.
struct block_iq4_xs { uint16_t d; uint16_t scales_h; uint8_t scales_l[QK_K / 64]; uint8_t qs[QK_K / 2]; };
// Activation block for Q4_0/Q5_0/Q8_0 weights (never stored in files): llama.cpp's Q8_0 values,
// with d kept as the float value of its fp16 rounding (no conversion per block in the kernels)
// and s4[k] = qs[4k] + ... + qs[4k+3], which lets Q4_0/Q5_0 multiply their unsigned quants
// directly and subtract the offset (8 or 16) times s4 afterwards, exactly.
struct block_q8_0x { float d; int8_t qs[QK]; int32_t s4[QK / 4]; };
// q8_0_r4: block i of 4 rows: their scales, then 4 chunks of 8 quants, each chunk holding rows 0-3's
// quants c*8 .. c*8+7 (row r's at (c * 4 + r) * 8).
struct block_q8_0r4 { uint16_t d[4]; int8_t qs[4 * QK]; };
// q4_k_r4: super-block i of 4 rows: their d and dmin; their 8 scales and 8 mins (6 bits each) in the
// kernel's order (q4_k_r4.cc: pack_scales); then 16 chunks (c, p) of 32 bytes, chunk c * 4 + p
// holding each row's file bytes qs[32c + 8p .. +8] (row r's at 8r): low nibbles quants 8p.. of
// sub-block 2c, high nibbles sub-block 2c + 1.
struct block_q4_Kr4 { uint16_t d[4]; uint16_t dmin[4]; uint8_t scales[48]; uint8_t qs[4 * QK_K / 2]; };
// q6_k_r4: super-block i of 4 rows: their d; their 16 scales, byte 8P + 2r + e = row r's scale of
// group 2P + e; then the quants in 32 chunks of 32 bytes (chunk 4P + c, dword 2r + e: row r's quants
// 16 (2P + e) + 4c .. + 3) as low nibbles (ql: chunks 2k, 2k + 1 in the low / high nibbles of vector
// k) and high 2 bits (qh: chunk 4m + s at bits 2s of vector m). See q6_k_r4.cc.
struct block_q6_Kr4 { uint16_t d[4]; int8_t scales[4 * QK_K / 16]; uint8_t ql[4 * QK_K / 2]; uint8_t qh[4 * QK_K / 4]; };
// Activation block for Q4_1/Q5_1 weights: llama.cpp's Q8_1 (the Q8_0 quants, plus
// s = fp16(d * sum(qs)) for the weights' min term), with d and s kept as floats of their fp16 values.
struct block_q8_1x { float d; float s; int8_t qs[QK]; };
// Activation block for K-quants (never stored in files): d, 256 int8, sums of each 16 values.
struct block_q8_K { float d; int8_t qs[QK_K]; int16_t bsums[QK_K / 16]; };

static_assert(sizeof(block_q4_0) == 18, "q4_0 layout");
static_assert(sizeof(block_q5_0) == 22, "q5_0 layout");
static_assert(sizeof(block_q8_0) == 34, "q8_0 layout");
static_assert(sizeof(block_q4_K) == 144, "q4_K layout");
static_assert(sizeof(block_q5_K) == 176, "q5_K layout");
static_assert(sizeof(block_q6_K) == 210, "q6_K layout");
static_assert(sizeof(block_q8_K) == 292, "q8_K layout");
static_assert(sizeof(block_q8_0x) == 68, "q8_0 activation layout");
static_assert(sizeof(block_q8_0r4) == 4 * sizeof(block_q8_0), "q8_0_r4 keeps the q8_0 size");
static_assert(sizeof(block_q4_Kr4) == 4 * sizeof(block_q4_K), "q4_k_r4 keeps the q4_K size");
static_assert(sizeof(block_q6_Kr4) == 4 * sizeof(block_q6_K), "q6_k_r4 keeps the q6_K size");
static_assert(sizeof(block_q4_1) == 20, "q4_1 layout");
static_assert(sizeof(block_q5_1) == 24, "q5_1 layout");
static_assert(sizeof(block_iq4_nl) == 18, "iq4_nl layout");
static_assert(sizeof(block_mxfp4) == 17, "mxfp4 layout");
static_assert(sizeof(block_q2_K) == 84, "q2_K layout");
static_assert(sizeof(block_q3_K) == 110, "q3_K layout");
static_assert(sizeof(block_iq4_xs) == 136, "iq4_xs layout");
static_assert(sizeof(block_q8_1x) == 40, "q8_1 activation layout");

// Value tables of ggml-common.h.
constexpr int8_t kvalues_iq4nl[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
constexpr int8_t kvalues_mxfp4[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

// ggml's E8M0 -> float, halved (2^(e-128), matching the doubled kvalues_mxfp4): subnormal bit
// patterns for e < 2, else the exponent field e - 1.
inline float e8m0_to_fp32_half(uint8_t e) {
  const uint32_t bits = e < 2 ? 0x00200000u << e : static_cast<uint32_t>(e - 1) << 23;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
// The 16 signed 6-bit scales of a Q3_K block (ggml's kmask unpacking), already minus 32.
inline void unpack_q3_K_scales(const uint8_t* packed, int8_t* out) {
  constexpr uint32_t kmask1 = 0x03030303, kmask2 = 0x0f0f0f0f;
  uint32_t aux[4];
  std::memcpy(aux, packed, 12);
  const uint32_t tmp = aux[2];
  aux[2] = ((aux[0] >> 4) & kmask2) | (((tmp >> 4) & kmask1) << 4);
  aux[3] = ((aux[1] >> 4) & kmask2) | (((tmp >> 6) & kmask1) << 4);
  aux[0] = (aux[0] & kmask2) | (((tmp >> 0) & kmask1) << 4);
  aux[1] = (aux[1] & kmask2) | (((tmp >> 2) & kmask1) << 4);
  std::memcpy(out, aux, 16);
  for (int j = 0; j < 16; j++) out[j] = static_cast<int8_t>(out[j] - 32);
}

// What a weight type's dot product wants the activations converted to (as llama.cpp's CPU
// backend does): f32 weights take f32; f16 weights take f32 values rounded to f16; bf16 weights
// take f32 values rounded to bf16; Q4_0/Q5_0/Q8_0/IQ4_NL/MXFP4 take Q8_0 (as block_q8_0x);
// Q4_1/Q5_1 take Q8_1 (as block_q8_1x); K-quants and IQ4_XS take Q8_K.
enum class act_format { f32, f32_round_f16, f32_round_bf16, q8_0, q8_K, q8_1 };
act_format act_format_for(tensor_type w);
size_t act_row_bytes(act_format f, int64_t n);
// Converts one activation row of n elements (n a multiple of the block size where quantized).
void convert_act_row(act_format f, const float* x, void* out, int64_t n);

// Dot products of one weight row with one converted activation row, n elements.
float vec_dot(tensor_type w, int64_t n, const void* w_row, const void* act_row);

// y[t * y_stride + r] = dot(w row r, act row t) for r < nr, t < nt. This is the unit of work of
// matmul; the AVX2 build reuses each decoded weight block across several tokens here.
void gemm_tile(tensor_type w, int64_t n, const uint8_t* w_rows, size_t w_stride, int nr,
               const uint8_t* act, size_t act_stride, int nt, float* y, size_t y_stride);

// Portable reference kernels (also used by the AVX2 build for tails and checks).
float vec_dot_ref(tensor_type w, int64_t n, const void* w_row, const void* act_row);
void convert_act_row_ref(act_format f, const float* x, void* out, int64_t n);

uint16_t fp32_to_bf16(float f);

// Whether this build has the 4-row interleaved tiles (AVX2 + AVX-512 VNNI/VL, r4_layout.h); without
// them no weight is repacked.
bool r4_kernels();

// q8_0_r4 (q8_0_r4.cc): the gemm over nr rows (a multiple of 4, from a group start) and nt tokens of
// Q8_0 activations; the scalar definition of the same results (tests); one row dequantized.
void gemm_q8_0_r4(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t act_stride, int nt, float* y,
                  size_t y_stride);
void gemm_q8_0_r4_reference(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t act_stride, int nt,
                            float* y, size_t y_stride);
void dequantize_row_q8_0_r4(const tensor_view& w, int64_t row, float* out);

// q4_k_r4 (q4_k_r4.cc): the same three, over Q8_K activations; and one group block made from the
// 4 rows' block i, and row r's Q4_K block back from it (byte for byte: dequantization, tests).
void gemm_q4_k_r4(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t act_stride, int nt, float* y,
                  size_t y_stride);
void gemm_q4_k_r4_reference(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t act_stride, int nt,
                            float* y, size_t y_stride);
void dequantize_row_q4_k_r4(const tensor_view& w, int64_t row, float* out);
void repack_q4_k_r4_block(const block_q4_K* const* rows, int64_t i, block_q4_Kr4* out);
void unrepack_q4_k_r4_block(const block_q4_Kr4& in, int r, block_q4_K* out);

// q6_k_r4 (q6_k_r4.cc): the same, for Q6_K.
void gemm_q6_k_r4(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t act_stride, int nt, float* y,
                  size_t y_stride);
void gemm_q6_k_r4_reference(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t act_stride, int nt,
                            float* y, size_t y_stride);
void dequantize_row_q6_k_r4(const tensor_view& w, int64_t row, float* out);
void repack_q6_k_r4_block(const block_q6_K* const* rows, int64_t i, block_q6_Kr4* out);
void unrepack_q6_k_r4_block(const block_q6_Kr4& in, int r, block_q6_K* out);

// AVX2/FMA/F16C kernels (quants_avx2.cc); have_avx2_kernels() is false when the build lacks them.
bool have_avx2_kernels();
void convert_act_row_avx2(act_format f, const float* x, void* out, int64_t n);
void gemm_tile_avx2(tensor_type w, int64_t n, const uint8_t* w_rows, size_t w_stride, int nr,
                    const uint8_t* act, size_t act_stride, int nt, float* y, size_t y_stride);

}  // namespace kq
}  // namespace infer
