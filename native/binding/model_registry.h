// The process-wide registry of loaded models: every JS environment (main thread, piscina
// workers) that loads the same path shares one model (one mmap) and one engine (KV pool, prefix
// cache, scheduler thread). Entries are reference-counted through shared_ptr; the last handle
// released destroys the engine (joining its thread) and unmaps the file.
#pragma once
#include <memory>
#include <string>

#include "engine/engine.h"
#include "grammar/grammar.h"

namespace infer {

struct loaded_model {
  std::string key;  // canonical path
  std::shared_ptr<model> m;
  std::unique_ptr<engine> eng;
  std::string fingerprint;
  // Token bytes for constrained decoding, built at load (grammar_vocab_for).
  std::shared_ptr<const grammar_vocab> gvocab;
  bool gvocab_built = false;
};

// The model's grammar vocabulary (built once, thread-safe); nullptr when the file has no tokens.
std::shared_ptr<const grammar_vocab> grammar_vocab_for(loaded_model& e);

// Loads (or shares) the model at path. Options apply only to the first load of a path.
std::shared_ptr<loaded_model> registry_acquire(const std::string& path, const engine_options& opts);
// Number of distinct models alive (tests: loading twice shares).
size_t registry_size();

}  // namespace infer
