// Token masks. A mask is computed per distinct automaton state and cached per vocabulary:
//  1. the top frame alone decides most tokens: a walk over the vocabulary trie, pruning dead
//     subtrees, sorts every token into "sure" (accepted or rejected whatever lies below the top
//     frame) or "uncertain" (it finishes the top frame, so the frames below decide). This part
//     is cached by the top frame's bytes and shared across states, sequences and, for strings
//     and numbers, across grammars.
//  2. uncertain tokens (few: those that close a string, a number, an object...) are run on the
//     full stack. The final list is cached by the whole state.
#include <algorithm>
#include <cmath>
#include <limits>

#include "grammar/grammar_internal.h"

namespace infer {

struct matcher_state {
  std::shared_ptr<const compiled_grammar> g;
  std::shared_ptr<const grammar_vocab> vocab;
  std::vector<pda_stack> stacks;
  bool terminated = false;
  std::shared_ptr<const state_mask> current;  // mask of the current state, once computed
  // scratch
  std::vector<pda_stack> tmp_a, tmp_b;
  std::vector<float> saved;
};

namespace {

constexpr int kLocalCap = 6;
struct local_stack {
  int n;
  frame f[kLocalCap];
};

void expand_feed(const compiled_grammar& g, pda_stack& s, uint8_t c, std::vector<pda_stack>& out, int hops) {
  feed_status st = pda_feed(g, s.f, s.n, kMaxStack, c);
  if (st == feed_status::ok) {
    out.emplace_back();
    out.back().copy_from(s);
    return;
  }
  if (st != feed_status::split || hops > 8) return;
  const std::vector<uint32_t> alts = g.nodes[s.f[s.n - 1].node].alternatives;
  for (uint32_t alt : alts) {
    pda_stack copy;
    copy.copy_from(s);
    copy.f[copy.n - 1].node = alt;
    expand_feed(g, copy, c, out, hops + 1);
  }
}

bool same_stack(const pda_stack& x, const pda_stack& y) {
  return x.n == y.n && std::memcmp(x.f, y.f, sizeof(frame) * size_t(x.n)) == 0;
}

// Feeds bytes to every stack; out gets the surviving, deduplicated stacks (at most kMaxStacks).
void feed_bytes(const compiled_grammar& g, const std::vector<pda_stack>& in, const std::string& bytes,
                std::vector<pda_stack>& out, std::vector<pda_stack>& tmp) {
  out.clear();
  for (const auto& s : in) {
    out.emplace_back();
    out.back().copy_from(s);
  }
  for (unsigned char c : bytes) {
    tmp.clear();
    for (auto& s : out) expand_feed(g, s, c, tmp, 0);
    out.clear();
    for (auto& s : tmp) {
      bool dup = false;
      for (auto& o : out) dup = dup || same_stack(o, s);
      if (!dup && out.size() < size_t(kMaxStacks)) {
        out.emplace_back();
        out.back().copy_from(s);
      }
    }
    if (out.empty()) return;
  }
}

// Whether bytes can be fed to the single stack s (fast path without splits, general otherwise).
bool stack_accepts(const compiled_grammar& g, const pda_stack& s, const std::string& bytes,
                   pda_stack& scratch, std::vector<pda_stack>& ta, std::vector<pda_stack>& tb) {
  scratch.copy_from(s);
  for (size_t i = 0; i < bytes.size(); ++i) {
    feed_status st = pda_feed(g, scratch.f, scratch.n, kMaxStack, uint8_t(bytes[i]));
    if (st == feed_status::ok) continue;
    if (st != feed_status::split) return false;
    // A union: continue with the general feeder from this byte on.
    std::vector<pda_stack> from(1);
    from[0].copy_from(scratch);
    std::vector<pda_stack> tmp;
    expand_feed(g, from[0], uint8_t(bytes[i]), tmp, 0);
    if (tmp.empty()) return false;
    feed_bytes(g, tmp, bytes.substr(i + 1), ta, tb);
    return !ta.empty();
  }
  return true;
}

std::string frame_key(char tag, uint32_t uid, const frame* f, int n) {
  std::string k;
  k.reserve(5 + sizeof(frame) * size_t(n));
  k += tag;
  k.append(reinterpret_cast<const char*>(&uid), sizeof uid);
  k.append(reinterpret_cast<const char*>(f), sizeof(frame) * size_t(n));
  return k;
}

// Trie walk from one (normalized) top frame.
std::shared_ptr<const top_entry> compute_top(const compiled_grammar& g, const grammar_vocab_impl& v,
                                             const frame& base) {
  std::vector<local_stack> states(size_t(v.max_token_len) + 1);
  states[0].n = 1;
  states[0].f[0] = base;
  std::vector<int32_t> accepted, uncertain;
  std::bitset<256> delegate;
  const auto& T = v.trie;
  const size_t end = T.size() - 1;  // sentinel
  size_t i = 0;
  while (i < end) {
    const vocab_trie_node& nd = T[i];
    local_stack& ls = states[nd.depth];
    const local_stack& up = states[nd.depth - 1];
    ls.n = up.n;
    std::memcpy(ls.f, up.f, sizeof(frame) * size_t(up.n));
    feed_status st = pda_feed(g, ls.f, ls.n, kLocalCap, nd.byte);
    if (st == feed_status::ok) {
      for (uint32_t t = nd.tok_begin; t < T[i + 1].tok_begin; ++t) accepted.push_back(v.sorted_ids[t]);
      ++i;
    } else if (st == feed_status::dead) {
      i = nd.next;
    } else if (st == feed_status::underflow_refeed && nd.depth == 1) {
      delegate.set(nd.byte);  // the frame below decides these tokens
      i = nd.next;
    } else {  // finished the top frame, too deep to follow, or a union: decide per state
      for (uint32_t t = nd.tok_begin; t < T[nd.next].tok_begin; ++t) uncertain.push_back(v.sorted_ids[t]);
      i = nd.next;
    }
  }
  auto e = std::make_shared<top_entry>();
  e->uncertain = std::move(uncertain);
  e->delegate = delegate;
  if (accepted.size() * 2 > v.n_usable) {
    std::vector<uint8_t> mark(v.bytes.size(), 0);
    for (int32_t t : accepted) mark[size_t(t)] = 1;
    for (int32_t t : e->uncertain) mark[size_t(t)] = 1;
    for (int b = 0; b < 256; ++b)
      if (delegate[size_t(b)])
        for (uint32_t k = v.first_byte_begin[b]; k < v.first_byte_begin[b + 1]; ++k) mark[size_t(v.sorted_ids[k])] = 1;
    e->sure.accept_form = false;
    for (int32_t t : v.sorted_ids)
      if (!mark[size_t(t)]) e->sure.ids.push_back(t);
  } else {
    e->sure.accept_form = true;
    e->sure.ids = std::move(accepted);
  }
  return e;
}

std::shared_ptr<const top_entry> top_for(const compiled_grammar& g, const grammar_vocab_impl& v, frame top) {
  bool indep = pda_normalize_top(g, top);
  std::string key = frame_key('T', indep ? 0 : g.uid, &top, 1);
  {
    std::lock_guard<std::mutex> lock(v.cache.mu);
    auto it = v.cache.tops.find(key);
    if (it != v.cache.tops.end()) return it->second;
  }
  auto e = compute_top(g, v, top);
  std::lock_guard<std::mutex> lock(v.cache.mu);
  v.cache.add_top(key, e);
  return e;
}

// Calls fn(id) for every id listed by the mask (allowed ones in accept form, else rejected ones).
template <class F>
void for_each_listed(const state_mask& sm, F&& fn) {
  if (sm.base)
    for (int32_t t : sm.base->sure.ids) fn(t);
  for (int32_t t : sm.ids) fn(t);
}

size_t listed_count(const state_mask& sm) { return (sm.base ? sm.base->sure.ids.size() : 0) + sm.ids.size(); }

// The shorter list form of a 0/1 array over the vocabulary.
void list_from_marks(const grammar_vocab_impl& v, const std::vector<uint8_t>& allowed, state_mask& out) {
  size_t count = 0;
  for (int32_t t : v.sorted_ids) count += allowed[size_t(t)];
  out.base.reset();
  out.ids.clear();
  out.accept_form = count * 2 <= v.n_usable;
  for (int32_t t : v.sorted_ids)
    if (bool(allowed[size_t(t)]) == out.accept_form) out.ids.push_back(t);
}

std::shared_ptr<const state_mask> mask_for_stacks(matcher_state& m, const std::vector<pda_stack>& stacks);

state_mask stack_mask(matcher_state& m, const pda_stack& s) {
  const compiled_grammar& g = *m.g;
  const grammar_vocab_impl& v = m.vocab->impl();
  state_mask out;
  auto top = top_for(g, v, s.f[s.n - 1]);
  out.base = top;
  out.accept_form = top->sure.accept_form;
  pda_stack scratch;
  for (int32_t t : top->uncertain) {
    bool ok = stack_accepts(g, s, v.bytes[size_t(t)], scratch, m.tmp_a, m.tmp_b);
    if (ok == out.accept_form) out.ids.push_back(t);
  }
  if (top->delegate.none()) return out;
  // Tokens that start with a byte the top frame finishes on: the state below decides them.
  std::vector<pda_stack> below(1);
  below[0].copy_from(s);
  if (!pda_pop_finished(g, below[0])) return out;  // not reached: delegation implies a finished top
  auto parent = mask_for_stacks(m, below);
  const auto& D = top->delegate;
  auto first = [&](int32_t t) { return size_t((unsigned char)v.bytes[size_t(t)][0]); };
  if (out.accept_form && parent->accept_form) {
    for_each_listed(*parent, [&](int32_t t) {
      if (D[first(t)]) out.ids.push_back(t);
    });
    return out;
  }
  std::vector<uint8_t> allowed(v.bytes.size(), 0);
  auto set_groups = [&](bool delegated) {
    for (int b = 0; b < 256; ++b)
      if (D[size_t(b)] == delegated)
        for (uint32_t k = v.first_byte_begin[b]; k < v.first_byte_begin[b + 1]; ++k) allowed[size_t(v.sorted_ids[k])] = 1;
  };
  if (out.accept_form) {
    for_each_listed(out, [&](int32_t t) { allowed[size_t(t)] = 1; });
  } else {
    set_groups(false);
    for_each_listed(out, [&](int32_t t) { allowed[size_t(t)] = 0; });
  }
  if (parent->accept_form) {
    for_each_listed(*parent, [&](int32_t t) {
      if (D[first(t)]) allowed[size_t(t)] = 1;
    });
  } else {
    set_groups(true);
    for_each_listed(*parent, [&](int32_t t) {
      if (D[first(t)]) allowed[size_t(t)] = 0;
    });
  }
  list_from_marks(v, allowed, out);
  return out;
}

std::shared_ptr<const state_mask> get_state_mask(matcher_state& m) {
  if (m.current) return m.current;
  if (m.terminated || m.stacks.empty()) {
    m.current = std::make_shared<state_mask>();
    return m.current;
  }
  return m.current = mask_for_stacks(m, m.stacks);
}

std::shared_ptr<const state_mask> mask_for_stacks(matcher_state& m, const std::vector<pda_stack>& stacks) {
  const grammar_vocab_impl& v = m.vocab->impl();
  std::string key;
  key += 'S';
  key.append(reinterpret_cast<const char*>(&m.g->uid), sizeof(uint32_t));
  for (const auto& s : stacks) {
    key += char(s.n);
    key.append(reinterpret_cast<const char*>(s.f), sizeof(frame) * size_t(s.n));
  }
  {
    std::lock_guard<std::mutex> lock(v.cache.mu);
    auto it = v.cache.states.find(key);
    if (it != v.cache.states.end()) return it->second;
  }
  auto out = std::make_shared<state_mask>();
  if (stacks.size() == 1) {
    *out = stack_mask(m, stacks[0]);
  } else {
    std::vector<uint8_t> allowed(v.bytes.size(), 0);
    for (const auto& s : stacks) {
      state_mask one = stack_mask(m, s);
      if (one.accept_form) {
        for_each_listed(one, [&](int32_t t) { allowed[size_t(t)] = 1; });
      } else {
        std::vector<uint8_t> rej(v.bytes.size(), 0);
        for_each_listed(one, [&](int32_t t) { rej[size_t(t)] = 1; });
        for (int32_t t : v.sorted_ids)
          if (!rej[size_t(t)]) allowed[size_t(t)] = 1;
      }
    }
    list_from_marks(v, allowed, *out);
  }
  std::lock_guard<std::mutex> lock(v.cache.mu);
  v.cache.add_state(key, out);
  return out;
}

bool is_end_token(const grammar_vocab_impl& v, int32_t t) {
  return std::find(v.end_ids.begin(), v.end_ids.end(), t) != v.end_ids.end();
}

}  // namespace

grammar_matcher::grammar_matcher(std::shared_ptr<const compiled_grammar> grammar,
                                 std::shared_ptr<const grammar_vocab> vocab)
    : st_(std::make_unique<matcher_state>()) {
  st_->g = std::move(grammar);
  st_->vocab = std::move(vocab);
  reset();
}

grammar_matcher::~grammar_matcher() = default;

void grammar_matcher::reset() {
  st_->stacks.assign(1, pda_stack());
  pda_init(*st_->g, st_->stacks[0]);
  st_->terminated = false;
  st_->current.reset();
}

bool grammar_matcher::can_terminate() const {
  if (st_->terminated) return false;
  for (const auto& s : st_->stacks)
    if (pda_can_end(*st_->g, s.f, s.n)) return true;
  return false;
}

bool grammar_matcher::is_complete() const {
  if (st_->terminated) return true;
  for (const auto& s : st_->stacks)
    if (!pda_is_done(s.f, s.n)) return false;
  return !st_->stacks.empty();
}

bool grammar_matcher::is_allowed(int32_t token) const {
  const grammar_vocab_impl& v = st_->vocab->impl();
  if (st_->terminated || token < 0 || size_t(token) >= v.bytes.size()) return false;
  if (is_end_token(v, token)) return can_terminate();
  if (!v.usable[size_t(token)]) return false;
  pda_stack scratch;
  for (const auto& s : st_->stacks)
    if (stack_accepts(*st_->g, s, v.bytes[size_t(token)], scratch, st_->tmp_a, st_->tmp_b)) return true;
  return false;
}

bool grammar_matcher::accept(int32_t token) {
  const grammar_vocab_impl& v = st_->vocab->impl();
  if (st_->terminated || token < 0 || size_t(token) >= v.bytes.size()) return false;
  if (is_end_token(v, token)) {
    if (!can_terminate()) return false;
    st_->terminated = true;
    st_->current.reset();
    return true;
  }
  if (!v.usable[size_t(token)]) return false;
  std::vector<pda_stack> next;
  feed_bytes(*st_->g, st_->stacks, v.bytes[size_t(token)], next, st_->tmp_a);
  if (next.empty()) return false;
  st_->stacks.swap(next);
  st_->current.reset();
  return true;
}

void grammar_matcher::fill_mask(float* logits, size_t n_logits) {
  const grammar_vocab_impl& v = st_->vocab->impl();
  auto list = get_state_mask(*st_);
  bool end_ok = can_terminate();
  const float ninf = -std::numeric_limits<float>::infinity();
  if (list->accept_form) {
    auto& saved = st_->saved;
    saved.clear();
    for_each_listed(*list, [&](int32_t t) { saved.push_back(size_t(t) < n_logits ? logits[t] : 0.f); });
    if (end_ok)
      for (int32_t t : v.end_ids) saved.push_back(size_t(t) < n_logits ? logits[t] : 0.f);
    std::fill(logits, logits + n_logits, ninf);
    size_t k = 0;
    for_each_listed(*list, [&](int32_t t) {
      if (size_t(t) < n_logits) logits[t] = saved[k];
      ++k;
    });
    if (end_ok)
      for (int32_t t : v.end_ids) {
        if (size_t(t) < n_logits) logits[t] = saved[k];
        ++k;
      }
    return;
  }
  for_each_listed(*list, [&](int32_t t) {
    if (size_t(t) < n_logits) logits[t] = ninf;
  });
  for (int32_t t : v.never)
    if (size_t(t) < n_logits) logits[t] = ninf;
  if (!end_ok)
    for (int32_t t : v.end_ids)
      if (size_t(t) < n_logits) logits[t] = ninf;
  for (size_t t = v.bytes.size(); t < n_logits; ++t) logits[t] = ninf;
}

void grammar_matcher::fill_bitmask(uint32_t* bits, size_t n_words) {
  const grammar_vocab_impl& v = st_->vocab->impl();
  auto list = get_state_mask(*st_);
  bool end_ok = can_terminate();
  size_t n_bits = n_words * 32;
  auto set = [&](int32_t t, bool on) {
    if (size_t(t) >= n_bits) return;
    if (on) bits[size_t(t) >> 5] |= 1u << (t & 31);
    else bits[size_t(t) >> 5] &= ~(1u << (t & 31));
  };
  if (list->accept_form) {
    std::fill(bits, bits + n_words, 0u);
    for_each_listed(*list, [&](int32_t t) { set(t, true); });
  } else {
    size_t n = std::min(n_words, v.usable_bits.size());
    std::copy(v.usable_bits.begin(), v.usable_bits.begin() + ptrdiff_t(n), bits);
    std::fill(bits + n, bits + n_words, 0u);
    for_each_listed(*list, [&](int32_t t) { set(t, false); });
  }
  if (end_ok)
    for (int32_t t : v.end_ids) set(t, true);
}

void grammar_matcher::fill_allowed(uint8_t* allowed, size_t n) {
  const grammar_vocab_impl& v = st_->vocab->impl();
  auto list = get_state_mask(*st_);
  bool end_ok = can_terminate();
  if (list->accept_form) {
    std::fill(allowed, allowed + n, uint8_t(0));
    for_each_listed(*list, [&](int32_t t) {
      if (size_t(t) < n) allowed[t] = 1;
    });
  } else {
    size_t k = std::min(n, v.usable.size());
    std::copy(v.usable.begin(), v.usable.begin() + ptrdiff_t(k), allowed);
    std::fill(allowed + k, allowed + n, uint8_t(0));
    for_each_listed(*list, [&](int32_t t) {
      if (size_t(t) < n) allowed[t] = 0;
    });
  }
  if (end_ok)
    for (int32_t t : v.end_ids)
      if (size_t(t) < n) allowed[t] = 1;
}

size_t grammar_matcher::count_allowed() {
  const grammar_vocab_impl& v = st_->vocab->impl();
  auto list = get_state_mask(*st_);
  size_t n = list->accept_form ? listed_count(*list) : v.n_usable - listed_count(*list);
  if (can_terminate()) n += v.end_ids.size();
  return n;
}

}  // namespace infer
