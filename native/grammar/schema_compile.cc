// JSON schema (subset) -> schema nodes; the two fixed grammars; the compile memo.
#include <algorithm>
#include <cmath>
#include <list>
#include <map>
#include <utility>

#include "grammar/grammar_internal.h"
#include "grammar/json_value.h"

namespace infer {

uint32_t compiled_grammar::next_uid() {
  static std::atomic<uint32_t> counter{1};
  return counter.fetch_add(1);
}

byte_trie byte_trie::build(const std::vector<std::string>& keys) {
  std::vector<std::map<uint8_t, uint32_t>> kids(1);
  std::vector<int32_t> term(1, -1);
  for (size_t k = 0; k < keys.size(); ++k) {
    uint32_t cur = 0;
    for (unsigned char c : keys[k]) {
      auto it = kids[cur].find(c);
      if (it == kids[cur].end()) {
        uint32_t nid = uint32_t(kids.size());
        kids[cur][c] = nid;
        kids.emplace_back();
        term.push_back(-1);
        cur = nid;
      } else {
        cur = it->second;
      }
    }
    if (term[cur] < 0) term[cur] = int32_t(k);
  }
  byte_trie t;
  t.nodes.resize(kids.size());
  for (size_t i = 0; i < kids.size(); ++i) {
    t.nodes[i].edge_begin = uint32_t(t.edges.size());
    for (auto& e : kids[i]) t.edges.emplace_back(e.first, e.second);
    t.nodes[i].edge_end = uint32_t(t.edges.size());
    t.nodes[i].terminal = term[i];
  }
  // Children always have larger ids than their parent: one reverse pass fills `reach`.
  for (size_t i = t.nodes.size(); i-- > 0;) {
    auto& nd = t.nodes[i];
    if (nd.terminal >= 0 && nd.terminal < 64) nd.reach |= uint64_t(1) << nd.terminal;
    for (uint32_t e = nd.edge_begin; e < nd.edge_end; ++e) nd.reach |= t.nodes[t.edges[e].second].reach;
  }
  return t;
}

namespace {

schema_node any_node() { return schema_node(); }

struct schema_compiler {
  compiled_grammar& g;
  const json_value& doc;
  std::map<std::string, uint32_t> refs;
  std::string err;
  std::string unsat;  // the first unsatisfiable part (see unsatisfiable())
  regex_budget budget;  // shared by all of the schema's patterns
  size_t literal_bytes = 0;
  int depth = 0;

  bool fail(const std::string& path, const std::string& msg) {
    if (err.empty()) err = "schema at " + (path.empty() ? std::string("/") : path) + ": " + msg;
    return false;
  }

  uint32_t new_node() {
    g.nodes.emplace_back();
    return uint32_t(g.nodes.size() - 1);
  }

  static std::string unescape_pointer(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '~' && i + 1 < s.size() && (s[i + 1] == '0' || s[i + 1] == '1')) {
        out += s[i + 1] == '0' ? '~' : '/';
        ++i;
      } else {
        out += s[i];
      }
    }
    return out;
  }

  // Resolves a local JSON pointer ("#", "#/$defs/x", any "#/a/b" path into the document).
  const json_value* resolve(const std::string& ref) {
    if (ref.empty() || ref[0] != '#') return nullptr;
    const json_value* cur = &doc;
    size_t i = 1;
    while (i < ref.size()) {
      if (ref[i] != '/') return nullptr;
      size_t j = ref.find('/', i + 1);
      if (j == std::string::npos) j = ref.size();
      std::string part = unescape_pointer(ref.substr(i + 1, j - i - 1));
      if (cur->is_object()) {
        cur = cur->find(part);
      } else if (cur->is_array()) {
        char* end = nullptr;
        unsigned long idx = std::strtoul(part.c_str(), &end, 10);
        if (part.empty() || *end || idx >= cur->items.size()) return nullptr;
        cur = &cur->items[idx];
      } else {
        return nullptr;
      }
      if (!cur) return nullptr;
      i = j;
    }
    return cur;
  }

