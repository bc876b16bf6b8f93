// Token bytes from GGUF token strings, and the shared vocabulary trie.
#include <algorithm>
#include <numeric>

#include "grammar/grammar_internal.h"
#include "grammar/utf8.h"

namespace infer {
namespace {

// GPT-2's bytes_to_unicode, inverted: code point -> byte (-1 when not a byte symbol).
const std::vector<int>& unicode_to_byte() {
  static const std::vector<int> table = [] {
    std::vector<int> t(512, -1);
    int extra = 0;
    for (int b = 0; b < 256; ++b) {
      bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
      int cp = printable ? b : 256 + extra++;
      t[size_t(cp)] = b;
    }
    return t;
  }();
  return table;
}

std::string byte_level_decode(const std::string& tok) {
  const auto& inv = unicode_to_byte();
  std::string out;
  size_t i = 0;
  while (i < tok.size()) {
    size_t start = i, len = 0;
    uint32_t cp = next_code_point(tok, i, len);
    if (cp < inv.size() && inv[cp] >= 0) out += char(inv[cp]);
    else out.append(tok, start, len);  // not a byte symbol (added tokens): keep as written
  }
  return out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string sentencepiece_decode(const std::string& tok) {
  if (tok.size() == 6 && tok[0] == '<' && tok[1] == '0' && tok[2] == 'x' && tok[5] == '>') {
    int hi = hex_digit(tok[3]), lo = hex_digit(tok[4]);
    if (hi >= 0 && lo >= 0) return std::string(1, char(hi * 16 + lo));
  }
  std::string out;
  for (size_t i = 0; i < tok.size(); ++i) {
    if (i + 2 < tok.size() && (unsigned char)tok[i] == 0xE2 && (unsigned char)tok[i + 1] == 0x96 &&
        (unsigned char)tok[i + 2] == 0x81) {
      out += ' ';
      i += 2;
    } else {
      out += tok[i];
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> vocab_bytes_from_gguf_tokens(const std::vector<std::string>& tokens,
                                                      const std::string& model_type) {
  std::vector<std::string> out;
  out.reserve(tokens.size());
  bool spm = model_type == "llama" || model_type == "spm";
  for (const auto& t : tokens) out.push_back(spm ? sentencepiece_decode(t) : byte_level_decode(t));
  return out;
}

void mask_cache::add_top(const std::string& key, std::shared_ptr<const top_entry> e) {
  size_t more = e->bytes() + key.size() + 64;
  if (top_bytes + more > kTopCacheBytes) {
    tops.clear();
    top_bytes = 0;
  }
  if (tops.emplace(key, std::move(e)).second) top_bytes += more;
}

void mask_cache::add_state(const std::string& key, std::shared_ptr<const state_mask> e) {
  size_t more = e->bytes() + key.size() + 64;
  if (state_bytes + more > kStateCacheBytes) {
    states.clear();
    state_bytes = 0;
  }
  if (states.emplace(key, std::move(e)).second) state_bytes += more;
}

grammar_vocab::grammar_vocab() : impl_(std::make_unique<grammar_vocab_impl>()) {}
grammar_vocab::~grammar_vocab() = default;
int32_t grammar_vocab::size() const { return int32_t(impl_->bytes.size()); }
const std::string& grammar_vocab::token_bytes(int32_t id) const { return impl_->bytes[size_t(id)]; }

std::shared_ptr<const grammar_vocab> grammar_vocab::create(std::vector<std::string> token_bytes,
                                                           std::vector<uint8_t> usable,
                                                           std::vector<int32_t> end_ids) {
  std::shared_ptr<grammar_vocab> v(new grammar_vocab());
  grammar_vocab_impl& m = *v->impl_;
  size_t n = token_bytes.size();
  usable.resize(n, 1);
  m.bytes = std::move(token_bytes);
  m.usable = std::move(usable);
  std::vector<uint8_t> is_end(n, 0);
  for (int32_t e : end_ids) {
    if (e < 0 || size_t(e) >= n || is_end[size_t(e)]) continue;
    is_end[size_t(e)] = 1;
    m.end_ids.push_back(e);
  }
  for (size_t i = 0; i < n; ++i) {
    m.usable[i] = m.usable[i] != 0;
    if (is_end[i] || m.bytes[i].empty() || m.bytes[i].size() > 0xFFFF) m.usable[i] = 0;
    if (!m.usable[i] && !is_end[i]) m.never.push_back(int32_t(i));
    if (m.usable[i]) {
      m.sorted_ids.push_back(int32_t(i));
      m.max_token_len = std::max(m.max_token_len, int(m.bytes[i].size()));
    }
  }
  m.n_usable = m.sorted_ids.size();
  m.usable_bits.assign((n + 31) / 32, 0u);
  for (size_t i = 0; i < n; ++i)
    if (m.usable[i]) m.usable_bits[i >> 5] |= 1u << (i & 31);
  const auto& B = m.bytes;
  std::sort(m.sorted_ids.begin(), m.sorted_ids.end(), [&](int32_t x, int32_t y) {
    int c = B[size_t(x)].compare(B[size_t(y)]);
    return c != 0 ? c < 0 : x < y;
  });
  // Preorder trie: a token shares the path of its longest common prefix with the previous one.
  std::vector<uint32_t> open(size_t(m.max_token_len) + 1, 0);
  int cur = 0;
  const std::string* prev = nullptr;
  for (size_t k = 0; k < m.sorted_ids.size(); ++k) {
    const std::string& s = B[size_t(m.sorted_ids[k])];
    int l = 0;
    if (prev) {
      size_t lim = std::min(prev->size(), s.size());
      while (size_t(l) < lim && (*prev)[size_t(l)] == s[size_t(l)]) ++l;
    }
    for (int d = cur; d > l; --d) m.trie[open[size_t(d)]].next = uint32_t(m.trie.size());
    for (int d = l + 1; d <= int(s.size()); ++d) {
      open[size_t(d)] = uint32_t(m.trie.size());
      m.trie.push_back({0, uint32_t(k), uint16_t(d), uint8_t(s[size_t(d - 1)])});
    }
    cur = int(s.size());
    prev = &s;
  }
  for (int d = cur; d > 0; --d) m.trie[open[size_t(d)]].next = uint32_t(m.trie.size());
  m.trie.push_back({uint32_t(m.trie.size() + 1), uint32_t(m.sorted_ids.size()), 0, 0});  // sentinel
  size_t k = 0;
  for (int b = 0; b < 256; ++b) {
    while (k < m.sorted_ids.size() && int((unsigned char)B[size_t(m.sorted_ids[k])][0]) < b) ++k;
    m.first_byte_begin[b] = uint32_t(k);
  }
  m.first_byte_begin[256] = uint32_t(m.sorted_ids.size());
  return v;
}

std::shared_ptr<const grammar_vocab> grammar_vocab::from_gguf(const std::vector<std::string>& tokens,
                                                              const std::vector<int32_t>& token_types,
                                                              const std::string& model_type,
                                                              std::vector<int32_t> end_ids) {
  std::vector<uint8_t> usable(tokens.size(), 1);
  for (size_t i = 0; i < tokens.size() && i < token_types.size(); ++i)
    usable[i] = token_types[i] == 1 || token_types[i] == 6;
  return create(vocab_bytes_from_gguf_tokens(tokens, model_type), std::move(usable), std::move(end_ids));
}

}  // namespace infer
