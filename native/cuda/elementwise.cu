// SwiGLU where gate and up come from separate products (matmul_glu fuses it otherwise):
// memory-bound, grid-stride.
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

}  // namespace cu
}  // namespace infer