  bool read_count(const json_value& s, const char* key, const std::string& path, uint32_t& out) {
    const json_value* v = s.find(key);
    if (!v) return true;
    if (!v->is_number()) return fail(path, std::string(key) + " must be a non-negative integer");
    char* end = nullptr;
    double d = std::strtod(v->text.c_str(), &end);
    if (d < 0 || d != double(uint64_t(d))) return fail(path, std::string(key) + " must be a non-negative integer");
    out = d >= 4e9 ? UINT32_MAX - 1 : uint32_t(d);
    return true;
  }

  static int128 floor_div(int128 a, int128 b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
  static int128 ceil_div(int128 a, int128 b) { return a >= 0 ? (a + b - 1) / b : -(-a / b); }

  // minimum / maximum / exclusiveMinimum / exclusiveMaximum (draft 4's boolean exclusive flags
  // too) as inclusive bounds on the kNumScale grid, exact from the numbers' text; false when none
  // is given. x >= v: v rounded up; x > v: v rounded down, one step up; mirrored for the maximum.
  bool read_bounds(const json_value& s, const std::string& path, int128& lo, int128& hi) {
    lo = -kNumLimit;
    hi = kNumLimit;
    bool any = false;
    // Only the exclusive keys may be booleans (draft 4's flags, read by `flag`).
    auto number = [&](const char* key, bool flag_allowed) -> const json_value* {
      const json_value* v = s.find(key);
      if (!v || (flag_allowed && v->is_bool())) return nullptr;
      if (!v->is_number()) { fail(path, std::string(key) + " must be a number"); return nullptr; }
      any = true;
      return v;
    };
    auto flag = [&](const char* key) {
      const json_value* v = s.find(key);
      return v && v->is_bool() && v->boolean;
    };
    auto up = [](const json_value* v) { return scaled_decimal(v->text, true); };
    auto down = [](const json_value* v) { return scaled_decimal(v->text, false); };
    if (const json_value* v = number("minimum", false)) lo = std::max(lo, flag("exclusiveMinimum") ? down(v) + 1 : up(v));
    if (const json_value* v = number("maximum", false)) hi = std::min(hi, flag("exclusiveMaximum") ? up(v) - 1 : down(v));
    if (const json_value* v = number("exclusiveMinimum", true)) lo = std::max(lo, down(v) + 1);
    if (const json_value* v = number("exclusiveMaximum", true)) hi = std::min(hi, up(v) - 1);
    return any;
  }

  // multipleOf, rounded up and down onto the kNumScale grid (equal when it lies on it); false
  // when absent or malformed (then err is set).
  bool read_multiple_of(const json_value& s, const std::string& path, int128& up, int128& down) {
    const json_value* mv = s.find("multipleOf");
    if (!mv) return false;
    if (!mv->is_number()) return fail(path, "multipleOf must be a number");
    up = scaled_decimal(mv->text, true);
    down = scaled_decimal(mv->text, false);
    if (up <= 0) return fail(path, "multipleOf must be greater than 0");
    return true;
  }

  // The bounds and multipleOf of an integer node, as integers clamped to what kMaxIntDigits
  // digits can write.
  void read_int_bounds(const json_value& s, const std::string& path, schema_node& n) {
    const int128 limit = int128(9999999999999999LL);  // kMaxIntDigits nines
    int128 lo = 0, hi = 0;
    bool any = read_bounds(s, path, lo, hi);
    if (!err.empty()) return;
    // An integer >= a grid value v is >= ceil(v), and so on (the grid holds every integer).
    lo = std::max(-limit, ceil_div(lo, kNumScale));
    hi = std::min(limit, floor_div(hi, kNumScale));
    // multipleOf, exactly: the integers that are multiples of p / 10^q are the multiples of
    // p / gcd(p, 10^q) (2.5 -> 5, 0.5 -> 1); one past every writable integer leaves 0.
    int128 m = 1, up = 0, down = 0;
    if (read_multiple_of(s, path, up, down)) {
      if (up > kNumLimit) {  // beyond what can be written
        m = limit + 1;
        any = true;
      } else if (up == down) {  // on the 10^-16 grid; a finer or non-decimal one is not enforced
        int128 a = up, b = kNumScale;
        while (b != 0) a = std::exchange(b, a % b);
        m = std::min(up / a, limit + 1);
        any = true;
      }
    }
    if (!err.empty() || !any) return;
    // The smallest and largest allowed multiples inside [lo, hi].
    const int128 first = ceil_div(lo, m) * m, last = floor_div(hi, m) * m;
    if (lo > hi || first > last) {
      unsatisfiable(n, t_int | t_num, path, "no integer satisfies minimum/maximum/multipleOf");
      return;
    }
    const int64_t mult = int64_t(m);
    n.int_bounded = true;
    n.int_min = int64_t(lo);
    n.int_max = int64_t(hi);
    n.int_multiple = mult;
  }

  // A JSON number's text on the grid of kNumScale (rounded up or down onto it), clamped to one
  // past what the grammar can write. Exact: digits and exponent are read as text.
  static int128 scaled_decimal(const std::string& t, bool up) {
    size_t i = 0;
    const bool neg = i < t.size() && t[i] == '-';
    if (neg) ++i;
    std::string digits;
    long exp10 = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) digits += t[i];
    if (i < t.size() && t[i] == '.')
      for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
        digits += t[i];
        --exp10;
      }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) exp10 += std::max(-100000L, std::min(100000L, std::strtol(t.c_str() + i + 1, nullptr, 10)));
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
    const long shift = exp10 + kMaxFracDigits;  // scaled = digits * 10^shift
    // Beyond what can be written: one past the limit, so that such a lower bound admits nothing.
    const int128 beyond = kNumLimit + 1;
    if (long(digits.size()) + shift > 2 * kMaxFracDigits) return neg ? -beyond : beyond;
    int128 mag = 0;
    bool rest = false;
    const long keep = shift >= 0 ? long(digits.size()) : long(digits.size()) + shift;
    for (long k = 0; k < long(digits.size()); ++k) {
      if (k < keep) mag = mag * 10 + (digits[size_t(k)] - '0');
      else rest = rest || digits[size_t(k)] != '0';
    }
    for (long k = 0; k < shift; ++k) mag *= 10;
    int128 v = neg ? -mag : mag;
    if (rest && up && !neg) v += 1;
    if (rest && !up && neg) v -= 1;
    return std::max(-beyond, std::min(beyond, v));
  }

  // minimum / maximum / exclusive* of a number node, exactly; multipleOf: an integer one makes the
  // node integer-only (a multiple of an integer written as an integer); a decimal one p / 10^q
  // (0.25, 0.5, 2.5, 0.01) caps the fraction digits at q and keeps the digits' value a multiple of
  // p. Finer than 10^-16, or p of 2^24 or more: not enforced (documented).
  void read_num_bounds(const json_value& s, const std::string& path, schema_node& n) {
    int128 lo = 0, hi = 0, up = 0, down = 0;
    bool any = false;
    if (read_multiple_of(s, path, up, down)) {
      const bool exact = up == down;
      if (exact && up % kNumScale == 0) {
        n.types &= uint8_t(~t_num);
        read_int_bounds(s, path, n);
        return;
      }
      int q = kMaxFracDigits;
      int128 p = up;
      while (p % 10 == 0) {
        p /= 10;
        --q;
      }
      if (exact && p <= kMaxNumMult) {
        n.max_frac = uint8_t(q);
        n.num_mult = uint32_t(p);
        any = true;
      }
    }
    if (!err.empty()) return;
    any = read_bounds(s, path, lo, hi) || any;
    if (!err.empty() || !any) return;
    const int128 grid = n.num_grid();
    const int128 first = ceil_div(lo, grid) * grid;
    if (lo > hi || first > hi) {
      unsatisfiable(n, t_int | t_num, path, "no number satisfies minimum/maximum/multipleOf");
      return;
    }
    n.num_bounded = true;
    n.num_min = lo;
    n.num_max = hi;
  }

  // A part of the schema no value can satisfy (impossible bounds, a pattern no string of the
  // allowed lengths matches, no enum value left) is not an error by itself: those types are
  // dropped, and a node left admitting nothing is pruned from unions and optional places. Only a
  // schema that then admits nothing at all is refused, with the first such reason.
  void unsatisfiable(schema_node& n, uint8_t types, const std::string& path, const std::string& why) {
    n.types &= uint8_t(~types);
    if (unsat.empty()) unsat = "schema at " + (path.empty() ? std::string("/") : path) + ": " + why;
  }

  // Whether an enum / const value also satisfies the node's type, lengths, pattern / format and
  // number bounds (containers: their type only).
  bool literal_allowed(const schema_node& n, const json_value& v) const {
    switch (v.kind) {
      case json_value::null_k: return n.types & t_null;
      case json_value::bool_k: return n.types & t_bool;
      case json_value::array_k: return n.types & t_arr;
      case json_value::object_k: return n.types & t_obj;
      case json_value::string_k: {
        if (!(n.types & t_str)) return false;
        uint32_t chars = 0;
        for (unsigned char c : v.text) chars += (c & 0xC0) != 0x80;
        if (chars < n.min_length || chars > n.max_length) return false;
        if (n.pattern < 0) return true;
        const byte_dfa& d = g.patterns[size_t(n.pattern)];
        uint32_t st = d.start;
        for (unsigned char c : v.text)
          if ((st = d.step(st, c)) == byte_dfa::dead) return false;
        return d.accept[st] != 0;
      }
      default: {  // number: exact, from its text
        const int128 lo = scaled_decimal(v.text, false), hi = scaled_decimal(v.text, true);
        const bool integral = lo == hi && lo % kNumScale == 0;
        if (!(n.types & (integral ? (t_int | t_num) : t_num))) return false;
        if (!(n.types & t_num)) {  // integer-only: the integer bounds and multiple
          if (!n.int_bounded) return true;
          return n.int_allowed(int64_t(lo / kNumScale));  // |value| <= 10^16 after clamping
        }
        if (!n.num_bounded) return true;
        if (hi < n.num_min || lo > n.num_max) return false;  // v >= min iff ceil(v) >= min, etc.
        return n.num_grid() == 1 || (lo == hi && lo % n.num_grid() == 0);
      }
    }
  }

  // `pattern` and a known `format` (others are annotations, as JSON Schema has them by default)
  // as one DFA that also knows the node's length bounds; a string no value can satisfy is an error.
  void read_string_pattern(const json_value& s, const std::string& path, schema_node& n) {
    const json_value* pat = s.find("pattern");
    const json_value* fmt = s.find("format");
    if (pat && !pat->is_string()) { fail(path + "/pattern", "pattern must be a string"); return; }
    if (fmt && !fmt->is_string()) { fail(path + "/format", "format must be a string"); return; }
    byte_dfa d, f;
    std::string e;
    const bool has_pattern = pat != nullptr;
    if (has_pattern && !compile_pattern(pat->text, d, &e, budget)) { fail(path + "/pattern", e); return; }
    const bool has_format = fmt && fmt->is_string() && compile_format(fmt->text, f);
    if (!has_pattern && !has_format) return;
    if (has_pattern && has_format) {
      byte_dfa both;
      if (!intersect_dfa(d, f, both, &e)) { fail(path, e); return; }
      d = std::move(both);
    } else if (has_format) {
      d = std::move(f);
    }
    const uint32_t need = std::min<uint32_t>(n.min_length, 0xFFFE);
    const uint32_t allow = n.max_length == UINT32_MAX ? UINT32_MAX : std::min<uint32_t>(n.max_length, 0xFFFE);
    const uint32_t cap = std::max(need, allow == UINT32_MAX ? 0u : allow);
    if (!finish_dfa(d, cap, &e, budget)) { fail(path, e); return; }
    if (!d.feasible(d.start, need, allow)) {
      unsatisfiable(n, t_str, path, has_pattern ? "no string satisfies pattern" + std::string(has_format ? ", format" : "") +
                                   (n.length_limited() ? " and minLength/maxLength" : "")
                             : "no string satisfies format and minLength/maxLength");
      return;
    }
    n.pattern = int32_t(g.patterns.size());
    g.patterns.push_back(std::move(d));
  }

  // Compiles schema s into a new node; returns its id (errors: err set, id meaningless).
  uint32_t compile(const json_value& s, const std::string& path) {
    if (!err.empty()) return 0;
    if (g.nodes.size() >= kMaxSchemaNodes) { fail(path, "schema too large"); return 0; }
    if (s.is_bool()) {
      if (s.boolean) return 0;
      fail(path, "schema false accepts nothing");
      return 0;
    }
    if (!s.is_object()) { fail(path, "a schema must be an object or a boolean"); return 0; }
    if (++depth > 64) { fail(path, "schema nested too deeply"); return 0; }
    uint32_t id = new_node();
    fill(id, s, path);
    --depth;
    return id;
  }

  uint32_t compile_ref(const std::string& ref, const std::string& path) {
    auto it = refs.find(ref);
    if (it != refs.end()) return it->second;
    const json_value* target = resolve(ref);
    if (!target) { fail(path, "$ref \"" + ref + "\" does not resolve to a local definition"); return 0; }
    if (target->is_bool()) return compile(*target, path);
    if (!target->is_object()) { fail(path, "$ref \"" + ref + "\" is not a schema"); return 0; }
    uint32_t id = new_node();
    refs[ref] = id;  // before filling: recursive references find it
    fill(id, *target, ref.substr(1));
    return id;
  }

  void fill(uint32_t id, const json_value& s, const std::string& path) {
    if (const json_value* r = s.find("$ref")) {
      if (!r->is_string()) { fail(path, "$ref must be a string"); return; }
      uint32_t target = compile_ref(r->text, path + "/$ref");
      g.nodes[id].alternatives = {target};
      return;
    }
    for (const char* bad : {"not", "if", "then", "else", "prefixItems", "dependentSchemas",
                            "unevaluatedProperties", "unevaluatedItems", "contains"}) {
      if (s.find(bad)) { fail(path, std::string("\"") + bad + "\" is not supported"); return; }
    }
    if (const json_value* all = s.find("allOf")) {
      if (!all->is_array() || all->items.size() != 1) {
        fail(path, "allOf is supported only with exactly one schema");
        return;
      }
      uint32_t only = compile(all->items[0], path + "/allOf/0");
      g.nodes[id].alternatives = {only};
      return;
    }
    for (const char* uk : {"anyOf", "oneOf"}) {
      const json_value* u = s.find(uk);
      if (!u) continue;
      if (!u->is_array() || u->items.empty()) { fail(path, std::string(uk) + " must be a non-empty array"); return; }
      std::vector<uint32_t> alts;
      for (size_t k = 0; k < u->items.size(); ++k) {
        uint32_t a = compile(u->items[k], path + "/" + uk + "/" + std::to_string(k));
        if (!err.empty()) return;
        // Flatten nested unions that are already complete (not a pending recursive $ref).
        const schema_node& an = g.nodes[a];
        if (!an.alternatives.empty() && a != id && an.alternatives.size() > 1) {
          for (uint32_t x : an.alternatives) alts.push_back(x);
        } else {
          alts.push_back(a);
        }
      }
      if (alts.size() > size_t(kMaxStacks)) {
        fail(path, std::string(uk) + " with more than " + std::to_string(kMaxStacks) + " alternatives is not supported");
        return;
      }
      if (s.find("nullable") && s.find("nullable")->is_bool() && s.find("nullable")->boolean) {
        schema_node nul;
        nul.types = t_null;
        g.nodes.push_back(nul);
        alts.push_back(uint32_t(g.nodes.size() - 1));
      }
      g.nodes[id].alternatives = alts;
      return;
    }

    schema_node n;
    if (const json_value* t = s.find("type")) {
      n.types = 0;
      std::vector<const json_value*> names;
      if (t->is_string()) names.push_back(t);
      else if (t->is_array()) for (auto& x : t->items) names.push_back(&x);
      else { fail(path + "/type", "type must be a string or an array of strings"); return; }
      if (names.empty()) { fail(path + "/type", "type must not be empty"); return; }
      for (const json_value* nm : names) {
        if (!nm->is_string()) { fail(path + "/type", "type names must be strings"); return; }
        const std::string& x = nm->text;
        if (x == "string") n.types |= t_str;
        else if (x == "number") n.types |= t_num | t_int;
        else if (x == "integer") n.types |= t_int;
        else if (x == "boolean") n.types |= t_bool;
        else if (x == "null") n.types |= t_null;
        else if (x == "object") n.types |= t_obj;
        else if (x == "array") n.types |= t_arr;
        else { fail(path + "/type", "unknown type \"" + x + "\""); return; }
      }
    }
    if (const json_value* nb = s.find("nullable"); nb && nb->is_bool() && nb->boolean) n.types |= t_null;

    // enum / const: the value is one of these; the other keywords still apply to them (below).
    std::vector<const json_value*> lits;
    bool lits_given = false;
    if (const json_value* e = s.find("enum")) {
      if (!e->is_array() || e->items.empty()) { fail(path + "/enum", "enum must be a non-empty array"); return; }
      for (auto& x : e->items) lits.push_back(&x);
      lits_given = true;
    }
    if (const json_value* c = s.find("const")) {
      const std::string one = json_serialize(*c);
      const bool listed = !lits_given || std::any_of(lits.begin(), lits.end(), [&](const json_value* x) { return json_serialize(*x) == one; });
      lits.clear();
      if (listed) lits.push_back(c);
      else unsatisfiable(n, t_any, path, "const is not among the enum values");
      lits_given = true;
    }

    if ((n.types & t_int) && !(n.types & t_num)) read_int_bounds(s, path, n);
    else if (n.types & t_num) read_num_bounds(s, path, n);
    if (!err.empty()) return;
    if (!read_count(s, "minLength", path, n.min_length) || !read_count(s, "maxLength", path, n.max_length) ||
        !read_count(s, "minItems", path, n.min_items) || !read_count(s, "maxItems", path, n.max_items))
      return;
    if ((n.types & t_str) && n.min_length > n.max_length) unsatisfiable(n, t_str, path, "minLength exceeds maxLength");
    if (n.types & t_str) {
      read_string_pattern(s, path, n);
      if (!err.empty()) return;
    }
    if ((n.types & t_arr) && n.min_items > n.max_items) unsatisfiable(n, t_arr, path, "minItems exceeds maxItems");

    if (lits_given) {
      std::vector<std::string> keep;
      for (const json_value* x : lits)
        if (literal_allowed(n, *x)) keep.push_back(json_serialize(*x));
      if (keep.empty()) {
        if (n.types != 0) unsatisfiable(n, t_any, path, "no enum/const value satisfies the schema's other keywords");
        g.nodes[id] = std::move(n);
        return;
      }
      for (auto& l : keep) literal_bytes += l.size();
      if (literal_bytes > kMaxLiteralBytes) { fail(path, "enum/const values too large"); return; }
      std::sort(keep.begin(), keep.end());
      keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
      n.literals = int32_t(g.tries.size());
      g.tries.push_back(byte_trie::build(keep));
      g.nodes[id] = std::move(n);
      return;
    }

    if (const json_value* it = s.find("items")) {
      if (it->is_array()) { fail(path + "/items", "tuple items (an array) are not supported"); return; }
      n.items = compile(*it, path + "/items");
      if (!err.empty()) return;
    }

    // Objects.
    std::vector<std::string> names;  // decoded property names
    if (const json_value* props = s.find("properties")) {
      if (!props->is_object()) { fail(path + "/properties", "properties must be an object"); return; }
      for (auto& m : props->members) {
        if (std::find(names.begin(), names.end(), m.first) != names.end()) continue;
        if (names.size() >= size_t(kMaxProperties)) {
          fail(path + "/properties", "more than " + std::to_string(kMaxProperties) + " properties are not supported");
          return;
        }
        for (unsigned char ch : m.first)
          if (ch < 0x20) {
            fail(path + "/properties", "property names with control characters are not supported");
            return;
          }
        uint32_t ps = compile(m.second, path + "/properties/" + m.first);
        if (!err.empty()) return;
        names.push_back(m.first);
        n.prop_schema.push_back(ps);
      }
    }
    if (const json_value* ap = s.find("additionalProperties")) {
      if (ap->is_bool()) {
        n.additional = ap->boolean ? 0 : -1;
      } else {
        uint32_t as = compile(*ap, path + "/additionalProperties");
        if (!err.empty()) return;
        n.additional = int32_t(as);
      }
    }
    if (const json_value* req = s.find("required")) {
      if (!req->is_array()) { fail(path + "/required", "required must be an array of strings"); return; }
      for (auto& r : req->items) {
        if (!r.is_string()) { fail(path + "/required", "required must be an array of strings"); return; }
        auto pos = std::find(names.begin(), names.end(), r.text);
        if (pos == names.end()) {
          if (n.additional < 0) {
            fail(path + "/required", "\"" + r.text + "\" is required but not allowed (additionalProperties is false)");
            return;
          }
          if (names.size() >= size_t(kMaxProperties)) { fail(path, "too many properties"); return; }
          names.push_back(r.text);
          n.prop_schema.push_back(uint32_t(n.additional));
          pos = names.end() - 1;
        }
        n.required |= uint64_t(1) << (pos - names.begin());
      }
    }
    if (!names.empty()) {
      std::vector<std::string> keys;
      for (auto& nm : names) {
        std::string q;
        json_append_quoted(nm, q);
        keys.push_back(q.substr(1, q.size() - 2));
      }
      n.key_trie = int32_t(g.tries.size());
      g.tries.push_back(byte_trie::build(keys));
    }
    g.nodes[id] = std::move(n);
  }
};

