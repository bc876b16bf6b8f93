// Grammar-constrained decoding: a JSON-schema subset (and two fixed grammars) compiled into a
// byte-level pushdown automaton, matched against the model's token vocabulary to mask logits.
//
// Integration note (sampler / scheduler owners):
//  * Build one grammar_vocab per loaded model, once (grammar_vocab::from_gguf or ::create); it is
//    immutable apart from its internal, mutex-guarded mask cache and is shared by every matcher.
//  * Compile per request: compile_json_schema(schema_json, &err) (memoized by schema text),
//    compile_any_json_object(), compile_event_lines() (singletons). nullptr + err on a bad
//    schema: the API layer turns err into a 400 invalid_request_error naming response_format
//    (or the tool's input schema). Compiled grammars are immutable and shareable.
//  * One grammar_matcher per sequence, owned by that sequence (not thread-safe itself; different
//    matchers may run on different threads at once). Each decode step:
//        m.fill_mask(logits, n_logits);   // before temperature/top-k/top-p; disallowed -> -inf
//        token = sample(logits);
//        m.accept(token);                 // returns false only if token was masked out
//        if (m.is_complete()) finish with reason "grammar_end"; an end token (EOS/EOT) that
//        m.accept()ed also ends the sequence normally.
//    Cheaper variant (llama.cpp's trick): sample unmasked, check m.is_allowed(token); only if
//    false call fill_mask and resample. Both give the same distribution support.
//    fill_bitmask() gives the same mask as bits (1 = allowed) for a GPU-side apply.
//  * Prompt text is not fed to the matcher; it starts at the beginning of the grammar (for event
//    lines: at a line boundary, so the prompt should end with '\n').
//  * Event lines: text is whole lines `{"type":<int>,"data":{...}}` (+ optional "timestamp"),
//    each ended by '\n'; an end token is allowed only between lines. A max_tokens cut can still
//    leave a partial last line: the caller drops text after the last '\n'.
//  * Special/control tokens are never allowed inside grammar output; the vocab's end tokens are
//    allowed exactly when can_terminate().
//  * engine_constraint.h adapts a matcher to the engine's token_constraint (fill_allowed) and
//    builds the vocab from a GGUF file: grammar_vocab_from_gguf, make_grammar_constraint.
//  * Cost: the first time a state shape is seen (per process) its mask takes a vocabulary-trie
//    walk (up to ~20-30 ms for a fresh string state on Qwen's 152k tokens); repeated shapes take
//    microseconds (bench/grammar). Masks are cached per vocab (bounded, see grammar_internal.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace infer {

// Raw bytes of each token from GGUF tokenizer.ggml.tokens. model_type is tokenizer.ggml.model:
// "gpt2" (byte-level BPE: GPT-2 bytes_to_unicode inverted) or "llama" (SentencePiece: U+2581 is
// a space, <0xNN> is byte NN). Unknown model types are treated as byte-level BPE.
std::vector<std::string> vocab_bytes_from_gguf_tokens(const std::vector<std::string>& tokens,
                                                      const std::string& model_type);

struct grammar_vocab_impl;
struct mask_cache;

class grammar_vocab {
 public:
  // token_bytes[i]: the bytes token i stands for. usable[i] != 0: the token may appear inside
  // grammar output (normal and byte tokens; not control, user-defined or unused ones).
  // end_ids: tokens that end generation (EOS, EOT); allowed only where the grammar may end.
  static std::shared_ptr<const grammar_vocab> create(std::vector<std::string> token_bytes,
                                                     std::vector<uint8_t> usable,
                                                     std::vector<int32_t> end_ids);
  // From GGUF metadata: tokenizer.ggml.tokens, tokenizer.ggml.token_type (1 normal, 2 unknown,
  // 3 control, 4 user-defined, 5 unused, 6 byte; empty = all normal), tokenizer.ggml.model.
  static std::shared_ptr<const grammar_vocab> from_gguf(const std::vector<std::string>& tokens,
                                                        const std::vector<int32_t>& token_types,
                                                        const std::string& model_type,
                                                        std::vector<int32_t> end_ids);
  ~grammar_vocab();
  int32_t size() const;
  const std::string& token_bytes(int32_t id) const;
  const grammar_vocab_impl& impl() const { return *impl_; }

 private:
  grammar_vocab();
  std::unique_ptr<grammar_vocab_impl> impl_;
};

struct compiled_grammar;  // opaque, immutable

// JSON-schema subset: type (string or list), object (properties, required, additionalProperties
// false / true / schema), array (items, minItems, maxItems), string (minLength, maxLength in code
// points, at most 65534), number, integer, boolean, null, enum, const, anyOf / oneOf (at most 16
// alternatives; oneOf exclusivity is not enforced), $ref to local JSON pointers (#, #/$defs/..,
// #/definitions/..; recursion allowed), allOf of one schema, nullable. Annotations and
// unsupported assertions (pattern, format, minimum, uniqueItems, ...) are ignored; allOf with
// several schemas, not, if/then/else, prefixItems, tuple items are errors, and so is a schema
// that admits no finite value. Branches that admit no finite value (or none within the nesting
// limit) are never offered, so a mask never leads into a dead end.
// Returns nullptr and sets *error on an invalid or unsupported schema. Memoized by text.
std::shared_ptr<const compiled_grammar> compile_json_schema(const std::string& schema_json,
                                                            std::string* error);
// Any JSON object (response_format json_object).
std::shared_ptr<const compiled_grammar> compile_any_json_object();
// NDJSON event lines: `{"type":<integer>,"data":<object>}` + optional "timestamp":<integer>,
// keys in any order, no newline inside a line, each line ended by '\n'.
std::shared_ptr<const compiled_grammar> compile_event_lines();

struct matcher_state;

class grammar_matcher {
 public:
  grammar_matcher(std::shared_ptr<const compiled_grammar> grammar,
                  std::shared_ptr<const grammar_vocab> vocab);
  ~grammar_matcher();
  grammar_matcher(const grammar_matcher&) = delete;
  grammar_matcher& operator=(const grammar_matcher&) = delete;

  // Sets logits[i] = -inf for every token not allowed now (ids >= vocab size included).
  void fill_mask(float* logits, size_t n_logits);
  // bits[i / 32] bit (i % 32) = 1 iff token i is allowed now; n_words * 32 tokens covered.
  void fill_bitmask(uint32_t* bits, size_t n_words);
  // allowed[i] = 1 iff token i is allowed now, for i < n.
  void fill_allowed(uint8_t* allowed, size_t n);
  // Whether token may be accepted now (no mask computed; for the sample-first fast path).
  bool is_allowed(int32_t token) const;
  // Advances by token; returns false (state unchanged) if the token is not allowed.
  bool accept(int32_t token);
  // An end token may be accepted now (the output so far is a complete document / whole lines).
  bool can_terminate() const;
  // Nothing but ending is possible (or an end token was accepted): stop with "grammar_end".
  bool is_complete() const;
  // Back to the start of the grammar.
  void reset();
  // Number of tokens currently allowed (tests, diagnostics); computes the mask.
  size_t count_allowed();

 private:
  std::unique_ptr<matcher_state> st_;
};

}  // namespace infer
