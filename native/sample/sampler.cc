#include "sample/sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <type_traits>
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
// The passes over the vocabulary use 8-float GCC vector types: explicit, so that they vectorise
// on any target (AVX2 here, SSE2 at least) without relaxing floating-point semantics.
typedef float f8 __attribute__((vector_size(32)));
typedef int32_t i8 __attribute__((vector_size(32)));
constexpr int kW = 8;

inline f8 load8(const float* p) {
  f8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store8(float* p, f8 v) { std::memcpy(p, &v, sizeof v); }
inline double sum8(f8 v) {
  double s = 0.0;
  for (int k = 0; k < kW; ++k) s += v[k];
  return s;
}

// exp(x) for x <= 0, 0 below kExpFloor (and for -inf): 2^(x log2 e) as 2^n * e^g with
// g = (x log2 e - n) ln 2 in [-0.35, 0.35], e^g by its degree-7 Taylor polynomial (relative error
// ~1e-8 before rounding to float); n by the 1.5 * 2^23 rounding trick. Scalar and 8-wide forms.
constexpr float kExpFloor = -80.0f;
constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: x + kRound - kRound rounds x to an integer
template <class T, class I>
inline T exp_nonpositive_t(T x) {
  const T floor_v = T{} + kExpFloor;
  const T xc = x < floor_v ? floor_v : x;
  const T t = xc * 1.44269504088896341f;
  const T n = (t + kRound) - kRound;
  const T g = (t - n) * 0.693147180559945309f;
  T p = T{} + 1.0f / 5040.0f;
  p = p * g + 1.0f / 720.0f;
  p = p * g + 1.0f / 120.0f;
  p = p * g + 1.0f / 24.0f;
  p = p * g + 1.0f / 6.0f;
  p = p * g + 0.5f;
  p = p * g + 1.0f;
  p = p * g + 1.0f;
  I bits;
  std::memcpy(&bits, &p, sizeof bits);
  if constexpr (std::is_same_v<T, float>) bits += static_cast<int32_t>(n) * (1 << 23);
  else bits += __builtin_convertvector(n, I) * (1 << 23);
  T out;
  std::memcpy(&out, &bits, sizeof out);
  return x < floor_v ? T{} : out;
}
inline float exp_nonpositive(float x) { return exp_nonpositive_t<float, int32_t>(x); }
inline f8 exp_nonpositive(f8 x) { return exp_nonpositive_t<f8, i8>(x); }

float max_logit(const float* l, int64_t V) {
  f8 m = f8{} - INFINITY;
  int64_t i = 0;
  for (; i + kW <= V; i += kW) {
    const f8 v = load8(l + i);
    m = v > m ? v : m;
  }
  float out = -INFINITY;
  for (int k = 0; k < kW; ++k) out = std::max(out, m[k]);
  for (; i < V; ++i) out = std::max(out, l[i]);
  return out;
}

// The maximum of l[i, i + 64), 8-wide.
constexpr int64_t kChunk = 8 * kW;
inline float chunk_max(const float* l) {
  f8 m = load8(l);
  for (int64_t k = kW; k < kChunk; k += kW) {
    const f8 v = load8(l + k);
    m = v > m ? v : m;
  }
  float top = m[0];
  for (int k = 1; k < kW; ++k) top = std::max(top, m[k]);
  return top;
}

// The first token whose logit equals mx (greedy: ties go to the lower id); chunks of 64 whose
// maximum is below mx are skipped.
int32_t first_at(const float* l, int64_t V, float mx) {
  int64_t i = 0;
  while (i + kChunk <= V && chunk_max(l + i) < mx) i += kChunk;
  for (; i < V; ++i)
    if (l[i] == mx) return static_cast<int32_t>(i);
  return 0;
}

// Sum of exp(logit - mx) (the temperature-1 softmax mass), not stored.
double exp_mass(const float* l, int64_t V, float mx) {
  f8 acc = {};
  int64_t i = 0;
  for (; i + kW <= V; i += kW) acc += exp_nonpositive(load8(l + i) - mx);
  double m = sum8(acc);
  for (; i < V; ++i) m += exp_nonpositive(l[i] - mx);
  return m;
}

// exps = exp((logit - mx) * inv_t) and their mass per block of kSampleBlock tokens; returns the
// total. Float lanes per block stay short sums; blocks and the total are doubles.
double fill_exps(const float* l, int64_t V, float mx, float inv_t, sampler_scratch& sc) {
  sc.exps.resize(static_cast<size_t>(V));
  const int64_t nb = (V + kSampleBlock - 1) / kSampleBlock;
  sc.block_mass.resize(static_cast<size_t>(nb));
  float* e = sc.exps.data();
  double total = 0.0;
  for (int64_t b = 0; b < nb; ++b) {
    const int64_t lo = b * kSampleBlock, hi = std::min(V, lo + kSampleBlock);
    f8 acc = {};
    int64_t i = lo;
    for (; i + kW <= hi; i += kW) {
      const f8 v = exp_nonpositive((load8(l + i) - mx) * inv_t);
      store8(e + i, v);
      acc += v;
    }
    double m = sum8(acc);
    for (; i < hi; ++i) {
      e[i] = exp_nonpositive((l[i] - mx) * inv_t);
      m += e[i];
    }
    sc.block_mass[static_cast<size_t>(b)] = m;
    total += m;
  }
  return total;
}

// The `want` best logits (masked -inf ones never) in descending order, ties to the lower id, as
// log-probabilities; returns how many. Chunks of 64 whose maximum is not above the last kept
// value are skipped after a vector max.
int top_logits(const float* l, int64_t V, int want, int32_t* ids, float* vals, float log_z) {
  int n = 0;
  float floor_v = -INFINITY;  // a logit must beat this to enter (the last kept one, once full)
  auto offer = [&](int64_t i) {
    const float x = l[i];
    if (!(x > floor_v)) return;
    int j = n < want ? n++ : n - 1;
    while (j > 0 && vals[j - 1] < x) {
      vals[j] = vals[j - 1];
      ids[j] = ids[j - 1];
      --j;
    }
    vals[j] = x;
    ids[j] = static_cast<int32_t>(i);
    if (n == want) floor_v = vals[n - 1];
  };
  int64_t i = 0;
  for (; i + kChunk <= V; i += kChunk) {
    if (!(chunk_max(l + i) > floor_v)) continue;
    for (int64_t k = 0; k < kChunk; ++k) offer(i + k);
  }
  for (; i < V; ++i) offer(i);
  for (int k = 0; k < n; ++k) vals[k] -= log_z;
  return n;
}

// A token drawn from every token's weight (exps): blocks are skipped by their mass, then the
// block that holds u01 * total is scanned. Rounding that leaves u past the block's last weight
// takes the last token with weight at or before it.
int32_t draw_all(const sampler_scratch& sc, double total, double u01) {
  const float* e = sc.exps.data();
  const int64_t V = static_cast<int64_t>(sc.exps.size());
  const size_t nb = sc.block_mass.size();
  double u = u01 * total;
  size_t b = 0;
  for (; b + 1 < nb && u >= sc.block_mass[b]; ++b) u -= sc.block_mass[b];
  const int64_t lo = static_cast<int64_t>(b) * kSampleBlock, hi = std::min(V, lo + kSampleBlock);
  for (int64_t i = lo; i < hi; ++i) {
    u -= e[i];
    if (u < 0.0) return static_cast<int32_t>(i);
  }
  for (int64_t i = hi - 1; i >= 0; --i)
    if (e[i] > 0.0f) return static_cast<int32_t>(i);
  return 0;
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
  // drawn while anything else is allowed; its exp() is 0) but stays finite, so that when a
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
    for (int64_t i = 0; i < V; ++i) logits[i] = allowed[i] ? logits[i] : -INFINITY;
  }

  sample_result r;
  const float mx = max_logit(logits, V);
  if (!std::isfinite(mx)) return r;  // everything masked out: token -1, the caller ends the sequence
  double mass_t1 = -1.0;  // sum of exp(logit - max): the log-softmax normaliser, once known
  if (p_.temperature <= 0.0f) {
    r.token = first_at(logits, V, mx);
  } else {
    const double total = fill_exps(logits, V, mx, 1.0f / p_.temperature, scratch);
    if (p_.temperature == 1.0f) mass_t1 = total;
    const double u01 = static_cast<double>(rng_() >> 11) * (1.0 / 9007199254740992.0);
    r.token = p_.top_k > 0 || p_.min_p > 0.0f || p_.top_p < 1.0f ? draw_filtered(scratch, total, u01) : draw_all(scratch, total, u01);
  }

  if (p_.top_logprobs >= 0) {
    if (mass_t1 < 0) mass_t1 = exp_mass(logits, V, mx);
    const float log_z = mx + static_cast<float>(std::log(mass_t1));
    r.logprob = logits[r.token] - log_z;
    const int want = p_.top_logprobs;
    if (want > 0) r.n_top = top_logits(logits, V, want, r.top_ids, r.top_logprobs, log_z);
  }
  accept(r.token);
  return r;
}

