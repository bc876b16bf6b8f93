// Regular expression -> code-point AST -> byte NFA (UTF-8 sequences per class) -> DFA by subset
// construction -> per-state reach table. See regex_dfa.h for the supported subset.
#include "grammar/regex_dfa.h"
#include "grammar/utf8.h"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>

namespace infer {
namespace {

constexpr uint32_t kMaxCodePoint = 0x10FFFF;
// Limits that keep the worst compile (on the request's thread) to tens of milliseconds.
constexpr size_t kMaxPatternChars = 4096;
constexpr size_t kMaxNfaStates = 50000;
constexpr size_t kMaxDfaStates = 4096;
constexpr uint32_t kMaxRepeat = 1000;
constexpr int kMaxGroupDepth = 64;  // the parser recurses per group level
constexpr uint32_t kUnbounded = 0xFFFFFFFFu;

using cp_range = std::pair<uint32_t, uint32_t>;  // inclusive
using cp_set = std::vector<cp_range>;

cp_set normalized(cp_set s) {
  std::sort(s.begin(), s.end());
  cp_set out;
  for (const cp_range& r : s) {
    if (!out.empty() && r.first <= out.back().second + 1) out.back().second = std::max(out.back().second, r.second);
    else out.push_back(r);
  }
  return out;
}

cp_set complement(const cp_set& s) {
  cp_set out;
  uint32_t next = 0;
  for (const cp_range& r : normalized(s)) {
    if (r.first > next) out.push_back({next, r.first - 1});
    next = r.second + 1;
  }
  if (next <= kMaxCodePoint) out.push_back({next, kMaxCodePoint});
  return out;
}

const cp_set kDigit = {{'0', '9'}};
const cp_set kWord = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
const cp_set kSpace = {{0x09, 0x0D}, {0x20, 0x20}, {0xA0, 0xA0}, {0x1680, 0x1680}, {0x2000, 0x200A},
                       {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF}};
const cp_set kLineEnds = {{0x0A, 0x0A}, {0x0D, 0x0D}, {0x2028, 0x2029}};

struct re_node {
  enum kind_t : uint8_t { set, cat, alt, rep } kind = cat;
  cp_set chars;
  std::vector<std::unique_ptr<re_node>> kids;
  uint32_t min = 0, max = 0;  // rep (max kUnbounded: no limit)
};
using node_ptr = std::unique_ptr<re_node>;

node_ptr make(re_node::kind_t k) {
  auto n = std::make_unique<re_node>();
  n->kind = k;
  return n;
}
node_ptr make_set(cp_set s) {
  auto n = make(re_node::set);
  n->chars = normalized(std::move(s));
  return n;
}
node_ptr any_string() {  // [\s\S]*: what an unanchored side may hold
  auto r = make(re_node::rep);
  r->min = 0;
  r->max = kUnbounded;
  r->kids.push_back(make_set({{0, kMaxCodePoint}}));
  return r;
}

bool decode_utf8(const std::string& s, std::vector<uint32_t>& out) {
  for (size_t i = 0, len = 0; i < s.size();) {
    const uint32_t cp = next_code_point(s, i, len);
    if (cp == 0xFFFFFFFFu) return false;
    out.push_back(cp);
  }
  return true;
}

struct re_parser {
  std::vector<uint32_t> cp;
  size_t i = 0;
  int depth = 0;
  std::string err;

  bool fail(const std::string& msg) {
    if (err.empty()) err = msg + " (at character " + std::to_string(i) + ")";
    return false;
  }
  bool done() const { return i >= cp.size(); }
  uint32_t peek(size_t ahead = 0) const { return i + ahead < cp.size() ? cp[i + ahead] : 0xFFFFFFFFu; }