// Which nodes admit a finite value (least fixpoint), then prune what does not: alternatives,
// optional properties, extra keys, array items, container types. A schema whose root admits
// nothing, or a $ref chain that never reaches a schema, is an error. Without this, a recursive
// schema with a required self-reference would send the matcher into a dead end.
bool prune_unproductive(compiled_grammar& g, std::string& err) {
  const size_t n = g.nodes.size();
  for (size_t i = 0; i < n; ++i) {  // single-alternative chains ($ref, allOf of one) must end
    uint32_t cur = uint32_t(i);
    size_t hops = 0;
    while (g.nodes[cur].alternatives.size() == 1 && hops <= n) {
      cur = g.nodes[cur].alternatives[0];
      ++hops;
    }
    if (hops > n) {
      err = "schema has a $ref cycle that never reaches a schema";
      return false;
    }
    if (hops > 15) {
      err = "schema has a $ref chain longer than 15";
      return false;
    }
  }
  // need[i]: least fixpoint from "impossible"; values only decrease, so this terminates.
  std::vector<int> need(n, kNeedInf);
  auto scalar = [](uint8_t t) { return (t & (t_null | t_bool | t_int | t_num | t_str)) != 0; };
  auto obj_need = [&](const schema_node& s) {
    int m = 0;
    for (size_t p = 0; p < s.prop_schema.size(); ++p)
      if (s.required >> p & 1) m = std::max(m, need[s.prop_schema[p]]);
    return std::min(kNeedInf, 1 + m);
  };
  auto arr_need = [&](const schema_node& s) { return std::min(kNeedInf, 1 + (s.min_items > 0 ? need[s.items] : 0)); };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < n; ++i) {
      const schema_node& s = g.nodes[i];
      int v = kNeedInf;
      if (!s.alternatives.empty()) {
        for (uint32_t a : s.alternatives) v = std::min(v, need[a]);
      } else if (s.literals >= 0 || scalar(s.types)) {
        v = 0;
      } else {
        if (s.types & t_arr) v = std::min(v, arr_need(s));
        if (s.types & t_obj) v = std::min(v, obj_need(s));
      }
      if (v < need[i]) {
        need[i] = v;
        changed = true;
      }
    }
  }
  std::vector<uint8_t> ok(n, 0);
  for (size_t i = 0; i < n; ++i) ok[i] = need[i] < kNeedInf;
  for (size_t i = 0; i < n; ++i) {
    schema_node& s = g.nodes[i];
    s.need = uint8_t(need[i]);
    s.need_obj = uint8_t((s.types & t_obj) ? obj_need(s) : kNeedInf);
    s.need_arr = uint8_t((s.types & t_arr) ? arr_need(s) : kNeedInf);
  }
  if (!ok[g.root]) {
    err = "schema admits no finite value (a required property or item that always recurses?)";
    return false;
  }
  for (size_t i = 0; i < n; ++i) {
    schema_node& s = g.nodes[i];
    if (!s.alternatives.empty()) {
      std::vector<uint32_t> keep;
      for (uint32_t a : s.alternatives)
        if (ok[a]) keep.push_back(a);
      if (!keep.empty()) s.alternatives = keep;
      continue;
    }
    // Arrays, objects, properties, extra keys and items that cannot finish within the nesting
    // left are refused by the automaton through `need` (pda.cc).
  }
  return true;
}

