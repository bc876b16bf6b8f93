// The sampler against exact references: greedy picks and log-probabilities against long-double
// softmax, and the drawn frequencies of temperature / top_k / min_p / top_p sampling against the
// exact distribution those filters define (each frequency within 5 standard deviations), with
// masks, bans, block boundaries of the vectorised passes and the head-first candidate search.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "sample/sampler.h"
#include "tests/test_main.h"

using namespace infer;

namespace {

std::vector<float> random_logits(int64_t V, float sd, uint32_t seed) {
  std::mt19937 g(seed);
  std::normal_distribution<float> nd(0.0f, sd);
  std::vector<float> l(static_cast<size_t>(V));
  for (auto& x : l) x = nd(g);
  return l;
}

// The exact distribution the params define (mask and filters included), in long double.
std::vector<long double> reference(const std::vector<float>& logits, const sampling_params& p, const std::vector<uint8_t>* mask) {
  const size_t V = logits.size();
  std::vector<long double> w(V, 0.0L);
  long double mx = -INFINITY;
  for (size_t i = 0; i < V; ++i)
    if (!mask || (*mask)[i]) mx = std::max<long double>(mx, logits[i]);
  for (size_t i = 0; i < V; ++i)
    if (!mask || (*mask)[i]) w[i] = std::exp((logits[i] - mx) / p.temperature);
  std::vector<size_t> order(V);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return w[a] > w[b]; });
  if (p.top_k > 0)
    for (size_t r = static_cast<size_t>(p.top_k); r < V; ++r) w[order[r]] = 0;
  if (p.min_p > 0)
    for (auto& x : w)
      if (x < p.min_p) x = 0;  // weights are relative to the top one (1)
  if (p.top_p < 1.0f) {
    long double total = 0;
    for (auto x : w) total += x;
    long double acc = 0;
    size_t r = 0;
    for (; r < V; ++r) {
      acc += w[order[r]];
      if (acc >= p.top_p * total) break;
    }
    for (size_t q = r + 1; q < V; ++q) w[order[q]] = 0;
  }
  long double total = 0;
  for (auto x : w) total += x;
  for (auto& x : w) x /= total;
  return w;
}

// Draws n tokens and checks every frequency against the reference within 5 sigma (and that no
// token of probability 0 is drawn).
void check_frequencies(const std::string& name, const std::vector<float>& logits, sampling_params p, int n,
                       const std::vector<uint8_t>* mask = nullptr) {
  p.has_seed = true;
  p.seed = 12345;
  const std::vector<long double> ref = reference(logits, p, mask);
  sampler s(p, static_cast<int64_t>(logits.size()));
  sampler_scratch sc;
  std::vector<int> count(logits.size(), 0);
  std::vector<float> l;
  for (int k = 0; k < n; ++k) {
    l = logits;
    const sample_result r = s.sample(l.data(), mask ? mask->data() : nullptr, sc);
    CHECK(r.token >= 0 && r.token < static_cast<int32_t>(logits.size()), name + ": token out of range");
    if (r.token >= 0) count[static_cast<size_t>(r.token)]++;
  }
  for (size_t i = 0; i < logits.size(); ++i) {
    const double pr = static_cast<double>(ref[i]);
    const double f = static_cast<double>(count[i]) / n;
    if (pr == 0.0) {
      CHECK(count[i] == 0, name + ": drew token " + std::to_string(i) + " of probability 0");
      continue;
    }
    const double sigma = std::sqrt(pr * (1 - pr) / n);
    CHECK(std::fabs(f - pr) <= 5 * sigma + 1e-9,
          name + ": token " + std::to_string(i) + " drawn " + std::to_string(f) + ", expected " + std::to_string(pr));
  }
}

}  // namespace

TEST(sampler_greedy_and_logprobs_match_long_double_softmax) {
  for (int64_t V : {37, 1000, 151936}) {
    const std::vector<float> base = random_logits(V, 3.0f, static_cast<uint32_t>(V));
    long double mx = -INFINITY, z = 0;
    for (float x : base) mx = std::max<long double>(mx, x);
    for (float x : base) z += std::exp(x - mx);
    const long double log_z = mx + std::log(z);
    const int64_t best = std::max_element(base.begin(), base.end()) - base.begin();
    for (float t : {0.0f, 1.0f, 0.6f}) {
      sampling_params p;
      p.temperature = t;
      p.top_logprobs = 5;
      p.has_seed = true;
      sampler s(p, V);
      sampler_scratch sc;
      std::vector<float> l = base;
      const sample_result r = s.sample(l.data(), nullptr, sc);
      const std::string what = "V=" + std::to_string(V) + " T=" + std::to_string(t);
      if (t == 0.0f) CHECK(r.token == best, what + ": greedy is not the argmax");
      CHECK(std::fabs(r.logprob - static_cast<double>(base[static_cast<size_t>(r.token)] - log_z)) < 2e-5, what + ": logprob");
      std::vector<int64_t> order(static_cast<size_t>(V));
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + 5, order.end(), [&](int64_t a, int64_t b) { return base[a] > base[b]; });
      CHECK(r.n_top == 5, what + ": top_logprobs count");
      for (int k = 0; k < r.n_top; ++k) {
        CHECK(r.top_ids[k] == order[static_cast<size_t>(k)], what + ": top id " + std::to_string(k));
        CHECK(std::fabs(r.top_logprobs[k] - static_cast<double>(base[static_cast<size_t>(order[k])] - log_z)) < 2e-5, what + ": top logprob");
      }
    }
  }
  // Ties: the lower id.
  std::vector<float> tie(100, 0.0f);
  tie[40] = tie[70] = 2.0f;
  sampling_params p;
  sampler s(p, 100);
  sampler_scratch sc;
  CHECK(s.sample(tie.data(), nullptr, sc).token == 40, "greedy tie goes to the lower id");
}

