// Weight x activation products over GGUF-encoded weights on the device (launchers only).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

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
// default (1, or INFER_CUDA_MATMUL=2). Both give the same sums in the same order.
void matmul(const device_tensor& w, const float* x, int n_tokens, float* y, cudaStream_t stream, int version = 0);

// out[t * w.ne0 ...] = dequantized row ids[t] of w (embedding lookup).
void get_rows(const device_tensor& w, const int32_t* ids, int n_rows, float* out, cudaStream_t stream);

}  // namespace cu
}  // namespace infer
