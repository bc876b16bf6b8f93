#include "engine/engine.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>

#include "backend/gpu_backend.h"
#include "kernels/compute_thread.h"

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
};

namespace {

// An interactive prompt still prefilling (a preempted sequence that prefills again has tokens).
bool awaits_first_token(const sequence& s) { return s.prefilling() && s.n_generated == 0 && !s.batch_priority; }

int64_t blocks_for_mb(const model_hparams& hp, int64_t mb, int bs) {
  const int64_t per_block = static_cast<int64_t>(kv_pool::bytes_per_token(hp.n_layer, hp.kv_dim())) * bs;
  return std::max<int64_t>(1, mb * 1024 * 1024 / per_block);
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

engine::engine(std::shared_ptr<model> m, const engine_options& opts)
    : m_(std::move(m)),
      opts_(opts),
      n_ctx_(opts.n_ctx > 0 ? std::min(opts.n_ctx, m_->hp.n_ctx_train) : m_->hp.n_ctx_train),
      pool_(std::max(1, opts.threads)),
      kv_(m_->hp.n_layer, m_->hp.kv_dim(),
          opts.kv_blocks > 0 ? opts.kv_blocks : blocks_for_mb(m_->hp, opts.kv_cache_mb, opts.block_size),
          opts.block_size),
      cache_(kv_, opts.prefix_cache),
      fwd_(*m_, kv_, pool_, std::max(1, opts.max_batch_tokens), std::max(1, opts.max_seqs) + std::max(0, opts.spec_rows)) {
  scratch_.resize(static_cast<size_t>(pool_.size()));  // one per pool thread (step() samples in parallel)
  if (opts.gpu) {  // GPU backend hook: null (CPU path) without a usable GPU
    std::string why;
    fwd_.attach_backend(gpu_backend_create(*m_, kv_, fwd_.max_tokens(), fwd_.max_logits(), &why));
    if (!fwd_.backend() && gpu_available()) fprintf(stderr, "engine: GPU not used for %s: %s\n", m_->path.c_str(), why.c_str());
  }
  publish_stats();
  thread_ = std::thread([this] { loop(); });
}

engine::~engine() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

uint64_t engine::submit(std::shared_ptr<event_sink> sink, seq_request&& req) {
  const int64_t V = m_->hp.n_vocab;
  if (req.prompt.empty()) throw engine_error(engine_status::invalid_argument, "submit: empty prompt");
  for (int32_t t : req.prompt)
    if (t < 0 || t >= V) throw engine_error(engine_status::invalid_argument, "submit: token id out of range");
  if (req.max_tokens < 1) throw engine_error(engine_status::invalid_argument, "submit: max_tokens must be >= 1");
  const int64_t n = static_cast<int64_t>(req.prompt.size());
  if (static_cast<int64_t>(req.draft.size()) > n_ctx_)
    throw engine_error(engine_status::invalid_argument, "submit: the draft is longer than the context");
  for (int32_t t : req.draft)
    if (t < 0 || t >= V) throw engine_error(engine_status::invalid_argument, "submit: draft token id out of range");
  if (req.max_draft < 0 || req.max_draft > kMaxDraftPerStep)
    throw engine_error(engine_status::invalid_argument,
                       "submit: max_draft must be 0.." + std::to_string(kMaxDraftPerStep));
  if (n >= n_ctx_)
    throw engine_error(engine_status::context_length_exceeded,
                       "prompt has " + std::to_string(n) + " tokens; the context holds " + std::to_string(n_ctx_) +
                           " (including at least one generated token)");
  auto s = std::make_unique<sequence>(req.sampling, V);
  s->sink = std::move(sink);
  s->n_prompt = n;
  s->prefill_target = n;
  s->max_total = std::min<int64_t>(n_ctx_, n + req.max_tokens);
  s->max_new = req.max_tokens;
  s->tokens = std::move(req.prompt);
  s->tokens.reserve(s->max_total);
  s->stop = std::move(req.stop_tokens);
  for (int32_t e : m_->vocab.eos) s->stop.push_back(e);
  s->constraint = std::move(req.constraint);
  s->batch_priority = req.batch_priority;
  s->draft = draft_cursor(std::move(req.draft), req.max_draft);
  // The prompt alone must fit the pool; prompt + max_tokens is waited for, never refused.
  if (ceil_div(n + 1, kv_.block_size()) > kv_.n_blocks())
    throw engine_error(engine_status::overloaded, "prompt needs more KV memory than the whole cache holds");
  uint64_t id;
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (stop_) throw engine_error(engine_status::disposed, "submit: engine disposed");
    id = next_id_++;
    s->id = id;
    s->submitted_at = std::chrono::steady_clock::now();
    incoming_.push_back(std::move(s));
  }
  cv_.notify_all();
  return id;
}

void engine::cancel(uint64_t seq) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    cancels_.push_back(seq);
  }
  cv_.notify_all();
}

