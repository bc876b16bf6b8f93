// CPU kernels over GGUF tensors: the contract between the model code (native/model) and the
// kernel implementations (native/kernels). Weights stay in their on-disk (mmap'd) encoding, but
// for Q8_0, Q4_K and Q6_K repacked at load for the CPU (q8_0_r4, q4_k_r4, q6_k_r4, same size), and are dequantized inside the dot
// products; there is never a full dequantized copy.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/thread_pool.h"

namespace infer {

// ggml type ids as stored in GGUF tensor infos.
enum class tensor_type : uint32_t {
  f32 = 0, f16 = 1, q4_0 = 2, q4_1 = 3, q5_0 = 6, q5_1 = 7, q8_0 = 8, q2_k = 10, q3_k = 11, q4_k = 12, q5_k = 13,
  q6_k = 14, iq4_nl = 20, iq4_xs = 23, bf16 = 30, mxfp4 = 39,
  // Never in files: Q8_0 with 4 rows interleaved, made at load for the CPU (repack_q8_0_r4). Views
  // keep the Q8_0 row size; a view's data + r * row_bytes is a group start only for r % 4 == 0.
  q8_0_r4 = 1008,
  // Never in files: Q4_K with 4 rows interleaved, made at load for the CPU (repack_q4_k_r4), same
  // size as Q4_K; the same view conventions as q8_0_r4.
  q4_k_r4 = 1012,
  // Never in files: Q6_K with 4 rows interleaved (repack_q6_k_r4), same size as Q6_K; same conventions.
  q6_k_r4 = 1014,
};

const char* tensor_type_name(tensor_type t);
bool tensor_type_supported(uint32_t raw);
// Elements per block and bytes per block (1 and sizeof(elem) for f32/f16/bf16).
int64_t tensor_type_block_elems(tensor_type t);
size_t tensor_type_block_bytes(tensor_type t);
// Bytes of one row of `n` elements; n must be a multiple of the block size.
size_t tensor_row_bytes(tensor_type t, int64_t n);

// A 2-D view of a weight matrix in ggml order: ne0 = row length (the reduction dimension),
// ne1 = number of rows. Rows are contiguous, row_bytes apart.
struct tensor_view {
  tensor_type type = tensor_type::f32;
  const void* data = nullptr;
  int64_t ne0 = 0;
  int64_t ne1 = 0;
  size_t row_bytes = 0;
};

// y[t * w.ne1 + r] = dot(row r of w, x[t * w.ne0 ...]) for t in [0, n_tokens).
// n_tokens == 1 is the decode matvec; larger n_tokens is the prefill/batched matmul.
// Activations may be quantized internally (as llama.cpp does: Q8_0/Q8_K for quantized weights).
void matmul(const tensor_view& w, const float* x, int64_t n_tokens, float* y, thread_pool& pool);

// Several weights applied to the same input x (e.g. q/k/v, or gate/up): y_j = matmul(w_j, x).
// All w_j must have the same ne0. The activations are converted once per format and all row
// chunks run in one parallel_for (one pool synchronization instead of one per weight). Results
// are bit-identical to separate matmul calls. (Additive to the original contract.)
struct matmul_job {
  const tensor_view* w;
  float* y;  // n_tokens x w->ne1
};
void matmul_multi(const matmul_job* jobs, int n_jobs, const float* x, int64_t n_tokens, thread_pool& pool);

// The CPU's layout for a Q8_0 weight (4 rows interleaved, native/kernels/q8_0_r4.cc): about twice
// the multiply rate of plain Q8_0 where several tokens share a pass. can_repack_q8_0_r4 says whether
// w can have it (this build has the kernels, Q8_0, rows a multiple of 4); repack_q8_0_r4 writes it to
// dst (w.ne1 * w.row_bytes bytes), over pool's threads when given, and returns the view over dst.
bool can_repack_q8_0_r4(const tensor_view& w);
tensor_view repack_q8_0_r4(const tensor_view& w, void* dst, thread_pool* pool = nullptr);
// The same for Q4_K -> q4_k_r4 (native/kernels/q4_k_r4.cc): 4 rows interleaved, VNNI tiles.
bool can_repack_q4_k_r4(const tensor_view& w);
tensor_view repack_q4_k_r4(const tensor_view& w, void* dst, thread_pool* pool = nullptr);
// And Q6_K -> q6_k_r4 (native/kernels/q6_k_r4.cc).
bool can_repack_q6_k_r4(const tensor_view& w);
tensor_view repack_q6_k_r4(const tensor_view& w, void* dst, thread_pool* pool = nullptr);

// Dequantizes row `row` of w into out[0 .. w.ne0) (embedding lookups, tests).
void dequantize_row(const tensor_view& w, int64_t row, float* out);

// Scalar fp16/bf16 conversions (IEEE half, round to nearest even).
float fp16_to_fp32(uint16_t h);
uint16_t fp32_to_fp16(float f);
float bf16_to_fp32(uint16_t h);

}  // namespace infer
