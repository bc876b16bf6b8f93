#include "binding/model_registry.h"

#include "grammar/engine_constraint.h"

#include <climits>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

namespace infer {
namespace {

std::mutex g_mu;
std::unordered_map<std::string, std::weak_ptr<loaded_model>>& registry() {
  static auto* r = new std::unordered_map<std::string, std::weak_ptr<loaded_model>>();  // never destroyed
  return *r;
}

std::string canonical(const std::string& path) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf)) return buf;
  return path;
}

// Identifies the weights: tensor names, types, shapes, offsets and the first bytes of each tensor.
std::string fingerprint_of(const gguf_file& f) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  };
  const uint64_t size = f.file_size();
  mix(&size, sizeof size);
  for (const auto& t : f.tensors()) {
    mix(t.name.data(), t.name.size());
    mix(&t.type, sizeof t.type);
    mix(t.ne, sizeof t.ne);
    mix(&t.offset, sizeof t.offset);
    mix(f.tensor_data(t), std::min<uint64_t>(64, t.n_bytes));
  }
  char out[17];
  snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

}  // namespace

std::shared_ptr<loaded_model> registry_acquire(const std::string& path, const engine_options& opts) {
  const std::string key = canonical(path);
  std::lock_guard<std::mutex> lk(g_mu);  // loads are serialised: a second load of a path waits and shares
  auto& r = registry();
  if (auto it = r.find(key); it != r.end())
    if (auto e = it->second.lock()) return e;
  auto e = std::make_shared<loaded_model>();
  e->key = key;
  e->m = model_load(path);
  e->fingerprint = fingerprint_of(*e->m->file);
  e->eng = std::make_unique<engine>(e->m, opts);
  // Built here, on the loader's thread, so that the first constrained request does not pay for it
  // on the JS thread (~50 ms for a 152k vocabulary).
  grammar_vocab_for(*e);
  r[key] = e;
  for (auto it = r.begin(); it != r.end();) it = it->second.expired() ? r.erase(it) : std::next(it);
  return e;
}

std::shared_ptr<const grammar_vocab> grammar_vocab_for(loaded_model& e) {
  static std::mutex mu;
  std::lock_guard<std::mutex> lk(mu);
  if (!e.gvocab_built) {
    e.gvocab = grammar_vocab_from_gguf(*e.m->file, e.m->vocab.eos);
    e.gvocab_built = true;
  }
  return e.gvocab;
}

size_t registry_size() {
  std::lock_guard<std::mutex> lk(g_mu);
  size_t n = 0;
  for (auto& [k, w] : registry()) n += w.expired() ? 0 : 1;
  return n;
}

}  // namespace infer