std::shared_ptr<compiled_grammar> new_grammar() {
  auto g = std::make_shared<compiled_grammar>();
  g->uid = compiled_grammar::next_uid();
  g->nodes.push_back(any_node());  // node 0: any JSON value
  return g;
}

}  // namespace

std::shared_ptr<const compiled_grammar> compile_json_schema(const std::string& schema_json,
                                                            std::string* error) {
  // Refusals are remembered too: a schema that takes long to refuse (a pattern at the limits)
  // costs that time once, not on every request that repeats it.
  struct memo_entry {
    std::string text;
    std::shared_ptr<const compiled_grammar> grammar;
    std::string error;
  };
  static std::mutex mu;
  static std::list<memo_entry> memo;
  constexpr size_t kMemo = 32;
  {
    std::lock_guard<std::mutex> lock(mu);
    for (auto it = memo.begin(); it != memo.end(); ++it) {
      if (it->text == schema_json) {
        memo.splice(memo.begin(), memo, it);
        if (!memo.front().grammar && error) *error = memo.front().error;
        return memo.front().grammar;
      }
    }
  }
  auto set_err = [&](const std::string& e) -> std::shared_ptr<const compiled_grammar> {
    if (error) *error = e;
    std::lock_guard<std::mutex> lock(mu);
    memo.push_front({schema_json, nullptr, e});
    if (memo.size() > kMemo) memo.pop_back();
    return nullptr;
  };
  if (schema_json.size() > kMaxSchemaBytes) {  // cheap to refuse again: not remembered
    if (error) *error = "schema larger than 1 MiB";
    return nullptr;
  }
  json_value doc;
  std::string perr;
  if (!json_parse(schema_json, doc, &perr, 128)) return set_err("schema is not valid JSON: " + perr);
  auto g = new_grammar();
  schema_compiler c{*g, doc, {}, {}, {}, {}, 0, 0};
  uint32_t root = c.compile(doc, "");
  if (!c.err.empty()) return set_err(c.err);
  g->root = root;
  std::string perr2;
  // A schema that admits nothing because of an unsatisfiable part says which part.
  if (!prune_unproductive(*g, perr2)) return set_err(c.unsat.empty() ? perr2 : c.unsat);
  std::shared_ptr<const compiled_grammar> out = g;
  std::lock_guard<std::mutex> lock(mu);
  memo.push_front({schema_json, out, {}});
  if (memo.size() > kMemo) memo.pop_back();
  return out;
}

