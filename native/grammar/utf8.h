// UTF-8 and hex digits, shared by the grammar sources (vocabulary, JSON values, patterns, PDA).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace infer {

// Decodes one UTF-8 code point at s[i] and advances i past it (len: the bytes read). A malformed
// or truncated sequence gives 0xFFFFFFFF and advances one byte.
inline uint32_t next_code_point(const std::string& s, size_t& i, size_t& len) {
  const unsigned char c = (unsigned char)s[i];
  const int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + size_t(n) > s.size()) { len = 1; ++i; return 0xFFFFFFFFu; }
  uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (int k = 1; k < n; ++k) {
    const unsigned char cc = (unsigned char)s[i + size_t(k)];
    if ((cc & 0xC0) != 0x80) { len = 1; ++i; return 0xFFFFFFFFu; }
    cp = (cp << 6) | (cc & 0x3F);
  }
  len = size_t(n);
  i += size_t(n);
  return cp;
}

// Appends code point cp as UTF-8.
inline void append_utf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

// The value of a hex digit, or -1.
inline int hex_digit_value(uint32_t c) {
  if (c >= '0' && c <= '9') return int(c - '0');
  if (c >= 'a' && c <= 'f') return int(c - 'a' + 10);
  if (c >= 'A' && c <= 'F') return int(c - 'A' + 10);
  return -1;
}

}  // namespace infer
