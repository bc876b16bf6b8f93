// Glue between the grammar matcher (grammar.h) and the engine's per-sequence token_constraint
// (engine/engine.h), plus the grammar vocabulary from a model's GGUF tokenizer metadata.
// Header-only so that only the code that includes it depends on the engine and GGUF headers.
//
// Use (binding / engine owner):
//   at model load:  model.grammar_vocab = grammar_vocab_from_gguf(*model.file, model.vocab.eos);
//   per request:    std::string err;
//                   req.constraint = make_grammar_constraint(kind, schema_text, vocab, n_vocab, &err);
//                   if (!req.constraint) -> 400 invalid_request_error naming response_format: err
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "gguf/gguf_file.h"
#include "grammar/grammar.h"

namespace infer {

// Token bytes from tokenizer.ggml.tokens / token_type / model; `eos` are the ids that end
// generation (allowed by the grammar only where its output may end). nullptr without tokens.
inline std::shared_ptr<const grammar_vocab> grammar_vocab_from_gguf(const gguf_file& f,
                                                                   const std::vector<int32_t>& eos) {
  const gguf_value* toks = f.get_array("tokenizer.ggml.tokens");
  if (!toks || toks->strings.empty()) return nullptr;
  std::vector<std::string> tokens(toks->strings.begin(), toks->strings.end());
  std::vector<int32_t> types;
  if (const gguf_value* tt = f.get_array("tokenizer.ggml.token_type")) {
    if (auto v = tt->to_i32_vector()) types = std::move(*v);
  }
  std::string model_type = std::string(f.get_string("tokenizer.ggml.model").value_or("gpt2"));
  return grammar_vocab::from_gguf(tokens, types, model_type, eos);
}

class grammar_constraint final : public token_constraint {
 public:
  grammar_constraint(std::shared_ptr<const compiled_grammar> g, std::shared_ptr<const grammar_vocab> v,
                     size_t n_vocab)
      : matcher_(std::move(g), std::move(v)), mask_(n_vocab) {}
  const uint8_t* allowed() override {
    matcher_.fill_allowed(mask_.data(), mask_.size());
    return mask_.data();
  }
  // A token outside the mask (a caller's own stop token) leaves the state as it is.
  void accept(int32_t token) override { matcher_.accept(token); }
  bool finished() const override { return matcher_.is_complete(); }
  grammar_matcher& matcher() { return matcher_; }

 private:
  grammar_matcher matcher_;
  std::vector<uint8_t> mask_;
};

// kind: "json_schema" (schema_text = the schema JSON), "json_object" or "event_lines".
inline std::unique_ptr<token_constraint> make_grammar_constraint(const std::string& kind,
                                                                 const std::string& schema_text,
                                                                 std::shared_ptr<const grammar_vocab> vocab,
                                                                 size_t n_vocab, std::string* error) {
  if (!vocab) {
    if (error) *error = "the model has no tokenizer vocabulary for constrained decoding";
    return nullptr;
  }
  std::shared_ptr<const compiled_grammar> g;
  if (kind == "json_schema") g = compile_json_schema(schema_text, error);
  else if (kind == "json_object") g = compile_any_json_object();
  else if (kind == "event_lines") g = compile_event_lines();
  else if (error) *error = "unknown grammar kind \"" + kind + "\"";
  if (!g) return nullptr;
  return std::make_unique<grammar_constraint>(std::move(g), std::move(vocab), n_vocab);
}

}  // namespace infer