std::shared_ptr<const compiled_grammar> compile_any_json_object() {
  static const std::shared_ptr<const compiled_grammar> g = [] {
    auto x = new_grammar();
    schema_node obj;
    obj.types = t_obj;
    x->nodes.push_back(obj);
    x->root = 1;
    std::string err;
    prune_unproductive(*x, err);
    return std::shared_ptr<const compiled_grammar>(x);
  }();
  return g;
}

std::shared_ptr<const compiled_grammar> compile_event_lines() {
  static const std::shared_ptr<const compiled_grammar> g = [] {
    auto x = new_grammar();
    x->mode = compiled_grammar::event_lines;
    x->ws_newlines = false;
    x->max_ws = 1;
    schema_node integer;
    integer.types = t_int;
    x->nodes.push_back(integer);  // 1
    schema_node obj;
    obj.types = t_obj;
    x->nodes.push_back(obj);  // 2
    schema_node ev;
    ev.types = t_obj;
    ev.prop_schema = {1, 2, 1};  // type, data, timestamp
    ev.required = 0b011;
    ev.additional = -1;
    ev.key_trie = int32_t(x->tries.size());
    x->tries.push_back(byte_trie::build({"type", "data", "timestamp"}));
    x->nodes.push_back(ev);  // 3
    x->root = 3;
    std::string err;
    prune_unproductive(*x, err);
    return std::shared_ptr<const compiled_grammar>(x);
  }();
  return g;
}

}  // namespace infer
