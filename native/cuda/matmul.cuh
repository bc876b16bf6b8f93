// Weight x activation products over GGUF-encoded weights on the device (launchers only).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "cuda/activation.cuh"
#include "kernels/kernels.h"

namespace infer {
namespace cu {

// A weight matrix resident on the device in its on-disk encoding: ne1 rows of ne0 weights,
// row_bytes apart (the same view as kernels.h tensor_view, device pointer).
struct device_tensor {
  tensor_type type = tensor_type::f32;
  const uint8_t* data = nullptr;
  int64_t ne0 = 0;
  int64_t ne1 = 0;
  size_t row_bytes = 0;
};

// True when matmul/get_rows handle this type and row length (ne0 a multiple of 32).
bool matmul_supported(tensor_type t, int64_t ne0);

// y[t * w.ne1 + r] = dot(row r of w, x[t * w.ne0 ...]) for t < n_tokens; fp32 in and out.
// version: 1 = lane-per-unit loads, 2 = warp-staged coalesced loads (matmul.cu), 0 = the process
// default (2 for f32/f16/bf16, 1 for the quantized types; INFER_CUDA_MATMUL=1|2 forces one).
// Both give the same sums in the same order.
void matmul(const device_tensor& w, const float* x, int n_tokens, float* y, cudaStream_t stream, int version = 0);

// One matrix of a fused launch (kernel parameter, by value): rows, optional bias, output.
struct matmul_part {
  const uint8_t* w;
  size_t row_bytes;
  int ne1;
  const float* bias;
  float* y;
};
struct matmul_set {
  matmul_part part[3];
  int n;
  bool accumulate;
  const float* norm_w;  // decode: x is RMS-normalised with these weights while it is staged
  float norm_eps;
  glu_kind act;  // the gate's activation in a gate/up launch
};

// RMSNorm applied to x inside a decode product (n_tokens == 1): x is the raw residual stream.
struct rms_in {
  const float* w = nullptr;
  float eps = 0.0f;
};

struct matmul_out {
  const device_tensor* w;
  float* y;
  const float* bias = nullptr;  // y[t * ne1 + r] += bias[r]
};

// The forward pass's products (version 1 kernels): y_i = W_i x (+ bias_i) for each output, the
// consecutive ones of one type and row length in one launch (q, k, v); with accumulate the
// product is added into y_i (the residual adds). Same sums, same order as matmul() plus the adds.
// With norm (decode only, n_tokens == 1), x is normalised first: each block staging x sums its
// squares as well, so the separate rms_norm launch goes (~6 us a step each on an H100).
void matmul_multi(std::initializer_list<matmul_out> outs, const float* x, int n_tokens, bool accumulate, cudaStream_t stream,
                  rms_in norm = {});

// y = act(W_gate x) * (W_up x) (SwiGLU, or GeGLU for gemma), one launch when gate and up share
// type and shape (one pass over x); otherwise two products into y and up_scratch, then glu().
void matmul_glu(const device_tensor& gate, const device_tensor& up, const float* x, int n_tokens, float* y, float* up_scratch,
                cudaStream_t stream, rms_in norm = {}, glu_kind act = glu_kind::silu);

// out[t * w.ne0 ...] = dequantized row ids[t] of w (embedding lookup).
void get_rows(const device_tensor& w, const int32_t* ids, int n_rows, float* out, cudaStream_t stream);

}  // namespace cu
}  // namespace infer
