#include "model/moe_ffn.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace infer {
namespace {

// ggml's soft_max: exp(x - max), the sum in double, then times (float)(1 / sum).
void softmax(float* p, int64_t n) {
  const float mx = *std::max_element(p, p + n);
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    p[i] = std::exp(p[i] - mx);
    sum += p[i];
  }
  const float inv = static_cast<float>(1.0 / sum);
  for (int64_t i = 0; i < n; ++i) p[i] *= inv;
}

// Runs fn(i) for i < n, over the pool in chunks when there is enough work to share.
template <typename F>
void for_rows(int64_t n, thread_pool& pool, F&& fn) {
  const int chunks = n >= 8 && pool.size() > 1 ? static_cast<int>(std::min<int64_t>(n, pool.size() * 4)) : 1;
  if (chunks == 1) {
    for (int64_t i = 0; i < n; ++i) fn(i);
    return;
  }
  pool.parallel_for(chunks, [&](int c, int) {
    for (int64_t i = n * c / chunks; i < n * (c + 1) / chunks; ++i) fn(i);
  });
}

}  // namespace

moe_ffn::moe_ffn(const model_hparams& hp, int max_tokens)
    : d_(hp.n_embd),
      ffe_(hp.moe.n_ff_exp),
      n_expert_(hp.moe.n_expert),
      k_(hp.moe.n_expert_used),
      gating_(hp.moe.gating),
      norm_w_(hp.moe.norm_w) {
  const size_t T = static_cast<size_t>(max_tokens);
  logits_.resize(T * n_expert_);
  sel_.resize(T * k_);
  weight_.resize(T * k_);
  offset_.resize(n_expert_ + 1);
  next_.resize(n_expert_);
  order_.resize(n_expert_);
  views_.resize(2 * k_);
  jobs_.resize(2 * k_);
  row_of_.resize(T * k_);
  rows_.resize(T * k_ * d_);
  gate_.resize(T * k_ * ffe_);
  up_.resize(T * k_ * ffe_);
}

// Per token: the top-k experts by router score and their weights (moe_gating), renormalised
// when norm_w is set.
void moe_ffn::route(int n) {
  std::vector<int32_t>& order = order_;
  for (int t = 0; t < n; ++t) {
    float* p = logits_.data() + static_cast<size_t>(t) * n_expert_;
    if (gating_ == moe_gating::softmax_then_topk) softmax(p, n_expert_);
    std::iota(order.begin(), order.end(), 0);
    // A total order (score descending, then expert id), so the choice is deterministic.
    std::partial_sort(order.begin(), order.begin() + k_, order.end(),
                      [p](int32_t a, int32_t b) { return p[a] > p[b] || (p[a] == p[b] && a < b); });
    int32_t* sel = sel_.data() + static_cast<size_t>(t) * k_;
    float* w = weight_.data() + static_cast<size_t>(t) * k_;
    for (int64_t s = 0; s < k_; ++s) {
      sel[s] = order[s];
      w[s] = p[order[s]];
    }
    if (gating_ == moe_gating::topk_then_softmax) softmax(w, k_);  // over the k selected logits
    if (norm_w_) {
      double sum = 0.0;
      for (int64_t s = 0; s < k_; ++s) sum += w[s];
      // ggml's sum_rows (in double), clamped to the smallest normal f16 as llama.cpp does, then a division.
      const float total = std::max(static_cast<float>(sum), 6.103515625e-5f);
      for (int64_t s = 0; s < k_; ++s) w[s] /= total;
    }
  }
}

// The (token, slot) pairs grouped by expert (ascending), tokens ascending within an expert.
void moe_ffn::group(int n) {
  std::fill(offset_.begin(), offset_.end(), 0);
  const int64_t nk = static_cast<int64_t>(n) * k_;
  for (int64_t i = 0; i < nk; ++i) ++offset_[sel_[i] + 1];
  for (int64_t e = 0; e < n_expert_; ++e) offset_[e + 1] += offset_[e];
  std::copy(offset_.begin(), offset_.end() - 1, next_.begin());
  for (int64_t i = 0; i < nk; ++i) row_of_[i] = next_[sel_[i]]++;
}

