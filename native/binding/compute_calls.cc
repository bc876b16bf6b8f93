// Teacher forcing (evaluate), embeddings, prefix-cache queries, KV block export/import between
// prefiller and decoder, and the draft policy replay.
#include <cstring>

#include "binding/binding_calls.h"
#include "binding/promise_worker.h"
#include "engine/draft_cursor.h"

namespace infer::binding {

namespace {

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

}  // namespace

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
  return queue(new evaluate_worker(env, h.e, std::move(toks), top_k, std::move(positions), all));
}

Napi::Value cached_prefix_tokens(const Napi::CallbackInfo& info) {
  model_handle& h = model_arg(info, 0, "cachedPrefixTokens");
  std::vector<int32_t> toks = tokens_arg(info, 1, "cachedPrefixTokens");
  return Napi::Number::New(info.Env(), static_cast<double>(h.e->eng->cached_prefix_tokens(toks)));
}

namespace {

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

}  // namespace

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
  return queue(new embed_worker(env, h.e, std::move(inputs), static_cast<pooling_kind>(pooling)));
}

namespace {

class export_worker : public promise_worker {
 public:
  export_worker(Napi::Env env, std::shared_ptr<loaded_model> e, std::vector<int32_t> toks, int64_t from, int64_t max_compute)
      : promise_worker(env, "exportKv"), e_(std::move(e)), toks_(std::move(toks)), from_(from), max_compute_(max_compute) {}
  void run() override { blocks_ = e_->eng->export_kv(toks_, from_, max_compute_); }
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
  int64_t max_compute_;
  std::vector<std::vector<uint16_t>> blocks_;
};

}  // namespace

Napi::Value export_kv(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  model_handle& h = model_arg(info, 0, "exportKv");
  std::vector<int32_t> toks = tokens_arg(info, 1, "exportKv");
  const int64_t from = info.Length() > 2 && info[2].IsNumber() ? info[2].As<Napi::Number>().Int64Value() : 0;
  if (from < 0) throw_error(env, "exportKv", engine_status::invalid_argument, "fromBlock must be >= 0");
  // Optional: compute at most this many uncached tokens (-1: all of them).
  const int64_t max_compute = info.Length() > 3 && info[3].IsNumber() ? info[3].As<Napi::Number>().Int64Value() : -1;
  return queue(new export_worker(env, h.e, std::move(toks), from, max_compute));
}

namespace {

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

}  // namespace

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
  return queue(new import_worker(env, h.e, std::move(toks), first, std::move(data)));
}

// Replays the engine's draft policy on a known output (replay_draft_policy, engine/draft_cursor.h).
// For tests and benches of the policy alone.
Napi::Value draft_replay(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::vector<int32_t> out = tokens_arg(info, 0, "draftReplay");
  std::vector<int32_t> draft = tokens_arg(info, 1, "draftReplay");
  const int32_t max_draft = info.Length() > 2 && info[2].IsNumber() ? info[2].As<Napi::Number>().Int32Value() : 16;
  if (max_draft < 0 || max_draft > kMaxDraftPerStep)
    throw_error(env, "draftReplay", engine_status::invalid_argument, "maxDraft out of range");
  const draft_replay_stats r = replay_draft_policy(out, std::move(draft), max_draft);
  Napi::Object o = Napi::Object::New(env);
  o.Set("proposed", static_cast<double>(r.proposed));
  o.Set("accepted", static_cast<double>(r.accepted));
  o.Set("steps", static_cast<double>(r.steps));
  return o;
}

}  // namespace infer::binding