  // Top level: alternatives, each with its own optional ^ and $.
  node_ptr parse_pattern() {
    auto a = make(re_node::alt);
    for (;;) {
      const bool anchored_start = peek() == '^';
      if (anchored_start) ++i;
      bool anchored_end = false;
      node_ptr body = parse_concat(true, &anchored_end);
      if (!body) return nullptr;
      auto seq = make(re_node::cat);
      if (!anchored_start) seq->kids.push_back(any_string());
      seq->kids.push_back(std::move(body));
      if (!anchored_end) seq->kids.push_back(any_string());
      a->kids.push_back(std::move(seq));
      if (peek() != '|') break;
      ++i;
    }
    if (!done()) {
      fail("unmatched ')'");
      return nullptr;
    }
    return a;
  }

  node_ptr parse_alt() {
    auto a = make(re_node::alt);
    for (;;) {
      node_ptr c = parse_concat(false, nullptr);
      if (!c) return nullptr;
      a->kids.push_back(std::move(c));
      if (peek() != '|') break;
      ++i;
    }
    return a;
  }

  node_ptr parse_concat(bool top, bool* anchored_end) {
    auto c = make(re_node::cat);
    while (!done() && peek() != '|' && peek() != ')') {
      if (peek() == '$') {
        ++i;
        if (top && (done() || peek() == '|')) {
          *anchored_end = true;
          break;
        }
        fail("'$' is supported only at the end of the pattern or of a top-level alternative");
        return nullptr;
      }
      if (peek() == '^') {
        fail("'^' is supported only at the start of the pattern or of a top-level alternative");
        return nullptr;
      }
      node_ptr r = parse_repeat();
      if (!r) return nullptr;
      c->kids.push_back(std::move(r));
    }
    return c;
  }

  bool read_int(uint32_t& out) {
    if (peek() < '0' || peek() > '9') return false;
    uint64_t v = 0;
    while (peek() >= '0' && peek() <= '9') {
      v = std::min<uint64_t>(v * 10 + (peek() - '0'), uint64_t(kMaxRepeat) + 1);
      ++i;
    }
    out = uint32_t(v);
    return true;
  }

  node_ptr parse_repeat() {
    node_ptr atom = parse_atom();
    if (!atom) return nullptr;
    for (;;) {
      uint32_t lo = 0, hi = 0;
      const uint32_t c = peek();
      if (c == '*') { lo = 0; hi = kUnbounded; ++i; }
      else if (c == '+') { lo = 1; hi = kUnbounded; ++i; }
      else if (c == '?') { lo = 0; hi = 1; ++i; }
      else if (c == '{') {
        ++i;
        if (!read_int(lo)) { fail("invalid quantifier"); return nullptr; }
        hi = lo;
        if (peek() == ',') {
          ++i;
          hi = kUnbounded;
          if (peek() != '}' && !read_int(hi)) { fail("invalid quantifier"); return nullptr; }
        }
        if (peek() != '}') { fail("invalid quantifier"); return nullptr; }
        ++i;
        if (lo > kMaxRepeat || (hi != kUnbounded && hi > kMaxRepeat)) { fail("repetition counts above 1000 are not supported"); return nullptr; }
        if (lo > hi) { fail("numbers out of order in a {n,m} quantifier"); return nullptr; }
      } else {
        return atom;
      }
      if (peek() == '?') ++i;  // lazy: the same strings match
      auto r = make(re_node::rep);
      r->min = lo;
      r->max = hi;
      r->kids.push_back(std::move(atom));
      atom = std::move(r);
      if (peek() == '*' || peek() == '+' || peek() == '?' || peek() == '{') { fail("nothing to repeat"); return nullptr; }
    }
  }

