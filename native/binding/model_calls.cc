// Model calls: load (shared per path through the registry), unload, metadata, shape and stats,
// grammar precompilation, the build's CUDA facts, and a scheduler stall hook for tests.
#include "backend/gpu_backend.h"
#include "binding/binding_calls.h"
#include "binding/gguf_to_js.h"
#include "binding/promise_worker.h"
#include "kernels/compute_thread.h"
#include "grammar/engine_constraint.h"

namespace infer::binding {

namespace {

class load_worker : public promise_worker {
 public:
  load_worker(Napi::Env env, std::string path, engine_options opts)
      : promise_worker(env, "loadModel"), path_(std::move(path)), opts_(opts) {}
  void run() override { e_ = registry_acquire(path_, opts_); }
  Napi::Value result(Napi::Env env) override {
    return Napi::External<model_handle>::New(env, new model_handle{e_}, [](Napi::Env, model_handle* h) { delete h; });
  }

 private:
  std::string path_;
  engine_options opts_;
  std::shared_ptr<loaded_model> e_;
};

// Compiles a JSON-schema grammar on the thread pool: the result (or the refusal) is memoized by
// the schema's text, so the submit() that follows finds it instead of compiling on the event loop.
class grammar_worker : public promise_worker {
 public:
  grammar_worker(Napi::Env env, std::string schema) : promise_worker(env, "compileGrammar"), schema_(std::move(schema)) {}
  void run() override {
    std::string err;
    if (!compile_json_schema(schema_, &err)) throw engine_error(engine_status::invalid_argument, "grammar: " + err);
  }
  Napi::Value result(Napi::Env env) override { return env.Undefined(); }

 private:
  std::string schema_;
};

}  // namespace

Napi::Value compile_grammar(const Napi::CallbackInfo& info) {
  if (info.Length() < 1 || !info[0].IsString())
    throw_error(info.Env(), "compileGrammar", engine_status::invalid_argument, "expected the JSON schema text");
  return queue(new grammar_worker(info.Env(), info[0].As<Napi::String>().Utf8Value()));
}

Napi::Value load_model(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString())
    throw_error(env, "loadModel", engine_status::invalid_argument, "expected a path");
  engine_options o;
  if (info.Length() > 1 && info[1].IsObject()) {
    Napi::Object js = info[1].As<Napi::Object>();
    o.threads = static_cast<int>(num_opt(js, "threads", o.threads));
    o.kv_cache_mb = static_cast<int64_t>(num_opt(js, "kvCacheMb", static_cast<double>(o.kv_cache_mb)));
    o.kv_blocks = static_cast<int64_t>(num_opt(js, "kvBlocks", 0));
    o.block_size = static_cast<int>(num_opt(js, "blockTokens", o.block_size));
    o.prefix_cache = bool_opt(js, "prefixCache", true);
    o.max_batch_tokens = static_cast<int>(num_opt(js, "maxBatchTokens", o.max_batch_tokens));
    o.max_seqs = static_cast<int>(num_opt(js, "maxSequences", o.max_seqs));
    o.n_ctx = static_cast<int64_t>(num_opt(js, "contextLength", 0));
    o.decode_stall_us = static_cast<int>(num_opt(js, "decodeStallMs", o.decode_stall_us / 1000.0) * 1000.0);
    o.compute_nice = static_cast<int>(num_opt(js, "engineNice", o.compute_nice));
    // gpu: 'auto' (default: the GPU when one is usable) | 'off'.
    Napi::Value g = js.Get("gpu");
    if (g.IsString()) {
      const std::string gs = g.As<Napi::String>().Utf8Value();
      if (gs != "auto" && gs != "off")
        throw_error(env, "loadModel", engine_status::invalid_argument, "gpu must be 'auto' or 'off'");
      o.gpu = gs == "auto";
    } else if (!g.IsUndefined() && !g.IsNull()) {
      throw_error(env, "loadModel", engine_status::invalid_argument, "gpu must be 'auto' or 'off'");
    }
  }
  if (o.threads < 1 || o.threads > 256 || o.block_size < 1 || o.block_size > 1024 || o.max_batch_tokens < 1 ||
      o.max_seqs < 1 || o.kv_cache_mb < 1 || o.decode_stall_us < 0 || o.decode_stall_us > 60000000 ||
      o.compute_nice < 0 || o.compute_nice > kMaxComputeNice)
    throw_error(env, "loadModel", engine_status::invalid_argument, "option out of range");
  return queue(new load_worker(env, info[0].As<Napi::String>().Utf8Value(), o));
}

Napi::Value unload_model(const Napi::CallbackInfo& info) {
  if (info.Length() > 0 && info[0].IsExternal()) info[0].As<Napi::External<model_handle>>().Data()->e.reset();
  return info.Env().Undefined();
}

Napi::Value model_metadata(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  model_handle& h = model_arg(info, 0, "modelMetadata");
  Napi::Object out = Napi::Object::New(env);
  for (const auto& [k, v] : h.e->m->file->metadata()) out.Set(std::string(k), gguf_to_js(env, v));
  return out;
}

