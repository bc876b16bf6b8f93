#include "sample/sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>

namespace infer {

namespace {
// Where a logit_bias of -100 puts a token: below any real logit, finite (see sample()).
constexpr float kBannedLogit = -1e4f;

// A distinct seed for every unseeded sampler. Opening std::random_device per request cost the
// submitting thread (Node's event loop) more than the rest of submit; it is read once, and each
// sampler takes the next value of a splitmix64 sequence from there.
uint64_t next_unseeded_seed() {
  static const uint64_t base = [] {
    std::random_device rd;
    return (static_cast<uint64_t>(rd()) << 32) ^ rd();
  }();
  static std::atomic<uint64_t> counter{0};
  uint64_t z = base + 0x9E3779B97F4A7C15ull * (counter.fetch_add(1, std::memory_order_relaxed) + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace

sampler::sampler(const sampling_params& p, int64_t n_vocab) : p_(p), n_vocab_(n_vocab) {
  p_.top_logprobs = std::min(p_.top_logprobs, kMaxTopLogprobs);
  if (p_.has_seed) {
    rng_.seed(p_.seed);
  } else {
    rng_.seed(next_unseeded_seed());
  }
  window_.reserve(kPenaltyWindow);
}

void sampler::prime(const int32_t* tokens, int64_t n) {
  for (int64_t i = std::max<int64_t>(0, n - kPenaltyWindow); i < n; ++i) accept(tokens[i]);
}

void sampler::accept(int32_t token) {
  if (window_.size() < kPenaltyWindow) {
    window_.push_back(token);
  } else {
    window_[window_pos_] = token;
    window_pos_ = (window_pos_ + 1) % kPenaltyWindow;
  }
}

sample_result sampler::sample(float* logits, const uint8_t* allowed, sampler_scratch& scratch) {
  const int64_t V = n_vocab_;
  // A bias of -100 bans the token, as in the OpenAI API: it goes below any real logit (never
  // drawn while anything else is allowed; exp() of it is 0) but stays finite, so that when a
  // grammar allows only banned tokens the document still completes with the best of them
  // instead of ending unfinished.
  for (const auto& [tok, bias] : p_.logit_bias) {
    if (tok < 0 || tok >= V) continue;
    logits[tok] = bias <= -100.0f ? kBannedLogit + logits[tok] * 1e-3f : logits[tok] + bias;
  }
  const bool penalise = p_.repetition_penalty != 1.0f || p_.presence_penalty != 0.0f || p_.frequency_penalty != 0.0f;
  if (penalise && !window_.empty()) {
    // Window is at most 64 tokens: a tiny sorted pass instead of a hash map.
    int32_t ids[kPenaltyWindow];
    const size_t n = window_.size();
    std::copy(window_.begin(), window_.end(), ids);
    std::sort(ids, ids + n);
    for (size_t i = 0; i < n;) {
      size_t j = i;
      while (j < n && ids[j] == ids[i]) ++j;
      const int32_t tok = ids[i];
      const float count = static_cast<float>(j - i);
      if (tok >= 0 && tok < V) {
        float& l = logits[tok];
        if (p_.repetition_penalty != 1.0f) l = l > 0 ? l / p_.repetition_penalty : l * p_.repetition_penalty;
        l -= count * p_.frequency_penalty + p_.presence_penalty;
      }
      i = j;
    }
  }
  if (allowed) {
    for (int64_t i = 0; i < V; ++i)
      if (!allowed[i]) logits[i] = -INFINITY;
  }

  sample_result r;
  // Log-softmax normaliser, only when needed (logprobs requested or sampling).
  const bool need_norm = p_.top_logprobs >= 0;
  float mx = -INFINITY;
  int32_t best = 0;
  for (int64_t i = 0; i < V; ++i)
    if (logits[i] > mx) { mx = logits[i]; best = static_cast<int32_t>(i); }
  sample_result r_none;
  if (!std::isfinite(mx)) return r_none;  // everything masked out: token -1, the caller ends the sequence
  float log_z = 0.0f;
  if (need_norm) {
    double sum = 0.0;
    for (int64_t i = 0; i < V; ++i) sum += std::exp(static_cast<double>(logits[i] - mx));
    log_z = mx + static_cast<float>(std::log(sum));
  }

  if (p_.temperature <= 0.0f) {
    r.token = best;
  } else {
    auto& cand = scratch.cand;
    cand.clear();
    const float inv_t = 1.0f / p_.temperature;
    for (int64_t i = 0; i < V; ++i)
      if (std::isfinite(logits[i])) cand.emplace_back(logits[i] * inv_t, static_cast<int32_t>(i));
    auto desc = [](const std::pair<float, int32_t>& a, const std::pair<float, int32_t>& b) {
      return a.first > b.first || (a.first == b.first && a.second < b.second);
    };
    size_t n = cand.size();
    if (p_.top_k > 0 && static_cast<size_t>(p_.top_k) < n) {
      std::nth_element(cand.begin(), cand.begin() + p_.top_k, cand.end(), desc);
      n = p_.top_k;
    }
    const float cmax = mx * inv_t;
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i) {
      cand[i].first = std::exp(cand[i].first - cmax);
      sum += cand[i].first;
    }
    if (p_.min_p > 0.0f) {
      // The maximum is always kept (its probability is exp(0) = 1 before normalising).
      const float floor_p = p_.min_p;
      size_t k = 0;
      double s2 = 0.0;
      for (size_t i = 0; i < n; ++i)
        if (cand[i].first >= floor_p) { cand[k++] = cand[i]; s2 += cand[i].first; }
      n = k;
      sum = s2;
    }
    if (p_.top_p < 1.0f && n > 1) {
      // Sort only as much of the head as the nucleus needs: grow the sorted prefix x4 until it
      // holds top_p of the mass.
      size_t k = std::min<size_t>(64, n);
      const double target = p_.top_p * sum;
      for (;;) {
        std::partial_sort(cand.begin(), cand.begin() + k, cand.begin() + n, desc);
        double acc = 0.0;
        size_t cut = 0;
        for (; cut < k; ++cut) {
          acc += cand[cut].first;
          if (acc >= target) { ++cut; break; }
        }
        if (acc >= target || k == n) { n = std::max<size_t>(1, cut); sum = acc; break; }
        k = std::min(n, k * 4);
      }
    }
    const double u = static_cast<double>(rng_() >> 11) * (1.0 / 9007199254740992.0) * sum;
    double acc = 0.0;
    r.token = cand[n - 1].second;
    for (size_t i = 0; i < n; ++i) {
      acc += cand[i].first;
      if (u < acc) { r.token = cand[i].second; break; }
    }
  }

  if (need_norm) {
    r.logprob = logits[r.token] - log_z;
    const int want = p_.top_logprobs;
    if (want > 0) {
      // Small selection: keep the best `want` in a sorted array.
      int n = 0;
      for (int64_t i = 0; i < V; ++i) {
        const float l = logits[i];
        if (l == -INFINITY) continue;  // masked out: not a candidate (fewer entries then)
        if (n == want && !(l > r.top_logprobs[n - 1])) continue;
        int j = n < want ? n++ : n - 1;
        while (j > 0 && r.top_logprobs[j - 1] < l) {
          r.top_logprobs[j] = r.top_logprobs[j - 1];
          r.top_ids[j] = r.top_ids[j - 1];
          --j;
        }
        r.top_logprobs[j] = l;
        r.top_ids[j] = static_cast<int32_t>(i);
      }
      for (int i = 0; i < n; ++i) r.top_logprobs[i] -= log_z;
      r.n_top = n;
    }
  }
  accept(r.token);
  return r;
}

}  // namespace infer
