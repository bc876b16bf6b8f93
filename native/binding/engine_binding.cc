// The N-API face of the engine (the only napi.h user besides addon.cc). Coarse calls over opaque
// handles (Napi::External); anything that touches weights runs in an AsyncWorker and returns a
// promise; errors are Error objects with `code` (ERR_ENGINE_<STATUS>) and a message naming the
// failing call. Token events reach JS once per engine step per session, as typed arrays.
#include <napi.h>

#include <atomic>
#include <cstring>
#include <mutex>

#include "backend/gpu_backend.h"
#include "binding/model_registry.h"
#include "grammar/engine_constraint.h"

namespace infer {
namespace {

struct model_handle {
  std::shared_ptr<loaded_model> e;
};

// One JS environment's delivery channel. The sink lives as long as sequences reference it; the
// TSFN is released by close() (closeSession) and never called after close() or abandon().
struct session_state : event_sink, std::enable_shared_from_this<session_state> {
  // Weak: sequences (owned by the engine) hold their sink, so a strong reference here could make
  // the scheduler thread drop the last reference to its own engine.
  std::weak_ptr<loaded_model> e;
  Napi::ThreadSafeFunction tsfn;
  std::mutex mu;
  bool closed = false;
  int64_t active = 0;  // JS thread only: submitted and not yet finished
  void deliver(std::vector<token_event>&& evs) override;
  void close() {
    std::lock_guard<std::mutex> lk(mu);
    if (closed) return;
    closed = true;
    tsfn.Release();
  }
  // The handle was collected without close(): stop deliveries but leave the TSFN to Node. At
  // environment teardown the TSFN may already be half torn down when this runs, and releasing it
  // then aborts the process (seen at exit with two models loaded and not unloaded).
  void abandon() {
    std::lock_guard<std::mutex> lk(mu);
    closed = true;
  }
};

struct session_handle {
  std::shared_ptr<session_state> s;
};

std::string code_for(engine_status s) {
  std::string c = engine_status_name(s);
  for (auto& ch : c) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return "ERR_ENGINE_" + c;
}

Napi::Error make_error(Napi::Env env, const std::string& call, engine_status st, const std::string& msg) {
  Napi::Error err = Napi::Error::New(env, call + ": " + msg);
  err.Set("code", Napi::String::New(env, code_for(st)));
  return err;
}

[[noreturn]] void throw_error(Napi::Env env, const std::string& call, engine_status st, const std::string& msg) {
  throw make_error(env, call, st, msg);
}

model_handle& model_arg(const Napi::CallbackInfo& info, size_t i, const char* call) {
  if (info.Length() <= i || !info[i].IsExternal())
    throw_error(info.Env(), call, engine_status::invalid_argument, "expected a model handle");
  auto* h = info[i].As<Napi::External<model_handle>>().Data();
  if (!h->e) throw_error(info.Env(), call, engine_status::disposed, "model handle was unloaded");
  return *h;
}

session_handle& session_arg(const Napi::CallbackInfo& info, size_t i, const char* call) {
  if (info.Length() <= i || !info[i].IsExternal())
    throw_error(info.Env(), call, engine_status::invalid_argument, "expected a session handle");
  auto* h = info[i].As<Napi::External<session_handle>>().Data();
  if (!h->s || h->s->closed) throw_error(info.Env(), call, engine_status::disposed, "session was closed");
  return *h;
}

std::vector<int32_t> tokens_arg(const Napi::CallbackInfo& info, size_t i, const char* call) {
  if (info.Length() <= i || !info[i].IsTypedArray())
    throw_error(info.Env(), call, engine_status::invalid_argument, "expected a Uint32Array or Int32Array of tokens");
  auto ta = info[i].As<Napi::TypedArray>();
  if (ta.TypedArrayType() != napi_uint32_array && ta.TypedArrayType() != napi_int32_array)
    throw_error(info.Env(), call, engine_status::invalid_argument, "expected a Uint32Array or Int32Array of tokens");
  const auto* p = reinterpret_cast<const int32_t*>(static_cast<const uint8_t*>(ta.ArrayBuffer().Data()) + ta.ByteOffset());
  return std::vector<int32_t>(p, p + ta.ElementLength());
}

double num_opt(const Napi::Object& o, const char* key, double dflt) {
  Napi::Value v = o.Get(key);
  return v.IsNumber() ? v.As<Napi::Number>().DoubleValue() : dflt;
}

bool bool_opt(const Napi::Object& o, const char* key, bool dflt) {
  Napi::Value v = o.Get(key);
  return v.IsBoolean() ? v.As<Napi::Boolean>().Value() : dflt;
}

// ---- promise workers ----

class promise_worker : public Napi::AsyncWorker {
 public:
  promise_worker(Napi::Env env, const char* call) : Napi::AsyncWorker(env, call), call_(call), deferred_(env) {}
  Napi::Promise promise() { return deferred_.Promise(); }