Napi::Value model_info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  model_handle& h = model_arg(info, 0, "modelInfo");
  const model& m = *h.e->m;
  const engine& eng = *h.e->eng;
  Napi::Object o = Napi::Object::New(env);
  o.Set("path", h.e->key);
  o.Set("architecture", m.hp.arch);
  o.Set("contextLength", static_cast<double>(eng.n_ctx()));
  o.Set("trainContextLength", static_cast<double>(m.hp.n_ctx_train));
  o.Set("vocabSize", static_cast<double>(m.hp.n_vocab));
  o.Set("embeddingLength", static_cast<double>(m.hp.n_embd));
  o.Set("layers", static_cast<double>(m.hp.n_layer));
  o.Set("heads", static_cast<double>(m.hp.n_head));
  o.Set("kvHeads", static_cast<double>(m.hp.n_head_kv));
  o.Set("headDim", static_cast<double>(m.hp.head_dim));
  o.Set("feedForwardLength", static_cast<double>(m.hp.n_ff));
  o.Set("tiedOutput", m.w.tied_output);
  o.Set("bosToken", m.vocab.bos >= 0 ? Napi::Value(Napi::Number::New(env, m.vocab.bos)) : env.Null());
  Napi::Array eos = Napi::Array::New(env, m.vocab.eos.size());
  for (size_t i = 0; i < m.vocab.eos.size(); ++i) eos.Set(i, m.vocab.eos[i]);
  o.Set("eosTokens", eos);
  o.Set("blockTokens", eng.options().block_size);
  o.Set("kvDim", static_cast<double>(m.hp.kv_dim()));
  o.Set("fingerprint", h.e->fingerprint);
  o.Set("threads", eng.options().threads);
  o.Set("maxBatchTokens", eng.options().max_batch_tokens);
  o.Set("maxSequences", eng.options().max_seqs);
  o.Set("decodeStallMs", eng.options().decode_stall_us / 1000.0);
  o.Set("engineNice", eng.options().compute_nice);
  return o;
}

Napi::Value model_stats(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  model_handle& h = model_arg(info, 0, "stats");
  engine_stats s = h.e->eng->stats();
  Napi::Object o = Napi::Object::New(env);
  o.Set("cacheEnabled", s.cache.enabled);
  o.Set("lookups", static_cast<double>(s.cache.lookups));
  o.Set("hitTokens", static_cast<double>(s.cache.hit_tokens));
  o.Set("promptTokens", static_cast<double>(s.cache.prompt_tokens));
  o.Set("cachedTokens", static_cast<double>(s.cache.cached_tokens));
  o.Set("kvBlocksTotal", static_cast<double>(s.kv_blocks_total));
  o.Set("kvBlocksUsed", static_cast<double>(s.kv_blocks_used));
  o.Set("running", static_cast<double>(s.running));
  o.Set("queued", static_cast<double>(s.queued));
  o.Set("steps", static_cast<double>(s.steps));
  o.Set("preemptions", static_cast<double>(s.preemptions));
  o.Set("stepSeconds", s.step_seconds);
  o.Set("exportSeconds", s.export_seconds);
  o.Set("exportTokens", static_cast<double>(s.export_tokens));
  // Queue time histogram: per-bucket counts (not cumulative), bounds in queueTimeBounds, the last
  // bucket past the last bound.
  Napi::Array qb = Napi::Array::New(env, kQueueTimeBuckets), qc = Napi::Array::New(env, kQueueTimeBuckets + 1);
  for (int i = 0; i < kQueueTimeBuckets; ++i) qb.Set(static_cast<uint32_t>(i), kQueueTimeBounds[i]);
  for (int i = 0; i <= kQueueTimeBuckets; ++i) qc.Set(static_cast<uint32_t>(i), static_cast<double>(s.queue_time.counts[i]));
  o.Set("queueTimeBounds", qb);
  o.Set("queueTimeCounts", qc);
  o.Set("queueTimeSum", s.queue_time.sum_s);
  o.Set("modelsLoaded", static_cast<double>(registry_size()));
  o.Set("gpuAvailable", gpu_available());
  o.Set("gpuInUse", s.on_gpu);
  return o;
}

// Test hook: the scheduler's next wake-up with work sleeps `ms` first (readiness tests).
Napi::Value debug_stall_scheduler(const Napi::CallbackInfo& info) {
  model_handle& h = model_arg(info, 0, "debugStallScheduler");
  const int64_t ms = info.Length() > 1 && info[1].IsNumber() ? info[1].As<Napi::Number>().Int64Value() : 0;
  h.e->eng->stall_for_test(ms);
  return info.Env().Undefined();
}

// What the build and the machine offer: CUDA compiled in, and the device when one answers.
Napi::Value system_info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const gpu_info& g = gpu_query();
  Napi::Object o = Napi::Object::New(env);
  o.Set("cudaCompiled", g.compiled);
  o.Set("gpuAvailable", g.available);
  Napi::Array devs = Napi::Array::New(env);
  if (g.available) {
    Napi::Object d = Napi::Object::New(env);
    d.Set("name", g.name);
    d.Set("computeCapability", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor));
    d.Set("totalMiB", static_cast<double>(g.total_mib));
    d.Set("freeMiB", static_cast<double>(g.free_mib));
    d.Set("peakGBps", g.peak_gbps);
    devs.Set(0u, d);
  }
  o.Set("cudaDevices", devs);
  o.Set("gpuError", g.error);
  return o;
}

Napi::Value mark_latency_thread_call(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsNumber()) throw_error(env, "markLatencyThread", engine_status::invalid_argument, "slice (µs) expected");
  const double us = info[0].As<Napi::Number>().DoubleValue();
  if (!(us >= 100 && us <= 100000))
    throw_error(env, "markLatencyThread", engine_status::invalid_argument, "slice out of range (100..100000 µs)");
  return Napi::Boolean::New(env, mark_latency_thread(static_cast<unsigned>(us)));
}

}  // namespace infer::binding
