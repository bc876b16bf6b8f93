// Module entry: registers each binding group; nothing else lives here.
#include <napi.h>

namespace infer {
void register_engine_binding(Napi::Env env, Napi::Object exports);
}

namespace {

Napi::Value version(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), "0.1.0");
}

}  // namespace

Napi::Object init_addon(Napi::Env env, Napi::Object exports) {
  exports.Set("version", Napi::Function::New(env, version, "version"));
  infer::register_engine_binding(env, exports);
  return exports;
}

NODE_API_MODULE(infer, init_addon)
