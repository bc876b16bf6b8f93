// Paged attention, one (token, head) per block, 8 warps splitting the token's positions (4 at a
// time per warp, loads in flight together) and an online softmax per warp, merged through shared
// memory at the end. Per layer: the query scale, gemma2's score soft-cap and a sliding window
// (the positions before it are never read).
// Memory-bound for decode: each K and V row of the sequence is read once per head group (GQA heads
// re-read the same rows, mostly from L2); the warp reductions are the latency cost. Decode of one
// sequence fills only n_head blocks: a split over positions across blocks (flash-decoding) is the
// next step for long contexts.
#include <cmath>

#include "cuda/attention.cuh"
#include "cuda/common.cuh"

namespace infer {
namespace cu {

// ----------------------------------------------------------------------------
// CUDA kernels

constexpr int kAttnWarps = 8;
constexpr int kAttnPos = 4;  // positions per warp per step

__global__ void kv_store_kernel(uint16_t* __restrict__ kc, uint16_t* __restrict__ vc, int bs, int kv_dim,
                                const int32_t* __restrict__ pos, const int32_t* __restrict__ table_off,
                                const int32_t* __restrict__ tables, const float* __restrict__ k,
                                const float* __restrict__ v) {
  const int t = blockIdx.x;
  const int p = pos[t];
  const int32_t blk = tables[table_off[t] + p / bs];
  const size_t base = (static_cast<size_t>(blk) * bs + p % bs) * kv_dim;
  for (int i = threadIdx.x; i < kv_dim; i += blockDim.x) {
    kc[base + i] = f32_to_f16(k[static_cast<size_t>(t) * kv_dim + i]);
    vc[base + i] = f32_to_f16(v[static_cast<size_t>(t) * kv_dim + i]);
  }
}

template <int DPL>  // head_dim / 32 values per lane
__global__ void __launch_bounds__(kAttnWarps * 32)
    attention_kernel(const uint16_t* __restrict__ kc, const uint16_t* __restrict__ vc, int bs, int kv_dim,
                     const int32_t* __restrict__ pos, const int32_t* __restrict__ table_off,
                     const int32_t* __restrict__ tables, const float* __restrict__ q, float* __restrict__ out,
                     int n_head, int gqa, float scale, float softcap, int window) {
  constexpr int HD = DPL * 32;
  __shared__ float s_m[kAttnWarps], s_l[kAttnWarps];
  __shared__ float s_acc[kAttnWarps][HD];
  const int t = blockIdx.x, h = blockIdx.y, kvh = h / gqa;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int n_pos = pos[t] + 1;
  const int j_lo = window > 0 ? max(0, n_pos - window) : 0;  // first position the query sees
  const float inv_cap = softcap > 0.0f ? 1.0f / softcap : 0.0f;
  const int32_t* table = tables + table_off[t];
  const float* qh = q + (static_cast<size_t>(t) * n_head + h) * HD;
  float qv[DPL], acc[DPL];
#pragma unroll
  for (int i = 0; i < DPL; ++i) {
    qv[i] = qh[lane + 32 * i] * scale;
    acc[i] = 0.0f;
  }
  // Each warp takes kAttnPos consecutive positions per step: their K/V loads are independent, so
  // they are all in flight before the first reduction (memory-level parallelism for decode).
  float m = -INFINITY, l = 0.0f;
  for (int j0 = j_lo + warp * kAttnPos; j0 < n_pos; j0 += kAttnWarps * kAttnPos) {
    float s[kAttnPos], vv[kAttnPos][DPL];
#pragma unroll
    for (int p = 0; p < kAttnPos; ++p) {
      const int j = j0 + p;
      s[p] = 0.0f;
      if (j < n_pos) {  // uniform across the warp
        const size_t row = (static_cast<size_t>(table[j / bs]) * bs + j % bs) * kv_dim + kvh * HD;
#pragma unroll
        for (int i = 0; i < DPL; ++i) {
          s[p] += qv[i] * f16_to_f32(kc[row + lane + 32 * i]);
          vv[p][i] = f16_to_f32(vc[row + lane + 32 * i]);
        }
      }
    }
    float m_new = m;
#pragma unroll
    for (int p = 0; p < kAttnPos; ++p) {
      s[p] = warp_sum(s[p]);
      if (softcap > 0.0f) s[p] = tanhf(s[p] * inv_cap) * softcap;  // uniform per launch
      if (j0 + p < n_pos) m_new = fmaxf(m_new, s[p]);
    }
    const float corr = expf(m - m_new);
    l *= corr;
#pragma unroll
    for (int i = 0; i < DPL; ++i) acc[i] *= corr;
#pragma unroll
    for (int p = 0; p < kAttnPos; ++p) {
      if (j0 + p < n_pos) {
        const float e = expf(s[p] - m_new);
        l += e;
#pragma unroll
        for (int i = 0; i < DPL; ++i) acc[i] += e * vv[p][i];
      }
    }
    m = m_new;
  }
  if (lane == 0) {
    s_m[warp] = m;
    s_l[warp] = l;
  }
#pragma unroll
  for (int i = 0; i < DPL; ++i) s_acc[warp][lane + 32 * i] = acc[i];
  __syncthreads();
  float M = -INFINITY;
#pragma unroll
  for (int w = 0; w < kAttnWarps; ++w) M = fmaxf(M, s_m[w]);
  float L = 0.0f;
#pragma unroll
  for (int w = 0; w < kAttnWarps; ++w) L += s_m[w] == -INFINITY ? 0.0f : s_l[w] * expf(s_m[w] - M);
  float* o = out + (static_cast<size_t>(t) * n_head + h) * HD;
  for (int e = threadIdx.x; e < HD; e += blockDim.x) {
    float sum = 0.0f;
#pragma unroll
    for (int w = 0; w < kAttnWarps; ++w) sum += s_m[w] == -INFINITY ? 0.0f : s_acc[w][e] * expf(s_m[w] - M);
    o[e] = sum / L;
  }
}

// ----------------------------------------------------------------------------
// kernel launchers

void kv_store(const paged_kv& kv, const token_placement& tp, const float* k, const float* v, int n_tokens,
              cudaStream_t stream) {
  if (n_tokens <= 0) return;
  kv_store_kernel<<<n_tokens, 128, 0, stream>>>(kv.k, kv.v, kv.block_size, kv.kv_dim, tp.pos, tp.table_off, tp.tables,
                                                k, v);
  CUDA_CHECK_LAUNCH();
}

bool attention_supported(int head_dim) { return head_dim == 32 || head_dim == 64 || head_dim == 128 || head_dim == 256; }

void attention(const paged_kv& kv, const token_placement& tp, const float* q, float* out, int n_tokens, int n_head,
               int n_head_kv, int head_dim, const attn_params& ap, cudaStream_t stream) {
  if (n_tokens <= 0) return;
  if (ap.window < 0 || ap.softcap < 0.0f) throw std::runtime_error("cuda attention: negative window or soft-cap");
  const dim3 grid(n_tokens, n_head), block(kAttnWarps * 32);
  const int gqa = n_head / n_head_kv;
#define INFER_ATTN(DPL)                                                                                            \
  attention_kernel<DPL><<<grid, block, 0, stream>>>(kv.k, kv.v, kv.block_size, kv.kv_dim, tp.pos, tp.table_off, \
                                                    tp.tables, q, out, n_head, gqa, ap.scale, \
                                                    ap.softcap, ap.window)
  switch (head_dim) {
    case 32: INFER_ATTN(1); break;
    case 64: INFER_ATTN(2); break;
    case 128: INFER_ATTN(4); break;
    case 256: INFER_ATTN(8); break;
    default: throw std::runtime_error("cuda attention: head_dim must be 32, 64, 128 or 256");
  }
#undef INFER_ATTN
  CUDA_CHECK_LAUNCH();
}

void attention(const paged_kv& kv, const token_placement& tp, const float* q, float* out, int n_tokens, int n_head,
               int n_head_kv, int head_dim, cudaStream_t stream) {
  attn_params ap;
  ap.scale = 1.0f / sqrtf(static_cast<float>(head_dim));
  attention(kv, tp, q, out, n_tokens, n_head, n_head_kv, head_dim, ap, stream);
}

}  // namespace cu
}  // namespace infer