engine_stats engine::stats() const {
  std::lock_guard<std::mutex> lk(mu_);
  return stats_;
}

void engine::publish_stats() {
  engine_stats s;
  s.cache = cache_.stats();
  s.kv_blocks_total = kv_.n_blocks();
  s.kv_blocks_used = kv_.used_count() - cache_.reclaimable();
  s.running = static_cast<int64_t>(running_.size());
  s.steps = steps_;
  s.preemptions = preemptions_;
  s.step_seconds = step_seconds_;
  s.export_seconds = export_seconds_;
  s.export_tokens = export_tokens_;
  s.queue_time = queue_time_;
  s.on_gpu = fwd_.backend() != nullptr;
  std::lock_guard<std::mutex> lk(mu_);
  s.queued = static_cast<int64_t>(waiting_interactive_.size() + waiting_batch_.size() + incoming_.size());
  stats_ = s;
}

void engine::record_queue_time(sequence& s) {
  s.admitted_once = true;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - s.submitted_at).count();
  int b = 0;
  while (b < kQueueTimeBuckets && secs > kQueueTimeBounds[b]) ++b;
  queue_time_.counts[b]++;
  queue_time_.sum_s += secs;
}

int64_t engine::available_blocks() const { return kv_.free_count() + cache_.reclaimable() - reserved_; }

int32_t engine::alloc_block() {
  if (kv_.free_count() == 0) cache_.evict_one();
  const int32_t b = kv_.alloc();
  if (b < 0) throw engine_error(engine_status::overloaded, "KV cache exhausted");
  return b;
}

void engine::add_block(sequence& s) {
  s.blocks.push_back(alloc_block());
  if (s.reserve_left > 0) {
    s.reserve_left--;
    reserved_--;
  }
}

void engine::run_job(const std::function<void()>& fn) {
  std::mutex m;
  std::condition_variable c;
  bool done = false;
  std::exception_ptr ex;
  std::function<void()> job = [&] {
    try {
      fn();
    } catch (...) {
      ex = std::current_exception();
    }
    publish_stats();  // the caller may read stats as soon as it wakes (a job's steps included)
    std::lock_guard<std::mutex> lk(m);
    done = true;
    c.notify_all();
  };
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (stop_) throw engine_error(engine_status::disposed, "engine disposed");
    jobs_.push_back(&job);
  }
  cv_.notify_all();
  std::unique_lock<std::mutex> lk(m);
  c.wait(lk, [&] { return done; });
  if (ex) std::rethrow_exception(ex);
}

bool engine::admit(sequence& s) {
  const int bs = kv_.block_size();
  const bool resumed = s.n_generated > 0;
  // A fresh prompt leaves at least one token to compute (its logits start generation); a
  // preempted sequence may find all of its prefill in the cache.
  const int64_t max_prefix = resumed ? s.prefill_target / bs : (s.prefill_target - 1) / bs;
  const int64_t matched = cache_.acquire_prefix(s.tokens.data(), s.prefill_target, max_prefix, s.path, s.blocks, false);
  // Reserve the blocks the prefill needs plus the first decode position; later decode blocks
  // are taken on demand (and preempt the newest sequence when the pool runs dry).
  const int64_t need = ceil_div(s.prefill_target + 1, bs) - matched;
  if (need > available_blocks()) {
    cache_.release(s.path);
    s.blocks.clear();
    return false;
  }
  if (!resumed) {
    cache_.count_lookup(s.n_prompt, matched * bs);
    s.cached = static_cast<int32_t>(matched * bs);
    s.smp.prime(s.tokens.data(), s.n_prompt);
  }
  s.n_computed = matched * bs;
  s.reserve_left = need;
  reserved_ += need;
  s.admit_order = ++admit_counter_;
  return true;
}

