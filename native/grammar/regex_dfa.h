// JSON Schema `pattern` and `format` for constrained decoding: an ECMAScript regular expression
// (the subset below) compiled to a DFA over the UTF-8 bytes of a string's decoded characters,
// with, per state, the numbers of characters that can still lead to a match (so that a string's
// minLength / maxLength and its pattern never combine into a dead end).
//
// Supported: literals, `.`, classes `[...]` / `[^...]` with ranges, the escapes \d \D \w \W \s \S
// \t \n \r \f \v \0 \xHH \uHHHH \u{H…} \cX and escaped punctuation, groups `(…)` `(?:…)`
// `(?<name>…)`, `|`, the quantifiers * + ? {n} {n,} {n,m} (lazy forms match the same strings),
// `^` at the start and `$` at the end of the pattern or of a top-level alternative. A side
// without an anchor matches anywhere, as `pattern` does. Characters are code points (the `u`
// flag). Refused with a message: lookaround, backreferences, \b \B, \p{…}, anchors elsewhere,
// a pattern whose automaton grows past the limits.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace infer {

struct byte_dfa {
  static constexpr uint32_t dead = 0xFFFFFFFFu;
  uint32_t start = 0;
  std::vector<uint32_t> next;    // state * 256 + byte
  std::vector<uint8_t> accept;
  // reach, per state: bit L (0 <= L <= len_cap) when a match can end after exactly L more
  // characters, bit len_cap + 1 when after more than len_cap. Exact for every bound <= len_cap.
  uint32_t len_cap = 0;
  uint32_t words = 1;
  std::vector<uint64_t> reach;
  // From this many characters on, every state's reach bits are constant: budgets further out
  // than that behave alike (the mask cache keys them together, pda.cc).
  uint32_t flat_from = 0;

  size_t size() const { return accept.size(); }
  uint32_t step(uint32_t s, uint8_t b) const { return next[size_t(s) * 256 + b]; }
  // Whether a match can end after L more characters with need <= L <= allow (allow UINT32_MAX:
  // no limit); need and a finite allow must not exceed len_cap.
  bool feasible(uint32_t s, uint32_t need, uint32_t allow) const;
};

// Work all the patterns of one schema may take together: compiles run on a request's path.
struct regex_budget {
  size_t closure = 3000000;         // NFA states visited by epsilon closures (~0.25 s at worst)
  size_t reach = size_t(1) << 28;   // word operations filling reach tables (~0.3 s at worst)
};

// The regular expression (UTF-8 text) as a DFA; false and *err on unsupported syntax or when the
// budget runs out.
bool compile_pattern(const std::string& pattern, byte_dfa& out, std::string* err, regex_budget& budget);
// The DFA of a known `format` (date, time, date-time, duration, uuid, ipv4, ipv6, hostname, email);
// false if the name is not one.
bool compile_format(const std::string& format, byte_dfa& out);
// Strings both DFAs accept; false and *err if the product grows past the limits.
bool intersect_dfa(const byte_dfa& a, const byte_dfa& b, byte_dfa& out, std::string* err);
// Drops bytes a JSON string cannot carry in a pattern string (control characters other than
// \b \t \n \f \r, which have short escapes) and fills `reach` for bounds up to len_cap; false
// and *err when that table would be too large. A finite language lowers len_cap to its longest
// string (bounds above it change nothing).
bool finish_dfa(byte_dfa& d, uint32_t len_cap, std::string* err, regex_budget& budget);

}  // namespace infer