  node_ptr parse_atom() {
    const uint32_t c = peek();
    if (c == '(') {
      ++i;
      if (depth >= kMaxGroupDepth) { fail("groups nested more than " + std::to_string(kMaxGroupDepth) + " deep"); return nullptr; }
      if (peek() == '?') {
        if (peek(1) == ':') {
          i += 2;
        } else if (peek(1) == '<' && peek(2) != '=' && peek(2) != '!') {
          i += 2;
          while (!done() && peek() != '>') ++i;
          if (done()) { fail("unterminated group name"); return nullptr; }
          ++i;
        } else if (peek(1) == '=' || peek(1) == '!' || peek(1) == '<') {
          fail("lookahead and lookbehind are not supported");
          return nullptr;
        } else {
          fail("inline flags and other (?…) groups are not supported");
          return nullptr;
        }
      }
      ++depth;
      node_ptr inner = parse_alt();
      --depth;
      if (!inner) return nullptr;
      if (peek() != ')') { fail("missing ')'"); return nullptr; }
      ++i;
      return inner;
    }
    if (c == '[') { ++i; return parse_class(); }
    if (c == '.') { ++i; return make_set(complement(kLineEnds)); }
    if (c == '*' || c == '+' || c == '?' || c == '{') { fail("nothing to repeat"); return nullptr; }
    if (c == '\\') {
      ++i;
      cp_set s;
      if (!parse_escape(false, s)) return nullptr;
      return make_set(std::move(s));
    }
    ++i;
    return make_set({{c, c}});
  }

  bool hex_digits(int n, uint32_t& out) {
    out = 0;
    for (int k = 0; k < n; ++k) {
      const int v = hex_digit_value(peek());
      if (v < 0) return false;
      out = out << 4 | uint32_t(v);
      ++i;
    }
    return true;
  }

