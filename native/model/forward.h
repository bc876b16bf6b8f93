// One batched forward pass over tokens of any number of sequences, reading and writing the paged
// KV pool. Every weight multiply goes through kernels.h matmul. Scratch buffers are allocated once
// for max_tokens tokens and max_logits logit rows; run() allocates nothing.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/kernels.h"
#include "kv/kv_pool.h"
#include "model/model.h"
#include "model/moe_ffn.h"

namespace infer {

struct fwd_token {
  int32_t token;
  int32_t pos;            // position in its sequence (0-based)
  const int32_t* blocks;  // its sequence's block table (block for positions [i*bs, (i+1)*bs))
};

// A device backend (CUDA, native/backend/gpu_backend.h) that runs the whole pass instead of the
// CPU code. Its K/V live in device memory in the kv_pool's block layout (same block ids); the host
// pool is then only a staging area, synced per block around KV export/import.
class forward_backend {
 public:
  virtual ~forward_backend() = default;
  virtual const char* name() const = 0;
  // Same contract as forward_pass::run; writes n_out rows of n_vocab logits to `logits` (host).
  virtual void run(const fwd_token* toks, int n, const int32_t* out_rows, int n_out, float* logits) = 0;
  virtual void kv_to_host(int32_t block) = 0;    // before the host pool's copy of a block is read
  virtual void kv_to_device(int32_t block) = 0;  // after the host pool's copy of a block was written
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

  // Embedding output: run() stops after the output norm and hidden(k) holds the final-normed
  // hidden state of token out_rows[k] (n_out <= max_tokens then). Always on the CPU path.
  void set_hidden_output(bool on) { hidden_output_ = on; }
  int max_hidden_rows() const { return std::max(max_tokens_, max_logits_); }
  const float* hidden(int k) const { return out_rows_x_.data() + static_cast<size_t>(k) * hp_.n_embd; }

  // Device backend hook (CUDA): null runs on the CPU.
  void attach_backend(std::unique_ptr<forward_backend> b) { backend_ = std::move(b); }
  const forward_backend* backend() const { return backend_.get(); }
  void kv_to_host(int32_t block) { if (backend_) backend_->kv_to_host(block); }
  void kv_to_device(int32_t block) { if (backend_) backend_->kv_to_device(block); }

 private:
  void attention(int il, const fwd_token* toks, int n);

  const model& m_;
  const model_hparams& hp_;
  kv_pool& kv_;
  thread_pool& pool_;
  int max_tokens_, max_logits_;
  std::vector<float> x_, xn_, q_, k_, v_, att_, gate_, up_, out_rows_x_, logits_;
  std::vector<float> rope_cs_;      // [token][n_rot] interleaved cos, sin
  std::vector<float> rope_cs_swa_;  // the same for sliding-window layers (their own RoPE)
  std::vector<float> scores_;   // [thread][query heads per KV head (at most 8)][n_ctx]
  std::vector<const uint16_t*> blk_ptrs_;  // [thread][K, V][max_blocks_]: attention's block table
  int64_t max_blocks_ = 0;
  int64_t n_ctx_;
  std::unique_ptr<forward_backend> backend_;
  std::unique_ptr<moe_ffn> moe_;  // MoE models: the expert FFN (dense FFN buffers unused)
  bool hidden_output_ = false;
};

}  // namespace infer
