// SwiGLU, bias and residual adds: all memory-bound (2-3 floats moved per FLOP or two), grid-stride.
#include <algorithm>
#include <cstdint>

#include "cuda/common.cuh"
#include "cuda/elementwise.cuh"

namespace infer {
namespace cu {

// ----------------------------------------------------------------------------
// CUDA kernels

__global__ void swiglu_kernel(float* __restrict__ gate, const float* __restrict__ up, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const float g = gate[i];
    gate[i] = (g / (1.0f + expf(-g))) * up[i];
  }
}

__global__ void add_bias_kernel(float* __restrict__ y, const float* __restrict__ b, int64_t n, int d) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    y[i] += b[i % d];
}

__global__ void add_inplace_kernel(float* __restrict__ x, const float* __restrict__ y, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    x[i] += y[i];
}

// ----------------------------------------------------------------------------
// kernel launchers

namespace {
int grid_for(int64_t n) { return static_cast<int>(std::min<int64_t>((n + 255) / 256, 4096)); }
}  // namespace

void swiglu(float* gate, const float* up, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  swiglu_kernel<<<grid_for(n), 256, 0, stream>>>(gate, up, n);
  CUDA_CHECK_LAUNCH();
}

void add_bias(float* y, const float* b, int n_rows, int d, cudaStream_t stream) {
  const int64_t n = static_cast<int64_t>(n_rows) * d;
  if (n <= 0) return;
  add_bias_kernel<<<grid_for(n), 256, 0, stream>>>(y, b, n, d);
  CUDA_CHECK_LAUNCH();
}

void add_inplace(float* x, const float* y, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  add_inplace_kernel<<<grid_for(n), 256, 0, stream>>>(x, y, n);
  CUDA_CHECK_LAUNCH();
}

}  // namespace cu
}  // namespace infer
