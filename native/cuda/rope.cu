// RoPE: memory-bound elementwise rotation (each q/k value read and written once; one sincos per
// pair). One block per token; threads walk (head, pair) of q then k.
#include "cuda/common.cuh"
#include "cuda/rope.cuh"

namespace infer {
namespace cu {

// ----------------------------------------------------------------------------
// CUDA kernels

__global__ void rope_kernel(float* __restrict__ q, float* __restrict__ k, const int32_t* __restrict__ pos, int n_head,
                            int n_head_kv, int head_dim, int n_rot, float theta_scale, bool neox) {
  const int t = blockIdx.x;
  const float p = static_cast<float>(pos[t]);
  const int half = n_rot / 2;
  const int n_pairs = (n_head + n_head_kv) * half;
  for (int idx = threadIdx.x; idx < n_pairs; idx += blockDim.x) {
    const int h = idx / half, i = idx % half;
    float* v = h < n_head ? q + (static_cast<size_t>(t) * n_head + h) * head_dim
                          : k + (static_cast<size_t>(t) * n_head_kv + (h - n_head)) * head_dim;
    const float theta = p * powf(theta_scale, static_cast<float>(i));
    float s, c;
    sincosf(theta, &s, &c);
    const int i0 = neox ? i : 2 * i, i1 = neox ? i + half : 2 * i + 1;
    const float a = v[i0], b = v[i1];
    v[i0] = a * c - b * s;
    v[i1] = a * s + b * c;
  }
}

// ----------------------------------------------------------------------------
// kernel launchers

void rope(float* q, float* k, const int32_t* pos, int n_tokens, int n_head, int n_head_kv, int head_dim, int n_rot,
          float freq_base, bool neox, cudaStream_t stream) {
  if (n_tokens <= 0) return;
  const float theta_scale = powf(freq_base, -2.0f / static_cast<float>(n_rot));
  rope_kernel<<<n_tokens, 128, 0, stream>>>(q, k, pos, n_head, n_head_kv, head_dim, n_rot, theta_scale, neox);
  CUDA_CHECK_LAUNCH();
}

}  // namespace cu
}  // namespace infer