 protected:
  virtual void run() = 0;
  virtual Napi::Value result(Napi::Env env) = 0;
  void Execute() override {
    try {
      run();
    } catch (const engine_error& e) {
      status_ = e.status;
      msg_ = e.what();
    } catch (const std::exception& e) {
      status_ = engine_status::internal;
      msg_ = e.what();
    } catch (...) {
      status_ = engine_status::internal;
      msg_ = "unknown failure";
    }
  }
  void OnOK() override {
    Napi::Env env = Env();
    if (status_ != engine_status::ok) {
      deferred_.Reject(make_error(env, call_, status_, msg_).Value());
      return;
    }
    try {
      deferred_.Resolve(result(env));
    } catch (const Napi::Error& e) {
      deferred_.Reject(e.Value());
    }
  }

  std::string call_;
  Napi::Promise::Deferred deferred_;
  engine_status status_ = engine_status::ok;
  std::string msg_;
};

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

Napi::Value compile_grammar(const Napi::CallbackInfo& info) {
  if (info.Length() < 1 || !info[0].IsString())
    throw_error(info.Env(), "compileGrammar", engine_status::invalid_argument, "expected the JSON schema text");
  auto* w = new grammar_worker(info.Env(), info[0].As<Napi::String>().Utf8Value());
  Napi::Promise p = w->promise();
  w->Queue();
  return p;
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
      o.max_seqs < 1 || o.kv_cache_mb < 1 || o.decode_stall_us < 0 || o.decode_stall_us > 60000000)
    throw_error(env, "loadModel", engine_status::invalid_argument, "option out of range");
  auto* w = new load_worker(env, info[0].As<Napi::String>().Utf8Value(), o);
  Napi::Promise p = w->promise();
  w->Queue();
  return p;
}

Napi::Value unload_model(const Napi::CallbackInfo& info) {
  if (info.Length() > 0 && info[0].IsExternal()) info[0].As<Napi::External<model_handle>>().Data()->e.reset();
  return info.Env().Undefined();
}

// ---- metadata ----

Napi::Value gguf_to_js(Napi::Env env, const gguf_value& v);

Napi::Value int_to_js(Napi::Env env, bool is_unsigned, uint64_t u, int64_t i) {
  constexpr int64_t kSafe = 9007199254740991LL;
  if (is_unsigned) {
    if (u <= static_cast<uint64_t>(kSafe)) return Napi::Number::New(env, static_cast<double>(u));
    return Napi::BigInt::New(env, u);
  }
  if (i <= kSafe && i >= -kSafe) return Napi::Number::New(env, static_cast<double>(i));
  return Napi::BigInt::New(env, i);
}

// Same shapes as src/gguf/gguf-reader.ts: INT32 arrays -> Int32Array, FLOAT32 -> Float32Array,
// other arrays -> JS arrays; u64/i64 -> number when safe, else bigint.
Napi::Value gguf_to_js(Napi::Env env, const gguf_value& v) {
  switch (v.type) {
    case gguf_type::u8: case gguf_type::u16: case gguf_type::u32: case gguf_type::u64:
      return int_to_js(env, true, v.u, 0);
    case gguf_type::i8: case gguf_type::i16: case gguf_type::i32: case gguf_type::i64:
      return int_to_js(env, false, 0, v.i);
    case gguf_type::f32: case gguf_type::f64: return Napi::Number::New(env, v.f);
    case gguf_type::boolean: return Napi::Boolean::New(env, v.u != 0);
    case gguf_type::string: return Napi::String::New(env, v.str.data(), v.str.size());
    case gguf_type::array: break;
  }
  const size_t n = static_cast<size_t>(v.count);
  if (v.elem_type == gguf_type::i32) {
    auto a = Napi::Int32Array::New(env, n);
    if (n) std::memcpy(a.Data(), v.raw, n * 4);
    return a;
  }
  if (v.elem_type == gguf_type::f32) {
    auto a = Napi::Float32Array::New(env, n);
    if (n) std::memcpy(a.Data(), v.raw, n * 4);
    return a;
  }
  Napi::Array a = Napi::Array::New(env, n);
  if (v.elem_type == gguf_type::string) {
    for (size_t i = 0; i < n; ++i) a.Set(i, Napi::String::New(env, v.strings[i].data(), v.strings[i].size()));
  } else if (v.elem_type == gguf_type::array) {
    for (size_t i = 0; i < n; ++i) a.Set(i, gguf_to_js(env, v.items[i]));
  } else if (v.elem_type == gguf_type::boolean) {
    for (size_t i = 0; i < n; ++i) a.Set(i, Napi::Boolean::New(env, v.raw[i] != 0));
  } else {
    const bool is_u = v.elem_type == gguf_type::u8 || v.elem_type == gguf_type::u16 || v.elem_type == gguf_type::u32 ||
                      v.elem_type == gguf_type::u64;
    const bool is_f = v.elem_type == gguf_type::f64;
    for (size_t i = 0; i < n; ++i) {
      if (is_f) a.Set(i, Napi::Number::New(env, v.double_at(i).value_or(0)));
      else if (is_u && v.elem_type == gguf_type::u64) {
        uint64_t u;
        std::memcpy(&u, v.raw + i * 8, 8);
        a.Set(i, int_to_js(env, true, u, 0));
      } else {
        a.Set(i, int_to_js(env, false, 0, v.int_at(i).value_or(0)));
      }
    }
  }
  return a;
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

// ---- sessions and generation ----

void session_state::deliver(std::vector<token_event>&& evs) {
  std::lock_guard<std::mutex> lk(mu);
  if (closed) return;
  auto* data = new std::vector<token_event>(std::move(evs));
  auto self = shared_from_this();
  napi_status st = tsfn.NonBlockingCall(data, [self](Napi::Env env, Napi::Function fn, std::vector<token_event>* d) {
    std::unique_ptr<std::vector<token_event>> own(d);
    if (!env) return;  // tsfn finalising
    const size_t n = d->size();
    size_t n_top = 0;
    bool any_draft = false;
    for (auto& ev : *d) {
      n_top += ev.n_top;
      any_draft = any_draft || ev.has_draft;
    }
    // One backing buffer for the step, its arrays laid out widest element first so that every
    // view is aligned: one allocation instead of one per array.
    const size_t n_spec = any_draft ? n * 3 : 0;
    Napi::ArrayBuffer buf = Napi::ArrayBuffer::New(env, n * 8 + (5 * n + 2 * n_top + n_spec) * 4 + 2 * n);
    size_t off = 0;
    auto view = [&](auto zero, size_t count) {
      using T = decltype(zero);
      auto a = Napi::TypedArrayOf<T>::New(env, count, buf, off);
      off += count * sizeof(T);
      return a;
    };
    auto seq = view(double{}, n);
    auto token = view(int32_t{}, n);
    auto logprob = view(float{}, n);
    auto error = view(int32_t{}, n);
    auto prompt = view(int32_t{}, n);
    auto cached = view(int32_t{}, n);
    auto top_ids = view(int32_t{}, n_top);
    auto top_lp = view(float{}, n_top);
    // Draft counters per event ([i*3]: proposed, accepted, steps), only in steps that finish a
    // sequence submitted with a draft.
    auto spec = view(int32_t{}, n_spec);
    auto finish = view(uint8_t{}, n);
    auto ntop = view(uint8_t{}, n);
    size_t t = 0;
    int64_t finished = 0;
    for (size_t i = 0; i < n; ++i) {
      const token_event& ev = (*d)[i];
      seq[i] = static_cast<double>(ev.seq);
      token[i] = ev.token;
      logprob[i] = ev.logprob;
      finish[i] = static_cast<uint8_t>(ev.finish);
      error[i] = static_cast<int32_t>(ev.error);
      prompt[i] = ev.prompt_tokens;
      cached[i] = ev.cached_tokens;
      ntop[i] = static_cast<uint8_t>(ev.n_top);
      for (int32_t k = 0; k < ev.n_top; ++k, ++t) {
        top_ids[t] = ev.top_ids[k];
        top_lp[t] = ev.top_logprobs[k];
      }
      if (ev.finish != finish_reason::none) ++finished;
      if (any_draft) {
        spec[i * 3] = ev.has_draft ? ev.draft_proposed : -1;
        spec[i * 3 + 1] = ev.draft_accepted;
        spec[i * 3 + 2] = ev.decode_steps;
      }
    }
    // Keep the event loop alive only while this session has live sequences.
    self->active -= finished;
    if (self->active <= 0) {
      self->active = 0;
      self->tsfn.Unref(env);
    }
    // Positional arguments: step-dispatcher.ts builds the StepEvents object. Setting named properties
    // from here internalised every key on every step, a visible share of the loop's time per token.
    fn.Call({seq, token, logprob, finish, error, prompt, cached, ntop, top_ids, top_lp,
             any_draft ? Napi::Value(spec) : env.Undefined()});
  });
  if (st != napi_ok) delete data;
}

Napi::Value open_session(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  model_handle& h = model_arg(info, 0, "openSession");
  if (info.Length() < 2 || !info[1].IsFunction())
    throw_error(env, "openSession", engine_status::invalid_argument, "expected an event callback");
  auto s = std::make_shared<session_state>();
  s->e = h.e;
  s->tsfn = Napi::ThreadSafeFunction::New(env, info[1].As<Napi::Function>(), "infer-events", 0, 1);
  s->tsfn.Unref(env);
  return Napi::External<session_handle>::New(env, new session_handle{s}, [](Napi::Env, session_handle* sh) {
    sh->s->abandon();
    delete sh;
  });
}

Napi::Value close_session(const Napi::CallbackInfo& info) {
  if (info.Length() > 0 && info[0].IsExternal()) {
    auto* sh = info[0].As<Napi::External<session_handle>>().Data();
    if (sh->s) sh->s->close();
  }
  return info.Env().Undefined();
}

sampling_params parse_sampling(const Napi::Object& o, seq_request& req, Napi::Env env) {
  sampling_params p;
  p.temperature = static_cast<float>(num_opt(o, "temperature", 0));
  p.top_p = static_cast<float>(num_opt(o, "topP", 1));
  p.top_k = static_cast<int32_t>(num_opt(o, "topK", 0));
  p.min_p = static_cast<float>(num_opt(o, "minP", 0));
  p.repetition_penalty = static_cast<float>(num_opt(o, "repetitionPenalty", 1));
  p.presence_penalty = static_cast<float>(num_opt(o, "presencePenalty", 0));
  p.frequency_penalty = static_cast<float>(num_opt(o, "frequencyPenalty", 0));
  p.top_logprobs = static_cast<int32_t>(num_opt(o, "topLogprobs", -1));
  Napi::Value seed = o.Get("seed");
  if (seed.IsNumber()) {
    p.has_seed = true;
    p.seed = static_cast<uint64_t>(static_cast<int64_t>(seed.As<Napi::Number>().DoubleValue()));
  }
  Napi::Value bi = o.Get("biasIds"), bv = o.Get("biasValues");
  if (bi.IsTypedArray() && bv.IsTypedArray()) {
    auto ids = bi.As<Napi::Int32Array>();
    auto vals = bv.As<Napi::Float32Array>();
    if (ids.ElementLength() != vals.ElementLength())
      throw_error(env, "submit", engine_status::invalid_argument, "biasIds and biasValues differ in length");
    for (size_t i = 0; i < ids.ElementLength(); ++i) p.logit_bias.emplace_back(ids[i], vals[i]);
  }
  Napi::Value st = o.Get("stopTokens");
  if (st.IsTypedArray()) {
    auto a = st.As<Napi::Int32Array>();
    for (size_t i = 0; i < a.ElementLength(); ++i) req.stop_tokens.push_back(a[i]);
  }
  req.max_tokens = static_cast<int32_t>(num_opt(o, "maxTokens", 256));
  Napi::Value dr = o.Get("draft");
  if (dr.IsTypedArray()) {
    auto ta = dr.As<Napi::TypedArray>();
    if (ta.TypedArrayType() != napi_uint32_array && ta.TypedArrayType() != napi_int32_array)
      throw_error(env, "submit", engine_status::invalid_argument, "draft must be a Uint32Array or Int32Array");
    const auto* dp = reinterpret_cast<const int32_t*>(static_cast<const uint8_t*>(ta.ArrayBuffer().Data()) + ta.ByteOffset());
    req.draft.assign(dp, dp + ta.ElementLength());
  } else if (!dr.IsUndefined() && !dr.IsNull()) {
    throw_error(env, "submit", engine_status::invalid_argument, "draft must be a Uint32Array or Int32Array");
  }
  req.max_draft = static_cast<int32_t>(num_opt(o, "maxDraft", req.max_draft));
  req.batch_priority = bool_opt(o, "batchPriority", false);
  // top_p 0 keeps the most likely token alone (the nucleus never holds fewer than one), as in llama.cpp.
  if (!(p.temperature >= 0) || !(p.top_p >= 0 && p.top_p <= 1) || p.top_k < 0 || !(p.min_p >= 0 && p.min_p <= 1) ||
      !(p.repetition_penalty > 0))
    throw_error(env, "submit", engine_status::invalid_argument, "sampling parameter out of range");
  return p;
}

Napi::Value submit(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  session_handle& sh = session_arg(info, 0, "submit");
  seq_request req;
  req.prompt = tokens_arg(info, 1, "submit");
  if (info.Length() < 3 || !info[2].IsObject())
    throw_error(env, "submit", engine_status::invalid_argument, "expected sampling options");
  Napi::Object opts = info[2].As<Napi::Object>();
  req.sampling = parse_sampling(opts, req, env);
  Napi::Value g = opts.Get("grammar");
  if (g.IsObject()) {
    Napi::Object go = g.As<Napi::Object>();
    const std::string kind = go.Get("kind").IsString() ? go.Get("kind").As<Napi::String>().Utf8Value() : "";
    const std::string schema = go.Get("schema").IsString() ? go.Get("schema").As<Napi::String>().Utf8Value() : "";
    std::string err;
    std::shared_ptr<loaded_model> e = sh.s->e.lock();
    if (!e) throw_error(env, "submit", engine_status::disposed, "model was unloaded");
    req.constraint = make_grammar_constraint(kind, schema, grammar_vocab_for(*e), e->m->hp.n_vocab, &err);
    if (!req.constraint) throw_error(env, "submit", engine_status::invalid_argument, "grammar: " + err);
  }
  uint64_t id;
  std::shared_ptr<loaded_model> e = sh.s->e.lock();
  if (!e) throw_error(env, "submit", engine_status::disposed, "model was unloaded");
  try {
    id = e->eng->submit(sh.s, std::move(req));
  } catch (const engine_error& e) {
    throw_error(env, "submit", e.status, e.what());
  }
  if (sh.s->active++ == 0) sh.s->tsfn.Ref(env);
  return Napi::Number::New(env, static_cast<double>(id));
}

Napi::Value cancel(const Napi::CallbackInfo& info) {
  session_handle& sh = session_arg(info, 0, "cancel");
  std::shared_ptr<loaded_model> e = sh.s->e.lock();
  if (e && info.Length() > 1 && info[1].IsNumber())
    e->eng->cancel(static_cast<uint64_t>(info[1].As<Napi::Number>().DoubleValue()));
  return info.Env().Undefined();
}

// ---- teacher forcing and KV transfer ----

class evaluate_worker : public promise_worker {
 public:
  evaluate_worker(Napi::Env env, std::shared_ptr<loaded_model> e, std::vector<int32_t> toks, int32_t top_k,
                  std::vector<int32_t> positions, bool all)
      : promise_worker(env, "evaluate"), e_(std::move(e)), toks_(std::move(toks)), top_k_(top_k),
        positions_(std::move(positions)), all_(all) {}
  void run() override { r_ = e_->eng->evaluate(toks_, top_k_, positions_, all_); }
  Napi::Value result(Napi::Env env) override {
    Napi::Object o = Napi::Object::New(env);
    auto ids = Napi::Int32Array::New(env, r_.top_ids.size());
    if (!r_.top_ids.empty()) std::memcpy(ids.Data(), r_.top_ids.data(), r_.top_ids.size() * 4);
    auto lg = Napi::Float32Array::New(env, r_.top_logits.size());
    if (!r_.top_logits.empty()) std::memcpy(lg.Data(), r_.top_logits.data(), r_.top_logits.size() * 4);
    auto pos = Napi::Int32Array::New(env, r_.logit_positions.size());
    if (!r_.logit_positions.empty()) std::memcpy(pos.Data(), r_.logit_positions.data(), r_.logit_positions.size() * 4);
    auto full = Napi::Float32Array::New(env, r_.logits.size());
    if (!r_.logits.empty()) std::memcpy(full.Data(), r_.logits.data(), r_.logits.size() * 4);
    o.Set("nTokens", static_cast<double>(r_.n_tokens));
    o.Set("topK", r_.top_k);
    o.Set("topIds", ids);
    o.Set("topLogits", lg);
    o.Set("logitPositions", pos);
    o.Set("logits", full);
    return o;
  }

 private:
  std::shared_ptr<loaded_model> e_;
  std::vector<int32_t> toks_;
  int32_t top_k_;
  std::vector<int32_t> positions_;
  bool all_;
  eval_result r_;
};

Napi::Value evaluate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  model_handle& h = model_arg(info, 0, "evaluate");
  std::vector<int32_t> toks = tokens_arg(info, 1, "evaluate");
  int32_t top_k = 0;
  bool all = false;
  std::vector<int32_t> positions;
  if (info.Length() > 2 && info[2].IsObject()) {
    Napi::Object o = info[2].As<Napi::Object>();
    top_k = static_cast<int32_t>(num_opt(o, "topK", 0));
    all = bool_opt(o, "allLogits", false);
    Napi::Value p = o.Get("positions");
    if (p.IsTypedArray()) {
      auto a = p.As<Napi::Int32Array>();
      positions.assign(a.Data(), a.Data() + a.ElementLength());
    }
  }
  auto* w = new evaluate_worker(env, h.e, std::move(toks), top_k, std::move(positions), all);
  Napi::Promise pr = w->promise();
  w->Queue();
  return pr;
}

Napi::Value cached_prefix_tokens(const Napi::CallbackInfo& info) {
  model_handle& h = model_arg(info, 0, "cachedPrefixTokens");
  std::vector<int32_t> toks = tokens_arg(info, 1, "cachedPrefixTokens");
  return Napi::Number::New(info.Env(), static_cast<double>(h.e->eng->cached_prefix_tokens(toks)));
}

class embed_worker : public promise_worker {
 public:
  embed_worker(Napi::Env env, std::shared_ptr<loaded_model> e, std::vector<std::vector<int32_t>> inputs, pooling_kind pooling)
      : promise_worker(env, "embed"), e_(std::move(e)), inputs_(std::move(inputs)), pooling_(pooling) {}
  void run() override { out_ = e_->eng->embed(inputs_, pooling_); }
  Napi::Value result(Napi::Env env) override {
    auto a = Napi::Float32Array::New(env, out_.size());
    if (!out_.empty()) std::memcpy(a.Data(), out_.data(), out_.size() * sizeof(float));
    return a;
  }

