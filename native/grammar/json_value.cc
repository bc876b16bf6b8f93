#include "grammar/json_value.h"

#include <cstdint>
#include <cstdio>

#include "grammar/utf8.h"

namespace infer {

const json_value* json_value::find(const std::string& key) const {
  if (kind != object_k) return nullptr;
  for (auto it = members.rbegin(); it != members.rend(); ++it)
    if (it->first == key) return &it->second;
  return nullptr;
}

namespace {

struct parser {
  const std::string& s;
  size_t i = 0;
  int max_depth;
  std::string err;

  bool fail(const char* what) {
    if (err.empty()) err = std::string(what) + " at byte " + std::to_string(i);
    return false;
  }
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }

  bool hex4(uint32_t& v) {
    if (i + 4 > s.size()) return fail("truncated \\u escape");
    v = 0;
    for (int k = 0; k < 4; ++k) {
      int h = hex_digit_value((unsigned char)s[i + k]);
      if (h < 0) return fail("bad \\u escape");
      v = v * 16 + uint32_t(h);
    }
    i += 4;
    return true;
  }
  bool string(std::string& out) {
    ++i;  // opening quote
    while (true) {
      if (i >= s.size()) return fail("unterminated string");
      unsigned char c = (unsigned char)s[i];
      if (c == '"') { ++i; return true; }
      if (c < 0x20) return fail("control character in string");
      if (c != '\\') { out += char(c); ++i; continue; }
      if (++i >= s.size()) return fail("unterminated escape");
      char e = s[i++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && i + 1 < s.size() && s[i] == '\\' && s[i + 1] == 'u') {
            size_t save = i;
            i += 2;
            uint32_t lo = 0;
            if (!hex4(lo)) return false;
            if (lo >= 0xDC00 && lo < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            else i = save;  // lone high surrogate: keep it, reparse the next escape on its own
          }
          append_utf8(cp, out);
          break;
        }
        default: return fail("bad escape");
      }
    }
  }
  bool number(std::string& out) {
    size_t start = i;
    if (s[i] == '-') ++i;
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return fail("bad number");
    if (s[i] == '0') ++i;
    else while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i < s.size() && s[i] == '.') {
      ++i;
      if (i >= s.size() || s[i] < '0' || s[i] > '9') return fail("bad number fraction");
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      ++i;
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
      if (i >= s.size() || s[i] < '0' || s[i] > '9') return fail("bad number exponent");
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    }
    out.assign(s, start, i - start);
    return true;
  }
  bool word(const char* w) {
    size_t n = 0;
    while (w[n]) ++n;
    if (s.compare(i, n, w) != 0) return fail("unexpected token");
    i += n;
    return true;
  }
  bool value(json_value& v, int depth) {
    if (depth > max_depth) return fail("nesting too deep");
    ws();
    if (i >= s.size()) return fail("unexpected end of input");
    char c = s[i];
    if (c == '{') {
      v.kind = json_value::object_k;
      ++i;
      ws();
      if (i < s.size() && s[i] == '}') { ++i; return true; }
      while (true) {
        ws();
        if (i >= s.size() || s[i] != '"') return fail("expected object key");
        std::string key;
        if (!string(key)) return false;
        ws();
        if (i >= s.size() || s[i] != ':') return fail("expected ':'");
        ++i;
        v.members.emplace_back(std::move(key), json_value());
        if (!value(v.members.back().second, depth + 1)) return false;
        ws();
        if (i < s.size() && s[i] == ',') { ++i; continue; }
        if (i < s.size() && s[i] == '}') { ++i; return true; }
        return fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v.kind = json_value::array_k;
      ++i;
      ws();
      if (i < s.size() && s[i] == ']') { ++i; return true; }
      while (true) {
        v.items.emplace_back();
        if (!value(v.items.back(), depth + 1)) return false;
        ws();
        if (i < s.size() && s[i] == ',') { ++i; continue; }
        if (i < s.size() && s[i] == ']') { ++i; return true; }
        return fail("expected ',' or ']'");
      }
    }
    if (c == '"') { v.kind = json_value::string_k; return string(v.text); }
    if (c == '-' || (c >= '0' && c <= '9')) { v.kind = json_value::number_k; return number(v.text); }
    if (c == 't') { v.kind = json_value::bool_k; v.boolean = true; return word("true"); }
    if (c == 'f') { v.kind = json_value::bool_k; v.boolean = false; return word("false"); }
    if (c == 'n') { v.kind = json_value::null_k; return word("null"); }
    return fail("unexpected character");
  }
};

void serialize(const json_value& v, std::string& out) {
  switch (v.kind) {
    case json_value::null_k: out += "null"; break;
    case json_value::bool_k: out += v.boolean ? "true" : "false"; break;
    case json_value::number_k: out += v.text; break;
    case json_value::string_k: json_append_quoted(v.text, out); break;
    case json_value::array_k:
      out += '[';
      for (size_t k = 0; k < v.items.size(); ++k) {
        if (k) out += ',';
        serialize(v.items[k], out);
      }
      out += ']';
      break;
    case json_value::object_k:
      out += '{';
      for (size_t k = 0; k < v.members.size(); ++k) {
        if (k) out += ',';
        json_append_quoted(v.members[k].first, out);
        out += ':';
        serialize(v.members[k].second, out);
      }
      out += '}';
      break;
  }
}

}  // namespace

bool json_parse(const std::string& text, json_value& out, std::string* error, int max_depth) {
  parser p{text, 0, max_depth, {}};
  out = json_value();
  bool ok = p.value(out, 0);
  if (ok) {
    p.ws();
    if (p.i != text.size()) ok = p.fail("trailing characters");
  }
  if (!ok && error) *error = p.err;
  return ok;
}

void json_append_quoted(const std::string& s, std::string& out) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  out += '"';
}

std::string json_serialize(const json_value& v) {
  std::string out;
  serialize(v, out);
  return out;
}

}  // namespace infer
