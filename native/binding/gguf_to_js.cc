#include "binding/gguf_to_js.h"

#include <cstring>

namespace infer::binding {

namespace {

Napi::Value int_to_js(Napi::Env env, bool is_unsigned, uint64_t u, int64_t i) {
  constexpr int64_t kSafe = 9007199254740991LL;
  if (is_unsigned) {
    if (u <= static_cast<uint64_t>(kSafe)) return Napi::Number::New(env, static_cast<double>(u));
    return Napi::BigInt::New(env, u);
  }
  if (i <= kSafe && i >= -kSafe) return Napi::Number::New(env, static_cast<double>(i));
  return Napi::BigInt::New(env, i);
}

}  // namespace

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

}  // namespace infer::binding
