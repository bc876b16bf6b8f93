// The N-API face of the engine (the only napi.h user besides addon.cc). Coarse calls over opaque
// handles (Napi::External); anything that touches weights runs in an AsyncWorker and returns a
// promise; errors are Error objects with `code` (ERR_ENGINE_<STATUS>) and a message naming the
// failing call. Token events reach JS once per engine step per session, as typed arrays.
// The calls live in binding_calls.h's files; this one registers them.
#include <napi.h>

#include "binding/binding_calls.h"
#include "engine/abi.h"

namespace infer {

using namespace binding;

void register_engine_binding(Napi::Env env, Napi::Object exports) {
  auto add = [&](const char* name, Napi::Function::Callback fn) { exports.Set(name, Napi::Function::New(env, fn, name)); };
  exports.Set("engineAbiVersion", Napi::Number::New(env, kEngineAbiVersion));
  auto names = [&](const auto& table) {
    Napi::Array a = Napi::Array::New(env);
    for (const char* n : table) a.Set(a.Length(), Napi::String::New(env, n));
    return a;
  };
  exports.Set("engineStatusNames", names(kEngineStatusNames));
  exports.Set("finishReasonNames", names(kFinishReasonNames));
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
  add("holdSubmits", hold_submits);
  add("releaseSubmits", release_submits);
  add("evaluate", evaluate);
  add("cachedPrefixTokens", cached_prefix_tokens);
  add("exportKv", export_kv);
  add("importKv", import_kv);
  add("systemInfo", system_info);
  add("draftReplay", draft_replay);
  add("embed", embed);
  add("debugStallScheduler", debug_stall_scheduler);
  add("markLatencyThread", mark_latency_thread_call);
}

}  // namespace infer
