// Attention over the paged fp16 KV cache on the device (launchers only). The cache layout is the
// CPU kv_pool's: per layer [block][slot][kv_dim], so block ids and exported blocks mean the same.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace infer {
namespace cu {

// One layer of the paged cache plus the batch's token placement: token t sits at position pos[t]
// of its sequence, whose block table is tables[table_off[t] ...] (block of positions [i*bs, (i+1)*bs)).
struct paged_kv {
  uint16_t* k = nullptr;  // this layer's K: [n_blocks][block_size][kv_dim] fp16
  uint16_t* v = nullptr;
  int block_size = 0;
  int kv_dim = 0;
};
struct token_placement {
  const int32_t* pos = nullptr;
  const int32_t* table_off = nullptr;
  const int32_t* tables = nullptr;
};

// Writes k, v [n_tokens][kv_dim] (fp32, after RoPE) into the cache as fp16 at each token's slot.
void kv_store(const paged_kv& kv, const token_placement& tp, const float* k, const float* v, int n_tokens,
              cudaStream_t stream);

// How one layer's scores are shaped: score = (q . k) * scale, then cap * tanh(score / cap) when
// softcap > 0 (gemma2); with window > 0 a query at position p sees only positions > p - window
// (sliding-window layers), else every position up to its own.
struct attn_params {
  float scale = 0.0f;
  float softcap = 0.0f;
  int window = 0;
};

// out[t][h * head_dim ...] = softmax(scores of q_h against K[lo..pos[t]]) V over the token's own
// sequence (causal; lo = 0, or pos[t] - window + 1 on a sliding-window layer). Covers decode (one
// query per sequence) and prefill chunks alike, as long as every token's K/V was stored first.
// head_dim must be 32, 64, 128 or 256.
void attention(const paged_kv& kv, const token_placement& tp, const float* q, float* out, int n_tokens, int n_head,
               int n_head_kv, int head_dim, const attn_params& ap, cudaStream_t stream);

// The llama layer's attention: scale 1/sqrt(head_dim), no soft-cap, no window.
void attention(const paged_kv& kv, const token_placement& tp, const float* q, float* out, int n_tokens, int n_head,
               int n_head_kv, int head_dim, cudaStream_t stream);

bool attention_supported(int head_dim);

}  // namespace cu
}  // namespace infer