void engine::release_kv(sequence& s, bool keep_in_cache) {
  const int bs = kv_.block_size();
  if (keep_in_cache) cache_.insert(s.tokens.data(), s.n_computed / bs, s.path, s.blocks);
  const size_t n_tree = s.path.size();
  cache_.release(s.path);
  for (size_t i = n_tree; i < s.blocks.size(); ++i) kv_.release(s.blocks[i]);
  s.blocks.clear();
  reserved_ -= s.reserve_left;
  s.reserve_left = 0;
}

void engine::preempt(sequence& s) {
  // Recompute-style preemption: the computed full blocks go to the prefix cache (so resuming is
  // mostly a cache hit unless they get evicted meanwhile) and the sequence re-queues at the front.
  release_kv(s, true);
  s.prefill_target = static_cast<int64_t>(s.tokens.size()) - 1;
  s.n_computed = 0;
  s.prompt_inserted = true;
  preemptions_++;
}

void engine::emit(sequence& s, const token_event& ev) {
  for (auto& [sink, evs] : by_sink_)
    if (sink == s.sink) {
      evs.push_back(ev);
      return;
    }
  by_sink_.emplace_back(s.sink, std::vector<token_event>{ev});
}

void engine::deliver_events() {
  for (auto& [sink, evs] : by_sink_)
    if (!evs.empty()) sink->deliver(std::move(evs));
  by_sink_.clear();
}

void engine::finish(sequence& s, finish_reason why, engine_status err) {
  release_kv(s, err == engine_status::ok);
  token_event ev;
  ev.seq = s.id;
  ev.finish = why;
  ev.error = err;
  ev.prompt_tokens = static_cast<int32_t>(s.n_prompt);
  ev.cached_tokens = s.cached;
  if (!s.draft.empty()) {
    ev.has_draft = true;
    ev.draft_proposed = static_cast<int32_t>(s.draft_proposed);
    ev.draft_accepted = static_cast<int32_t>(s.draft_accepted);
    ev.decode_steps = static_cast<int32_t>(s.decode_steps);
  }
  emit(s, ev);
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
    if (!awaits_first_token(*sp) || left > budget) continue;
    out.push_back(sp.get());
    budget -= static_cast<int>(left);
  }
  return out;
}

