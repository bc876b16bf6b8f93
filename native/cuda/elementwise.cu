// Elementwise ops: the gated activation where gate and up come from separate products
// (matmul_glu fuses it otherwise), the embedding scale, the logit soft-cap. Memory-bound,
// grid-stride.
#include <algorithm>
#include <cstdint>

#include "cuda/common.cuh"
#include "cuda/elementwise.cuh"

namespace infer {
namespace cu {

// ----------------------------------------------------------------------------
// CUDA kernels

#define INFER_GRID_STRIDE(i, n)                                                            \
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < (n); \
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)

__global__ void glu_kernel(float* __restrict__ gate, const float* __restrict__ up, int64_t n, glu_kind act) {
  INFER_GRID_STRIDE(i, n) gate[i] = glu_apply(act, gate[i], up[i]);
}

__global__ void scale_kernel(float* __restrict__ x, int64_t n, float s) {
  INFER_GRID_STRIDE(i, n) x[i] *= s;
}

__global__ void softcap_kernel(float* __restrict__ x, int64_t n, float cap, float inv_cap) {
  INFER_GRID_STRIDE(i, n) x[i] = tanhf(x[i] * inv_cap) * cap;
}

#undef INFER_GRID_STRIDE

// ----------------------------------------------------------------------------
// kernel launchers

namespace {
int grid_for(int64_t n) { return static_cast<int>(std::min<int64_t>((n + 255) / 256, 4096)); }
}  // namespace

void glu(float* gate, const float* up, int64_t n, glu_kind act, cudaStream_t stream) {
  if (n <= 0) return;
  glu_kernel<<<grid_for(n), 256, 0, stream>>>(gate, up, n, act);
  CUDA_CHECK_LAUNCH();
}

void scale(float* x, int64_t n, float s, cudaStream_t stream) {
  if (n <= 0) return;
  scale_kernel<<<grid_for(n), 256, 0, stream>>>(x, n, s);
  CUDA_CHECK_LAUNCH();
}

void softcap(float* x, int64_t n, float cap, cudaStream_t stream) {
  if (n <= 0) return;
  softcap_kernel<<<grid_for(n), 256, 0, stream>>>(x, n, cap, 1.0f / cap);
  CUDA_CHECK_LAUNCH();
}

}  // namespace cu
}  // namespace infer
