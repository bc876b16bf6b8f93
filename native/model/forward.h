// One batched forward pass over tokens of any number of sequences, reading and writing the paged
// KV pool. Every weight multiply goes through kernels.h matmul. Scratch buffers are allocated once
// for max_tokens tokens and max_logits logit rows; run() allocates nothing.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/kernels.h"
#include "kv/kv_pool.h"
#include "model/model.h"

namespace infer {

struct fwd_token {
  int32_t token;
  int32_t pos;            // position in its sequence (0-based)
  const int32_t* blocks;  // its sequence's block table (block for positions [i*bs, (i+1)*bs))
};

class forward_pass {
 public:
  forward_pass(const model& m, kv_pool& kv, thread_pool& pool, int max_tokens, int max_logits);

  int max_tokens() const { return max_tokens_; }
  int max_logits() const { return max_logits_; }
  // Computes n tokens (n <= max_tokens). For each k < n_out, logits(k) holds the logits of
  // token out_rows[k] (n_out <= max_logits). Writes K/V of every token at (blocks, pos).
  void run(const fwd_token* toks, int n, const int32_t* out_rows, int n_out);
  const float* logits(int k) const { return logits_.data() + static_cast<size_t>(k) * hp_.n_vocab; }
  float* logits_mut(int k) { return logits_.data() + static_cast<size_t>(k) * hp_.n_vocab; }

 private:
  void attention(int il, const fwd_token* toks, int n);

  const model& m_;
  const model_hparams& hp_;
  kv_pool& kv_;
  thread_pool& pool_;
  int max_tokens_, max_logits_;
  std::vector<float> x_, xn_, q_, k_, v_, att_, gate_, up_, out_rows_x_, logits_;
  std::vector<float> rope_cs_;  // [token][n_rot] interleaved cos, sin
  std::vector<float> scores_;   // [thread][n_ctx]
  int64_t n_ctx_;
};

}  // namespace infer
