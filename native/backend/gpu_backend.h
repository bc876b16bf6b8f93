// Backend selection: whether this build has CUDA, whether a GPU answers, and the device forward
// pass for a model when one does. Plain C++ (no CUDA headers), compiled in every build; without
// INFER_CUDA everything reports "no GPU" and gpu_backend_create returns null (CPU path).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "model/forward.h"

namespace infer {

struct gpu_info {
  bool compiled = false;   // built with INFER_CUDA (nvcc found, CUDA sources listed)
  bool available = false;  // compiled, a driver and a device answered, and memory can be queried
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int64_t total_mib = 0, free_mib = 0;
  double peak_gbps = 0;
  std::string error;  // why not available
};

// Queried once per process (cheap afterwards); never aborts.
const gpu_info& gpu_query();
inline bool gpu_available() { return gpu_query().available; }

// The device forward pass for m over kv's block layout, or null when there is no usable GPU or the
// model cannot run there (unsupported type/shape, not enough device memory); *why says which.
std::unique_ptr<forward_backend> gpu_backend_create(const model& m, kv_pool& kv, int max_tokens, int max_logits,
                                                    std::string* why);

}  // namespace infer