int32_t sampler::draw_filtered(sampler_scratch& sc, double total, double u01) const {
  const float* e = sc.exps.data();
  const int64_t V = n_vocab_;
  auto& cand = sc.cand;
  // The head first: a threshold set is a prefix of the tokens by probability, so it holds the
  // top_k when it has k tokens, everything min_p keeps when min_p >= kHead, and the nucleus when
  // it has top_p of the mass.
  cand.clear();
  double head_mass = 0.0;
  for (int64_t i = 0; i < V; ++i)
    if (e[i] >= kHead) {
      cand.emplace_back(e[i], static_cast<int32_t>(i));
      head_mass += e[i];
    }
  const bool head_decides = p_.top_k > 0 ? cand.size() >= static_cast<size_t>(p_.top_k)
                            : p_.min_p > 0.0f ? p_.min_p >= kHead
                                              : head_mass >= p_.top_p * total;
  if (!head_decides) {
    cand.clear();
    for (int64_t i = 0; i < V; ++i)
      if (e[i] > 0.0f) cand.emplace_back(e[i], static_cast<int32_t>(i));
  }
  auto desc = [](const std::pair<float, int32_t>& a, const std::pair<float, int32_t>& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  };
  auto mass = [&](size_t n) {
    double m = 0.0;
    for (size_t i = 0; i < n; ++i) m += cand[i].first;
    return m;
  };
  size_t n = cand.size();
  double sum = total;  // top_p alone: a share of every token's mass
  if (p_.top_k > 0 && static_cast<size_t>(p_.top_k) < n) {
    std::nth_element(cand.begin(), cand.begin() + p_.top_k, cand.end(), desc);
    n = p_.top_k;
    sum = mass(n);
  } else if (p_.top_k > 0) {
    sum = mass(n);
  }
  if (p_.min_p > 0.0f) {
    // The maximum is always kept (its weight is exp(0) = 1 before normalising).
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
      if (cand[i].first >= p_.min_p) cand[k++] = cand[i];
    n = k;
    sum = mass(n);
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
  double u = u01 * sum;
  for (size_t i = 0; i < n; ++i) {
    u -= cand[i].first;
    if (u < 0.0) return cand[i].second;
  }
  return cand[n - 1].second;
}

}  // namespace infer
