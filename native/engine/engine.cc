#include "engine/engine.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>

#include "backend/gpu_backend.h"
#include "engine/sequence.h"
#include "kernels/compute_thread.h"
#include "model/cpu_layout.h"

namespace infer {

namespace {

int64_t blocks_for_mb(const model_hparams& hp, int64_t mb, int bs) {
  const int64_t per_block = static_cast<int64_t>(kv_pool::bytes_per_token(hp.n_layer, hp.kv_dim())) * bs;
  return std::max<int64_t>(1, mb * 1024 * 1024 / per_block);
}

}  // namespace

engine::engine(std::shared_ptr<model> m, const engine_options& opts)
    : m_(std::move(m)),
      opts_(opts),
      n_ctx_(opts.n_ctx > 0 ? std::min(opts.n_ctx, m_->hp.n_ctx_train) : m_->hp.n_ctx_train),
      pool_(std::max(1, opts.threads), opts.compute_nice),
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
  // Served on the CPU: the CPU kernels' layouts (before the engine thread reads any weight).
  if (!fwd_.backend()) use_cpu_layouts(*m_, pool_);
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
  bool held;
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (stop_) throw engine_error(engine_status::disposed, "submit: engine disposed");
    id = next_id_++;
    s->id = id;
    s->submitted_at = std::chrono::steady_clock::now();
    // Under a hold only the first submit wakes the scheduler (which then sleeps until the release
    // or the hold's lapse); waking it per submit would only have it check the hold and sleep again,
    // a context switch per request that takes a core from the caller.
    held = submit_holds_ > 0 && !incoming_.empty();
    incoming_.push_back(std::move(s));
  }
  if (!held) cv_.notify_all();
  return id;
}

void engine::hold_submits() {
  std::lock_guard<std::mutex> lk(mu_);
  if (submit_holds_++ == 0) submit_hold_at_ = std::chrono::steady_clock::now();
}

void engine::release_submits() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (submit_holds_ == 0 || --submit_holds_ > 0) return;
  }
  cv_.notify_all();
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

void engine::loop() {
  mark_compute_thread(opts_.compute_nice);  // this thread runs every parallel_for's share of the caller
  std::vector<std::function<void()>*> jobs;
  std::vector<uint64_t> cancels;
  for (;;) {
    {
      std::unique_lock<std::mutex> lk(mu_);
      // Submits under a hold (hold_submits) wait for its release, or for kMaxSubmitHold.
      const auto held = [&] { return submit_holds_ > 0 && std::chrono::steady_clock::now() - submit_hold_at_ < kMaxSubmitHold; };
      for (;;) {
        const bool incoming = !incoming_.empty() && !held();
        if (stop_ || incoming || !cancels_.empty() || !jobs_.empty() || !running_.empty() ||
            !waiting_interactive_.empty() || !waiting_batch_.empty())
          break;
        if (!incoming_.empty()) cv_.wait_until(lk, submit_hold_at_ + kMaxSubmitHold);
        else cv_.wait(lk);
      }
      if (stop_ || !held()) {
        for (auto& s : incoming_) (s->batch_priority ? waiting_batch_ : waiting_interactive_).push_back(std::move(s));
        incoming_.clear();
      }
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
