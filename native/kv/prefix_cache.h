// Radix tree over token ids at block granularity (one edge = one full KV block of block_size
// tokens), SGLang-style: a new sequence reuses the longest cached prefix; live sequences hold a
// reference on every node of their path; nodes nobody references are evicted leaf-first, least
// recently used first, returning their block to the pool.
//
// Ownership: a sequence's block table starts with its path's blocks (tree-owned, read-only,
// always full); the rest are private to the sequence until insert() hands them to the tree.
// Every node on a referenced node's path is referenced too, so the unreferenced nodes are whole
// subtrees and all of them can be reclaimed (reclaimable()).
// Not thread-safe: used only by the engine's scheduler thread.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "kv/kv_pool.h"

namespace infer {

struct prefix_node;

struct prefix_cache_stats {
  bool enabled = false;
  uint64_t lookups = 0;
  uint64_t hit_tokens = 0;
  uint64_t prompt_tokens = 0;
  int64_t cached_tokens = 0;  // tokens held by the tree now
};

class prefix_cache {
 public:
  prefix_cache(kv_pool& pool, bool enabled);
  ~prefix_cache();

  bool enabled() const { return enabled_; }
  // Longest cached prefix of tokens[0..n) in whole blocks, at most max_blocks. Acquires every
  // node on it (appended to path) and appends their blocks to blocks. Returns matched blocks.
  // Counts as one lookup of n prompt tokens when count_stats.
  int64_t acquire_prefix(const int32_t* tokens, int64_t n, int64_t max_blocks, std::vector<prefix_node*>& path,
                         std::vector<int32_t>& blocks, bool count_stats);
  // Hands the sequence's full blocks [path.size(), n_full) to the tree (tokens are the whole
  // sequence). When a block's tokens are already cached (computed twice concurrently), the
  // sequence switches to the cached block and its own copy is released to the pool.
  void insert(const int32_t* tokens, int64_t n_full, std::vector<prefix_node*>& path, std::vector<int32_t>& blocks);
  // Counts one admitted prompt of n tokens of which hit were served from the cache.
  void count_lookup(int64_t n, int64_t hit) {
    ++stats_.lookups;
    stats_.prompt_tokens += n;
    stats_.hit_tokens += hit;
  }
  // Drops the sequence's references (path cleared).
  void release(std::vector<prefix_node*>& path);
  // Cached prefix length in tokens (whole blocks), without taking references. The only method
  // safe to call from another thread: tree_mu_ guards the tree's shape (insert/evict), which is
  // all peek reads; reference counts and LRU order are the scheduler's alone.
  int64_t peek(const int32_t* tokens, int64_t n) const;
  // Frees the least recently used unreferenced leaf's block. False when nothing is evictable.
  bool evict_one();
  int64_t reclaimable() const { return unreferenced_; }
  // Evicts everything unreferenced (tests, KV import of a different model state).
  void clear();
  prefix_cache_stats stats() const;

 private:
  void make_evictable_if_leaf(prefix_node* n);
  void remove_evictable(prefix_node* n);

  kv_pool& pool_;
  bool enabled_;
  mutable std::mutex tree_mu_;
  std::unique_ptr<prefix_node> root_;
  uint64_t tick_ = 0;
  int64_t n_nodes_ = 0;
  int64_t unreferenced_ = 0;
  std::set<std::pair<uint64_t, prefix_node*>> evictable_;  // unreferenced leaves by last use
  prefix_cache_stats stats_;
};

}  // namespace infer
