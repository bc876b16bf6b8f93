// Argmax / softmax / top-k over logit rows: memory-bound reads of n_vocab floats per row (top-k
// reads the row k times, still cheap next to the LM-head matmul that produced it). One block per row.
#include <cfloat>
#include <climits>
#include <cmath>

#include "cuda/common.cuh"
#include "cuda/sampling.cuh"

namespace infer {
namespace cu {

// ----------------------------------------------------------------------------
// CUDA kernels

// (value, index) order: larger value first, then lower index. NaN never wins.
__device__ __forceinline__ bool better(float v, int i, float bv, int bi) {
  return v > bv || (v == bv && i < bi);
}

__device__ __forceinline__ void block_best(float& v, int& i) {
  __shared__ float sv[32];
  __shared__ int si[32];
  for (int o = 16; o > 0; o >>= 1) {
    const float ov = __shfl_xor_sync(0xffffffffu, v, o);
    const int oi = __shfl_xor_sync(0xffffffffu, i, o);
    if (better(ov, oi, v, i)) { v = ov; i = oi; }
  }
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nw = blockDim.x / 32;
  __syncthreads();
  if (lane == 0) { sv[warp] = v; si[warp] = i; }
  __syncthreads();
  v = lane < nw ? sv[lane] : -INFINITY;
  i = lane < nw ? si[lane] : INT_MAX;
  for (int o = 16; o > 0; o >>= 1) {
    const float ov = __shfl_xor_sync(0xffffffffu, v, o);
    const int oi = __shfl_xor_sync(0xffffffffu, i, o);
    if (better(ov, oi, v, i)) { v = ov; i = oi; }
  }
}

__global__ void argmax_kernel(const float* __restrict__ logits, int n_vocab, int32_t* __restrict__ out) {
  const float* row = logits + static_cast<size_t>(blockIdx.x) * n_vocab;
  float bv = -INFINITY;
  int bi = INT_MAX;
  for (int i = threadIdx.x; i < n_vocab; i += blockDim.x)
    if (better(row[i], i, bv, bi)) { bv = row[i]; bi = i; }
  block_best(bv, bi);
  if (threadIdx.x == 0) out[blockIdx.x] = bi == INT_MAX ? 0 : bi;
}

__global__ void softmax_kernel(const float* __restrict__ logits, float* __restrict__ probs, int n_vocab, float inv_t) {
  const float* row = logits + static_cast<size_t>(blockIdx.x) * n_vocab;
  float* pr = probs + static_cast<size_t>(blockIdx.x) * n_vocab;
  float mx = -INFINITY;
  for (int i = threadIdx.x; i < n_vocab; i += blockDim.x) mx = fmaxf(mx, row[i] * inv_t);
  int dummy = 0;
  block_best(mx, dummy);
  float sum = 0.0f;
  for (int i = threadIdx.x; i < n_vocab; i += blockDim.x) sum += expf(row[i] * inv_t - mx);
  sum = block_sum(sum);
  const float inv = 1.0f / sum;
  for (int i = threadIdx.x; i < n_vocab; i += blockDim.x) pr[i] = expf(row[i] * inv_t - mx) * inv;
}

// k passes of a block argmax, each restricted to entries ordered after the previous winner.
__global__ void topk_kernel(const float* __restrict__ logits, int n_vocab, int k, int32_t* __restrict__ ids,
                            float* __restrict__ values) {
  const float* row = logits + static_cast<size_t>(blockIdx.x) * n_vocab;
  float prev_v = INFINITY;
  int prev_i = -1;
  for (int r = 0; r < k; ++r) {
    float bv = -INFINITY;
    int bi = INT_MAX;
    for (int i = threadIdx.x; i < n_vocab; i += blockDim.x) {
      const float v = row[i];
      if (better(prev_v, prev_i, v, i) && better(v, i, bv, bi)) { bv = v; bi = i; }
    }
    block_best(bv, bi);
    if (threadIdx.x == 0) {
      ids[static_cast<size_t>(blockIdx.x) * k + r] = bi == INT_MAX ? -1 : bi;
      values[static_cast<size_t>(blockIdx.x) * k + r] = bv;
    }
    prev_v = bv;
    prev_i = bi;
  }
}

// ----------------------------------------------------------------------------
// kernel launchers

void argmax_rows(const float* logits, int n_rows, int n_vocab, int32_t* out, cudaStream_t stream) {
  if (n_rows <= 0) return;
  argmax_kernel<<<n_rows, 1024, 0, stream>>>(logits, n_vocab, out);
  CUDA_CHECK_LAUNCH();
}

void softmax_rows(const float* logits, float* probs, int n_rows, int n_vocab, float temperature, cudaStream_t stream) {
  if (n_rows <= 0) return;
  if (!(temperature > 0.0f)) throw std::runtime_error("cuda softmax: temperature must be > 0");
  softmax_kernel<<<n_rows, 1024, 0, stream>>>(logits, probs, n_vocab, 1.0f / temperature);
  CUDA_CHECK_LAUNCH();
}

void topk_rows(const float* logits, int n_rows, int n_vocab, int k, int32_t* ids, float* values, cudaStream_t stream) {
  if (n_rows <= 0 || k <= 0) return;
  if (k > 64 || k > n_vocab) throw std::runtime_error("cuda top-k: k must be <= 64 and <= n_vocab");
  topk_kernel<<<n_rows, 1024, 0, stream>>>(logits, n_vocab, k, ids, values);
  CUDA_CHECK_LAUNCH();
}

}  // namespace cu
}  // namespace infer
