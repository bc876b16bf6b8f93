// The serving engine of one loaded model: a paged KV pool, the radix prefix cache, and ONE
// scheduler thread that runs every live sequence together (continuous batching): each step packs
// one decode token per running sequence plus chunks of pending prompts (round-robin) under a
// per-step token budget, runs one forward pass, samples, and hands each event sink its events of
// that step in one call.
//
// Thread-safety: submit/cancel/stats/run_job may be called from any thread. Everything else
// (pool, cache, forward scratch, sequences) belongs to the scheduler thread.
//
// Admission: a sequence reserves the blocks its prompt needs (plus the first decode position)
// when it starts; decode blocks are taken on demand. When the pool runs dry mid-decode, the
// newest sequence is preempted: its computed blocks go to the prefix cache and it re-queues at
// the front, resuming later from the cache (recompute only what was evicted meanwhile).
// Sequences that do not fit wait in the queue (interactive before batch) until others finish;
// one that could not fit even in an idle engine fails with engine_status::overloaded; a lone
// sequence that outgrows the whole pool ends with finish_reason::length.
//
// Speculative decoding with a given draft (seq_request::draft; greedy, unconstrained sequences):
// a decode step feeds the next input token plus up to max_draft draft tokens as extra rows of the
// same forward pass, samples every row in order and keeps the longest prefix where the greedy
// choice equals the draft, plus the model's own token at the first mismatch. Output is exactly
// plain greedy decoding's; KV of rejected rows is dropped by rolling the sequence back (those
// slots are overwritten later). After a mismatch the draft is re-aligned by looking the last
// generated tokens up in it near where the output should be (engine/draft_cursor.h); until that
// succeeds the sequence decodes plainly.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "engine/abi.h"
#include "engine/draft_cursor.h"
#include "engine/step_profile.h"
#include "kernels/thread_pool.h"
#include "kv/kv_pool.h"
#include "kv/prefix_cache.h"
#include "model/forward.h"
#include "model/model.h"
#include "sample/sampler.h"

namespace infer {

// Per-sequence token constraint (grammar). allowed() is called before each sample; accept() after.
class token_constraint {
 public:
  virtual ~token_constraint() = default;
  // Per-token 0/1 mask of n_vocab entries, valid until the next call. Called on any of the
  // engine's compute threads, several sequences' constraints at once (one thread each): state
  // shared between constraints must be thread-safe.
  virtual const uint8_t* allowed() = 0;
  virtual void accept(int32_t token) = 0;
  // True when the constraint admits nothing more (generation ends with grammar_end).
  virtual bool finished() const = 0;
};

struct token_event {
  uint64_t seq = 0;
  int32_t token = -1;  // -1: no token in this event (a pure finish/error event)
  float logprob = 0.0f;
  finish_reason finish = finish_reason::none;
  engine_status error = engine_status::ok;
  int32_t prompt_tokens = 0;
  int32_t cached_tokens = 0;
  int32_t n_top = 0;
  int32_t top_ids[kMaxTopLogprobs];
  float top_logprobs[kMaxTopLogprobs];
  // Finish events of a sequence submitted with a draft: draft tokens proposed for verification,
  // how many of them were accepted, and the forward passes that produced its tokens.
  bool has_draft = false;
  int32_t draft_proposed = 0;
  int32_t draft_accepted = 0;
  int32_t decode_steps = 0;
};

// Receives the events of one step for the sequences it submitted (called on the scheduler
// thread; must not block for long).
class event_sink {
 public:
  virtual ~event_sink() = default;
  virtual void deliver(std::vector<token_event>&& events) = 0;
};

struct seq_request {
  std::vector<int32_t> prompt;
  int32_t max_tokens = 256;
  sampling_params sampling;
  std::vector<int32_t> stop_tokens;
  bool batch_priority = false;
  std::unique_ptr<token_constraint> constraint;
  // Expected output for speculative decoding (used only when sampling is greedy and there is no
  // constraint; otherwise ignored). At most n_ctx tokens.
  std::vector<int32_t> draft;
  int32_t max_draft = 16;  // draft tokens verified per step, 0..kMaxDraftPerStep
};

constexpr int32_t kMaxDraftPerStep = 64;
// Blocks computed in part by paced exports that an engine keeps for the next call (engine::export_kv).
constexpr size_t kMaxPartialExports = 4;

struct engine_options {
  int threads = 1;
  int64_t kv_blocks = 0;        // 0: derived from kv_cache_mb
  int64_t kv_cache_mb = 256;
  int block_size = 16;
  bool prefix_cache = true;
  int max_batch_tokens = 512;   // tokens per forward pass (chunked prefill budget)
  int max_seqs = 64;            // running sequences at once
  int64_t n_ctx = 0;            // 0: the model's context_length
  bool gpu = true;              // run the forward pass on the GPU when one is usable (else the CPU)
  int spec_rows = 32;           // logit rows per step for draft verification, beyond max_seqs
  // Prefill first: a step that can finish interactive prompts runs them without the decoding
  // sequences (their first tokens do not wait for every other stream's next token) when that at
  // least halves the step's work and no decoding sequence has waited this long for its next
  // token; 0 always mixes decodes in (see engine::prefill_first_now).
  int decode_stall_us = 50000;
  // Nice increment of the engine's own threads (its loop and the pool's workers), 0..19: the event
  // loop and the rest of the process get the CPU first when they contend with the matmuls
  // (mark_compute_thread). Per engine; the process's other threads keep their priority.
  int compute_nice = 0;
};

// Queue time (submit until first admitted to run) histogram bounds, seconds; one more bucket past
// the last bound.
constexpr int kQueueTimeBuckets = 15;
constexpr double kQueueTimeBounds[kQueueTimeBuckets] = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                                        1, 2.5, 5, 10, 30, 60, 120};
struct queue_time_histogram {
  uint64_t counts[kQueueTimeBuckets + 1] = {};
  double sum_s = 0;
};