  // After a backslash: the characters it stands for.
  bool parse_escape(bool in_class, cp_set& out) {
    if (done()) return fail("pattern ends with a backslash");
    const uint32_t c = peek();
    ++i;
    switch (c) {
      case 'd': out = kDigit; return true;
      case 'D': out = complement(kDigit); return true;
      case 'w': out = kWord; return true;
      case 'W': out = complement(kWord); return true;
      case 's': out = kSpace; return true;
      case 'S': out = complement(kSpace); return true;
      case 't': out = {{9, 9}}; return true;
      case 'n': out = {{10, 10}}; return true;
      case 'v': out = {{11, 11}}; return true;
      case 'f': out = {{12, 12}}; return true;
      case 'r': out = {{13, 13}}; return true;
      case '0':
        if (peek() >= '0' && peek() <= '9') return fail("octal escapes are not supported");
        out = {{0, 0}};
        return true;
      case 'b':
        if (in_class) { out = {{8, 8}}; return true; }
        return fail("word boundaries (\\b) are not supported");
      case 'B': return fail("word boundaries (\\B) are not supported");
      case 'x': {
        uint32_t v = 0;
        if (!hex_digits(2, v)) return fail("\\x needs two hex digits");
        out = {{v, v}};
        return true;
      }
      case 'u': {
        uint32_t v = 0;
        if (peek() == '{') {
          ++i;
          size_t start = i;
          while (!done() && peek() != '}') ++i;
          if (done() || i == start || i - start > 6) return fail("invalid \\u{…} escape");
          size_t end = i;
          i = start;
          if (!hex_digits(int(end - start), v) || v > kMaxCodePoint) return fail("invalid \\u{…} escape");
          ++i;  // '}'
        } else {
          if (!hex_digits(4, v)) return fail("\\u needs four hex digits");
          if (v >= 0xD800 && v <= 0xDBFF && peek() == '\\' && peek(1) == 'u') {
            const size_t save = i;
            i += 2;
            uint32_t lo = 0;
            if (hex_digits(4, lo) && lo >= 0xDC00 && lo <= 0xDFFF) v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
            else i = save;
          }
        }
        out = {{v, v}};
        return true;
      }
      case 'c': {
        const uint32_t l = peek();
        if (!((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z'))) return fail("\\c needs a letter");
        ++i;
        out = {{l % 32, l % 32}};
        return true;
      }
      case 'p':
      case 'P': return fail("Unicode property escapes (\\p{…}) are not supported");
      case 'k': return fail("backreferences are not supported");
      default:
        if (c >= '1' && c <= '9') return fail("backreferences are not supported");
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return fail(std::string("unknown escape \\") + char(c));
        out = {{c, c}};
        return true;
    }
  }

  // One member of a class: a character or a class escape.
  bool class_member(cp_set& out) {
    const uint32_t c = peek();
    ++i;
    if (c == '\\') return parse_escape(true, out);
    out = {{c, c}};
    return true;
  }
  static bool one_char(const cp_set& s) { return s.size() == 1 && s[0].first == s[0].second; }

  node_ptr parse_class() {
    bool negate = false;
    if (peek() == '^') { negate = true; ++i; }
    cp_set s;
    while (!done() && peek() != ']') {
      cp_set lo;
      if (!class_member(lo)) return nullptr;
      if (peek() == '-' && peek(1) != ']' && peek(1) != 0xFFFFFFFFu) {
        ++i;
        cp_set hi;
        if (!class_member(hi)) return nullptr;
        if (!one_char(lo) || !one_char(hi)) { fail("a class escape cannot bound a range"); return nullptr; }
        if (lo[0].first > hi[0].first) { fail("range out of order in a character class"); return nullptr; }
        s.push_back({lo[0].first, hi[0].first});
        continue;
      }
      s.insert(s.end(), lo.begin(), lo.end());
    }
    if (done()) { fail("unterminated character class"); return nullptr; }
    ++i;
    return make_set(negate ? complement(s) : s);
  }
};

// ---- byte NFA ----
struct byte_nfa {
  struct edge {
    uint8_t lo, hi;
    uint32_t to;
  };
  std::vector<std::vector<uint32_t>> eps;
  std::vector<std::vector<edge>> edges;
  bool overflow = false;

  uint32_t add() {
    if (eps.size() >= kMaxNfaStates) overflow = true;
    eps.emplace_back();
    edges.emplace_back();
    return uint32_t(eps.size() - 1);
  }
};


using byte_seq = std::vector<std::pair<uint8_t, uint8_t>>;

// The code points [lo, hi] (surrogates left out) as sequences of byte ranges, one byte range per
// UTF-8 position: split until every position's range is independent of the others.
void utf8_sequences(uint32_t lo, uint32_t hi, std::vector<byte_seq>& out) {
  if (lo > hi) return;
  if (lo <= 0xDFFF && hi >= 0xD800) {
    if (lo < 0xD800) utf8_sequences(lo, 0xD7FF, out);
    if (hi > 0xDFFF) utf8_sequences(0xE000, hi, out);
    return;
  }
  for (uint32_t m : {0x7Fu, 0x7FFu, 0xFFFFu}) {
    if (lo <= m && hi > m) {
      utf8_sequences(lo, m, out);
      utf8_sequences(m + 1, hi, out);
      return;
    }
  }
  std::string a, b;  // lo and hi encoded
  append_utf8(lo, a);
  append_utf8(hi, b);
  const int n = int(a.size());
  for (int k = 1; k < n; ++k) {
    const uint32_t m = (1u << (6 * k)) - 1;
    if ((lo & ~m) != (hi & ~m)) {
      if ((lo & m) != 0) {
        utf8_sequences(lo, lo | m, out);
        utf8_sequences((lo | m) + 1, hi, out);
        return;
      }
      if ((hi & m) != m) {
        utf8_sequences(lo, (hi & ~m) - 1, out);
        utf8_sequences(hi & ~m, hi, out);
        return;
      }
    }
  }
  byte_seq seq;
  for (int k = 0; k < n; ++k) seq.push_back({uint8_t(a[size_t(k)]), uint8_t(b[size_t(k)])});
  out.push_back(seq);
}

// Thompson construction: the states from `from` on that match n; returns the end state.
uint32_t build_nfa(const re_node& n, uint32_t from, byte_nfa& a) {
  if (a.overflow) return from;
  switch (n.kind) {
    case re_node::set: {
      const uint32_t to = a.add();
      std::vector<byte_seq> seqs;
      for (const cp_range& r : n.chars) utf8_sequences(r.first, r.second, seqs);
      for (const byte_seq& seq : seqs) {
        uint32_t cur = from;
        for (size_t k = 0; k < seq.size(); ++k) {
          const uint32_t nx = k + 1 == seq.size() ? to : a.add();
          a.edges[cur].push_back({seq[k].first, seq[k].second, nx});
          cur = nx;
        }
      }
      return to;
    }
    case re_node::cat: {
      uint32_t cur = from;
      for (const node_ptr& k : n.kids) cur = build_nfa(*k, cur, a);
      return cur;
    }
    case re_node::alt: {
      const uint32_t to = a.add();
      for (const node_ptr& k : n.kids) {
        const uint32_t s = a.add();
        a.eps[from].push_back(s);
        const uint32_t e = build_nfa(*k, s, a);
        a.eps[e].push_back(to);
      }
      return to;
    }
    default: {  // rep
      uint32_t cur = from;
      for (uint32_t k = 0; k < n.min && !a.overflow; ++k) cur = build_nfa(*n.kids[0], cur, a);
      if (n.max == kUnbounded) {
        const uint32_t loop = a.add();
        a.eps[cur].push_back(loop);
        const uint32_t e = build_nfa(*n.kids[0], loop, a);
        a.eps[e].push_back(loop);
        const uint32_t out = a.add();
        a.eps[loop].push_back(out);
        return out;
      }
      const uint32_t out = a.add();
      for (uint32_t k = n.min; k < n.max && !a.overflow; ++k) {
        a.eps[cur].push_back(out);
        cur = build_nfa(*n.kids[0], cur, a);
      }
      a.eps[cur].push_back(out);
      return out;
    }
  }
}

void closure(const byte_nfa& a, std::vector<uint32_t>& set, std::vector<uint8_t>& mark, size_t& work) {
  std::vector<uint32_t> stack(set.begin(), set.end());
  for (uint32_t s : set) mark[s] = 1;
  while (!stack.empty()) {
    const uint32_t s = stack.back();
    stack.pop_back();
    for (uint32_t t : a.eps[s])
      if (!mark[t]) {
        mark[t] = 1;
        set.push_back(t);
        stack.push_back(t);
      }
  }
  for (uint32_t s : set) mark[s] = 0;
  work += set.size();
  std::sort(set.begin(), set.end());
}

bool determinize(const byte_nfa& a, uint32_t start, uint32_t final_state, byte_dfa& out, std::string* err,
                 regex_budget& budget) {
  std::map<std::vector<uint32_t>, uint32_t> ids;
  std::vector<std::vector<uint32_t>> sets;
  std::vector<uint8_t> mark(a.eps.size(), 0);
  size_t work = 0;
  auto too_complex = [&](const std::string& why) {
    if (err) *err = "pattern too complex (" + why + ")";
    return false;
  };
  std::vector<uint32_t> first = {start};
  closure(a, first, mark, work);
  ids[first] = 0;
  sets.push_back(first);
  out = byte_dfa();
  // Byte classes: bytes that no edge boundary separates behave alike in every state, so each
  // state's successors are computed once per class (a few dozen) instead of once per byte.
  std::vector<uint8_t> cut(257, 0);
  cut[0] = 1;
  for (const auto& es : a.edges)
    for (const byte_nfa::edge& e : es) cut[e.lo] = cut[size_t(e.hi) + 1] = 1;
  std::vector<std::pair<uint32_t, uint32_t>> classes;  // [first, last] bytes
  for (uint32_t b = 0; b < 256; ++b) {
    if (cut[b]) classes.push_back({b, b});
    else classes.back().second = b;
  }
  std::vector<uint32_t> t;
  for (size_t d = 0; d < sets.size(); ++d) {
    out.next.resize((d + 1) * 256, byte_dfa::dead);
    out.accept.push_back(std::binary_search(sets[d].begin(), sets[d].end(), final_state));
    for (const auto& [lo, hi] : classes) {
      t.clear();
      for (uint32_t s : sets[d])
        for (const byte_nfa::edge& e : a.edges[s])
          if (e.lo <= lo && lo <= e.hi) t.push_back(e.to);
      if (t.empty()) continue;
      std::sort(t.begin(), t.end());
      t.erase(std::unique(t.begin(), t.end()), t.end());
      closure(a, t, mark, work);
      if (work > budget.closure) return too_complex("building the schema's automata takes too long");
      auto it = ids.find(t);
      uint32_t id;
      if (it != ids.end()) {
        id = it->second;
      } else {
        if (sets.size() >= kMaxDfaStates) return too_complex("its automaton exceeds " + std::to_string(kMaxDfaStates) + " states");
        id = uint32_t(sets.size());
        ids.emplace(t, id);
        sets.push_back(t);
      }
      for (uint32_t b = lo; b <= hi; ++b) out.next[d * 256 + b] = id;
    }
  }
  budget.closure -= work;
  out.start = 0;
  return true;
}

bool compile_node(const re_node& root, byte_dfa& out, std::string* err, regex_budget& budget) {
  byte_nfa a;
  const uint32_t start = a.add();
  const uint32_t end = build_nfa(root, start, a);
  if (a.overflow) {
    if (err) *err = "pattern too complex (its repetitions expand past " + std::to_string(kMaxNfaStates) + " automaton states)";
    return false;
  }
  return determinize(a, start, end, out, err, budget);
}

// The formats' syntax (RFC 3339 date / full-time, RFC 4122 uuid, dotted-quad IPv4, a common
// e-mail shape). Days run 01-31 in every month, as in llama.cpp's date rule.
const char* format_pattern(const std::string& name) {
  if (name == "date") return "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$";
  if (name == "time") return "^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$";
  if (name == "date-time")
    return "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?"
           "(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$";
  if (name == "uuid") return "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
  if (name == "ipv4") return "^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$";
  if (name == "duration")  // ISO 8601 as RFC 3339 appendix A: at least one component, weeks alone
    return "^P(([0-9]+Y([0-9]+M)?([0-9]+D)?|[0-9]+M([0-9]+D)?|[0-9]+D)(T([0-9]+H([0-9]+M)?([0-9]+S)?|[0-9]+M([0-9]+S)?|[0-9]+S))?"
           "|T([0-9]+H([0-9]+M)?([0-9]+S)?|[0-9]+M([0-9]+S)?|[0-9]+S)|[0-9]+W)$";
  if (name == "hostname")  // RFC 1123 labels of 1-63 characters (the 253-character total is not checked)
    return "^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$";
  if (name == "ipv6") {  // RFC 4291 text forms, "::" compression included (no embedded IPv4, no zone)
    return "^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}"
           "|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}"
           "|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}"
           "|[0-9a-fA-F]{1,4}:(:[0-9a-fA-F]{1,4}){1,6}|:((:[0-9a-fA-F]{1,4}){1,7}|:))$";
  }
  if (name == "email")
    // RFC 5321 dot-atom local part (no leading, trailing or doubled dot), a subset of atext
    // and domain labels of 1-63 characters, as hostname (the local part's 64 are not checked)
    return "^[A-Za-z0-9_%+-]+(\\.[A-Za-z0-9_%+-]+)*@[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
           "(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\\.[A-Za-z]{2,63}$";
  return nullptr;
}

inline bool is_start_byte(uint32_t b) { return b < 0x80 || b >= 0xC0; }

}  // namespace

bool byte_dfa::feasible(uint32_t s, uint32_t need, uint32_t allow) const {
  if (s == dead) return false;
  const uint32_t hi = allow > len_cap ? len_cap + 1 : allow;
  if (need > hi) return false;
  const uint64_t* r = &reach[size_t(s) * words];
  for (uint32_t w = need / 64; w <= hi / 64; ++w) {
    uint64_t m = r[w];
    if (w == need / 64) m &= ~uint64_t(0) << (need % 64);
    if (w == hi / 64 && hi % 64 != 63) m &= (uint64_t(1) << (hi % 64 + 1)) - 1;
    if (m) return true;
  }
  return false;
}

bool compile_pattern(const std::string& pattern, byte_dfa& out, std::string* err, regex_budget& budget) {
  re_parser p;
  if (!decode_utf8(pattern, p.cp)) {
    if (err) *err = "pattern is not valid UTF-8";
    return false;
  }
  if (p.cp.size() > kMaxPatternChars) {
    if (err) *err = "patterns longer than " + std::to_string(kMaxPatternChars) + " characters are not supported";
    return false;
  }
  node_ptr root = p.parse_pattern();
  if (!root) {
    if (err) *err = p.err;
    return false;
  }
  return compile_node(*root, out, err, budget);
}

bool compile_format(const std::string& format, byte_dfa& out) {
  const char* p = format_pattern(format);
  std::string err;
  regex_budget budget;  // the formats are small and fixed
  return p && compile_pattern(p, out, &err, budget);
}

bool intersect_dfa(const byte_dfa& a, const byte_dfa& b, byte_dfa& out, std::string* err) {
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> ids;
  std::vector<std::pair<uint32_t, uint32_t>> pairs = {{a.start, b.start}};
  ids[pairs[0]] = 0;
  out = byte_dfa();
  for (size_t d = 0; d < pairs.size(); ++d) {
    const auto [x, y] = pairs[d];
    out.next.resize((d + 1) * 256, byte_dfa::dead);
    out.accept.push_back(a.accept[x] && b.accept[y]);
    for (uint32_t c = 0; c < 256; ++c) {
      const uint32_t nx = a.step(x, uint8_t(c)), ny = b.step(y, uint8_t(c));
      if (nx == byte_dfa::dead || ny == byte_dfa::dead) continue;
      auto [it, fresh] = ids.emplace(std::make_pair(nx, ny), uint32_t(pairs.size()));
      if (fresh) {
        if (pairs.size() >= kMaxDfaStates) {
          if (err) *err = "pattern and format together are too complex";
          return false;
        }
        pairs.push_back({nx, ny});
      }
      out.next[d * 256 + c] = it->second;
    }
  }
  out.start = 0;
  return true;
}

// The most characters a match can have from the start, or UINT32_MAX when a cycle on the way
// to a match makes it unbounded (every cycle holds a character's first byte).
uint32_t longest_match(const byte_dfa& d, const std::vector<std::vector<std::pair<uint32_t, bool>>>& preds) {
  const size_t n = d.size();
  std::vector<uint8_t> live(n, 0);  // a match can still end from here
  std::vector<uint32_t> stack;
  for (size_t s = 0; s < n; ++s)
    if (d.accept[s]) {
      live[s] = 1;
      stack.push_back(uint32_t(s));
    }
  while (!stack.empty()) {
    const uint32_t t = stack.back();
    stack.pop_back();
    for (const auto& pe : preds[t])
      if (!live[pe.first]) {
        live[pe.first] = 1;
        stack.push_back(pe.first);
      }
  }
  // Depth-first from the start over live states: a back edge is a cycle; else longest paths.
  std::vector<uint8_t> color(n, 0);  // 0 new, 1 on the path, 2 done
  std::vector<uint32_t> longest(n, 0);
  std::vector<std::pair<uint32_t, uint32_t>> path;  // (state, next byte to try)
  if (!live[d.start]) return 0;
  path.push_back({d.start, 0});
  color[d.start] = 1;
  while (!path.empty()) {
    auto& [s, b] = path.back();
    if (b == 256) {
      color[s] = 2;
      const uint32_t done = s;
      path.pop_back();
      if (!path.empty()) {
        const uint32_t parent = path.back().first, via = path.back().second - 1;
        longest[parent] = std::max(longest[parent], longest[done] + (is_start_byte(via) ? 1u : 0u));
      }
      continue;
    }
    const uint32_t t = d.next[size_t(s) * 256 + b++];
    if (t == byte_dfa::dead || !live[t]) continue;
    if (color[t] == 1) return UINT32_MAX;
    if (color[t] == 2) {
      longest[s] = std::max(longest[s], longest[t] + (is_start_byte(b - 1) ? 1u : 0u));
      continue;
    }
    color[t] = 1;
    path.push_back({t, 0});
  }
  return longest[d.start];
}

bool finish_dfa(byte_dfa& d, uint32_t len_cap, std::string* err, regex_budget& budget) {
  const size_t n = d.size();
  for (size_t s = 0; s < n; ++s)
    for (uint32_t b = 0; b < 0x20; ++b)
      if (b != 8 && b != 9 && b != 10 && b != 12 && b != 13) d.next[s * 256 + b] = byte_dfa::dead;
  // Predecessors, one entry per distinct (source, counts-a-character) pair.
  std::vector<std::vector<std::pair<uint32_t, bool>>> preds(n);
  for (size_t s = 0; s < n; ++s)
    for (uint32_t b = 0; b < 256; ++b) {
      const uint32_t t = d.next[s * 256 + b];
      if (t == byte_dfa::dead) continue;
      auto& p = preds[t];
      const std::pair<uint32_t, bool> e{uint32_t(s), is_start_byte(b)};
      if (std::find(p.begin(), p.end(), e) == p.end()) p.push_back(e);
    }
  len_cap = std::min(len_cap, longest_match(d, preds));
  d.len_cap = len_cap;
  d.words = (len_cap + 2 + 63) / 64;
  auto too_large = [&] {
    if (err) *err = "minLength/maxLength of " + std::to_string(len_cap) + " with this pattern is too large to enforce";
    return false;
  };
  if (size_t(n) * d.words > budget.reach) return too_large();
  size_t reach_work = size_t(n) * d.words;  // counted as the table fills, against the budget
  const uint32_t W = d.words, top = len_cap + 1;
  d.reach.assign(n * W, 0);
  std::deque<uint32_t> work;
  std::vector<uint8_t> queued(n, 0);
  for (size_t s = 0; s < n; ++s)
    if (d.accept[s]) {
      d.reach[s * W] |= 1;
      work.push_back(uint32_t(s));
      queued[s] = 1;
    }
  std::vector<uint64_t> shifted(W);
  while (!work.empty()) {
    const uint32_t t = work.front();
    work.pop_front();
    queued[t] = 0;
    const uint64_t* rt = &d.reach[size_t(t) * W];
    // rt shifted by one character; "more than len_cap" absorbs len_cap and itself.
    for (uint32_t w = W; w-- > 0;) shifted[w] = rt[w] << 1 | (w > 0 ? rt[w - 1] >> 63 : 0);
    const bool over = (rt[top / 64] >> (top % 64) & 1) != 0;
    shifted[top / 64] &= (top % 64 == 63) ? ~uint64_t(0) : (uint64_t(1) << (top % 64 + 1)) - 1;
    for (uint32_t w = top / 64 + 1; w < W; ++w) shifted[w] = 0;
    if (over) shifted[top / 64] |= uint64_t(1) << (top % 64);
    reach_work += preds[t].size() * W;
    if (reach_work > budget.reach) return too_large();
    for (const auto& [s, counts] : preds[t]) {
      uint64_t* rs = &d.reach[size_t(s) * W];
      const uint64_t* src = counts ? shifted.data() : rt;
      bool changed = false;
      for (uint32_t w = 0; w < W; ++w) {
        const uint64_t v = rs[w] | src[w];
        if (v != rs[w]) {
          rs[w] = v;
          changed = true;
        }
      }
      if (changed && !queued[s]) {
        queued[s] = 1;
        work.push_back(s);
      }
    }
  }
  budget.reach -= reach_work;
  // flat_from: past the highest bit, in any state, that differs from that state's bit len_cap + 1.
  d.flat_from = 0;
  for (size_t s = 0; s < n; ++s) {
    const uint64_t* r = &d.reach[s * W];
    const uint64_t fill = (r[top / 64] >> (top % 64) & 1) ? ~uint64_t(0) : 0;
    for (uint32_t w = top / 64 + 1; w-- > 0;) {
      uint64_t diff = r[w] ^ fill;
      if (w == top / 64) diff &= top % 64 == 63 ? ~uint64_t(0) : (uint64_t(1) << (top % 64 + 1)) - 1;
      if (diff) {
        d.flat_from = std::max(d.flat_from, w * 64 + uint32_t(63 - __builtin_clzll(diff)) + 1);
        break;
      }
    }
  }
  return true;
}

}  // namespace infer
