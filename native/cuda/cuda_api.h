// The CUDA side as plain C++ (no CUDA headers): what native/backend/gpu_backend.cc calls when the
// addon is built with INFER_CUDA. Implemented in device.cu and cuda_model.cu.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "model/forward.h"

namespace infer {

struct cuda_device_info {
  bool available = false;  // a device answered (driver present, at least one GPU)
  int device_count = 0;
  std::string name;        // device 0
  int cc_major = 0, cc_minor = 0;
  int64_t total_mib = 0, free_mib = 0;
  int sm_count = 0;
  double peak_gbps = 0;    // memory bus width x clock x 2 (DDR), from the device properties
  std::string error;       // why not available
};

// Never aborts: no driver / no device gives available = false with the reason in error.
cuda_device_info cuda_query_device();

// Uploads the weights (same encodings) and a device KV pool mirroring kv's layout. Throws
// std::runtime_error (unsupported shape or type, out of device memory, CUDA failure).
std::unique_ptr<forward_backend> cuda_forward_create(const model& m, kv_pool& kv, int max_tokens, int max_logits);

}  // namespace infer