struct engine_stats {
  prefix_cache_stats cache;
  int64_t kv_blocks_total = 0;
  int64_t kv_blocks_used = 0;  // held by live sequences (cached-but-unreferenced blocks excluded)
  int64_t running = 0;
  int64_t queued = 0;
  uint64_t steps = 0;
  uint64_t preemptions = 0;
  queue_time_histogram queue_time;
  bool on_gpu = false;  // the forward pass runs on the GPU (native/backend)
  // Pacing of KV exports between steps (src/predict/kv-export.ts): a moving average of recent
  // scheduler step durations, and the compute time of the latest export_kv job.
  double step_seconds = 0;
  double export_seconds = 0;
  int64_t export_tokens = 0;  // tokens the latest export_kv job computed
};

struct eval_result {
  int64_t n_tokens = 0;
  int32_t top_k = 0;
  std::vector<int32_t> top_ids;  // [n_tokens][top_k]
  std::vector<float> top_logits;
  std::vector<int32_t> logit_positions;
  std::vector<float> logits;  // [logit_positions.size()][n_vocab]
};

// How embed() turns an input's final hidden states into one vector (GGUF <arch>.pooling_type).
enum class pooling_kind : int32_t { mean = 1, cls = 2, last = 3 };

struct sequence;

class engine {
 public:
  engine(std::shared_ptr<model> m, const engine_options& opts);
  ~engine();
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  const model& mdl() const { return *m_; }
  const engine_options& options() const { return opts_; }
  int64_t n_ctx() const { return n_ctx_; }

  // Queues a sequence; returns its id. Throws engine_error for a prompt that can never run.
  uint64_t submit(std::shared_ptr<event_sink> sink, seq_request&& req);
  // Finishes the sequence at the next step boundary (KV freed then); unknown ids are ignored.
  void cancel(uint64_t seq);
  // Submits made between hold_submits() and the matching release_submits() reach the scheduler
  // together: it admits none of them before the release (it keeps stepping what already runs), so a
  // burst submitted one request at a time starts in one step instead of the first few in a step of
  // their own and the rest one step later. Holds nest (a count); one older than kMaxSubmitHold is
  // ignored, so a caller that never releases delays its submits by that much, never for good. The
  // JS side releases at the end of its turn, a few ms for a 64-request burst; the lapse is longer
  // so that a loop preempted mid-burst on a busy machine does not split it anyway.
  void hold_submits();
  void release_submits();
  static constexpr std::chrono::milliseconds kMaxSubmitHold{20};
  engine_stats stats() const;

  // Teacher forcing: logits of every position of `tokens` (top_k per position; full logits at
  // the listed positions, or at all positions when all_logits). Runs on the scheduler thread.
  eval_result evaluate(const std::vector<int32_t>& tokens, int32_t top_k, const std::vector<int32_t>& positions,
                       bool all_logits);
  // Tokens at the start of `tokens` whose KV the prefix cache holds (block-aligned).
  int64_t cached_prefix_tokens(const std::vector<int32_t>& tokens);
  // Computes (reusing the cache) and returns full blocks [from_block, n/bs) of `tokens`, each
  // block as [layer][k then v][slot][kv_dim] fp16. With max_compute >= 0 (and the prefix cache
  // on), computes at most max(1, max_compute) uncached tokens and returns the full blocks from
  // from_block up to where it got; a block computed in part is kept for the next call over the
  // same tokens (a few such blocks, least recently used first out), so a long export can advance
  // a few tokens per scheduler job.
  std::vector<std::vector<uint16_t>> export_kv(const std::vector<int32_t>& tokens, int64_t from_block,
                                               int64_t max_compute = -1);
  // Inserts blocks starting at block index `first_block`, which must continue a cached prefix;
  // returns the tokens of `tokens` cached afterwards.
  int64_t import_kv(const std::vector<int32_t>& tokens, int64_t first_block,
                    const std::vector<const uint16_t*>& blocks);
  // Pooled final-normed hidden states, [inputs][n_embd] (not normalised). The inputs share
  // forward passes of up to max_batch_tokens tokens, on the scheduler thread between steps (each
  // pass counts as a step). No prefix-cache use.
  std::vector<float> embed(const std::vector<std::vector<int32_t>>& inputs, pooling_kind pooling);
  // Test hook: the scheduler's next wake-up with work sleeps this long first (a stuck scheduler).
  void stall_for_test(int64_t ms) { test_stall_ms_.store(ms); }

