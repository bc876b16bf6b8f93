#include "binding/args.h"

#include <cctype>

namespace infer::binding {

namespace {

std::string code_for(engine_status s) {
  std::string c = engine_status_name(s);
  for (auto& ch : c) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return "ERR_ENGINE_" + c;
}

}  // namespace

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

}  // namespace infer::binding