void engine::step(std::vector<std::unique_ptr<sequence>>& ended) {
  const int bs = kv_.block_size();
  prof_.begin();
  // 1. A decode position at a block boundary needs a new block. Beyond the reservations there may
  //    be none: then the newest sequence is preempted (running_ is in admission order).
  for (size_t i = 0; i < running_.size(); ++i) {
    sequence* s = running_[i].get();
    if (!s->decoding() || static_cast<int64_t>(s->blocks.size()) > s->n_computed / bs) continue;
    for (;;) {
      if (s->reserve_left > 0 || available_blocks() > 0) {
        add_block(*s);
        break;
      }
      if (running_.size() == 1) {  // alone and still no room: the pool cannot hold more
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
  // 2. Plan: one decode token per decoding sequence first (plus draft tokens to verify, from the
  //    budget the decode tokens leave), then prefill chunks round-robin.
  struct part {
    sequence* s;
    int64_t from;
    int64_t n;
    bool logits;
    int32_t n_draft;  // draft tokens after the input token (each with its own logit row)
  };
  std::vector<part> plan;
  int budget = fwd_.max_tokens();
  int n_decode = 0;
  for (auto& sp : running_)
    if (sp->decoding()) ++n_decode;
  const std::vector<sequence*> finishing = n_decode > 0 ? finishing_prompts() : std::vector<sequence*>{};
  const bool prefill_first = prefill_first_now(finishing);
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
  // Per sequence with logits: its first logit row and the draft tokens verified after it.
  struct out_group {
    sequence* s;
    int first_row;
    int32_t n_draft;
  };
  std::vector<out_group> groups;
  batch_.clear();
  out_rows_.clear();
  for (auto& p : plan) {
    if (p.n_draft > 0) {
      sequence& s = *p.s;
      batch_.push_back({s.tokens[p.from], static_cast<int32_t>(p.from), s.blocks.data()});
      for (int32_t j = 0; j < p.n_draft; ++j)
        batch_.push_back({s.draft.at(j), static_cast<int32_t>(p.from + 1 + j), s.blocks.data()});
      groups.push_back({p.s, static_cast<int>(out_rows_.size()), p.n_draft});
      for (int64_t i = 0; i <= p.n_draft; ++i)
        out_rows_.push_back(static_cast<int32_t>(batch_.size() - 1 - p.n_draft + i));
      continue;
    }
    for (int64_t i = 0; i < p.n; ++i)
      batch_.push_back({p.s->tokens[p.from + i], static_cast<int32_t>(p.from + i), p.s->blocks.data()});
    if (p.logits) {
      groups.push_back({p.s, static_cast<int>(out_rows_.size()), 0});
      out_rows_.push_back(static_cast<int32_t>(batch_.size() - 1));
    }
  }
  if (batch_.empty()) return;
  steps_++;
  prof_.mark(step_profile::plan);
  fwd_.run(batch_.data(), static_cast<int>(batch_.size()), out_rows_.data(), static_cast<int>(out_rows_.size()));
  prof_.mark(step_profile::forward);
  for (auto& p : plan) {
    // Draft rows are provisional: the sampling below rolls n_computed back to what was accepted.
    p.s->n_computed += p.n;
    if (!p.s->prefilling() && !p.s->prompt_inserted) {
      // Share the prompt's full blocks with concurrent and later requests right away.
      p.s->prompt_inserted = true;
      cache_.insert(p.s->tokens.data(), p.s->n_prompt / bs, p.s->path, p.s->blocks);
    }
  }
  auto end_seq = [&](sequence& s, finish_reason why) {
    finish(s, why, engine_status::ok);
    for (auto it = running_.begin(); it != running_.end(); ++it)
      if (it->get() == &s) {
        ended.push_back(std::move(*it));
        running_.erase(it);
        break;
      }
  };
  // Each sequence's first row (its grammar mask, then the sample) does not depend on the others:
  // all of the step's are done together, spread over the pool. A softmax over a 150k vocabulary
  // or a new grammar state's first mask, one sequence after another on this thread, would hold
  // up every sequence of the step.
  const auto step_end = std::chrono::steady_clock::now();
  first_.resize(groups.size());
  pool_.parallel_for(static_cast<int>(groups.size()), [&](int i, int thread) {
    const out_group& g = groups[static_cast<size_t>(i)];
    sequence& s = *g.s;
    const uint8_t* mask = s.constraint ? s.constraint->allowed() : nullptr;
    first_[static_cast<size_t>(i)] = s.smp.sample(fwd_.logits_mut(g.first_row), mask, scratch_[static_cast<size_t>(thread)]);
  });
  prof_.mark(step_profile::sample);
  const int prof_rows = static_cast<int>(batch_.size()), prof_seqs = static_cast<int>(groups.size());
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const out_group& g = groups[gi];
    sequence& s = *g.s;
    s.decode_steps++;
    s.draft_proposed += g.n_draft;
    bool ended_here = false;
    int32_t accepted = 0;
    int32_t last = -1;
    // Row j holds the logits after the input token and draft tokens 0..j-1; it is sampled only
    // while every earlier draft token was the greedy choice, so each sample sees exactly the
    // context (and sampler state) of plain decoding.
    for (int32_t j = 0; j <= g.n_draft; ++j) {
      // Draft rows (j > 0) come only without a grammar (speculates()).
      const sample_result r = j == 0 ? first_[gi] : s.smp.sample(fwd_.logits_mut(g.first_row + j), nullptr, scratch_[0]);
      if (r.token < 0) {  // the constraint admits nothing: end here
        end_seq(s, finish_reason::grammar_end);
        ended_here = true;
        break;
      }
      s.tokens.push_back(r.token);
      s.n_generated++;
      s.last_token_at = step_end;
      // KV is valid up to the input token of the row just sampled (rejected rows are dropped).
      s.n_computed = static_cast<int64_t>(s.tokens.size()) - 1;
      if (s.constraint) s.constraint->accept(r.token);
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
        end_seq(s, why);
        ended_here = true;
        break;
      }
      last = r.token;
      if (j == accepted) break;  // a draft token was rejected (or none was left): the pass ends here
    }
    if (ended_here) continue;
    if (g.n_draft > 0) {
      // Give back blocks that only held rejected draft positions (keep the next decode position's).
      const size_t keep = std::max(s.path.size(), static_cast<size_t>(ceil_div(s.n_computed + 1, bs)));
      while (s.blocks.size() > keep) {
        kv_.release(s.blocks.back());
        s.blocks.pop_back();
      }
    }
    if (!s.draft.empty())
      s.draft.advance(g.n_draft, accepted, last, s.tokens.data() + s.n_prompt, static_cast<int64_t>(s.tokens.size()) - s.n_prompt);
  }
  prof_.mark(step_profile::emit);
  prof_.end(prof_rows, prefill_first ? 0 : n_decode, prof_seqs);
}

void engine::loop() {
  mark_compute_thread();  // this thread runs every parallel_for's share of the caller
  std::vector<std::function<void()>*> jobs;
  std::vector<uint64_t> cancels;
  for (;;) {
    {
      std::unique_lock<std::mutex> lk(mu_);
      cv_.wait(lk, [&] {
        return stop_ || !incoming_.empty() || !cancels_.empty() || !jobs_.empty() || !running_.empty() ||
               !waiting_interactive_.empty() || !waiting_batch_.empty();
      });
      for (auto& s : incoming_) (s->batch_priority ? waiting_batch_ : waiting_interactive_).push_back(std::move(s));
      incoming_.clear();
      cancels.assign(cancels_.begin(), cancels_.end());
      cancels_.clear();
      jobs.assign(jobs_.begin(), jobs_.end());
      jobs_.clear();
      if (stop_ && jobs.empty()) break;
    }
    if (const int64_t ms = test_stall_ms_.exchange(0); ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    for (auto* job : jobs) (*job)();
    // Sequences that ended this iteration live until their events are delivered.
    std::vector<std::unique_ptr<sequence>> ended;
    for (uint64_t id : cancels) {
      auto drop = [&](auto& q) {
        for (auto it = q.begin(); it != q.end(); ++it)
          if ((*it)->id == id) {
            finish(**it, finish_reason::cancelled, engine_status::ok);
            ended.push_back(std::move(*it));
            q.erase(it);
            return true;
          }
        return false;
      };
      if (!drop(waiting_interactive_) && !drop(waiting_batch_)) drop(running_);
    }
    // Admission: FIFO, interactive first; the head waits (no overtaking) so big prompts are not starved.
    for (auto* q : {&waiting_interactive_, &waiting_batch_}) {
      while (!q->empty() && static_cast<int>(running_.size()) < opts_.max_seqs) {
        sequence& s = *q->front();
        if (admit(s)) {
          if (!s.admitted_once) record_queue_time(s);
          running_.push_back(std::move(q->front()));
          q->pop_front();
        } else if (running_.empty()) {
          // Nothing will free up. A preempted sequence keeps what it generated.
          if (s.n_generated > 0) finish(s, finish_reason::length, engine_status::ok);
          else finish(s, finish_reason::error, engine_status::overloaded);
          ended.push_back(std::move(q->front()));
          q->pop_front();
        } else {
          break;
        }
      }
    }
    if (!running_.empty()) {
      const uint64_t steps_before = steps_;
      const auto t0 = std::chrono::steady_clock::now();
      try {
        step(ended);
        if (steps_ != steps_before) {
          const double d = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          step_seconds_ = step_seconds_ > 0 ? 0.75 * step_seconds_ + 0.25 * d : d;
        }
      } catch (const std::exception&) {
        // A failed step must not take the process down: fail the running sequences instead.
        for (auto& s : running_) {
          finish(*s, finish_reason::error, engine_status::internal);
          ended.push_back(std::move(s));
        }
        running_.clear();
      }
    }
    publish_stats();
    deliver_events();
  }
  // Shutdown: fail whatever is left so no JS promise waits forever.
  std::vector<std::unique_ptr<sequence>> ended;
  for (auto* q : {&waiting_interactive_, &waiting_batch_})
    for (auto& s : *q) ended.push_back(std::move(s));
  for (auto& s : running_) ended.push_back(std::move(s));
  for (auto& s : ended) finish(*s, finish_reason::error, engine_status::disposed);
  deliver_events();
}

// ---- jobs run on the scheduler thread between steps ----

void engine::compute_private(const std::vector<int32_t>& tokens, int64_t from, int64_t to, std::vector<int32_t>& blocks,
                             const std::function<void(int64_t first_pos, int n)>& on_chunk) {
  const int bs = kv_.block_size();
  const int64_t need = ceil_div(to, bs) - static_cast<int64_t>(blocks.size());
  if (need > available_blocks()) throw engine_error(engine_status::overloaded, "KV cache too small for the request");
  while (static_cast<int64_t>(blocks.size()) < ceil_div(to, bs)) blocks.push_back(alloc_block());
  const int chunk = on_chunk ? std::min(fwd_.max_tokens(), fwd_.max_logits()) : fwd_.max_tokens();
  for (int64_t start = from; start < to; start += chunk) {
    const int n = static_cast<int>(std::min<int64_t>(chunk, to - start));
    batch_.clear();
    out_rows_.clear();
    for (int i = 0; i < n; ++i) {
      batch_.push_back({tokens[start + i], static_cast<int32_t>(start + i), blocks.data()});
      if (on_chunk) out_rows_.push_back(i);
    }
    fwd_.run(batch_.data(), n, out_rows_.data(), static_cast<int>(out_rows_.size()));
    if (on_chunk) on_chunk(start, n);
  }
}

eval_result engine::evaluate(const std::vector<int32_t>& tokens, int32_t top_k, const std::vector<int32_t>& positions,
                             bool all_logits) {
  const int64_t n = static_cast<int64_t>(tokens.size()), V = m_->hp.n_vocab;
  if (n == 0) throw engine_error(engine_status::invalid_argument, "evaluate: no tokens");
  if (n > n_ctx_) throw engine_error(engine_status::context_length_exceeded, "evaluate: more tokens than the context");
  for (int32_t t : tokens)
    if (t < 0 || t >= V) throw engine_error(engine_status::invalid_argument, "evaluate: token id out of range");
  top_k = std::max(0, std::min<int32_t>(top_k, static_cast<int32_t>(V)));
  eval_result r;
  r.n_tokens = n;
  r.top_k = top_k;
  r.top_ids.resize(static_cast<size_t>(n) * top_k);
  r.top_logits.resize(static_cast<size_t>(n) * top_k);
  if (all_logits) {
    for (int64_t i = 0; i < n; ++i) r.logit_positions.push_back(static_cast<int32_t>(i));
  } else {
    for (int32_t p : positions)
      if (p >= 0 && p < n) r.logit_positions.push_back(p);
  }
  r.logits.resize(r.logit_positions.size() * V);
  run_job([&] {
    std::vector<int32_t> blocks;
    std::vector<std::pair<float, int32_t>> top;
    try {
      compute_private(tokens, 0, n, blocks, [&](int64_t first, int cnt) {
        for (int i = 0; i < cnt; ++i) {
          const int64_t pos = first + i;
          const float* l = fwd_.logits(i);
          if (top_k > 0) {
            top.clear();
            for (int64_t v = 0; v < V; ++v) top.emplace_back(l[v], static_cast<int32_t>(v));
            std::partial_sort(top.begin(), top.begin() + top_k, top.end(), [](auto& a, auto& b) {
              return a.first > b.first || (a.first == b.first && a.second < b.second);
            });
            for (int32_t j = 0; j < top_k; ++j) {
              r.top_ids[pos * top_k + j] = top[j].second;
              r.top_logits[pos * top_k + j] = top[j].first;
            }
          }
          auto it = std::find(r.logit_positions.begin(), r.logit_positions.end(), static_cast<int32_t>(pos));
          if (it != r.logit_positions.end())
            std::memcpy(r.logits.data() + (it - r.logit_positions.begin()) * V, l, sizeof(float) * V);
        }
      });
    } catch (...) {
      for (int32_t b : blocks) kv_.release(b);
      throw;
    }
    for (int32_t b : blocks) kv_.release(b);
  });
  return r;
}

int64_t engine::cached_prefix_tokens(const std::vector<int32_t>& tokens) {
  return cache_.peek(tokens.data(), static_cast<int64_t>(tokens.size()));
}

std::vector<std::vector<uint16_t>> engine::export_kv(const std::vector<int32_t>& tokens, int64_t from_block,
                                                     int64_t max_compute) {
  const int bs = kv_.block_size();
  const int64_t n_full = static_cast<int64_t>(tokens.size()) / bs;
  for (int32_t t : tokens)
    if (t < 0 || t >= m_->hp.n_vocab) throw engine_error(engine_status::invalid_argument, "exportKv: token id out of range");
  if (static_cast<int64_t>(tokens.size()) > n_ctx_)
    throw engine_error(engine_status::context_length_exceeded, "exportKv: more tokens than the context");
  std::vector<std::vector<uint16_t>> out;
  if (from_block >= n_full) return out;
  run_job([&] {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<prefix_node*> path;
    std::vector<int32_t> blocks;
    const int64_t matched = cache_.acquire_prefix(tokens.data(), n_full * bs, n_full, path, blocks, false);
    int64_t done = matched * bs;  // tokens whose KV `blocks` holds
    int64_t target = n_full * bs;
    const bool paced = max_compute >= 0 && cache_.enabled() && matched < n_full;
    if (paced) {
      // Resume a block an earlier call over the same tokens computed in part.
      for (auto it = partial_exports_.begin(); it != partial_exports_.end(); ++it) {
        if (it->block_start != done || it->tokens.size() > tokens.size() ||
            !std::equal(it->tokens.begin(), it->tokens.end(), tokens.begin()))
          continue;
        blocks.push_back(it->block);
        done = static_cast<int64_t>(it->tokens.size());
        partial_exports_.erase(it);
        break;
      }
      target = std::min(target, done + std::max<int64_t>(1, max_compute));
    }
    const int64_t computed_from = done;
    const int64_t full = target / bs;  // full blocks once this job is done
    try {
      if (done < target) compute_private(tokens, done, target, blocks, nullptr);
    } catch (...) {
      for (size_t i = path.size(); i < blocks.size(); ++i) kv_.release(blocks[i]);
      cache_.release(path);
      throw;
    }
    cache_.insert(tokens.data(), full, path, blocks);
    const size_t be = kv_.block_elems();
    for (int64_t b = from_block; b < full; ++b) {
      std::vector<uint16_t> data(2 * kv_.n_layer() * be);
      fwd_.kv_to_host(blocks[b]);  // GPU backend hook
      for (int64_t l = 0; l < kv_.n_layer(); ++l) {
        std::memcpy(data.data() + (2 * l) * be, kv_.k(l, blocks[b], 0), be * sizeof(uint16_t));
        std::memcpy(data.data() + (2 * l + 1) * be, kv_.v(l, blocks[b], 0), be * sizeof(uint16_t));
      }
      out.push_back(std::move(data));
    }
    const size_t n_tree = path.size();
    cache_.release(path);
    size_t keep = blocks.size();  // index of a block kept for the next call, if any
    if (paced && target % bs != 0 && static_cast<int64_t>(n_tree) == full) {
      keep = static_cast<size_t>(full);
      if (partial_exports_.size() >= kMaxPartialExports) {
        kv_.release(partial_exports_.front().block);
        partial_exports_.pop_front();
      }
      partial_exports_.push_back({std::vector<int32_t>(tokens.begin(), tokens.begin() + target), full * bs, blocks[keep]});
    }
    for (size_t i = n_tree; i < blocks.size(); ++i)
      if (i != keep) kv_.release(blocks[i]);  // cache disabled, or a part block not kept
    export_tokens_ = target - computed_from;
    export_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  });
  return out;
}

int64_t engine::import_kv(const std::vector<int32_t>& tokens, int64_t first_block,
                          const std::vector<const uint16_t*>& data) {
  const int bs = kv_.block_size();
  const int64_t n_full = std::min<int64_t>(static_cast<int64_t>(tokens.size()) / bs,
                                           first_block + static_cast<int64_t>(data.size()));
  for (int32_t t : tokens)
    if (t < 0 || t >= m_->hp.n_vocab) throw engine_error(engine_status::invalid_argument, "importKv: token id out of range");
  int64_t out = 0;
  run_job([&] {
    if (!cache_.enabled()) return;
    std::vector<prefix_node*> path;
    std::vector<int32_t> blocks;
    const int64_t matched = cache_.acquire_prefix(tokens.data(), n_full * bs, n_full, path, blocks, false);
    if (matched < first_block) {  // the blocks do not continue a cached prefix
      out = matched * bs;
      cache_.release(path);
      return;
    }
    const size_t be = kv_.block_elems();
    for (int64_t b = matched; b < n_full; ++b) {
      if (available_blocks() <= 0) break;
      const int32_t blk = alloc_block();
      const uint16_t* src = data[b - first_block];
      for (int64_t l = 0; l < kv_.n_layer(); ++l) {
        std::memcpy(kv_.k(l, blk, 0), src + (2 * l) * be, be * sizeof(uint16_t));
        std::memcpy(kv_.v(l, blk, 0), src + (2 * l + 1) * be, be * sizeof(uint16_t));
      }
      fwd_.kv_to_device(blk);  // GPU backend hook
      blocks.push_back(blk);
    }
    cache_.insert(tokens.data(), static_cast<int64_t>(blocks.size()), path, blocks);
    out = static_cast<int64_t>(path.size()) * bs;
    cache_.release(path);
  });
  return out;
}

std::vector<float> engine::embed(const std::vector<std::vector<int32_t>>& inputs, pooling_kind pooling) {
  const int64_t V = m_->hp.n_vocab, d = m_->hp.n_embd;
  for (const auto& in : inputs) {
    if (in.empty()) throw engine_error(engine_status::invalid_argument, "embed: an input has no tokens");
    if (static_cast<int64_t>(in.size()) > n_ctx_)
      throw engine_error(engine_status::context_length_exceeded,
                         "embed: an input has " + std::to_string(in.size()) + " tokens; the context holds " + std::to_string(n_ctx_));
    for (int32_t t : in)
      if (t < 0 || t >= V) throw engine_error(engine_status::invalid_argument, "embed: token id out of range");
  }
  std::vector<float> out(inputs.size() * static_cast<size_t>(d), 0.0f);
  run_job([&] {
    const int bs = kv_.block_size();
    const int chunk = std::min(fwd_.max_tokens(), fwd_.max_hidden_rows());
    std::vector<std::vector<int32_t>> blocks;
    std::vector<size_t> row_input;  // per output row of the pass being packed: its input
    struct hidden_mode {
      forward_pass& f;
      explicit hidden_mode(forward_pass& fp) : f(fp) { f.set_hidden_output(true); }
      ~hidden_mode() { f.set_hidden_output(false); }
    } mode(fwd_);
    // batch_ / out_rows_ may still hold the last pass of another job (compute_private leaves them).
    batch_.clear();
    out_rows_.clear();
    auto release = [&] {
      for (auto& b : blocks)
        for (int32_t blk : b) kv_.release(blk);
      blocks.clear();
    };
    auto run_pass = [&] {
      if (batch_.empty()) return;
      fwd_.run(batch_.data(), static_cast<int>(batch_.size()), out_rows_.data(), static_cast<int>(out_rows_.size()));
      steps_++;
      for (size_t k = 0; k < out_rows_.size(); ++k) {
        const float* h = fwd_.hidden(static_cast<int>(k));
        float* o = out.data() + row_input[k] * d;
        for (int64_t i = 0; i < d; ++i) o[i] += h[i];
      }
      batch_.clear();
      out_rows_.clear();
      row_input.clear();
    };
    try {
      size_t next = 0;
      while (next < inputs.size()) {
        // As many inputs as the free KV blocks hold; each gets private blocks for its positions.
        const int64_t avail = available_blocks();
        int64_t need = 0;
        size_t end = next;
        while (end < inputs.size()) {
          const int64_t b = ceil_div(static_cast<int64_t>(inputs[end].size()), bs);
          if (need + b > avail) break;
          need += b;
          ++end;
        }
        if (end == next) throw engine_error(engine_status::overloaded, "embed: KV cache too small for the input");
        for (size_t i = next; i < end; ++i) {
          blocks.emplace_back();
          for (int64_t b = 0; b < ceil_div(static_cast<int64_t>(inputs[i].size()), bs); ++b) blocks.back().push_back(alloc_block());
        }
        for (size_t i = next; i < end; ++i) {
          const auto& in = inputs[i];
          const int64_t n = static_cast<int64_t>(in.size());
          const int32_t* table = blocks[i - next].data();
          for (int64_t p = 0; p < n; ++p) {
            const bool wanted = pooling == pooling_kind::mean || (pooling == pooling_kind::cls && p == 0) ||
                                (pooling == pooling_kind::last && p == n - 1);
            if (wanted) {
              out_rows_.push_back(static_cast<int32_t>(batch_.size()));
              row_input.push_back(i);
            }
            batch_.push_back({in[p], static_cast<int32_t>(p), table});
            if (static_cast<int>(batch_.size()) == chunk) run_pass();
          }
        }
        run_pass();
        release();
        next = end;
      }
    } catch (...) {
      batch_.clear();
      out_rows_.clear();
      release();
      throw;
    }
    if (pooling == pooling_kind::mean)
      for (size_t i = 0; i < inputs.size(); ++i) {
        const float inv = 1.0f / static_cast<float>(inputs[i].size());
        for (int64_t j = 0; j < d; ++j) out[i * d + j] *= inv;
      }
  });
  return out;
}

}  // namespace infer
