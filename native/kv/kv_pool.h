// The paged KV cache: one pool of fixed-size blocks (block_size token slots each) per loaded
// model, K and V stored as fp16 (as llama.cpp does by default). Layout per layer:
// [block][slot][kv_dim], so one block of one layer is contiguous (export/import copy it whole).
// Not thread-safe: owned by the engine's scheduler thread.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace infer {

class kv_pool {
 public:
  kv_pool(int64_t n_layer, int64_t kv_dim, int64_t n_blocks, int block_size);

  int block_size() const { return block_size_; }
  int64_t n_blocks() const { return n_blocks_; }
  int64_t n_layer() const { return n_layer_; }
  int64_t kv_dim() const { return kv_dim_; }
  // Elements (fp16 values) of one block of one layer, for K or V alike.
  size_t block_elems() const { return static_cast<size_t>(block_size_) * kv_dim_; }
  static size_t bytes_per_token(int64_t n_layer, int64_t kv_dim) { return 2 * 2 * n_layer * kv_dim; }

  uint16_t* k(int64_t layer, int32_t block, int slot) { return base(k_.get(), layer, block, slot); }
  uint16_t* v(int64_t layer, int32_t block, int slot) { return base(v_.get(), layer, block, slot); }

  // Free-list allocation. alloc() returns -1 when empty.
  int32_t alloc();
  void release(int32_t block);
  int64_t free_count() const { return static_cast<int64_t>(free_.size()); }
  int64_t used_count() const { return n_blocks_ - free_count(); }

 private:
  uint16_t* base(uint16_t* p, int64_t layer, int32_t block, int slot) {
    return p + ((layer * n_blocks_ + block) * block_size_ + slot) * kv_dim_;
  }
  int64_t n_layer_, kv_dim_, n_blocks_;
  int block_size_;
  std::unique_ptr<uint16_t[]> k_, v_;  // uninitialised: pages are touched only when used
  std::vector<int32_t> free_;
};

}  // namespace infer