 private:
  std::shared_ptr<loaded_model> e_;
  std::vector<std::vector<int32_t>> inputs_;
  pooling_kind pooling_;
  std::vector<float> out_;
};

// embed(model, tokens (every input's ids, concatenated), lengths, pooling 1 mean | 2 cls | 3 last)
// -> Float32Array [inputs][embeddingLength].
Napi::Value embed(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  model_handle& h = model_arg(info, 0, "embed");
  std::vector<int32_t> toks = tokens_arg(info, 1, "embed");
  if (info.Length() < 4 || !info[2].IsTypedArray() || info[2].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array ||
      !info[3].IsNumber())
    throw_error(env, "embed", engine_status::invalid_argument, "expected (model, tokens, lengths: Int32Array, pooling)");
  auto lens = info[2].As<Napi::Int32Array>();
  const int32_t pooling = info[3].As<Napi::Number>().Int32Value();
  if (pooling < 1 || pooling > 3) throw_error(env, "embed", engine_status::invalid_argument, "pooling must be 1 (mean), 2 (cls) or 3 (last)");
  std::vector<std::vector<int32_t>> inputs;
  size_t at = 0;
  for (size_t i = 0; i < lens.ElementLength(); ++i) {
    const int32_t n = lens[i];
    if (n < 0 || at + static_cast<size_t>(n) > toks.size())
      throw_error(env, "embed", engine_status::invalid_argument, "lengths do not add up to the tokens");
    inputs.emplace_back(toks.begin() + static_cast<std::ptrdiff_t>(at), toks.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += static_cast<size_t>(n);
  }
  if (at != toks.size()) throw_error(env, "embed", engine_status::invalid_argument, "lengths do not add up to the tokens");
  auto* w = new embed_worker(env, h.e, std::move(inputs), static_cast<pooling_kind>(pooling));
  Napi::Promise p = w->promise();
  w->Queue();
  return p;
}

// Test hook: the scheduler's next wake-up with work sleeps `ms` first (readiness tests).
Napi::Value debug_stall_scheduler(const Napi::CallbackInfo& info) {
  model_handle& h = model_arg(info, 0, "debugStallScheduler");
  const int64_t ms = info.Length() > 1 && info[1].IsNumber() ? info[1].As<Napi::Number>().Int64Value() : 0;
  h.e->eng->stall_for_test(ms);
  return info.Env().Undefined();
}

class export_worker : public promise_worker {
 public:
  export_worker(Napi::Env env, std::shared_ptr<loaded_model> e, std::vector<int32_t> toks, int64_t from)
      : promise_worker(env, "exportKv"), e_(std::move(e)), toks_(std::move(toks)), from_(from) {}
  void run() override { blocks_ = e_->eng->export_kv(toks_, from_); }
  Napi::Value result(Napi::Env env) override {
    Napi::Array a = Napi::Array::New(env, blocks_.size());
    for (size_t i = 0; i < blocks_.size(); ++i) {
      auto u = Napi::Uint8Array::New(env, blocks_[i].size() * 2);
      std::memcpy(u.Data(), blocks_[i].data(), blocks_[i].size() * 2);
      a.Set(i, u);
    }
    return a;
  }

 private:
  std::shared_ptr<loaded_model> e_;
  std::vector<int32_t> toks_;
  int64_t from_;
  std::vector<std::vector<uint16_t>> blocks_;
};

Napi::Value export_kv(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  model_handle& h = model_arg(info, 0, "exportKv");
  std::vector<int32_t> toks = tokens_arg(info, 1, "exportKv");
  const int64_t from = info.Length() > 2 && info[2].IsNumber() ? info[2].As<Napi::Number>().Int64Value() : 0;
  if (from < 0) throw_error(env, "exportKv", engine_status::invalid_argument, "fromBlock must be >= 0");
  auto* w = new export_worker(env, h.e, std::move(toks), from);
  Napi::Promise p = w->promise();
  w->Queue();
  return p;
}

class import_worker : public promise_worker {
 public:
  import_worker(Napi::Env env, std::shared_ptr<loaded_model> e, std::vector<int32_t> toks, int64_t first,
                std::vector<std::vector<uint16_t>> data)
      : promise_worker(env, "importKv"), e_(std::move(e)), toks_(std::move(toks)), first_(first), data_(std::move(data)) {}
  void run() override {
    std::vector<const uint16_t*> ptrs;
    for (auto& d : data_) ptrs.push_back(d.data());
    n_ = e_->eng->import_kv(toks_, first_, ptrs);
  }
  Napi::Value result(Napi::Env env) override { return Napi::Number::New(env, static_cast<double>(n_)); }

 private:
  std::shared_ptr<loaded_model> e_;
  std::vector<int32_t> toks_;
  int64_t first_;
  std::vector<std::vector<uint16_t>> data_;
  int64_t n_ = 0;
};

Napi::Value import_kv(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  model_handle& h = model_arg(info, 0, "importKv");
  std::vector<int32_t> toks = tokens_arg(info, 1, "importKv");
  if (info.Length() < 4 || !info[2].IsNumber() || !info[3].IsArray())
    throw_error(env, "importKv", engine_status::invalid_argument, "expected (model, tokens, firstBlock, blocks[])");
  const int64_t first = info[2].As<Napi::Number>().Int64Value();
  const auto& eng = *h.e->eng;
  const size_t block_bytes = 2 * 2 * static_cast<size_t>(h.e->m->hp.n_layer) * h.e->m->hp.kv_dim() * eng.options().block_size;
  Napi::Array arr = info[3].As<Napi::Array>();
  std::vector<std::vector<uint16_t>> data;
  for (uint32_t i = 0; i < arr.Length(); ++i) {
    Napi::Value v = arr.Get(i);
    if (!v.IsTypedArray()) throw_error(env, "importKv", engine_status::invalid_argument, "block is not a Uint8Array");
    auto u = v.As<Napi::TypedArray>();
    if (u.ByteLength() != block_bytes)
      throw_error(env, "importKv", engine_status::invalid_argument,
                  "block " + std::to_string(i) + " has " + std::to_string(u.ByteLength()) + " bytes, expected " +
                      std::to_string(block_bytes));
    std::vector<uint16_t> d(block_bytes / 2);
    std::memcpy(d.data(), static_cast<const uint8_t*>(u.ArrayBuffer().Data()) + u.ByteOffset(), block_bytes);
    data.push_back(std::move(d));
  }
  if (first < 0) throw_error(env, "importKv", engine_status::invalid_argument, "firstBlock must be >= 0");
  auto* w = new import_worker(env, h.e, std::move(toks), first, std::move(data));
  Napi::Promise p = w->promise();
  w->Queue();
  return p;
}

// Replays the engine's draft policy (engine/draft_cursor.h) on a known output: the proposals,
// acceptances and steps speculative decoding would take if the model produced `output` (first
// token from the prefill pass, no step budget limit). For tests and benches of the policy alone.
Napi::Value draft_replay(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::vector<int32_t> out = tokens_arg(info, 0, "draftReplay");
  std::vector<int32_t> draft = tokens_arg(info, 1, "draftReplay");
  const int32_t max_draft = info.Length() > 2 && info[2].IsNumber() ? info[2].As<Napi::Number>().Int32Value() : 16;
  if (max_draft < 0 || max_draft > kMaxDraftPerStep)
    throw_error(env, "draftReplay", engine_status::invalid_argument, "maxDraft out of range");
  draft_cursor cur(std::move(draft), max_draft);
  const int64_t n = static_cast<int64_t>(out.size());
  int64_t proposed = 0, accepted = 0, steps = 0, done = 0;
  while (done < n) {
    const int64_t k = done == 0 ? 0 : cur.proposal(n - done - 1);
    int64_t acc = 0;
    while (acc < k && out[done + acc] == cur.at(acc)) ++acc;
    const int32_t last = out[done + acc];
    done += acc + 1;
    proposed += k;
    accepted += acc;
    steps++;
    if (done < n) cur.advance(k, acc, last, out.data(), done);
  }
  Napi::Object o = Napi::Object::New(env);
  o.Set("proposed", static_cast<double>(proposed));
  o.Set("accepted", static_cast<double>(accepted));
  o.Set("steps", static_cast<double>(steps));
  return o;
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

}  // namespace

void register_engine_binding(Napi::Env env, Napi::Object exports) {
  auto add = [&](const char* name, Napi::Function::Callback fn) { exports.Set(name, Napi::Function::New(env, fn, name)); };
  exports.Set("engineAbiVersion", Napi::Number::New(env, 1));
  add("loadModel", load_model);
  add("unloadModel", unload_model);
  add("modelMetadata", model_metadata);
  add("modelInfo", model_info);
  add("modelStats", model_stats);
  add("openSession", open_session);
  add("closeSession", close_session);
  add("compileGrammar", compile_grammar);
  add("submit", submit);
  add("cancel", cancel);
  add("evaluate", evaluate);
  add("cachedPrefixTokens", cached_prefix_tokens);
  add("exportKv", export_kv);
  add("importKv", import_kv);
  add("systemInfo", system_info);
  add("draftReplay", draft_replay);
  add("embed", embed);
  add("debugStallScheduler", debug_stall_scheduler);
}

}  // namespace infer
