// GGUF metadata values as JS values, in the shapes src/gguf/gguf-reader.ts gives.
#pragma once
#include <napi.h>

#include "gguf/gguf_file.h"

namespace infer::binding {

Napi::Value gguf_to_js(Napi::Env env, const gguf_value& v);

}  // namespace infer::binding
