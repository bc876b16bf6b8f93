// Sessions and generation: a session is one JS environment's event channel (a thread-safe
// function called once per engine step with typed arrays); submit() queues a sequence on it.
#include "binding/binding_calls.h"
#include "binding/args.h"
#include "grammar/engine_constraint.h"

namespace infer::binding {

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

namespace {

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

}  // namespace

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

Napi::Value hold_submits(const Napi::CallbackInfo& info) {
  session_handle& sh = session_arg(info, 0, "holdSubmits");
  if (std::shared_ptr<loaded_model> e = sh.s->e.lock()) e->eng->hold_submits();
  return info.Env().Undefined();
}

Napi::Value release_submits(const Napi::CallbackInfo& info) {
  // Also after the session closed (the hold was taken before): the engine may serve other sessions.
  if (info.Length() > 0 && info[0].IsExternal()) {
    auto* h = info[0].As<Napi::External<session_handle>>().Data();
    if (h->s)
      if (std::shared_ptr<loaded_model> e = h->s->e.lock()) e->eng->release_submits();
  }
  return info.Env().Undefined();
}

Napi::Value cancel(const Napi::CallbackInfo& info) {
  session_handle& sh = session_arg(info, 0, "cancel");
  std::shared_ptr<loaded_model> e = sh.s->e.lock();
  if (e && info.Length() > 1 && info[1].IsNumber())
    e->eng->cancel(static_cast<uint64_t>(info[1].As<Napi::Number>().DoubleValue()));
  return info.Env().Undefined();
}

}  // namespace infer::binding
