// The byte-level pushdown automaton: one step function per frame kind. Deterministic except for
// unions (anyOf), which report `split` so the caller can try each alternative.
//
// Each frame kind's fields and their accessors (object_seen, string_state, number_digits, ...)
// are documented in grammar_internal.h; the kinds' `sub` steps and flags are defined below.
#include <algorithm>

#include "grammar/grammar_internal.h"
#include "grammar/utf8.h"

namespace infer {
namespace {

enum : uint8_t { o_start, o_key, o_colon, o_in_value, o_after_value, o_after_comma, o_in_key };
// string frame `sub` bits
constexpr uint8_t kStrBudgetNormalized = 1, kStrKey = 2, kStrPattern = 4;
enum : uint8_t { a_start, a_in_item, a_after_item };
enum : uint8_t { n_start, n_minus, n_zero, n_int, n_dot, n_frac, n_e, n_esign, n_exp };
// number_flags bits. Integer-only frames carry kIntOnly from the start; kNegative is set only on
// bounded integers (integer-only, as int_bounded nodes are) and bounded numbers, the ties only on
// bounded numbers (never int_bounded). So where the code asks int_bounded, or on an unbounded
// number, `number_flags(f) != 0` means integer-only.
constexpr uint32_t kIntOnly = 1, kNegative = 2, kTieLo = 4, kTieHi = 8;
// In a bounded number's fraction, number_flags bits 8.. hold the residue mod num_mult of the
// digits so far read as one integer (integer part and fraction digits): the integer part itself
// is not kept there.
constexpr int kResidueShift = 8;
enum : uint8_t { d_in, d_done };
enum : uint8_t { l_start, l_in, l_after };
constexpr uint32_t kExtra = 0xFFFF;

enum class step : uint8_t { consumed, push, push_refeed, done, pop_refeed, dead, split, unsure };
constexpr uint32_t kNoLimit = 0xFFFF;
constexpr uint32_t kBudgetCap = 16;  // string budgets above this share one cache entry

// ---- string contents: JSON escapes and well-formed UTF-8 ----
// state = mode | rem << 8 | flags << 16. \u escapes must form valid UTF-16: a high surrogate is
// followed by a \u low surrogate (the pair counts as one character), a lone low one is refused.
enum : uint32_t { ss_normal = 0, ss_esc = 1, ss_hex = 2, ss_utf8 = 3, ss_need_bs = 4, ss_need_u = 5 };
enum : uint32_t { hx_low_required = 1, hx_first_d = 2, hx_high = 4 };
enum class sres : uint8_t { dead, more, new_char, close };

inline bool in_range(uint32_t range, uint8_t c) {
  switch (range) {
    case 1: return c >= 0xA0 && c <= 0xBF;
    case 2: return c >= 0x80 && c <= 0x9F;
    case 3: return c >= 0x90 && c <= 0xBF;
    case 4: return c >= 0x80 && c <= 0x8F;
    default: return c >= 0x80 && c <= 0xBF;
  }
}

// Keys allow only the escapes of the canonical (minimal) encoding, so that a key that leaves the
// declared names' trie can never decode to a declared name.
sres string_step(uint32_t& st, uint8_t c, bool key) {
  uint32_t mode = st & 0xFF, rem = (st >> 8) & 0xFF, flags = st >> 16;
  switch (mode) {
    case ss_normal:
      if (c == '"') return sres::close;
      if (c == '\\') { st = ss_esc; return sres::new_char; }
      if (c < 0x20) return sres::dead;
      if (c < 0x80) return sres::new_char;
      if (c >= 0xC2 && c <= 0xDF) { st = ss_utf8 | 1u << 8; return sres::new_char; }
      if (c == 0xE0) { st = ss_utf8 | 2u << 8 | 1u << 16; return sres::new_char; }
      if (c == 0xED) { st = ss_utf8 | 2u << 8 | 2u << 16; return sres::new_char; }
      if (c >= 0xE1 && c <= 0xEF) { st = ss_utf8 | 2u << 8; return sres::new_char; }
      if (c == 0xF0) { st = ss_utf8 | 3u << 8 | 3u << 16; return sres::new_char; }
      if (c >= 0xF1 && c <= 0xF3) { st = ss_utf8 | 3u << 8; return sres::new_char; }
      if (c == 0xF4) { st = ss_utf8 | 3u << 8 | 4u << 16; return sres::new_char; }
      return sres::dead;
    case ss_esc:
      if (c == 'u' && !key) { st = ss_hex | 4u << 8; return sres::more; }
      if (c == '"' || c == '\\' || (c == '/' && !key) || c == 'b' || c == 'f' || c == 'n' || c == 'r' ||
          c == 't') {
        st = ss_normal;
        return sres::more;
      }
      return sres::dead;
    case ss_hex: {
      int h = hex_digit_value(c);
      if (h < 0) return sres::dead;
      if (rem == 4) {
        if (h == 0xD) flags |= hx_first_d;
        else if (flags & hx_low_required) return sres::dead;
      } else if (rem == 3) {
        bool d = flags & hx_first_d;
        bool high = d && h >= 0x8 && h <= 0xB, low = d && h >= 0xC;
        if ((flags & hx_low_required) ? !low : low) return sres::dead;
        if (high) flags |= hx_high;
      }
      if (rem == 1) st = (flags & hx_high) ? ss_need_bs : ss_normal;
      else st = ss_hex | (rem - 1) << 8 | flags << 16;
      return sres::more;
    }
    case ss_need_bs:
      if (c != '\\') return sres::dead;
      st = ss_need_u;
      return sres::more;
    case ss_need_u:
      if (c != 'u') return sres::dead;
      st = ss_hex | 4u << 8 | uint32_t(hx_low_required) << 16;
      return sres::more;
    default:  // ss_utf8
      if (!in_range(flags, c)) return sres::dead;
      st = rem == 1 ? ss_normal : (ss_utf8 | (rem - 1) << 8);
      return sres::more;
  }
}

inline bool is_ws(const compiled_grammar& g, uint8_t c) {
  return c == ' ' || c == '\t' || (g.ws_newlines && (c == '\n' || c == '\r'));
}
// Whitespace between JSON tokens takes the shape of llama.cpp's json-schema-to-grammar `space`
// rule: nothing, one space, or a newline and at most kMaxIndent spaces or tabs. Looser runs (any
// mix of 16 bytes) let a weak model spend its whole budget on padding. Event-lines grammars (no
// newlines inside a line) keep a plain run of at most max_ws spaces or tabs.
constexpr uint8_t kMaxIndent = 20;
inline step take_ws(const compiled_grammar& g, frame& f, uint8_t c) {
  if (!g.ws_newlines) {
    if (f.ws >= g.max_ws) return step::dead;
    ++f.ws;
    return step::consumed;
  }
  // f.ws: 0 none yet, 1 a single space (the whole run), 2 + n a newline and n indent bytes.
  if (f.ws == 0) {
    if (c == ' ') f.ws = 1;
    else if (c == '\n') f.ws = 2;
    else return step::dead;
    return step::consumed;
  }
  if (f.ws == 1 || (c != ' ' && c != '\t') || f.ws >= 2 + kMaxIndent) return step::dead;
  ++f.ws;
  return step::consumed;
}

inline uint32_t count_cap(uint32_t lo, uint32_t hi) { return hi != UINT32_MAX ? hi : lo; }

frame make_value(uint32_t node, uint8_t depth) {
  frame v;
  v.kind = fk_value;
  v.node = node;
  v.depth = depth;
  return v;
}

frame make_key_string(uint32_t state) {
  frame k;
  k.kind = fk_string;
  k.sub = kStrKey;
  set_string_chars(k, kNoLimit, 0);
  string_state(k) = state;
  return k;
}

void child_done(const compiled_grammar& g, frame& p) {
  switch (p.kind) {
    case fk_object:
      if (p.sub == o_in_key) {  // an undeclared key ended
        p.sub = o_colon;
        object_property(p) = kExtra;
        p.ws = 0;
        break;
      }
      if (object_property(p) != kExtra) object_seen(p) |= uint64_t(1) << object_property(p);
      p.sub = o_after_value;
      p.ws = 0;
      break;
    case fk_array: {
      const schema_node& n = g.nodes[p.node];
      if (array_items(p) < count_cap(n.min_items, n.max_items)) ++array_items(p);
      p.sub = a_after_item;
      p.ws = 0;
      break;
    }
    case fk_doc: p.sub = d_done; break;
    case fk_lines: p.sub = l_after; break;
    default: break;
  }
}

// ---- integers with bounds: number_value holds the digits' value so far, kNegative the sign ----

inline int64_t signed_value(const frame& f) {
  return (number_flags(f) & kNegative) ? -int64_t(number_value(f)) : int64_t(number_value(f));
}

// Whether [a, b] holds an allowed value: inside the bounds and a multiple of int_multiple.
inline bool int_interval_allowed(const schema_node& n, int64_t a, int64_t b) {
  a = std::max(a, n.int_min);
  b = std::min(b, n.int_max);
  if (a > b) return false;
  const int64_t m = n.int_multiple;
  const int64_t last = b >= 0 ? b - b % m : b - ((b % m) + m) % m;  // largest multiple <= b
  return last >= a;
}

// Whether digits may follow a prefix of magnitude v (no leading zero, `digits` long) so that the
// integer ends inside the node's bounds: with k more digits the value lies in
// [v*10^k, v*10^k + 10^k - 1] (mirrored for a negative sign).
bool int_prefix_feasible(const schema_node& n, bool negative, uint64_t v, int digits) {
  uint64_t scale = 1;
  for (int k = 0; digits + k <= kMaxIntDigits; ++k, scale *= 10) {
    const int64_t lo = int64_t(v * scale), hi = int64_t(v * scale + scale - 1);
    const int64_t a = negative ? -hi : lo, b = negative ? -lo : hi;
    if (int_interval_allowed(n, a, b)) return true;
  }
  return false;
}

// ---- numbers with bounds: magnitudes against the bounds mirrored for the sign, exact in int128.
// Every scaled value in a prefix's range of completions is writable (kMaxFracDigits digits), so
// a prefix is feasible iff that range meets the bounds on the grid of the allowed fraction digits.
struct magnitude_bounds {
  int128 lo, hi;
};
inline magnitude_bounds num_magnitudes(const schema_node& n, bool negative) {
  if (!negative) return {std::max<int128>(0, n.num_min), n.num_max};
  return {std::max<int128>(0, -n.num_max), -n.num_min};
}

// Whether [a, b] (scaled magnitudes) holds an allowed one: inside the bounds, on the grid (a
// multiple of multipleOf; multiples are symmetric, so magnitudes will do).
bool num_interval_allowed(const schema_node& n, bool negative, int128 a, int128 b) {
  const magnitude_bounds m = num_magnitudes(n, negative);
  a = std::max(a, m.lo);
  b = std::min(b, m.hi);
  if (a > b) return false;
  const int128 grid = n.num_grid();
  return (a + grid - 1) / grid * grid <= b;
}

// The residue in a bounded number's fraction (kResidueShift).
inline uint32_t frac_residue(const frame& f) { return number_flags(f) >> kResidueShift; }
inline void set_frac_residue(frame& f, uint32_t r) {
  number_flags(f) = (number_flags(f) & ((1u << kResidueShift) - 1)) | (r << kResidueShift);
}

// Whether a fraction with residue r after `digits` fraction digits can end on a multiple of
// num_mult / 10^max_frac by adding fewer than `span` units of 10^-max_frac (the completions:
// span = 10^(max_frac - digits); the value as it stands: span = 1).
bool num_residue_feasible(const schema_node& n, uint32_t r, int digits, uint64_t span) {
  const uint64_t p = n.num_mult;
  if (p == 1) return true;
  uint64_t at = r;  // the digits so far as a count of 10^-max_frac units, mod p
  for (int k = digits; k < n.max_frac; ++k) at = at * 10 % p;
  return (p - at) % p < span;
}

// An integer part of magnitude v, `digits` long ("0" is v = 0, digits = 1 and takes no more):
// with k more digits and any fraction the value lies in [v*10^k, (v+1)*10^k) before scaling.
bool num_int_prefix_feasible(const schema_node& n, bool negative, uint64_t v, int digits) {
  for (int k = 0; digits + k <= kMaxIntDigits && (v != 0 || k == 0); ++k) {
    const int128 scale = pow10_128(k);
    if (num_interval_allowed(n, negative, int128(v) * scale * kNumScale, (int128(v) + 1) * scale * kNumScale - 1)) return true;
  }
  return false;
}

// The integer part of a number in its fraction: known only where it ties with a bound (otherwise
// every fraction is inside the bounds). -1: no tie.
int128 tied_int_part(const schema_node& n, const frame& f) {
  const magnitude_bounds m = num_magnitudes(n, (number_flags(f) & kNegative) != 0);
  if (number_flags(f) & kTieLo) return m.lo / kNumScale;
  if (number_flags(f) & kTieHi) return m.hi / kNumScale;
  return -1;
}

// Whether the fraction so far (value `frac`, `digits` long, residue r) can still end inside the
// bounds on a multiple.
bool num_frac_feasible(const schema_node& n, const frame& f, uint64_t frac, int digits, uint32_t r) {
  const int128 i = tied_int_part(n, f);
  if (i < 0) return num_residue_feasible(n, r, digits, uint64_t(pow10_128(n.max_frac - digits)));
  const int128 unit = pow10_128(kMaxFracDigits - digits);
  const int128 a = i * kNumScale + int128(frac) * unit;
  return num_interval_allowed(n, (number_flags(f) & kNegative) != 0, a, a + unit - 1);
}

// Whether the number read so far is an allowed value as it stands.
bool num_value_allowed(const schema_node& n, const frame& f) {
  const bool negative = (number_flags(f) & kNegative) != 0;
  if (f.sub == n_zero || f.sub == n_int) {
    const int128 v = int128(number_value(f)) * kNumScale;
    return num_interval_allowed(n, negative, v, v);
  }
  if (f.sub != n_frac) return false;
  const int128 i = tied_int_part(n, f);
  if (i < 0) return num_residue_feasible(n, frac_residue(f), int(number_digits(f)), 1);
  const int128 v = i * kNumScale + int128(number_value(f)) * pow10_128(kMaxFracDigits - int(number_digits(f)));
  return num_interval_allowed(n, negative, v, v);
}

inline bool num_bounded_frame(const compiled_grammar& g, const frame& f) {
  return !(number_flags(f) & kIntOnly) && g.nodes[f.node].num_bounded;
}

step bounded_num_step(const schema_node& n, frame& f, uint8_t c) {
  const bool digit = c >= '0' && c <= '9';
  const bool negative = (number_flags(f) & kNegative) != 0;
  switch (f.sub) {
    case n_start:
      if (c == '-') {
        if (!num_interval_allowed(n, true, 0, kNumLimit)) return step::dead;  // no negative value fits
        f.sub = n_minus;
        number_flags(f) |= kNegative;
        return step::consumed;
      }
      [[fallthrough]];
    case n_minus:
      if (!digit || !num_int_prefix_feasible(n, negative, uint64_t(c - '0'), 1)) return step::dead;
      f.sub = c == '0' ? n_zero : n_int;
      number_digits(f) = 1;
      number_value(f) = uint64_t(c - '0');
      return step::consumed;
    case n_zero:
    case n_int:
      if (digit && f.sub == n_int && number_digits(f) < uint32_t(kMaxIntDigits)) {
        const uint64_t v = number_value(f) * 10 + uint64_t(c - '0');
        if (!num_int_prefix_feasible(n, negative, v, int(number_digits(f)) + 1)) return step::dead;
        number_value(f) = v;
        ++number_digits(f);
        return step::consumed;
      }
      if (c == '.' && n.max_frac > 0) {
        const int128 a = int128(number_value(f)) * kNumScale, b = a + kNumScale - 1;
        if (!num_interval_allowed(n, negative, a, b)) return step::dead;
        const magnitude_bounds m = num_magnitudes(n, negative);
        if (m.lo >= a && m.lo <= b) number_flags(f) |= kTieLo;
        if (m.hi >= a && m.hi <= b) number_flags(f) |= kTieHi;
        set_frac_residue(f, uint32_t(number_value(f) % n.num_mult));
        f.sub = n_dot;
        number_digits(f) = 0;
        number_value(f) = 0;
        return step::consumed;
      }
      return num_value_allowed(n, f) ? step::pop_refeed : step::dead;
    default:  // n_dot, n_frac
      if (digit && number_digits(f) < n.max_frac) {
        const uint64_t v = number_value(f) * 10 + uint64_t(c - '0');
        const uint32_t r = uint32_t((uint64_t(frac_residue(f)) * 10 + uint64_t(c - '0')) % n.num_mult);
        if (!num_frac_feasible(n, f, v, int(number_digits(f)) + 1, r)) return step::dead;
        set_frac_residue(f, r);
        f.sub = n_frac;
        number_value(f) = v;
        ++number_digits(f);
        return step::consumed;
      }
      return f.sub == n_frac && num_value_allowed(n, f) ? step::pop_refeed : step::dead;
  }
}

inline bool number_finishes(const compiled_grammar& g, const frame& f) {
  if (num_bounded_frame(g, f)) return num_value_allowed(g.nodes[f.node], f);
  if (f.sub == n_frac || f.sub == n_exp) return true;
  if (f.sub != n_zero && f.sub != n_int) return false;
  const schema_node& n = g.nodes[f.node];
  return !(n.int_bounded && number_flags(f) != 0) || n.int_allowed(signed_value(f));
}

step bounded_int_step(const schema_node& n, frame& f, uint8_t c) {
  const bool digit = c >= '0' && c <= '9';
  const bool negative = (number_flags(f) & kNegative) != 0;
  switch (f.sub) {
    case n_start:
      if (c == '-') {
        if (!int_interval_allowed(n, n.int_min, -1)) return step::dead;  // no negative value fits
        f.sub = n_minus;
        number_flags(f) |= kNegative;
        return step::consumed;
      }
      [[fallthrough]];
    case n_minus:
      if (c == '0') {
        if (!n.int_allowed(0)) return step::dead;
        f.sub = n_zero;
        number_value(f) = 0;
        return step::consumed;
      }
      if (digit && int_prefix_feasible(n, negative, uint64_t(c - '0'), 1)) {
        f.sub = n_int;
        number_digits(f) = 1;
        number_value(f) = uint64_t(c - '0');
        return step::consumed;
      }
      return step::dead;
    default: {  // n_zero, n_int
      if (digit && f.sub == n_int && number_digits(f) < uint32_t(kMaxIntDigits)) {
        const uint64_t v = number_value(f) * 10 + uint64_t(c - '0');
        if (!int_prefix_feasible(n, negative, v, int(number_digits(f)) + 1)) return step::dead;
        number_value(f) = v;
        ++number_digits(f);
        return step::consumed;
      }
      return n.int_allowed(signed_value(f)) ? step::pop_refeed : step::dead;
    }
  }
}

step number_step(const compiled_grammar& g, frame& f, uint8_t c) {
  if (number_flags(f) != 0 && g.nodes[f.node].int_bounded) return bounded_int_step(g.nodes[f.node], f, c);
  if (num_bounded_frame(g, f)) return bounded_num_step(g.nodes[f.node], f, c);
  bool digit = c >= '0' && c <= '9';
  bool int_only = number_flags(f) != 0;
  switch (f.sub) {
    case n_start:
      if (c == '-') { f.sub = n_minus; return step::consumed; }
      [[fallthrough]];
    case n_minus:
      if (c == '0') { f.sub = n_zero; return step::consumed; }
      if (digit) { f.sub = n_int; number_digits(f) = 1; return step::consumed; }
      return step::dead;
    case n_zero:
    case n_int:
      if (digit && f.sub == n_int && number_digits(f) < uint32_t(kMaxIntDigits)) { ++number_digits(f); return step::consumed; }
      if (!int_only && c == '.') { f.sub = n_dot; number_digits(f) = 0; return step::consumed; }
      if (!int_only && (c == 'e' || c == 'E')) { f.sub = n_e; number_digits(f) = 0; return step::consumed; }
      return step::pop_refeed;
    case n_dot:
      if (digit) { f.sub = n_frac; number_digits(f) = 1; return step::consumed; }
      return step::dead;
    case n_frac:
      if (digit && number_digits(f) < uint32_t(kMaxFracDigits)) { ++number_digits(f); return step::consumed; }
      if (c == 'e' || c == 'E') { f.sub = n_e; number_digits(f) = 0; return step::consumed; }
      return step::pop_refeed;
    case n_e:
      if (c == '+' || c == '-') { f.sub = n_esign; return step::consumed; }
      [[fallthrough]];
    case n_esign:
      if (digit) { f.sub = n_exp; number_digits(f) = 1; return step::consumed; }
      return step::dead;
    default:  // n_exp
      if (digit && number_digits(f) < uint32_t(kMaxExpDigits)) { ++number_digits(f); return step::consumed; }
      return step::pop_refeed;
  }
}

const char* const kKeywords[3] = {"true", "false", "null"};

step literal_step(const compiled_grammar& g, frame& f, uint8_t c) {
  const byte_trie& t = g.tries[size_t(g.nodes[f.node].literals)];
  uint32_t ch = t.child(literal_trie_node(f), c);
  if (ch != byte_trie::none) {
    literal_trie_node(f) = ch;
    return t.nodes[ch].terminal >= 0 && !t.has_children(ch) ? step::done : step::consumed;
  }
  return t.nodes[literal_trie_node(f)].terminal >= 0 ? step::pop_refeed : step::dead;
}

step value_step(const compiled_grammar& g, frame& f, uint8_t c) {
  if (is_ws(g, c)) return take_ws(g, f, c);
  // A single alternative ($ref, allOf of one) is followed in place; several need a split.
  for (int hop = 0; g.nodes[f.node].alternatives.size() == 1; ++hop) {
    if (hop >= 16) return step::dead;  // a $ref cycle that never reaches a concrete schema
    f.node = g.nodes[f.node].alternatives[0];
  }
  const schema_node& n = g.nodes[f.node];
  if (!n.alternatives.empty()) return step::split;
  f.ws = 0;
  if (n.literals >= 0) {
    f.kind = fk_literal;
    literal_trie_node(f) = 0;
    return literal_step(g, f, c);
  }
  if (c == '{' && (n.types & t_obj) && f.depth + n.need_obj <= kMaxNesting) {
    // Properties that cannot finish within the nesting left start out "seen": never offered.
    f.kind = fk_object; f.sub = o_start;
    object_key_node(f) = 0; object_property(f) = 0; object_seen(f) = 0;
    for (size_t p = 0; p < n.prop_schema.size(); ++p)
      if (f.depth + 1 + g.nodes[n.prop_schema[p]].need > kMaxNesting) object_seen(f) |= uint64_t(1) << p;
    return step::consumed;
  }
  if (c == '[' && (n.types & t_arr) && f.depth + n.need_arr <= kMaxNesting) {
    f.kind = fk_array; f.sub = a_start; array_items(f) = 0;
    return step::consumed;
  }
  if (c == '"' && (n.types & t_str)) {
    f.kind = fk_string; f.sub = 0; string_state(f) = ss_normal;
    uint32_t rmax = n.max_length == UINT32_MAX ? kNoLimit : std::min<uint32_t>(n.max_length, kNoLimit - 1);
    set_string_chars(f, rmax, std::min<uint32_t>(n.min_length, kNoLimit - 1));
    if (n.pattern >= 0) {
      f.sub = kStrPattern;
      string_pattern_state(f) = g.patterns[size_t(n.pattern)].start;
    }
    return step::consumed;
  }
  if ((c == '-' || (c >= '0' && c <= '9')) && (n.types & (t_int | t_num))) {
    f.kind = fk_number; f.sub = n_start;
    number_digits(f) = 0; number_flags(f) = (n.types & t_num) ? 0 : kIntOnly; number_value(f) = 0;
    return number_step(g, f, c);
  }
  int kw = c == 't' ? 0 : c == 'f' ? 1 : c == 'n' ? 2 : -1;
  if (kw >= 0 && (n.types & (kw == 2 ? t_null : t_bool))) {
    f.kind = fk_keyword; keyword_index(f) = uint32_t(kw); keyword_matched(f) = 1;
    return step::consumed;
  }
  return step::dead;
}

// Undeclared keys are allowed, and their values can finish within the nesting left.
inline bool extra_ok(const compiled_grammar& g, const schema_node& n, const frame& f) {
  return n.additional >= 0 && f.depth + 1 + g.nodes[size_t(n.additional)].need <= kMaxNesting;
}
inline bool more_keys_possible(const compiled_grammar& g, const schema_node& n, const frame& f) {
  uint64_t seen = object_seen(f);
  if (extra_ok(g, n, f)) return true;
  if (n.key_trie < 0) return false;
  return (n.prop_schema.size() >= 64 ? ~uint64_t(0) : (uint64_t(1) << n.prop_schema.size()) - 1) &
         ~seen;
}
inline bool required_met(const schema_node& n, uint64_t seen) { return (n.required & ~seen) == 0; }

step object_step(const compiled_grammar& g, frame& f, uint8_t c, frame& child) {
  const schema_node& n = g.nodes[f.node];
  switch (f.sub) {
    case o_start:
    case o_after_comma:
      if (is_ws(g, c)) return take_ws(g, f, c);
      if (c == '"' && more_keys_possible(g, n, f)) {
        f.ws = 0;
        if (n.key_trie < 0) {  // no declared names: any key, read by a string frame
          f.sub = o_in_key;
          child = make_key_string(ss_normal);
          return step::push;
        }
        f.sub = o_key;
        object_key_node(f) = 0;
        object_key_state(f) = ss_normal;
        return step::consumed;
      }
      if (c == '}' && f.sub == o_start && required_met(n, object_seen(f))) return step::done;
      return step::dead;
    case o_key: {  // on the declared names' trie (object_key_node(f))
      uint32_t st = object_key_state(f);
      sres r = string_step(st, c, true);
      if (r == sres::dead) return step::dead;
      if (r == sres::close) {
        int32_t prop = g.tries[size_t(n.key_trie)].nodes[object_key_node(f)].terminal;
        if (prop >= 0) {
          if (object_seen(f) & (uint64_t(1) << prop)) return step::dead;  // no duplicate keys
          object_property(f) = uint32_t(prop);
        } else if (extra_ok(g, n, f)) {
          object_property(f) = kExtra;
        } else {
          return step::dead;
        }
        f.sub = o_colon;
        object_key_node(f) = 0;
        f.ws = 0;
        return step::consumed;
      }
      const byte_trie& t = g.tries[size_t(n.key_trie)];
      uint32_t next = t.child(object_key_node(f), c);
      bool extra = extra_ok(g, n, f);
      if (next != byte_trie::none && !extra && (t.nodes[next].reach & ~object_seen(f)) == 0) next = byte_trie::none;
      if (next == byte_trie::none) {
        if (!extra) return step::dead;
        // Off the declared names: an undeclared key, read on by a string frame.
        f.sub = o_in_key;
        object_key_node(f) = 0;
        child = make_key_string(st);
        return step::push;
      }
      object_key_node(f) = next;
      object_key_state(f) = st;
      return step::consumed;
    }
    case o_colon:
      if (is_ws(g, c)) return take_ws(g, f, c);
      if (c != ':') return step::dead;
      f.sub = o_in_value;
      f.ws = 0;
      child = make_value(object_property(f) == kExtra ? uint32_t(n.additional) : n.prop_schema[object_property(f)],
                         uint8_t(f.depth + 1));
      return step::push;
    case o_after_value:
      if (is_ws(g, c)) return take_ws(g, f, c);
      if (c == ',' && more_keys_possible(g, n, f)) {
        f.sub = o_after_comma;
        f.ws = 0;
        return step::consumed;
      }
      if (c == '}' && required_met(n, object_seen(f))) return step::done;
      return step::dead;
    default:
      return step::dead;
  }
}

step array_step(const compiled_grammar& g, frame& f, uint8_t c, frame& child) {
  const schema_node& n = g.nodes[f.node];
  switch (f.sub) {
    case a_start:
      if (is_ws(g, c)) return take_ws(g, f, c);
      if (c == ']') return n.min_items == 0 ? step::done : step::dead;
      if (n.max_items == 0 || f.depth + 1 + g.nodes[n.items].need > kMaxNesting) return step::dead;
      f.sub = a_in_item;
      f.ws = 0;
      child = make_value(n.items, uint8_t(f.depth + 1));
      return step::push_refeed;
    case a_after_item:
      if (is_ws(g, c)) return take_ws(g, f, c);
      if (c == ',' && array_items(f) < n.max_items && f.depth + 1 + g.nodes[n.items].need <= kMaxNesting) {
        f.sub = a_in_item;
        f.ws = 0;
        child = make_value(n.items, uint8_t(f.depth + 1));
        return step::push;
      }
      if (c == ']' && array_items(f) >= n.min_items) return step::done;
      return step::dead;
    default:
      return step::dead;
  }
}

// The byte an escape letter of the canonical escapes stands for.
inline uint8_t unescaped(uint8_t c) {
  switch (c) {
    case 'b': return 8;
    case 't': return 9;
    case 'n': return 10;
    case 'f': return 12;
    case 'r': return 13;
    default: return c;  // '"' and '\\'
  }
}

// A pattern string's decoded characters run through its DFA; each step must leave a match
// reachable within the characters still needed and allowed. Such strings use the canonical
// escapes only (no \u, no \/): characters are written raw, so each escape is one known byte.
bool pattern_step(const byte_dfa& d, frame& f, uint32_t mode_before, sres r, uint8_t c, uint32_t rmin, uint32_t rmax) {
  const uint32_t allow = rmax == kNoLimit ? UINT32_MAX : rmax;
  uint32_t s = uint32_t(string_pattern_state(f));
  if (r == sres::new_char && c == '\\') {  // which escape follows is not known yet
    for (uint8_t e : {uint8_t('"'), uint8_t('\\'), uint8_t(8), uint8_t(9), uint8_t(10), uint8_t(12), uint8_t(13)})
      if (d.feasible(d.step(s, e), rmin, allow)) return true;
    return false;
  }
  s = d.step(s, mode_before == ss_esc ? unescaped(c) : c);
  if (!d.feasible(s, rmin, allow)) return false;
  string_pattern_state(f) = s;
  return true;
}

step string_frame_step(const compiled_grammar& g, frame& f, uint8_t c) {
  const bool pattern = (f.sub & kStrPattern) != 0;
  uint32_t st = string_state(f);
  const uint32_t mode_before = st & 0xFF;
  sres r = string_step(st, c, (f.sub & kStrKey) || pattern);
  if (r == sres::dead) return step::dead;
  uint32_t rmax = string_chars_allowed(f), rmin = string_chars_needed(f);
  const byte_dfa* d = pattern ? &g.patterns[size_t(g.nodes[f.node].pattern)] : nullptr;
  if (r == sres::close)
    return rmin == 0 && (!d || d->accept[size_t(string_pattern_state(f))]) ? step::done : step::dead;
  if (r == sres::new_char) {
    if (rmax == 0) return (f.sub & kStrBudgetNormalized) ? step::unsure : step::dead;
    if (rmax != kNoLimit) --rmax;
    if (rmin > 0) --rmin;
    // A normalized pattern budget is exact for kBudgetCap characters (pda_normalize_top).
    if (d && (f.sub & kStrBudgetNormalized) && rmax != kNoLimit && rmax < d->flat_from) return step::unsure;
  }
  if (d && !pattern_step(*d, f, mode_before, r, c, rmin, rmax)) return step::dead;
  set_string_chars(f, rmax, rmin);
  string_state(f) = st;
  return step::consumed;
}

step frame_step(const compiled_grammar& g, frame& f, uint8_t c, frame& child) {
  switch (f.kind) {
    case fk_value: return value_step(g, f, c);
    case fk_object: return object_step(g, f, c, child);
    case fk_array: return array_step(g, f, c, child);
    case fk_string: return string_frame_step(g, f, c);
    case fk_number: return number_step(g, f, c);
    case fk_keyword: {
      const char* kw = kKeywords[keyword_index(f)];
      if (uint8_t(kw[keyword_matched(f)]) != c) return step::dead;
      ++keyword_matched(f);
      return kw[keyword_matched(f)] == 0 ? step::done : step::consumed;
    }
    case fk_literal: return literal_step(g, f, c);
    case fk_doc: return step::dead;  // d_done: nothing may follow the document
    case fk_lines:
      if (f.sub == l_start) {
        if (c != '{') return step::dead;  // a line is an object, no leading whitespace
        f.sub = l_in;
        child = make_value(g.root, 0);
        return step::push_refeed;
      }
      if (f.sub == l_after && c == '\n') {
        f.sub = l_start;
        return step::consumed;
      }
      return step::dead;
    default:
      return step::dead;
  }
}

}  // namespace

feed_status pda_feed(const compiled_grammar& g, frame* f, int& n, int cap, uint8_t c) {
  while (true) {
    if (n == 0) return feed_status::underflow;
    frame child;
    switch (frame_step(g, f[n - 1], c, child)) {
      case step::consumed: return feed_status::ok;
      case step::push:
        if (n >= cap) return feed_status::overflow;
        f[n++] = child;
        return feed_status::ok;
      case step::push_refeed:
        if (n >= cap) return feed_status::overflow;
        f[n++] = child;
        continue;
      case step::done:
        if (--n == 0) return feed_status::underflow;
        child_done(g, f[n - 1]);
        return feed_status::ok;
      case step::pop_refeed:
        if (--n == 0) return feed_status::underflow_refeed;
        child_done(g, f[n - 1]);
        continue;
      case step::dead: return feed_status::dead;
      case step::split: return feed_status::split;
      case step::unsure: return feed_status::overflow;
    }
  }
}

bool pda_can_end(const compiled_grammar& g, const frame* f, int n) {
  // Only the frames from the top down to the first non-finishing one matter: copy lazily.
  frame below;
  int i = n - 1;
  bool have_below = false;
  while (i >= 0) {
    const frame& t = have_below ? below : f[i];
    bool finishes = false;
    switch (t.kind) {
      case fk_doc: return t.sub == d_done;
      case fk_lines: return t.sub == l_start;
      case fk_number:
        finishes = number_finishes(g, t);
        break;
      case fk_literal:
        finishes = g.tries[size_t(g.nodes[t.node].literals)].nodes[literal_trie_node(t)].terminal >= 0;
        break;
      default: break;
    }
    if (!finishes || i == 0) return false;
    below = f[i - 1];
    child_done(g, below);
    have_below = true;
    --i;
  }
  return false;
}

bool pda_pop_finished(const compiled_grammar& g, pda_stack& s) {
  if (s.n < 2) return false;
  const frame& t = s.f[s.n - 1];
  bool finishes = false;
  if (t.kind == fk_number) finishes = number_finishes(g, t);
  else if (t.kind == fk_literal)
    finishes = g.tries[size_t(g.nodes[t.node].literals)].nodes[literal_trie_node(t)].terminal >= 0;
  if (!finishes) return false;
  --s.n;
  child_done(g, s.f[s.n - 1]);
  return true;
}

bool pda_is_done(const frame* f, int n) { return n == 1 && f[0].kind == fk_doc && f[0].sub == d_done; }

void pda_init(const compiled_grammar& g, pda_stack& s) {
  if (g.mode == compiled_grammar::event_lines) {
    s.n = 1;
    s.f[0] = frame();
    s.f[0].kind = fk_lines;
    s.f[0].sub = l_start;
    return;
  }
  s.n = 2;
  s.f[0] = frame();
  s.f[0].kind = fk_doc;
  s.f[0].sub = d_in;
  s.f[1] = make_value(g.root, 0);
}

bool pda_normalize_top(const compiled_grammar& g, frame& f) {
  switch (f.kind) {
    case fk_string: {
      f.depth = 0;
      f.ws = 0;
      // A pattern string keeps its node (its DFA) and its DFA state. Budgets more than
      // kBudgetCap characters past the DFA's flat_from act alike for kBudgetCap characters (the
      // reach bits they read are constant there), so they share one entry; a token longer than
      // that is "unsure" and decided per state.
      if (f.sub & kStrPattern) {
        const uint32_t cap = g.patterns[size_t(g.nodes[f.node].pattern)].flat_from + kBudgetCap;
        uint32_t rmax = string_chars_allowed(f), rmin = string_chars_needed(f);
        if (rmax != kNoLimit && rmax > cap) {
          rmax = cap;
          rmin = std::min(rmin, cap);
          f.sub |= kStrBudgetNormalized;
        }
        set_string_chars(f, rmax, rmin);
        return false;
      }
      // Closing the top string always leaves it (decided per state), so the characters still
      // needed do not matter here; a budget above the cap behaves like the cap, except that
      // exhausting it is "unsure".
      f.node = 0;
      uint32_t rmax = string_chars_allowed(f);
      if (rmax != kNoLimit && rmax > kBudgetCap) {
        rmax = kBudgetCap;
        f.sub |= kStrBudgetNormalized;
      }
      set_string_chars(f, rmax, 0);
      return true;
    }
    case fk_number:
      f.depth = 0;
      f.ws = 0;
      // A bounded integer or number keeps its node (its bounds) and its value: grammar-specific.
      if ((number_flags(f) != 0 && g.nodes[f.node].int_bounded) || num_bounded_frame(g, f)) return false;
      f.node = 0;
      return true;
    case fk_keyword:
      f.node = 0;
      f.depth = 0;
      f.ws = 0;
      return true;
    case fk_literal:
      f.depth = 0;
      f.ws = 0;
      return false;
    default:
      return false;
  }
}

}  // namespace infer
