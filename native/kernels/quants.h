// Internal to native/kernels: ggml block layouts (byte-exact with llama.cpp's ggml-common.h), the
// activation formats the dot products consume, and the per-type kernels matmul.cc dispatches to.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/kernels.h"

namespace infer {
namespace kq {

constexpr int QK = 32;     // Q4_0 / Q5_0 / Q8_0 block
constexpr int QK_K = 256;  // K-quant super-block

struct block_q4_0 { uint16_t d; uint8_t qs[QK / 2]; };
struct block_q5_0 { uint16_t d; uint8_t qh[4]; uint8_t qs[QK / 2]; };
struct block_q8_0 { uint16_t d; int8_t qs[QK]; };
struct block_q4_K { uint16_t d; uint16_t dmin; uint8_t scales[12]; uint8_t qs[QK_K / 2]; };
struct block_q5_K { uint16_t d; uint16_t dmin; uint8_t scales[12]; uint8_t qh[QK_K / 8]; uint8_t qs[QK_K / 2]; };
struct block_q6_K { uint8_t ql[QK_K / 2]; uint8_t qh[QK_K / 4]; int8_t scales[QK_K / 16]; uint16_t d; };
// Activation block for Q4_0/Q5_0/Q8_0 weights (never stored in files): llama.cpp's Q8_0 values,
// with d kept as the float value of its fp16 rounding (no conversion per block in the kernels)
// and s4[k] = qs[4k] + ... + qs[4k+3], which lets Q4_0/Q5_0 multiply their unsigned quants
// directly and subtract the offset (8 or 16) times s4 afterwards, exactly.
struct block_q8_0x { float d; int8_t qs[QK]; int32_t s4[QK / 4]; };
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

// What a weight type's dot product wants the activations converted to (as llama.cpp's CPU
// backend does): f32 weights take f32; f16 weights take f32 values rounded to f16; bf16 weights
// take f32 values rounded to bf16; Q4_0/Q5_0/Q8_0 take Q8_0 (as block_q8_0x); K-quants take Q8_K.
enum class act_format { f32, f32_round_f16, f32_round_bf16, q8_0, q8_K };
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

// AVX2/FMA/F16C kernels (quants_avx2.cc); have_avx2_kernels() is false when the build lacks them.
bool have_avx2_kernels();
void convert_act_row_avx2(act_format f, const float* x, void* out, int64_t n);
void gemm_tile_avx2(tensor_type w, int64_t n, const uint8_t* w_rows, size_t w_stride, int nr,
                    const uint8_t* act, size_t act_stride, int nt, float* y, size_t y_stride);

}  // namespace kq
}  // namespace infer
