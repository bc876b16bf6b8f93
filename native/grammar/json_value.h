// A small JSON value and parser for grammar compilation (schemas, enum literals) and the grammar
// tests (tokenizer.json). Not a general-purpose library: no streaming, whole text in memory.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace infer {

struct json_value {
  enum kind_t { null_k, bool_k, number_k, string_k, array_k, object_k };
  kind_t kind = null_k;
  bool boolean = false;
  std::string text;  // string_k: the decoded string; number_k: the number exactly as written
  std::vector<json_value> items;                            // array_k
  std::vector<std::pair<std::string, json_value>> members;  // object_k, in source order

  bool is_object() const { return kind == object_k; }
  bool is_array() const { return kind == array_k; }
  bool is_string() const { return kind == string_k; }
  bool is_number() const { return kind == number_k; }
  bool is_bool() const { return kind == bool_k; }
  // Last member with this key (duplicate keys: the last wins, as in JavaScript), or nullptr.
  const json_value* find(const std::string& key) const;
};

// Parses one JSON text (RFC 8259; surrounding whitespace allowed). On failure returns false and
// sets *error to a message with the byte offset. Nesting deeper than max_depth is an error.
bool json_parse(const std::string& text, json_value& out, std::string* error, int max_depth = 256);

// Appends s as a JSON string literal with minimal escaping (", \, control characters).
void json_append_quoted(const std::string& s, std::string& out);
// Compact canonical serialization: no whitespace, members in source order, numbers as written.
std::string json_serialize(const json_value& v);

}  // namespace infer
