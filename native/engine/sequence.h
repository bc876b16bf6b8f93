// One live sequence as the engine's scheduler thread sees it (private to native/engine: engine.cc
// admits, preempts and finishes sequences, step.cc runs them). Nothing here is thread-safe.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/draft_cursor.h"
#include "engine/engine.h"
#include "kv/prefix_cache.h"
#include "sample/sampler.h"

namespace infer {

struct sequence {
  uint64_t id = 0;
  std::shared_ptr<event_sink> sink;
  std::vector<int32_t> tokens;  // prompt, then generated tokens
  int64_t n_prompt = 0;
  int64_t n_computed = 0;  // tokens whose KV is in the cache
  int64_t max_total = 0;   // cap on tokens.size()
  int32_t max_new = 0;
  int32_t n_generated = 0;
  int32_t cached = 0;
  std::vector<int32_t> blocks;
  std::vector<prefix_node*> path;
  int64_t reserve_left = 0;
  sampler smp;
  std::vector<int32_t> stop;
  std::unique_ptr<token_constraint> constraint;
  bool batch_priority = false;
  bool prompt_inserted = false;
  // Tokens to prefill before decoding: the prompt, or after a preemption everything but the
  // last sampled token (whose KV the next decode step computes).
  int64_t prefill_target = 0;
  uint64_t admit_order = 0;
  // Speculative decoding (see engine.h): where the output stands in its draft, and counters.
  draft_cursor draft;
  int64_t draft_proposed = 0;
  int64_t draft_accepted = 0;
  int64_t decode_steps = 0;
  std::chrono::steady_clock::time_point last_token_at;  // when the latest token was sampled
  std::chrono::steady_clock::time_point submitted_at;   // queue time: until first admitted
  bool admitted_once = false;
  sequence(const sampling_params& p, int64_t n_vocab) : smp(p, n_vocab) {}
  bool speculates() const { return !draft.empty() && draft.max_per_step() > 0 && smp.params().temperature <= 0.0f && !constraint; }
  bool decoding() const { return n_generated > 0 && n_computed == static_cast<int64_t>(tokens.size()) - 1; }
  bool prefilling() const { return n_computed < prefill_target; }
  // An interactive prompt still prefilling (a preempted sequence that prefills again has tokens).
  bool awaits_first_token() const { return prefilling() && n_generated == 0 && !batch_priority; }
};

// Blocks (or any fixed-size units) that hold `a` items, `b` a unit.
inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace infer
