// Per-sequence token sampling: logit bias, repetition/presence/frequency penalties (over the last
// 64 tokens of context, as llama.cpp's penalty_last_n), an optional allowed-token mask (grammar),
// then greedy or temperature -> top_k -> min_p -> top_p sampling from a seeded RNG.
// Log-probabilities are log-softmax of the biased/penalised/masked logits at temperature 1.
// The softmax is one vectorised pass over the vocabulary (a polynomial exp, ~1e-7 relative
// error); a plain temperature draw then needs no candidate list, and top_k / min_p / top_p look
// at the head of the distribution (probability >= 1e-4 of the top token's) first, falling back to
// every token only when the head cannot decide.
#pragma once
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace infer {

struct sampling_params {
  float temperature = 0.0f;  // 0 = greedy
  float top_p = 1.0f;
  int32_t top_k = 0;
  float min_p = 0.0f;
  float repetition_penalty = 1.0f;
  float presence_penalty = 0.0f;
  float frequency_penalty = 0.0f;
  std::vector<std::pair<int32_t, float>> logit_bias;
  bool has_seed = false;
  uint64_t seed = 0;
  int32_t top_logprobs = -1;  // -1: no logprobs at all; 0..20: chosen + that many top
};

constexpr int kMaxTopLogprobs = 20;

struct sample_result {
  int32_t token = -1;
  float logprob = 0.0f;
  int32_t n_top = 0;
  int32_t top_ids[kMaxTopLogprobs];
  float top_logprobs[kMaxTopLogprobs];
};

// Scratch shared by all samplers run on one thread (sized to the vocabulary once).
constexpr int64_t kSampleBlock = 1024;  // tokens per block of sampler_scratch::block_mass

struct sampler_scratch {
  std::vector<float> exps;                     // exp((logit - max) / T) per token, 0 when masked
  std::vector<double> block_mass;              // sums of exps per block of kSampleBlock tokens
  std::vector<std::pair<float, int32_t>> cand;  // (exp, token) for top_k / min_p / top_p
};

class sampler {
 public:
  sampler(const sampling_params& p, int64_t n_vocab);
  // Seeds the penalty window with the context (the prompt's tail).
  void prime(const int32_t* tokens, int64_t n);
  void accept(int32_t token);
  // Modifies logits in place. allowed: per-token 0/1 mask (nullptr = all allowed). Returns
  // token -1 when nothing is allowed.
  sample_result sample(float* logits, const uint8_t* allowed, sampler_scratch& scratch);
  const sampling_params& params() const { return p_; }

 private:
  static constexpr int kPenaltyWindow = 64;
  // Tokens at least this likely relative to the top one are the head (see the header comment).
  static constexpr float kHead = 1e-4f;
  // top_k / min_p / top_p over scratch.exps, then the draw at u01 of what they keep.
  int32_t draw_filtered(sampler_scratch& scratch, double total, double u01) const;
  sampling_params p_;
  int64_t n_vocab_;
  std::vector<int32_t> window_;  // ring of the last kPenaltyWindow tokens
  size_t window_pos_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace infer