 private:
  void loop();
  void run_job(const std::function<void()>& fn);
  bool admit(sequence& s);
  int32_t alloc_block();
  // Appends a block to s, taken out of its reservation while one is left.
  void add_block(sequence& s);
  void finish(sequence& s, finish_reason why, engine_status err);
  void release_kv(sequence& s, bool keep_in_cache);
  void preempt(sequence& s);
  void record_queue_time(sequence& s);
  void emit(sequence& s, const token_event& ev);
  void deliver_events();
  void publish_stats();
  int64_t available_blocks() const;

  // One scheduler step (engine/step.cc): schedule, run, update. Sequences that end during it
  // move to `ended`.
  void step(std::vector<std::unique_ptr<sequence>>& ended);
  // Schedule: the rows of the step.
  void make_decode_room(std::vector<std::unique_ptr<sequence>>& ended);
  void schedule();
  int32_t plan_draft(sequence& s, int32_t room);
  std::vector<sequence*> finishing_prompts() const;
  bool prefill_first_now(const std::vector<sequence*>& finishing) const;
  // Run: the plan laid out as one forward pass.
  bool build_batch();
  // Update: sample, accept, advance, finish, emit.
  struct logits_group;
  void advance_computed();
  void sample_first_rows();
  void accept_rows(const logits_group& g, const sample_result& first, std::chrono::steady_clock::time_point step_end,
                   std::vector<std::unique_ptr<sequence>>& ended);
  void emit_token(sequence& s, const sample_result& r);
  void end_running(sequence& s, finish_reason why, std::vector<std::unique_ptr<sequence>>& ended);
  void compute_private(const std::vector<int32_t>& tokens, int64_t from, int64_t to, std::vector<int32_t>& blocks,
                       const std::function<void(int64_t first_pos, int n)>& on_chunk);

  std::shared_ptr<model> m_;
  engine_options opts_;
  int64_t n_ctx_;
  thread_pool pool_;
  kv_pool kv_;
  prefix_cache cache_;
  forward_pass fwd_;
  std::vector<sampler_scratch> scratch_;  // per pool thread

  // Shared with other threads (mu_).
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  uint64_t next_id_ = 1;
  std::deque<std::unique_ptr<sequence>> incoming_;
  int submit_holds_ = 0;                                 // hold_submits() not yet released
  std::chrono::steady_clock::time_point submit_hold_at_;  // when the count left 0
  std::vector<uint64_t> cancels_;
  std::deque<std::function<void()>*> jobs_;
  engine_stats stats_;

  // Scheduler-thread state.
  std::deque<std::unique_ptr<sequence>> waiting_interactive_, waiting_batch_;
  std::vector<std::unique_ptr<sequence>> running_;
  int64_t reserved_ = 0;  // blocks promised to running sequences and not yet allocated
  size_t rr_ = 0;         // round-robin start for prefill chunks
  uint64_t admit_counter_ = 0;
  uint64_t preemptions_ = 0;
  uint64_t steps_ = 0;
  double step_seconds_ = 0;    // exponential moving average of step() durations
  double export_seconds_ = 0;  // the latest export_kv job
  int64_t export_tokens_ = 0;
  // Blocks an export computed in part (export_kv with max_compute): the tokens up to where the
  // block's KV is computed, the block's first position and the block.
  struct partial_export {
    std::vector<int32_t> tokens;
    int64_t block_start;
    int32_t block;
  };
  std::deque<partial_export> partial_exports_;
  queue_time_histogram queue_time_;
  // The current step (kept between steps only to reuse their memory).
  struct step_part {  // rows of one sequence in the step's forward pass
    sequence* s;
    int64_t from;      // position of the first row
    int64_t n;         // rows
    bool logits;       // its last row is sampled (with drafts: every row)
    int32_t n_draft;   // draft tokens after the input token (each with its own logit row)
  };
  struct step_plan {
    std::vector<step_part> parts;  // decodes first, then prefill chunks
    int n_decode = 0;              // decoding sequences (run unless prefill_first)
    bool prefill_first = false;    // prefill_first_now(): only finishing prompts run
  };
  struct logits_group {  // one sequence that samples this step: its first logit row and drafts
    sequence* s;
    int first_row;
    int32_t n_draft;
  };
  step_plan plan_;
  std::vector<logits_group> groups_;
  std::vector<fwd_token> batch_;
  std::vector<int32_t> out_rows_;
  std::vector<sample_result> first_;  // per logits group of a step: the sample of its first row
  // Events of the current step grouped by sink (one sink per JS environment: a short list).
  std::vector<std::pair<std::shared_ptr<event_sink>, std::vector<token_event>>> by_sink_;

  std::atomic<int64_t> test_stall_ms_{0};
  step_profile prof_;  // INFER_STEP_PROFILE

  std::thread thread_;
};

class engine_error : public std::runtime_error {
 public:
  engine_error(engine_status s, const std::string& msg) : std::runtime_error(msg), status(s) {}
  engine_status status;
};

}  // namespace infer
