// One scheduler step of the engine (engine.h): schedule which sequences run and with how many
// rows, run those rows as one forward pass, then update every sequence that got logits (sample,
// accept drafts, advance, finish, emit its events). engine.cc owns admission, preemption and the
// loop that calls step(); this file owns what happens inside one step.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "engine/engine.h"
#include "engine/sequence.h"

namespace infer {

void engine::step(std::vector<std::unique_ptr<sequence>>& ended) {
  prof_.begin();
  make_decode_room(ended);
  schedule();
  if (!build_batch()) return;
  steps_++;
  prof_.mark(step_profile::plan);
  fwd_.run(batch_.data(), static_cast<int>(batch_.size()), out_rows_.data(), static_cast<int>(out_rows_.size()));
  prof_.mark(step_profile::forward);
  advance_computed();
  const auto step_end = std::chrono::steady_clock::now();  // every token of this step was sampled now
  sample_first_rows();
  prof_.mark(step_profile::sample);
  for (size_t gi = 0; gi < groups_.size(); ++gi) accept_rows(groups_[gi], first_[gi], step_end, ended);
  prof_.mark(step_profile::emit);
  prof_.end(static_cast<int>(batch_.size()), plan_.prefill_first ? 0 : plan_.n_decode, static_cast<int>(groups_.size()));
}

// ---- schedule ----

// A decode position at a block boundary needs a new block. Beyond the reservations there may be
// none: then the newest sequence is preempted (running_ is in admission order), or a lone
// sequence ends with finish_reason::length (the pool cannot hold more).
void engine::make_decode_room(std::vector<std::unique_ptr<sequence>>& ended) {
  const int bs = kv_.block_size();
  for (size_t i = 0; i < running_.size(); ++i) {
    sequence* s = running_[i].get();
    if (!s->decoding() || static_cast<int64_t>(s->blocks.size()) > s->n_computed / bs) continue;
    for (;;) {
      if (s->reserve_left > 0 || available_blocks() > 0) {
        add_block(*s);
        break;
      }
      if (running_.size() == 1) {
        finish(*s, finish_reason::length, engine_status::ok);
        ended.push_back(std::move(running_[i]));
        running_.erase(running_.begin() + i);
        --i;
        break;
      }
      std::unique_ptr<sequence> victim = std::move(running_.back());
      running_.pop_back();
      preempt(*victim);
      const bool was_self = victim.get() == s;
      (victim->batch_priority ? waiting_batch_ : waiting_interactive_).push_front(std::move(victim));
      if (was_self) break;
    }
  }
}

// Fills plan_: one decode token per decoding sequence first (plus draft tokens to verify, from
// the budget the decode tokens leave), then prefill chunks round-robin; or, on a prefill-first
// step, just the prompts it can finish. Takes every block the planned rows need.
void engine::schedule() {
  const int bs = kv_.block_size();
  std::vector<step_part>& plan = plan_.parts;
  plan.clear();
  int budget = fwd_.max_tokens();
  int n_decode = 0;
  for (auto& sp : running_)
    if (sp->decoding()) ++n_decode;
  const std::vector<sequence*> finishing = n_decode > 0 ? finishing_prompts() : std::vector<sequence*>{};
  const bool prefill_first = prefill_first_now(finishing);
  plan_.n_decode = n_decode;
  plan_.prefill_first = prefill_first;
  int spare = std::max(0, budget - n_decode);
  int spec_rows_left = fwd_.max_logits() - std::max(1, opts_.max_seqs);
  for (auto& sp : running_)
    if (!prefill_first && sp->decoding() && budget > 0) {
      const int32_t k = plan_draft(*sp, std::min(spare, spec_rows_left));
      plan.push_back({sp.get(), sp->n_computed, 1 + k, true, k});
      budget -= 1 + k;
      spare -= k;
      spec_rows_left -= k;
    }
  const size_t nr = running_.size();
  // A prefill-first step runs just the prompts it can finish (what prefill_first_now weighed);
  // other prompts' chunks wait for the next, mixed step.
  if (prefill_first) {
    for (sequence* s : finishing) plan.push_back({s, s->n_computed, s->prefill_target - s->n_computed, true, 0});
    budget = 0;
  }
  for (size_t k = 0; k < nr && budget > 0; ++k) {
    sequence* s = running_[(rr_ + k) % nr].get();
    if (!s->prefilling()) continue;
    const int64_t n = std::min<int64_t>(budget, s->prefill_target - s->n_computed);
    const bool done = s->n_computed + n == s->prefill_target;
    plan.push_back({s, s->n_computed, n, done && s->n_generated == 0, 0});
    budget -= static_cast<int>(n);
  }
  rr_++;
  // Prefill blocks come out of the sequence's reservation. All blocks are taken before the batch
  // points into the block tables (which must not move afterwards).
  for (auto& p : plan) {
    const int64_t last = p.from + p.n - 1;
    while (static_cast<int64_t>(p.s->blocks.size()) <= last / bs) add_block(*p.s);
  }
}

// Draft tokens to verify in this step's pass for a decoding sequence, at most `room`; takes the
// KV blocks their positions need (never preempting anyone for them: without a free block the
// draft is cut to the blocks the sequence holds).
int32_t engine::plan_draft(sequence& s, int32_t room) {
  if (!s.speculates() || room <= 0) return 0;
  const int bs = kv_.block_size();
  const int64_t left_out = std::min<int64_t>(s.max_new - s.n_generated, s.max_total - static_cast<int64_t>(s.tokens.size()));
  int64_t k = s.draft.proposal(std::min<int64_t>(room, left_out - 1));
  if (k <= 0) return 0;
  const int64_t p = s.n_computed;  // position of the input token; draft token j sits at p + 1 + j
  while (static_cast<int64_t>(s.blocks.size()) <= (p + k) / bs) {
    if (s.reserve_left > 0 || available_blocks() > 0) {
      add_block(s);
    } else {
      k = static_cast<int64_t>(s.blocks.size()) * bs - 1 - p;
      break;
    }
  }
  return static_cast<int32_t>(std::max<int64_t>(0, k));
}

// True when this step should run `finishing` (finishing_prompts()) without the decoding
// sequences: leaving the decodes out must at least halve the step's work (a decode row costs a
// whole pass of the model, LM head included; a prompt token the body, plus the LM head for its
// last row), and every decoding sequence got a token less than decode_stall_us ago. On a CPU the
// work is the time, so a newcomer's first token then no longer waits for every other stream's
// next one; decoders pay one step's delay, bounded by the cap. With few decoders beside a long
// prompt (a real model's usual case) the saving is small and an extra pass is not, so the step
// stays mixed. The GPU forward is memory-bound at these sizes: it always mixes.
bool engine::prefill_first_now(const std::vector<sequence*>& finishing) const {
  if (opts_.decode_stall_us <= 0 || fwd_.backend() || finishing.empty()) return false;
  const model_hparams& hp = m_->hp;
  const double body = static_cast<double>(hp.n_layer) *
                      (static_cast<double>(hp.n_embd) * (2 * hp.q_dim() + 2 * hp.kv_dim()) + 3.0 * hp.n_embd * hp.n_ff_active());
  const double head = static_cast<double>(hp.n_vocab) * hp.n_embd;
  double prefill_work = 0;
  for (const sequence* s : finishing) prefill_work += static_cast<double>(s->prefill_target - s->n_computed) * body + head;
  int64_t n_decode = 0;
  const auto oldest = std::chrono::steady_clock::now() - std::chrono::microseconds(opts_.decode_stall_us);
  for (auto& sp : running_) {
    if (!sp->decoding()) continue;
    if (sp->last_token_at < oldest) return false;
    ++n_decode;
  }
  return static_cast<double>(n_decode) * (body + head) >= prefill_work;
}

// The prompts awaiting their first token whose whole rest fits one step, in running order, within
// the step's token budget.
std::vector<sequence*> engine::finishing_prompts() const {
  std::vector<sequence*> out;
  int budget = fwd_.max_tokens();
  for (auto& sp : running_) {
    const int64_t left = sp->prefill_target - sp->n_computed;
    if (!sp->awaits_first_token() || left > budget) continue;
    out.push_back(sp.get());
    budget -= static_cast<int>(left);
  }
  return out;
}

// ---- run ----

// Lays plan_ out as the forward pass's rows (batch_) and the rows that need logits (out_rows_),
// one logits group per sequence that samples this step (groups_). False when there is nothing to
// run.
bool engine::build_batch() {
  groups_.clear();
  batch_.clear();
  out_rows_.clear();
  for (auto& p : plan_.parts) {
    if (p.n_draft > 0) {
      // The input token and each draft token after it get a logit row.
      sequence& s = *p.s;
      batch_.push_back({s.tokens[p.from], static_cast<int32_t>(p.from), s.blocks.data()});
      for (int32_t j = 0; j < p.n_draft; ++j)
        batch_.push_back({s.draft.at(j), static_cast<int32_t>(p.from + 1 + j), s.blocks.data()});
      groups_.push_back({p.s, static_cast<int>(out_rows_.size()), p.n_draft});
      for (int64_t i = 0; i <= p.n_draft; ++i)
        out_rows_.push_back(static_cast<int32_t>(batch_.size() - 1 - p.n_draft + i));
      continue;
    }
    for (int64_t i = 0; i < p.n; ++i)
      batch_.push_back({p.s->tokens[p.from + i], static_cast<int32_t>(p.from + i), p.s->blocks.data()});
    if (p.logits) {
      groups_.push_back({p.s, static_cast<int>(out_rows_.size()), 0});
      out_rows_.push_back(static_cast<int32_t>(batch_.size() - 1));
    }
  }
  return !batch_.empty();
}

// ---- update ----

// Counts the pass's rows as computed and shares each prompt that just completed with the prefix
// cache. Draft rows are provisional: accept_rows rolls n_computed back to what was accepted.
void engine::advance_computed() {
  const int bs = kv_.block_size();
  for (auto& p : plan_.parts) {
    p.s->n_computed += p.n;
    if (!p.s->prefilling() && !p.s->prompt_inserted) {
      // Share the prompt's full blocks with concurrent and later requests right away.
      p.s->prompt_inserted = true;
      cache_.insert(p.s->tokens.data(), p.s->n_prompt / bs, p.s->path, p.s->blocks);
    }
  }
}

// Each sequence's first row (its grammar mask, then the sample) does not depend on the others:
// all of the step's are done together, spread over the pool. A softmax over a 150k vocabulary or
// a new grammar state's first mask, one sequence after another on this thread, would hold up
// every sequence of the step.
void engine::sample_first_rows() {
  first_.resize(groups_.size());
  pool_.parallel_for(static_cast<int>(groups_.size()), [&](int i, int thread) {
    const logits_group& g = groups_[static_cast<size_t>(i)];
    sequence& s = *g.s;
    const uint8_t* mask = s.constraint ? s.constraint->allowed() : nullptr;
    first_[static_cast<size_t>(i)] = s.smp.sample(fwd_.logits_mut(g.first_row), mask, scratch_[static_cast<size_t>(thread)]);
  });
}

// One sequence's tokens of this step: the first row's sample `first`, then, while each draft
// token was the greedy choice, the next draft row's. Emits a token event per accepted token, ends
// the sequence on a stop token, grammar end or length, and otherwise gives back the blocks of
// rejected draft positions and re-aligns the draft.
void engine::accept_rows(const logits_group& g, const sample_result& first, std::chrono::steady_clock::time_point step_end,
                         std::vector<std::unique_ptr<sequence>>& ended) {
  sequence& s = *g.s;
  s.decode_steps++;
  s.draft_proposed += g.n_draft;
  int32_t accepted = 0;
  int32_t last = -1;
  // Row j holds the logits after the input token and draft tokens 0..j-1; it is sampled only
  // while every earlier draft token was the greedy choice, so each sample sees exactly the
  // context (and sampler state) of plain decoding.
  for (int32_t j = 0; j <= g.n_draft; ++j) {
    // Draft rows (j > 0) come only without a grammar (speculates()).
    const sample_result r = j == 0 ? first : s.smp.sample(fwd_.logits_mut(g.first_row + j), nullptr, scratch_[0]);
    if (r.token < 0) {  // the constraint admits nothing: end here
      end_running(s, finish_reason::grammar_end, ended);
      return;
    }
    s.tokens.push_back(r.token);
    s.n_generated++;
    s.last_token_at = step_end;
    // KV is valid up to the input token of the row just sampled (rejected rows are dropped).
    s.n_computed = static_cast<int64_t>(s.tokens.size()) - 1;
    if (s.constraint) s.constraint->accept(r.token);
    emit_token(s, r);
    finish_reason why = finish_reason::none;
    if (std::find(s.stop.begin(), s.stop.end(), r.token) != s.stop.end()) why = finish_reason::stop;
    else if (s.constraint && s.constraint->finished()) why = finish_reason::grammar_end;
    else if (s.n_generated >= s.max_new || static_cast<int64_t>(s.tokens.size()) >= s.max_total)
      why = finish_reason::length;
    if (j < g.n_draft && r.token == s.draft.at(j)) {
      ++accepted;
      ++s.draft_accepted;  // before a finish below reports the counters
    }
    if (why != finish_reason::none) {
      end_running(s, why, ended);
      return;
    }
    last = r.token;
    if (j == accepted) break;  // a draft token was rejected (or none was left): the pass ends here
  }
  if (g.n_draft > 0) {
    // Give back blocks that only held rejected draft positions (keep the next decode position's).
    const int bs = kv_.block_size();
    const size_t keep = std::max(s.path.size(), static_cast<size_t>(ceil_div(s.n_computed + 1, bs)));
    while (s.blocks.size() > keep) {
      kv_.release(s.blocks.back());
      s.blocks.pop_back();
    }
  }
  if (!s.draft.empty())
    s.draft.advance(g.n_draft, accepted, last, s.tokens.data() + s.n_prompt, static_cast<int64_t>(s.tokens.size()) - s.n_prompt);
}

void engine::emit_token(sequence& s, const sample_result& r) {
  token_event ev;
  ev.seq = s.id;
  ev.token = r.token;
  ev.logprob = r.logprob;
  ev.n_top = r.n_top;
  std::memcpy(ev.top_ids, r.top_ids, sizeof(int32_t) * r.n_top);
  std::memcpy(ev.top_logprobs, r.top_logprobs, sizeof(float) * r.n_top);
  ev.prompt_tokens = static_cast<int32_t>(s.n_prompt);
  ev.cached_tokens = s.cached;
  emit(s, ev);
}

// Finishes a running sequence and moves it to `ended` (it lives until its events are delivered).
void engine::end_running(sequence& s, finish_reason why, std::vector<std::unique_ptr<sequence>>& ended) {
  finish(s, why, engine_status::ok);
  for (auto it = running_.begin(); it != running_.end(); ++it)
    if (it->get() == &s) {
      ended.push_back(std::move(*it));
      running_.erase(it);
      break;
    }
}

}  // namespace infer
