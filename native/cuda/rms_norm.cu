// RMSNorm: memory-bound (one read of x, one read of w, one write of y per element); one block
// per row, fp32 sum of squares (the CPU reference sums in double; the difference is ~1e-7 relative).
#include "cuda/common.cuh"
#include "cuda/rms_norm.cuh"

namespace infer {
namespace cu {

// ----------------------------------------------------------------------------
// CUDA kernels

// x and y may be the same rows (in place): each thread reads an element before it writes it.
__global__ void rms_norm_kernel(const float* x, const float* __restrict__ w, float* y, int d,
                                float eps, const int32_t* __restrict__ rows) {
  const int k = blockIdx.x;
  const float* xr = x + static_cast<size_t>(rows ? rows[k] : k) * d;
  float* yr = y + static_cast<size_t>(k) * d;
  float ss = 0.0f;
  for (int i = threadIdx.x; i < d; i += blockDim.x) ss += xr[i] * xr[i];
  ss = block_sum(ss);
  const float scale = rsqrtf(ss / static_cast<float>(d) + eps);
  for (int i = threadIdx.x; i < d; i += blockDim.x) yr[i] = (xr[i] * scale) * w[i];
}

// y[k] += RMSNorm(x[k]) * w: gemma's post-attention / post-FFN norm and its residual add, in the
// CPU's order (the normalised row rounded to float, then added).
__global__ void rms_norm_add_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                    int d, float eps) {
  const size_t off = static_cast<size_t>(blockIdx.x) * d;
  const float* xr = x + off;
  float* yr = y + off;
  float ss = 0.0f;
  for (int i = threadIdx.x; i < d; i += blockDim.x) ss += xr[i] * xr[i];
  ss = block_sum(ss);
  const float scale = rsqrtf(ss / static_cast<float>(d) + eps);
  for (int i = threadIdx.x; i < d; i += blockDim.x) yr[i] += (xr[i] * scale) * w[i];
}

// ----------------------------------------------------------------------------
// kernel launchers

void rms_norm(const float* x, const float* w, float* y, int n_rows, int d, float eps, const int32_t* rows,
              cudaStream_t stream) {
  if (n_rows <= 0) return;
  rms_norm_kernel<<<n_rows, 256, 0, stream>>>(x, w, y, d, eps, rows);
  CUDA_CHECK_LAUNCH();
}

void rms_norm_add(const float* x, const float* w, float* y, int n_rows, int d, float eps, cudaStream_t stream) {
  if (n_rows <= 0) return;
  rms_norm_add_kernel<<<n_rows, 256, 0, stream>>>(x, w, y, d, eps);
  CUDA_CHECK_LAUNCH();
}

}  // namespace cu
}  // namespace infer
