// The mixture-of-experts FFN of one layer (qwen3moe, Mixtral, gpt-oss) over a batch of token rows,
// as llama.cpp's build_moe_ffn computes it: router logits (+ bias) -> the family's gating
// (moe_gating: softmax over all experts then the top-k, or the top-k logits then a softmax over
// those k; descending, ties to the lower expert id) -> optionally weights renormalised to sum 1
// (norm_w) -> per selected expert down(act(gate x + b) * (up x + b)) + b -> the weighted outputs
// summed in routing order. Biases are used where the layer has them (gpt-oss).
//
// Only the selected experts' weights are read. The batch's rows are grouped by expert, so each
// active expert's weights are read once per call (gather rows -> one matmul per expert -> weighted
// sum per token). Every output row is computed by the same operations whatever else is in the
// batch (matmul results do not depend on the rows beside them; the sum runs in routing order), so
// results do not depend on batching.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/kernels.h"
#include "model/model.h"

namespace infer {

class moe_ffn {
 public:
  // gate[i] <- act(gate[i], up[i]) for i < n (SwiGLU, GeGLU or swiglu_oai: the forward pass's own).
  using glu_fn = void (*)(float* gate, const float* up, int64_t n);

  moe_ffn(const model_hparams& hp, int max_tokens);

  // out[t] = the MoE FFN of x[t] (rows of n_embd) for t < n; out may be x.
  void run(const moe_weights& w, const float* x, int n, float* out, glu_fn glu, thread_pool& pool);

  // Experts chosen for token t by the last run, in routing order (tests, measurements).
  const int32_t* selected(int t) const { return sel_.data() + static_cast<size_t>(t) * k_; }

 private:
  void route(int n);
  void group(int n);
  // rows[r] += bias of the expert grouped row r belongs to (width per expert), for every active expert.
  void add_expert_bias(float* rows, const std::vector<float>& bias, int64_t width, thread_pool& pool);

  int64_t d_, ffe_, n_expert_, k_;
  moe_gating gating_;
  bool norm_w_;
  std::vector<float> logits_;       // [token][n_expert]: router logits, then probabilities
  std::vector<int32_t> sel_;        // [token][k]: selected experts, routing order
  std::vector<float> weight_;       // [token][k]: their weights
  std::vector<int32_t> offset_;     // [n_expert + 1]: first grouped row of each expert
  std::vector<int32_t> row_of_;     // [token][k]: the grouped row of (token, slot)
  std::vector<float> rows_;         // [token * k][n_embd]: gathered inputs, then down outputs
  std::vector<float> gate_, up_;    // [token * k][n_ff_exp]
  std::vector<int32_t> next_, order_;   // scratch of group() and route()
  std::vector<tensor_view> views_;      // scratch of the one-token pass: the k experts' gate and up
  std::vector<matmul_job> jobs_;
};

}  // namespace infer