void moe_ffn::add_expert_bias(float* rows, const std::vector<float>& bias, int64_t width, thread_pool& pool) {
  if (bias.empty()) return;
  for (int64_t e = 0; e < n_expert_; ++e) {
    const int64_t r0 = offset_[e], nr = offset_[e + 1] - r0;
    const float* b = bias.data() + e * width;
    for_rows(nr, pool, [&](int64_t i) {
      float* y = rows + (r0 + i) * width;
      for (int64_t j = 0; j < width; ++j) y[j] += b[j];
    });
  }
}

void moe_ffn::run(const moe_weights& w, const float* x, int n, float* out, glu_fn glu, thread_pool& pool) {
  if (n <= 0) return;
  matmul(w.router, x, n, logits_.data(), pool);
  if (!w.router_b.empty())
    for (int t = 0; t < n; ++t)
      for (int64_t e = 0; e < n_expert_; ++e) logits_[static_cast<size_t>(t) * n_expert_ + e] += w.router_b[e];
  route(n);
  group(n);
  const int64_t nk = static_cast<int64_t>(n) * k_;

  // Gate and up of every (token, expert) row.
  if (n == 1) {
    // One token: all k experts share its row, so their 2k weights go in one pass over the pool.
    std::vector<tensor_view>& views = views_;
    std::vector<matmul_job>& jobs = jobs_;
    for (int64_t s = 0; s < k_; ++s) {
      const int64_t e = sel_[s], r = row_of_[s];
      views[2 * s] = w.gate.expert(e);
      views[2 * s + 1] = w.up.expert(e);
      jobs[2 * s] = {&views[2 * s], gate_.data() + r * ffe_};
      jobs[2 * s + 1] = {&views[2 * s + 1], up_.data() + r * ffe_};
    }
    matmul_multi(jobs.data(), static_cast<int>(jobs.size()), x, 1, pool);
  } else {
    for_rows(nk, pool, [&](int64_t i) {
      std::memcpy(rows_.data() + static_cast<size_t>(row_of_[i]) * d_, x + (i / k_) * d_, sizeof(float) * d_);
    });
    for (int64_t e = 0; e < n_expert_; ++e) {
      const int64_t r0 = offset_[e], nr = offset_[e + 1] - r0;
      if (nr == 0) continue;
      const tensor_view g = w.gate.expert(e), u = w.up.expert(e);
      const matmul_job jobs[2] = {{&g, gate_.data() + r0 * ffe_}, {&u, up_.data() + r0 * ffe_}};
      matmul_multi(jobs, 2, rows_.data() + r0 * d_, nr, pool);
    }
  }
  add_expert_bias(gate_.data(), w.gate_b, ffe_, pool);
  add_expert_bias(up_.data(), w.up_b, ffe_, pool);
  for_rows(nk, pool, [&](int64_t r) { glu(gate_.data() + r * ffe_, up_.data() + r * ffe_, ffe_); });
  // Down projections, into rows_ (the gathered inputs are no longer needed).
  for (int64_t e = 0; e < n_expert_; ++e) {
    const int64_t r0 = offset_[e], nr = offset_[e + 1] - r0;
    if (nr == 0) continue;
    matmul(w.down.expert(e), gate_.data() + r0 * ffe_, nr, rows_.data() + r0 * d_, pool);
  }
  add_expert_bias(rows_.data(), w.down_b, d_, pool);
  // Weighted sum in routing order (ggml: experts * weights, then adds slot by slot).
  for_rows(n, pool, [&](int64_t t) {
    float* y = out + t * d_;
    const int32_t* rows = row_of_.data() + t * k_;
    const float* wt = weight_.data() + t * k_;
    const float* e0 = rows_.data() + static_cast<size_t>(rows[0]) * d_;
    for (int64_t i = 0; i < d_; ++i) y[i] = e0[i] * wt[0];
    for (int64_t s = 1; s < k_; ++s) {
      const float* es = rows_.data() + static_cast<size_t>(rows[s]) * d_;
      for (int64_t i = 0; i < d_; ++i) y[i] += es[i] * wt[s];
    }
  });
}

}  // namespace infer
