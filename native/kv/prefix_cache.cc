#include "kv/prefix_cache.h"

#include <algorithm>

namespace infer {

struct prefix_node {
  std::vector<int32_t> key;  // block_size tokens
  int32_t block = -1;
  int32_t refs = 0;
  uint64_t last_use = 0;
  bool in_evictable = false;
  prefix_node* parent = nullptr;
  std::map<std::vector<int32_t>, std::unique_ptr<prefix_node>> children;
};

prefix_cache::prefix_cache(kv_pool& pool, bool enabled)
    : pool_(pool), enabled_(enabled), root_(std::make_unique<prefix_node>()) {
  root_->refs = 1;  // the root is never evicted
}

prefix_cache::~prefix_cache() = default;

int64_t prefix_cache::acquire_prefix(const int32_t* tokens, int64_t n, int64_t max_blocks,
                                     std::vector<prefix_node*>& path, std::vector<int32_t>& blocks,
                                     bool count_stats) {
  const int bs = pool_.block_size();
  int64_t matched = 0;
  if (enabled_) {
    prefix_node* cur = root_.get();
    std::vector<int32_t> key(bs);
    ++tick_;
    while (matched < max_blocks && (matched + 1) * bs <= n) {
      key.assign(tokens + matched * bs, tokens + (matched + 1) * bs);
      auto it = cur->children.find(key);
      if (it == cur->children.end()) break;
      cur = it->second.get();
      if (cur->refs++ == 0) {
        --unreferenced_;
        remove_evictable(cur);
      }
      cur->last_use = tick_;
      path.push_back(cur);
      blocks.push_back(cur->block);
      ++matched;
    }
  }
  if (count_stats) {
    ++stats_.lookups;
    stats_.prompt_tokens += n;
    stats_.hit_tokens += matched * bs;
  }
  return matched;
}

void prefix_cache::insert(const int32_t* tokens, int64_t n_full, std::vector<prefix_node*>& path,
                          std::vector<int32_t>& blocks) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lk(tree_mu_);
  const int bs = pool_.block_size();
  prefix_node* cur = path.empty() ? root_.get() : path.back();
  ++tick_;
  for (int64_t i = static_cast<int64_t>(path.size()); i < n_full; ++i) {
    std::vector<int32_t> key(tokens + i * bs, tokens + (i + 1) * bs);
    auto it = cur->children.find(key);
    prefix_node* node;
    if (it != cur->children.end()) {
      node = it->second.get();
      if (node->refs++ == 0) {
        --unreferenced_;
        remove_evictable(node);
      }
      pool_.release(blocks[i]);
      blocks[i] = node->block;
    } else {
      auto fresh = std::make_unique<prefix_node>();
      node = fresh.get();
      node->key = std::move(key);
      node->block = blocks[i];
      node->refs = 1;
      node->parent = cur;
      remove_evictable(cur);  // cur has a child now (it is referenced anyway)
      cur->children.emplace(node->key, std::move(fresh));
      ++n_nodes_;
    }
    node->last_use = tick_;
    path.push_back(node);
    cur = node;
  }
}

void prefix_cache::release(std::vector<prefix_node*>& path) {
  ++tick_;
  // Deepest first, so parents see their children's state.
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    prefix_node* n = *it;
    n->last_use = tick_;
    if (--n->refs == 0) {
      ++unreferenced_;
      make_evictable_if_leaf(n);
    }
  }
  path.clear();
}

void prefix_cache::make_evictable_if_leaf(prefix_node* n) {
  if (n == root_.get() || n->refs != 0 || !n->children.empty() || n->in_evictable) return;
  evictable_.emplace(n->last_use, n);
  n->in_evictable = true;
}

void prefix_cache::remove_evictable(prefix_node* n) {
  if (!n->in_evictable) return;
  evictable_.erase({n->last_use, n});
  n->in_evictable = false;
}

int64_t prefix_cache::peek(const int32_t* tokens, int64_t n) const {
  if (!enabled_) return 0;
  std::lock_guard<std::mutex> lk(tree_mu_);
  const int bs = pool_.block_size();
  const prefix_node* cur = root_.get();
  std::vector<int32_t> key(bs);
  int64_t matched = 0;
  while ((matched + 1) * bs <= n) {
    key.assign(tokens + matched * bs, tokens + (matched + 1) * bs);
    auto it = cur->children.find(key);
    if (it == cur->children.end()) break;
    cur = it->second.get();
    ++matched;
  }
  return matched * bs;
}

bool prefix_cache::evict_one() {
  if (evictable_.empty()) return false;
  std::lock_guard<std::mutex> lk(tree_mu_);
  prefix_node* n = evictable_.begin()->second;
  evictable_.erase(evictable_.begin());
  n->in_evictable = false;
  pool_.release(n->block);
  prefix_node* parent = n->parent;
  parent->children.erase(parent->children.find(n->key));  // destroys n
  --n_nodes_;
  --unreferenced_;
  make_evictable_if_leaf(parent);
  return true;
}

void prefix_cache::clear() {
  while (evict_one()) {
  }
}

prefix_cache_stats prefix_cache::stats() const {
  prefix_cache_stats s = stats_;
  s.enabled = enabled_;
  s.cached_tokens = n_nodes_ * pool_.block_size();
  return s;
}

}  // namespace infer
