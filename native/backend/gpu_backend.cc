#include "backend/gpu_backend.h"

#include <exception>

#ifdef INFER_CUDA
#include "cuda/cuda_api.h"
#endif

namespace infer {

const gpu_info& gpu_query() {
  static const gpu_info info = [] {
    gpu_info g;
#ifdef INFER_CUDA
    g.compiled = true;
    const cuda_device_info d = cuda_query_device();
    g.available = d.available;
    g.name = d.name;
    g.cc_major = d.cc_major;
    g.cc_minor = d.cc_minor;
    g.total_mib = d.total_mib;
    g.free_mib = d.free_mib;
    g.peak_gbps = d.peak_gbps;
    g.error = d.error;
#else
    g.error = "built without CUDA";
#endif
    return g;
  }();
  return info;
}

std::unique_ptr<forward_backend> gpu_backend_create(const model& m, kv_pool& kv, int max_tokens, int max_logits,
                                                    std::string* why) {
  const gpu_info& g = gpu_query();
  if (!g.available) {
    if (why) *why = g.error;
    return nullptr;
  }
#ifdef INFER_CUDA
  try {
    return cuda_forward_create(m, kv, max_tokens, max_logits);
  } catch (const std::exception& e) {
    if (why) *why = e.what();
    return nullptr;
  }
#else
  (void)m, (void)kv, (void)max_tokens, (void)max_logits;
  return nullptr;
#endif
}

}  // namespace infer
