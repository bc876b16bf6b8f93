#include "engine/draft_cursor.h"

#include <algorithm>
#include <climits>

namespace infer {

draft_cursor::draft_cursor(std::vector<int32_t> draft, int32_t max_per_step)
    : draft_(std::move(draft)), max_(std::max(0, max_per_step)), window_(std::max(0, max_per_step)) {}

int64_t draft_cursor::proposal(int64_t limit) const {
  if (!aligned_ || limit <= 0) return 0;
  return std::max<int64_t>(0, std::min({limit, static_cast<int64_t>(window_), static_cast<int64_t>(draft_.size()) - pos_}));
}

// The best e (draft index right after a match of the output's last n tokens) in [lo, hi], or -1.
int64_t draft_cursor::find(int64_t n, int64_t lo, int64_t hi, int64_t expect, const int32_t* out_end) const {
  lo = std::max({lo, n, dead_ + 1});
  hi = std::min(hi, static_cast<int64_t>(draft_.size()));
  int64_t best = -1, best_cost = INT64_MAX;
  for (int64_t e = lo; e <= hi; ++e) {
    const int64_t cost = e >= expect ? e - expect : 2 * (expect - e);
    if (cost >= best_cost) {
      if (e >= expect) break;
      continue;
    }
    if (std::equal(out_end - n, out_end, draft_.begin() + (e - n))) {
      best = e;
      best_cost = cost;
    }
  }
  return best;
}

void draft_cursor::advance(int64_t proposed, int64_t accepted, int32_t token, const int32_t* out, int64_t n_out) {
  const int64_t nd = static_cast<int64_t>(draft_.size());
  if (proposed > 0 && accepted == proposed) window_ = std::min(max_, 2 * window_);
  int64_t expect;
  if (aligned_) {
    const int64_t p = pos_ + accepted;
    if (p < nd && draft_[static_cast<size_t>(p)] == token) {
      pos_ = p + 1;
      return;
    }
    if (rejected_ == p) dead_ = std::max(dead_, p);
    rejected_ = p;
    aligned_ = false;
    expect = p + 1;
  } else {
    expect = pos_ + 1;
  }
  pos_ = expect = std::min(expect, nd);
  struct tier {
    int64_t n, back, fwd;
    int32_t window;
  };
  static constexpr tier kTiers[] = {{3, 16, 256, 8}, {2, 8, 64, 4}, {1, 1, 6, 2}, {8, INT32_MAX, INT32_MAX, 8}};
  for (const tier& t : kTiers) {
    if (t.n > n_out) continue;
    const int64_t e = find(t.n, expect - t.back, expect + t.fwd, expect, out + n_out);
    if (e < 0) continue;
    pos_ = e;
    aligned_ = true;
    window_ = std::min(max_, t.window);
    return;
  }
}

draft_replay_stats replay_draft_policy(const std::vector<int32_t>& output, std::vector<int32_t> draft, int32_t max_per_step) {
  draft_cursor cur(std::move(draft), max_per_step);
  const int64_t n = static_cast<int64_t>(output.size());
  draft_replay_stats r;
  int64_t done = 0;
  while (done < n) {
    const int64_t k = done == 0 ? 0 : cur.proposal(n - done - 1);
    int64_t acc = 0;
    while (acc < k && output[static_cast<size_t>(done + acc)] == cur.at(acc)) ++acc;
    const int32_t last = output[static_cast<size_t>(done + acc)];
    done += acc + 1;
    r.proposed += k;
    r.accepted += acc;
    r.steps++;
    if (done < n) cur.advance(k, acc, last, output.data(), done);
  }
  return r;
}

}  // namespace infer