TEST(sampler_draws_follow_the_filtered_distribution) {
  // 60 tokens with a spread of probabilities; 200k draws per configuration.
  const std::vector<float> l = random_logits(60, 1.5f, 7);
  const int n = 200000;
  sampling_params p;
  p.temperature = 1.0f;
  check_frequencies("T=1", l, p, n);
  p.temperature = 0.7f;
  check_frequencies("T=0.7", l, p, n);
  p.temperature = 1.3f;
  p.top_k = 5;
  check_frequencies("top_k=5", l, p, n);
  p.top_k = 0;
  p.top_p = 0.8f;
  check_frequencies("top_p=0.8", l, p, n);
  p.top_p = 1.0f;
  p.min_p = 0.2f;
  check_frequencies("min_p=0.2", l, p, n);
  p.top_k = 12;
  p.min_p = 0.05f;
  p.top_p = 0.9f;
  check_frequencies("top_k=12 min_p=0.05 top_p=0.9", l, p, n);
  // A mask: the masked tokens never come, the others keep their relative weights.
  std::vector<uint8_t> mask(l.size(), 1);
  for (size_t i = 0; i < mask.size(); i += 3) mask[i] = 0;
  sampling_params m;
  m.temperature = 1.0f;
  check_frequencies("mask", l, m, n, &mask);
  m.top_p = 0.7f;
  check_frequencies("mask top_p=0.7", l, m, n, &mask);
}

TEST(sampler_large_vocab_blocks_and_head_fallback) {
  const int64_t V = 151936;
  const int n = 20000;
  // The mass sits on both sides of block boundaries (1024 tokens) and on the last token.
  std::vector<float> l(static_cast<size_t>(V), -30.0f);
  for (int64_t t : {0L, 1023L, 1024L, 2047L, 70000L, V - 1}) l[static_cast<size_t>(t)] = static_cast<float>(t % 3);
  sampling_params p;
  p.temperature = 1.0f;
  check_frequencies("blocks", l, p, n);
  // top_k larger than the head (tokens within e^-9.2 of the top: 3 here): the search falls back
  // to every token and still keeps exactly 10, so none of the 4993 other tokens at e^-9.3 comes
  // (they would hold 13% of the draws).
  std::vector<float> steep(static_cast<size_t>(V), -50.0f);
  for (int64_t t = 1000; t < 6000; ++t) steep[static_cast<size_t>(t)] = -9.3f;
  for (int64_t t : {0L, 50000L, 100000L}) steep[static_cast<size_t>(t)] = 0.0f;
  sampling_params tk;
  tk.temperature = 1.0f;
  tk.top_k = 10;
  check_frequencies("top_k beyond the head", steep, tk, 1000);
  // top_p over a flat vocabulary: the nucleus is the first half by id (ties go to lower ids).
  std::vector<float> flat(static_cast<size_t>(V), 0.0f);
  sampling_params tp;
  tp.temperature = 1.0f;
  tp.top_p = 0.5f;
  tp.has_seed = true;
  sampler s(tp, V);
  sampler_scratch sc;
  bool inside = true;
  for (int k = 0; k < 100; ++k) {
    std::vector<float> x = flat;
    inside = inside && s.sample(x.data(), nullptr, sc).token < V / 2 + 1;
  }
  CHECK(inside, "flat top_p=0.5 drew outside the nucleus");
}

TEST(sampler_masks_and_bans) {
  const int64_t V = 5000;
  const std::vector<float> l = random_logits(V, 2.0f, 3);
  sampler_scratch sc;
  // Everything masked: no token.
  std::vector<uint8_t> none(static_cast<size_t>(V), 0);
  for (float t : {0.0f, 1.0f}) {
    sampling_params p;
    p.temperature = t;
    sampler s(p, V);
    std::vector<float> x = l;
    CHECK(s.sample(x.data(), none.data(), sc).token == -1, "an all-masked step gives token -1");
  }
  // Bans: never drawn while anything else is allowed; when the mask allows only banned tokens,
  // the best of them (by its own logit) is taken.
  sampling_params p;
  p.temperature = 1.0f;
  p.has_seed = true;
  std::vector<uint8_t> only(static_cast<size_t>(V), 0);
  for (int32_t t = 0; t < 40; ++t) {
    p.logit_bias.emplace_back(t, -100.0f);
    only[static_cast<size_t>(t)] = 1;
  }
  sampler s(p, V);
  bool clean = true;
  for (int k = 0; k < 3000; ++k) {
    std::vector<float> x = l;
    clean = clean && s.sample(x.data(), nullptr, sc).token >= 40;
  }
  CHECK(clean, "a banned token was drawn while others were allowed");
  p.temperature = 0.0f;
  sampler g(p, V);
  std::vector<float> x = l;
  const int32_t best_banned = static_cast<int32_t>(std::max_element(l.begin(), l.begin() + 40) - l.begin());
  CHECK(g.sample(x.data(), only.data(), sc).token == best_banned, "only banned tokens allowed: the best of them");
}
