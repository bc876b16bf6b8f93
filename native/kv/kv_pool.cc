#include "kv/kv_pool.h"

#include <stdexcept>

namespace infer {

kv_pool::kv_pool(int64_t n_layer, int64_t kv_dim, int64_t n_blocks, int block_size)
    : n_layer_(n_layer), kv_dim_(kv_dim), n_blocks_(n_blocks), block_size_(block_size) {
  if (n_blocks <= 0 || block_size <= 0) throw std::runtime_error("kv_pool: empty pool");
  const size_t n = static_cast<size_t>(n_layer) * n_blocks * block_size * kv_dim;
  k_.reset(new uint16_t[n]);
  v_.reset(new uint16_t[n]);
  free_.reserve(n_blocks);
  // Hand out low block ids first (pop from the back).
  for (int64_t b = n_blocks - 1; b >= 0; --b) free_.push_back(static_cast<int32_t>(b));
}

int32_t kv_pool::alloc() {
  if (free_.empty()) return -1;
  int32_t b = free_.back();
  free_.pop_back();
  return b;
}

void kv_pool::release(int32_t block) { free_.push_back(block); }

}  // namespace infer
