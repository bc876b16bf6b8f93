// Internals shared by the grammar sources: schema nodes, literal tries, automaton frames, the
// vocabulary trie and the mask cache. Not part of the public API (see grammar.h).
#pragma once
#include <atomic>
#include <bitset>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "grammar/grammar.h"
#include "grammar/regex_dfa.h"

namespace infer {

// ---- limits (every one explicit) ----
constexpr int kMaxNesting = 40;          // containers open at once; deeper values are scalars only
constexpr int kMaxStack = kMaxNesting * 2 + 8;
constexpr int kNeedInf = kMaxNesting + 1;
constexpr int kMaxStacks = 16;           // simultaneous alternatives (anyOf) kept per matcher
constexpr int kMaxProperties = 64;       // declared properties per object schema
constexpr int kMaxIntDigits = 16;
constexpr int kMaxFracDigits = 16;
constexpr int kMaxExpDigits = 3;
constexpr size_t kMaxSchemaBytes = 1 << 20;
constexpr size_t kMaxSchemaNodes = 20000;
constexpr size_t kMaxLiteralBytes = 1 << 20;  // all enum/const serializations together
constexpr size_t kTopCacheBytes = 64u << 20;    // per vocab, cleared when exceeded
constexpr size_t kStateCacheBytes = 64u << 20;  // per vocab, cleared when exceeded

// Exact decimals for number bounds: values scaled by 10^kMaxFracDigits (what the grammar can
// write: kMaxIntDigits + kMaxFracDigits digits, well inside 128 bits).
__extension__ typedef __int128 int128;
constexpr int128 kNumScale = int128(10000000000000000LL);  // 10^kMaxFracDigits
// The largest multipleOf mantissa a number node enforces (its residue lives in 24 bits of a frame).
constexpr uint32_t kMaxNumMult = (1u << 24) - 1;
constexpr int128 kNumLimit = kNumScale * kNumScale - 1;    // the largest writable magnitude, scaled
inline int128 pow10_128(int k) {
  int128 p = 1;
  while (k-- > 0) p *= 10;
  return p;
}

// ---- byte trie for enum literals and property names ----
struct byte_trie {
  static constexpr uint32_t none = 0xFFFFFFFFu;
  struct node {
    uint32_t edge_begin = 0, edge_end = 0;
    int32_t terminal = -1;  // property index / literal index ending here
    uint64_t reach = 0;     // property bits of terminals at or below (key tries)
  };
  std::vector<node> nodes;                          // node 0 is the root
  std::vector<std::pair<uint8_t, uint32_t>> edges;  // sorted by byte within a node
  uint32_t child(uint32_t n, uint8_t c) const {
    const node& nd = nodes[n];
    for (uint32_t e = nd.edge_begin; e < nd.edge_end; ++e)
      if (edges[e].first == c) return edges[e].second;
    return none;
  }
  bool has_children(uint32_t n) const { return nodes[n].edge_end > nodes[n].edge_begin; }
  static byte_trie build(const std::vector<std::string>& keys);  // terminal = index in keys
};

// ---- schema nodes ----
enum type_bits : uint8_t {
  t_null = 1, t_bool = 2, t_int = 4, t_num = 8, t_str = 16, t_arr = 32, t_obj = 64,
  t_any = 127,
};

struct schema_node {
  uint8_t types = t_any;
  int32_t literals = -1;               // trie index: value must be one of these serializations
  std::vector<uint32_t> alternatives;  // anyOf / oneOf (flattened); other fields unused then
  uint32_t min_length = 0, max_length = UINT32_MAX;  // strings, in characters
  // integers (a node of type integer only): inclusive bounds from minimum/maximum and their
  // exclusive forms, and an integer multipleOf; the number frame keeps the value so far and
  // refuses digits that cannot end on an allowed value.
  bool int_bounded = false;
  int64_t int_min = 0, int_max = 0;
  int64_t int_multiple = 1;  // multipleOf (a positive integer; 1 = any)
  int32_t pattern = -1;      // strings: index into compiled_grammar::patterns (pattern / format)
  // numbers (type number): inclusive bounds scaled by kNumScale, and multipleOf as
  // num_mult / 10^max_frac (max_frac caps the fraction digits; num_mult < 2^24 so that the
  // residue of the digits so far fits the number frame); such numbers are written without an
  // exponent.
  bool num_bounded = false;
  uint8_t max_frac = kMaxFracDigits;
  uint32_t num_mult = 1;
  int128 num_min = -kNumLimit, num_max = kNumLimit;
  uint32_t items = 0;                                // array item schema (0 = any)
  uint32_t min_items = 0, max_items = UINT32_MAX;
  std::vector<uint32_t> prop_schema;  // object: schema per declared property
  int32_t key_trie = -1;              // object: trie over declared names (JSON-escaped)
  uint64_t required = 0;              // object: bits of required declared properties
  // Nesting levels needed to finish a value of this schema (kNeedInf: impossible within
  // kMaxNesting), as an object, as an array; filled by the compiler's last pass. A value at
  // depth d may take a form only if d + need <= kMaxNesting: no dead end at the nesting limit.
  uint8_t need = 0, need_obj = 0, need_arr = 0;
  int32_t additional = 0;             // object: schema for other keys, -1 = none allowed
  bool length_limited() const { return min_length != 0 || max_length != UINT32_MAX; }
  // An integer value inside the integer bounds and a multiple of int_multiple.
  bool int_allowed(int64_t v) const { return v >= int_min && v <= int_max && v % int_multiple == 0; }
  // The step between allowed numbers, scaled by kNumScale (multipleOf, or the fraction digits' unit).
  int128 num_grid() const { return int128(num_mult) * pow10_128(kMaxFracDigits - max_frac); }
};

struct compiled_grammar {
  enum mode_t : uint8_t { single_value, event_lines } mode = single_value;
  uint32_t uid = 0;        // unique per compiled grammar: mask cache key
  uint32_t root = 0;       // schema node of the document (or of each line)
  bool ws_newlines = true; // whether '\n' / '\r' count as whitespace inside values
  uint8_t max_ws = 1;      // without newlines: longest run of spaces/tabs at one place (pda.cc take_ws)
  std::vector<schema_node> nodes;  // node 0 is "any JSON value"
  std::vector<byte_trie> tries;
  std::vector<byte_dfa> patterns;
  static uint32_t next_uid();
};

// ---- automaton frames: 24 bytes, no padding, compared and hashed as raw bytes ----
enum frame_kind : uint8_t {
  fk_value, fk_object, fk_array, fk_string, fk_number, fk_keyword, fk_literal, fk_doc, fk_lines,
};
struct frame {
  uint8_t kind = 0;
  uint8_t sub = 0;    // the kind's step (pda.cc: o_*, a_*, n_*, d_*, l_*; string flag bits)
  uint8_t ws = 0;     // whitespace bytes used in the current run
  uint8_t depth = 0;  // containers open below this frame
  uint32_t node = 0;  // schema node
  // Kind-specific storage: read and write it only through the kind's accessors below. A field a
  // kind does not use stays 0 (the bytes are the cache key: the same state, the same bytes).
  uint32_t slot32_1 = 0;
  uint32_t slot32_2 = 0;
  uint64_t slot64 = 0;
};
static_assert(sizeof(frame) == 24, "frame must stay packed: it is hashed as bytes");

// ---- frame fields by kind: each accessor names one storage slot as one kind uses it (the `sub`
// steps o_*, n_*, ... and the flag constants named below are defined in pda.cc) ----
// value, doc, lines: no kind-specific fields. A value frame (node, depth, ws: its leading
// whitespace) turns into the concrete kind on its first byte; doc holds the single root value
// (sub d_*), lines NDJSON lines of root values (sub l_*).

// object (sub o_*): while reading a declared key (o_key), the node in the declared names' trie
// and the key's string state (string_step); once the key is read (o_colon, o_in_value), the
// property index (kExtra for an undeclared key); throughout, the bits of the declared properties
// present (or out of reach: never offered).
inline uint32_t& object_key_node(frame& f) { return f.slot32_1; }
inline uint32_t object_key_node(const frame& f) { return f.slot32_1; }
inline uint32_t& object_key_state(frame& f) { return f.slot32_2; }
inline uint32_t object_key_state(const frame& f) { return f.slot32_2; }
inline uint32_t& object_property(frame& f) { return f.slot32_2; }
inline uint32_t object_property(const frame& f) { return f.slot32_2; }
inline uint64_t& object_seen(frame& f) { return f.slot64; }
inline uint64_t object_seen(const frame& f) { return f.slot64; }

// array (sub a_*): the items so far, saturating at the largest bound that matters.
inline uint32_t& array_items(frame& f) { return f.slot32_1; }
inline uint32_t array_items(const frame& f) { return f.slot32_1; }

// string (sub: flag bits kStrKey, kStrPattern, and kStrBudgetNormalized when a cache-normalized
// budget stands for a larger one: running out of it is then "uncertain", never "dead"): the
// characters still allowed (0xFFFF: no limit) and still needed, packed in one slot (16 bits
// each); the string state (string_step); for a pattern string, the state of the node's DFA.
inline uint32_t string_chars_allowed(const frame& f) { return f.slot32_1 & 0xFFFF; }
inline uint32_t string_chars_needed(const frame& f) { return f.slot32_1 >> 16; }
inline void set_string_chars(frame& f, uint32_t allowed, uint32_t needed) {
  f.slot32_1 = allowed | needed << 16;
}
inline uint32_t& string_state(frame& f) { return f.slot32_2; }
inline uint32_t string_state(const frame& f) { return f.slot32_2; }
inline uint64_t& string_pattern_state(frame& f) { return f.slot64; }
inline uint64_t string_pattern_state(const frame& f) { return f.slot64; }

// number (sub n_*): the digits in the current part (integer, fraction, exponent); flags: kIntOnly,
// kNegative (bounded integers and numbers), kTieLo / kTieHi (a bounded number's integer part
// equals its lower / upper bound's), and above the low 8 bits, in a bounded number's fraction,
// the residue of its digits (frac_residue); the value of the digits so far in the current part
// (bounded integers and numbers only).
inline uint32_t& number_digits(frame& f) { return f.slot32_1; }
inline uint32_t number_digits(const frame& f) { return f.slot32_1; }
inline uint32_t& number_flags(frame& f) { return f.slot32_2; }
inline uint32_t number_flags(const frame& f) { return f.slot32_2; }
inline uint64_t& number_value(frame& f) { return f.slot64; }
inline uint64_t number_value(const frame& f) { return f.slot64; }

// keyword: which one (0 true, 1 false, 2 null) and the bytes of it matched so far.
inline uint32_t& keyword_index(frame& f) { return f.slot32_1; }
inline uint32_t keyword_index(const frame& f) { return f.slot32_1; }
inline uint32_t& keyword_matched(frame& f) { return f.slot32_2; }
inline uint32_t keyword_matched(const frame& f) { return f.slot32_2; }

// literal (enum / const; node: its schema node): the node reached in the schema's literal trie.
inline uint32_t& literal_trie_node(frame& f) { return f.slot32_1; }
inline uint32_t literal_trie_node(const frame& f) { return f.slot32_1; }

struct pda_stack {
  int n = 0;
  frame f[kMaxStack];
  void copy_from(const pda_stack& o) {
    n = o.n;
    std::memcpy(f, o.f, sizeof(frame) * size_t(n));
  }
};

enum class feed_status : uint8_t { ok, dead, underflow, underflow_refeed, overflow, split };

// Feeds byte c to the frames f[0..n) (f[n-1] on top). underflow: the bottom frame finished with
// this byte; underflow_refeed: it had finished before, the byte belongs below f[0]; split: the
// top frame is a union value whose alternatives must be tried one by one (nothing consumed yet).
feed_status pda_feed(const compiled_grammar& g, frame* f, int& n, int cap, uint8_t c);
// Whether the input may end here (finishes pending numbers / literals).
bool pda_can_end(const compiled_grammar& g, const frame* f, int n);
// Pops a top frame that may finish here (a number, a literal) and tells its parent; false if the
// top frame cannot finish now or is the bottom one.
bool pda_pop_finished(const compiled_grammar& g, pda_stack& s);
// Whether the stack is a finished single document (nothing more but the end).
bool pda_is_done(const frame* f, int n);
// The initial stack of a grammar.
void pda_init(const compiled_grammar& g, pda_stack& s);
// Normalizes a top frame for the context-independent cache: fields that cannot change its
// behaviour are zeroed; returns true when the frame's behaviour does not depend on the grammar.
bool pda_normalize_top(const compiled_grammar& g, frame& f);

// ---- vocabulary trie: preorder array; a subtree is [i, next) ----
struct vocab_trie_node {
  uint32_t next;       // index after this node's subtree
  uint32_t tok_begin;  // tokens of this node: [tok_begin, nodes[i+1].tok_begin); subtree:
                       // [tok_begin, nodes[next].tok_begin) into sorted_ids
  uint16_t depth;      // 1 = first byte
  uint8_t byte;
};

// A set of tokens: ids allowed (accept_form) or ids not allowed among the usable tokens.
struct token_list {
  bool accept_form = true;
  std::vector<int32_t> ids;
  size_t bytes() const { return ids.size() * sizeof(int32_t) + 32; }
};

// Context-independent result for one top frame.
struct top_entry {
  token_list sure;               // accepted (accept_form) or rejected whatever lies below
  std::vector<int32_t> uncertain;  // depend on the frames below: checked per state
  // First bytes the top frame does not take but finishes on (a number followed by ','): tokens
  // starting with them get the verdict of the state below once the top frame is popped.
  std::bitset<256> delegate;
  size_t bytes() const { return sure.bytes() + uncertain.size() * sizeof(int32_t) + 64; }
};

// The mask of one full state: the top entry's sure list plus this state's verdicts on the
// uncertain tokens (ids: in accept_form the extra allowed ones, else the extra rejected ones).
// Several stacks (anyOf) have no base: ids is the whole list.
struct state_mask {
  bool accept_form = true;
  std::shared_ptr<const top_entry> base;
  std::vector<int32_t> ids;
  size_t bytes() const { return ids.size() * sizeof(int32_t) + 64; }
};

struct mask_cache {
  std::mutex mu;
  std::unordered_map<std::string, std::shared_ptr<const top_entry>> tops;
  std::unordered_map<std::string, std::shared_ptr<const state_mask>> states;
  size_t top_bytes = 0, state_bytes = 0;
  // Each map is cleared on its own when its budget would be exceeded (entries in use live on).
  void add_top(const std::string& key, std::shared_ptr<const top_entry> e);
  void add_state(const std::string& key, std::shared_ptr<const state_mask> e);
};

struct grammar_vocab_impl {
  std::vector<std::string> bytes;
  std::vector<uint8_t> usable;
  std::vector<int32_t> end_ids;
  std::vector<int32_t> never;  // usable == 0 and not an end token
  std::vector<uint32_t> usable_bits;  // usable as a bitmask
  std::vector<vocab_trie_node> trie;  // + one sentinel at the end
  std::vector<int32_t> sorted_ids;
  uint32_t first_byte_begin[257] = {};  // sorted_ids index of the first token starting with byte b
  int max_token_len = 0;
  size_t n_usable = 0;
  mutable mask_cache cache;
};

}  // namespace infer
