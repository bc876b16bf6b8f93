// Argument readers and errors of the engine binding: each call names itself in its errors, which
// carry `code` ERR_ENGINE_<STATUS> (src/native reads it).
#pragma once
#include <napi.h>

#include <string>
#include <vector>

#include "binding/handles.h"

namespace infer::binding {

Napi::Error make_error(Napi::Env env, const std::string& call, engine_status st, const std::string& msg);
[[noreturn]] void throw_error(Napi::Env env, const std::string& call, engine_status st, const std::string& msg);
model_handle& model_arg(const Napi::CallbackInfo& info, size_t i, const char* call);
session_handle& session_arg(const Napi::CallbackInfo& info, size_t i, const char* call);
std::vector<int32_t> tokens_arg(const Napi::CallbackInfo& info, size_t i, const char* call);
double num_opt(const Napi::Object& o, const char* key, double dflt);
bool bool_opt(const Napi::Object& o, const char* key, bool dflt);

}  // namespace infer::binding
