// The engine binding's calls, one group per file: models (model_calls.cc), sessions and
// generation (session_calls.cc), teacher forcing, embeddings, KV transfer and the draft policy
// replay (compute_calls.cc). engine_binding.cc registers them.
#pragma once
#include <napi.h>

namespace infer::binding {

Napi::Value load_model(const Napi::CallbackInfo& info);
Napi::Value unload_model(const Napi::CallbackInfo& info);
Napi::Value compile_grammar(const Napi::CallbackInfo& info);
Napi::Value model_metadata(const Napi::CallbackInfo& info);
Napi::Value model_info(const Napi::CallbackInfo& info);
Napi::Value model_stats(const Napi::CallbackInfo& info);
Napi::Value system_info(const Napi::CallbackInfo& info);
Napi::Value debug_stall_scheduler(const Napi::CallbackInfo& info);
// Short scheduler slice for the calling thread (Node's event loop); see mark_latency_thread.
Napi::Value mark_latency_thread_call(const Napi::CallbackInfo& info);

Napi::Value open_session(const Napi::CallbackInfo& info);
Napi::Value close_session(const Napi::CallbackInfo& info);
Napi::Value submit(const Napi::CallbackInfo& info);
Napi::Value cancel(const Napi::CallbackInfo& info);
Napi::Value hold_submits(const Napi::CallbackInfo& info);
Napi::Value release_submits(const Napi::CallbackInfo& info);

Napi::Value evaluate(const Napi::CallbackInfo& info);
Napi::Value cached_prefix_tokens(const Napi::CallbackInfo& info);
Napi::Value embed(const Napi::CallbackInfo& info);
Napi::Value export_kv(const Napi::CallbackInfo& info);
Napi::Value import_kv(const Napi::CallbackInfo& info);
Napi::Value draft_replay(const Napi::CallbackInfo& info);

}  // namespace infer::binding
