// What the engine and its TypeScript binding must agree on: the ABI version and the numbering of
// statuses and finish reasons carried in step events. The binding exports these tables and
// src/native/binding.ts checks them against its own enums when it loads the addon, so a change
// here that TypeScript does not follow fails at load, not in a wrong answer.
#pragma once
#include <cstdint>

namespace infer {

constexpr int kEngineAbiVersion = 1;

enum class engine_status : int32_t {
  ok = 0,
  overloaded = 1,               // KV memory cannot hold the sequence
  context_length_exceeded = 2,  // prompt does not fit the context
  invalid_argument = 3,
  internal = 4,
  disposed = 5,
};
// Names by value (ERR_ENGINE_<NAME> upper-cased in errors).
constexpr const char* kEngineStatusNames[] = {"ok", "overloaded", "context_length_exceeded", "invalid_argument",
                                              "internal", "disposed"};

enum class finish_reason : uint8_t { none = 0, stop = 1, length = 2, cancelled = 3, grammar_end = 4, error = 5 };
constexpr const char* kFinishReasonNames[] = {"none", "stop", "length", "cancelled", "grammar_end", "error"};

inline const char* engine_status_name(engine_status s) {
  const auto i = static_cast<int32_t>(s);
  return i >= 0 && i < static_cast<int32_t>(sizeof kEngineStatusNames / sizeof *kEngineStatusNames) ? kEngineStatusNames[i]
                                                                                                    : "unknown";
}

}  // namespace infer
