// Where a sequence's output stands in its speculative draft (engine.h, seq_request::draft), and
// how many draft tokens to propose next. Pure bookkeeping, no model: the engine asks proposal()
// before a step, verifies those tokens in the forward pass, then reports the outcome to advance().
//
// Policy: while aligned, propose draft[pos, pos + window); the window doubles after a fully
// accepted step (up to max_per_step). A mismatch at draft index P makes P + 1 the expected
// position (the model replaced that token) and every further output token moves it on by one.
// Re-alignment looks the output's last 3, then 2, then 1 tokens up in a window around the
// expected position (3: -16..+256, 2: -8..+64, 1: -1..+6 tokens: code repeats short token
// sequences everywhere, so the nearest occurrence is the likely one, and one behind the
// expectation counts double; windows tuned by replaying corrupted drafts of real code), then
// the last 8 tokens anywhere in the draft (large deletions, moved code). The window restarts at
// 8/4/2/8 after such a match (rejected rows cost compute). A draft token rejected twice in a row
// is never proposed again (runs of one repeated token would otherwise loop on it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace infer {

class draft_cursor {
 public:
  draft_cursor() = default;
  draft_cursor(std::vector<int32_t> draft, int32_t max_per_step);

  bool empty() const { return draft_.empty(); }
  int32_t max_per_step() const { return max_; }
  // Draft tokens to verify in the next step, at most `limit` (0 while not aligned).
  int64_t proposal(int64_t limit) const;
  // The j-th token of the current proposal.
  int32_t at(int64_t j) const { return draft_[static_cast<size_t>(pos_ + j)]; }
  // After a step that proposed `proposed` tokens: the first `accepted` of them were the model's
  // choice, then it produced `token`. out[0, n_out) is everything generated so far (ending with
  // those tokens), read for the n-gram lookup.
  void advance(int64_t proposed, int64_t accepted, int32_t token, const int32_t* out, int64_t n_out);

 private:
  int64_t find(int64_t n, int64_t lo, int64_t hi, int64_t expect, const int32_t* out_end) const;

  std::vector<int32_t> draft_;
  int64_t pos_ = 0;  // aligned: index of the next expected token; else the expected position
  bool aligned_ = true;
  int32_t max_ = 0;
  int32_t window_ = 0;
  int64_t rejected_ = -1;  // draft index of the last rejected proposal
  int64_t dead_ = -1;      // re-alignments land after this index
};

struct draft_replay_stats {
  int64_t proposed = 0, accepted = 0, steps = 0;
};

// Replays the policy on a known output: the proposals, acceptances and steps speculative decoding
// would take if the model produced `output` (its first token from the prefill pass, no step
// budget limit). The policy's own measure, without a model (tests, benches).
draft_replay_stats replay_draft_policy(const std::vector<int32_t>& output, std::vector<int32_t> draft, int32_t max_per_step);

}  // namespace infer
