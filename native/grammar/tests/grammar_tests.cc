// Grammar matcher tests over the real Qwen3 vocabulary. Random walks sample among the allowed
// tokens of each step (many seeds); each step checks the mask against a token-by-token check
// (on sampled steps), that the mask is never empty before the grammar may end, and that every
// sampled token is accepted. Each finished walk is printed as an NDJSON line with its bytes in
// hex, so test/grammar/grammar.test.ts can parse and validate it independently in JavaScript.
//
// usage: grammar_tests <tokenizer.json> <schemas.json> [walks=12] [max_steps=300] [check_every=6]
//        grammar_tests --fuzz <tokenizer.json> <schemas.ndjson>   (one schema text per line: each
//        must compile or fail with a message, never crash; compiled ones get a short random walk
//        that must never meet a dead end)
#include <algorithm>
#include <chrono>
#include <map>
#include <cmath>
#include <cstdio>
#include <random>
#include <unordered_map>

#include "grammar/tests/grammar_qwen_vocab.h"

using namespace infer;

namespace {

int failures = 0;

void fail(const std::string& what) {
  ++failures;
  std::string line = "{\"kind\":\"failure\",\"message\":";
  json_append_quoted(what, line);
  std::printf("%s}\n", line.c_str());
}

std::string hex(const std::string& s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

bool contains_any(const std::string& s, const char* chars) {
  return s.find_first_of(chars) != std::string::npos;
}

void check_vocab(const loaded_vocab& lv) {
  const grammar_vocab& v = *lv.vocab;
  std::vector<std::string> pieces = {"Ġthe", "Ċ", "{\"", "Ã©"};
  std::vector<std::string> expect = {" the", "\n", "{\"", "\xC3\xA9"};
  auto bytes = vocab_bytes_from_gguf_tokens(pieces, "gpt2");
  for (size_t i = 0; i < pieces.size(); ++i)
    if (bytes[i] != expect[i]) fail("byte-level decode of " + pieces[i] + " gave " + hex(bytes[i]));
  auto spm = vocab_bytes_from_gguf_tokens({"\xE2\x96\x81hello", "<0x0A>", "<0xZZ>"}, "llama");
  if (spm[0] != " hello" || spm[1] != "\n" || spm[2] != "<0xZZ>") fail("sentencepiece decode wrong");
  if (v.size() < 150000) fail("vocab too small: " + std::to_string(v.size()));
}

struct walk_result {
  std::string text;
  bool complete = false;
  int steps = 0;
};

// Per token: contains a byte that often ends something (bit 0: for JSON, bit 1: for lines), and
// its rank when finishing (lower is preferred; 255 = not a finishing token).
struct token_hints {
  std::vector<uint8_t> closer, rank;
};

token_hints make_hints(const grammar_vocab& v) {
  token_hints h;
  h.closer.resize(size_t(v.size()));
  h.rank.assign(size_t(v.size()), 255);
  const std::string order = "\"}]0:,";
  for (int32_t t = 0; t < v.size(); ++t) {
    const std::string& b = v.token_bytes(t);
    h.closer[size_t(t)] = uint8_t((contains_any(b, "\"}]") ? 1 : 0) | (contains_any(b, "\n}\"") ? 2 : 0));
    if (b.size() == 1 && order.find(b[0]) != std::string::npos) h.rank[size_t(t)] = uint8_t(order.find(b[0]));
  }
  return h;
}

// Samples among the allowed tokens: uniformly, or (45%) among those containing a closing byte.
// After max_steps it "finishes": the end token if allowed, else the best-ranked single-byte
// closer, else any allowed token; up to finish_steps more steps.
walk_result walk(const std::shared_ptr<const compiled_grammar>& g, const loaded_vocab& lv, const token_hints& hints,
                 uint64_t seed, int max_steps, int check_every, bool lines, const std::string& name,
                 double& mask_us, long& masks) {
  const int finish_steps = 300;
  const grammar_vocab& v = *lv.vocab;
  grammar_matcher m(g, lv.vocab);
  std::mt19937_64 rng(seed);
  std::vector<float> logits(lv.n_logits);
  std::vector<uint32_t> bits((lv.n_logits + 31) / 32);
  walk_result r;
  int lines_done = 0;
  auto is_end = [&](int32_t t) {
    return std::find(lv.end_ids.begin(), lv.end_ids.end(), t) != lv.end_ids.end();
  };
  for (int step = 0; step < max_steps + finish_steps; ++step) {
    bool finishing = step >= max_steps;
    if (m.is_complete()) { r.complete = true; break; }
    std::fill(logits.begin(), logits.end(), 0.f);
    auto t0 = std::chrono::steady_clock::now();
    m.fill_mask(logits.data(), logits.size());
    mask_us += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    ++masks;
    std::vector<int32_t> allowed, closers;
    for (size_t t = 0; t < logits.size(); ++t) {
      if (std::isinf(logits[t])) continue;
      int32_t id = int32_t(t);
      if (size_t(t) >= size_t(v.size())) { fail(name + ": id beyond the vocabulary allowed"); continue; }
      bool end = is_end(id);
      if (end && lines && lines_done < 2 && !finishing) continue;
      allowed.push_back(id);
      if (end || (hints.closer[size_t(id)] & (lines ? 2 : 1))) closers.push_back(id);
    }
    if (allowed.empty()) {
      if (!(lines && m.can_terminate())) fail(name + ": dead end after " + hex(r.text));
      break;
    }
    if (check_every > 0 && step % check_every == 0) {
      for (int32_t t = 0; t < v.size(); ++t) {
        bool in_mask = !std::isinf(logits[size_t(t)]);
        if (m.is_allowed(t) != in_mask) {
          fail(name + ": mask and is_allowed disagree on token " + std::to_string(t) + " (" +
               hex(v.token_bytes(t)) + ") after " + hex(r.text));
          break;
        }
      }
      m.fill_bitmask(bits.data(), bits.size());
      std::vector<uint8_t> bytes_mask(logits.size());
      m.fill_allowed(bytes_mask.data(), bytes_mask.size());
      for (size_t t = 0; t < logits.size(); ++t) {
        bool bit = (bits[t >> 5] >> (t & 31)) & 1u;
        if (bit == std::isinf(logits[t]) || bool(bytes_mask[t]) == std::isinf(logits[t])) {
          fail(name + ": bitmask / allowed bytes and mask disagree on token " + std::to_string(t));
          break;
        }
      }
      if (m.count_allowed() != allowed.size() + (lines && lines_done < 2 && m.can_terminate() ? lv.end_ids.size() : 0))
        fail(name + ": count_allowed disagrees with the mask");
    }
    bool pick_closer = !closers.empty() && std::uniform_real_distribution<double>(0, 1)(rng) < 0.45;
    const auto& from = pick_closer ? closers : allowed;
    int32_t tok = from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(rng)];
    if (finishing) {
      int best = 256;
      for (int32_t t : allowed) {
        int rank = is_end(t) ? -1 : hints.rank[size_t(t)];
        if (rank < best) { best = rank; tok = t; }
      }
    }
    if (!m.is_allowed(tok)) fail(name + ": masked-in token not allowed");
    if (!m.accept(tok)) {
      fail(name + ": accept refused an allowed token " + std::to_string(tok));
      break;
    }
    r.steps = step + 1;
    if (is_end(tok)) {
      r.complete = true;
      if (!m.is_complete()) fail(name + ": not complete after an end token");
      break;
    }
    r.text += v.token_bytes(tok);
    if (lines && v.token_bytes(tok).find('\n') != std::string::npos) ++lines_done;
  }
  if (!r.complete && m.is_complete()) r.complete = true;
  return r;
}

// Feeds text to a fresh matcher one byte token at a time (byte_token[b]) or by the longest
// allowed token; returns whether every step was accepted and the grammar may end there.
bool feed_document(const std::shared_ptr<const compiled_grammar>& g, const loaded_vocab& lv, const std::string& text,
                   bool greedy, const std::vector<int32_t>& byte_token,
                   const std::unordered_map<std::string, int32_t>& by_bytes, size_t max_len) {
  grammar_matcher m(g, lv.vocab);
  size_t pos = 0;
  while (pos < text.size()) {
    int32_t tok = -1;
    if (greedy) {
      for (size_t len = std::min(max_len, text.size() - pos); len > 0 && tok < 0; --len) {
        auto it = by_bytes.find(text.substr(pos, len));
        if (it != by_bytes.end() && m.is_allowed(it->second)) tok = it->second;
      }
      if (tok < 0) return false;
    } else {
      tok = byte_token[(unsigned char)text[pos]];
      bool allowed = m.is_allowed(tok);
      bool accepted = m.accept(tok);
      if (allowed != accepted) fail("is_allowed and accept disagree while feeding " + hex(text));
      if (!accepted) return false;
      pos += 1;
      // Never a dead end: something is allowed after every accepted byte until the end.
      if (!m.can_terminate() && !m.is_complete() && m.count_allowed() == 0)
        fail("dead end after " + hex(text.substr(0, pos)));
      continue;
    }
    if (!m.accept(tok)) {
      fail("accept refused an allowed token while feeding " + hex(text));
      return false;
    }
    pos += lv.vocab->token_bytes(tok).size();
  }
  if (m.can_terminate() && !m.accept(lv.end_ids[0])) fail("end token refused although can_terminate");
  return m.is_complete();
}

}  // namespace

int fuzz_main(const std::string& tokenizer, const std::string& schemas_path) {
  loaded_vocab lv = load_tokenizer_json(tokenizer);
  std::ifstream in(schemas_path);
  std::string line;
  long n = 0, compiled = 0, steps = 0;
  std::vector<float> logits(lv.n_logits);
  while (std::getline(in, line)) {
    ++n;
    std::string err;
    auto g = compile_json_schema(line, &err);
    if (!g) {
      if (err.empty()) fail("schema refused without a message: " + line);
      continue;
    }
    ++compiled;
    grammar_matcher m(g, lv.vocab);
    std::mt19937_64 rng{uint64_t(n)};
    for (int step = 0; step < 40 && !m.is_complete(); ++step) {
      std::fill(logits.begin(), logits.end(), 0.f);
      m.fill_mask(logits.data(), logits.size());
      std::vector<int32_t> allowed;
      for (size_t t = 0; t < logits.size(); ++t)
        if (!std::isinf(logits[t])) allowed.push_back(int32_t(t));
      if (allowed.empty()) {
        fail("dead end for schema " + line);
        break;
      }
      int32_t tok = allowed[std::uniform_int_distribution<size_t>(0, allowed.size() - 1)(rng)];
      ++steps;
      if (!m.accept(tok)) {
        fail("accept refused an allowed token for schema " + line);
        break;
      }
      if (std::find(lv.end_ids.begin(), lv.end_ids.end(), tok) != lv.end_ids.end()) break;
    }
  }
  std::printf("{\"kind\":\"fuzz\",\"schemas\":%ld,\"compiled\":%ld,\"steps\":%ld,\"failures\":%d}\n", n, compiled,
              steps, failures);
  return failures ? 1 : 0;
}

int main(int argc, char** argv) {
  if (argc >= 4 && std::string(argv[1]) == "--fuzz") return fuzz_main(argv[2], argv[3]);
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <tokenizer.json> <schemas.json> [walks] [max_steps] [check_every]\n", argv[0]);
    return 2;
  }
  int walks = argc > 3 ? std::atoi(argv[3]) : 12;
  int max_steps = argc > 4 ? std::atoi(argv[4]) : 300;
  int check_every = argc > 5 ? std::atoi(argv[5]) : 6;
  loaded_vocab lv = load_tokenizer_json(argv[1]);
  check_vocab(lv);
  json_value cases;
  std::string err;
  if (!json_parse(read_whole_file(argv[2]), cases, &err)) {
    fail("schemas.json: " + err);
    return 1;
  }
  for (const auto& c : cases.find("invalid")->items) {
    std::string name = c.find("name")->text;
    std::string text = c.find("text") ? c.find("text")->text : json_serialize(*c.find("schema"));
    std::string e;
    auto g = compile_json_schema(text, &e);
    if (g || e.empty()) fail("invalid schema " + name + " compiled");
    std::string line = "{\"kind\":\"invalid\",\"name\":";
    json_append_quoted(name, line);
    line += ",\"error\":";
    json_append_quoted(e, line);
    std::printf("%s}\n", line.c_str());
  }
  // More declared properties than supported is an error, not a crash.
  {
    std::string big = "{\"type\":\"object\",\"properties\":{";
    for (int i = 0; i < 70; ++i) big += (i ? ",\"p" : "\"p") + std::to_string(i) + "\":{}";
    big += "}}";
    std::string e;
    if (compile_json_schema(big, &e) || e.empty()) fail("70 properties compiled");
  }
  // Documents with known verdicts, fed byte by byte and by greedy longest tokens.
  {
    std::vector<int32_t> byte_token(256, -1);
    std::unordered_map<std::string, int32_t> by_bytes;
    size_t max_len = 0;
    for (int32_t t = 0; t < lv.vocab->size(); ++t) {
      const std::string& b = lv.vocab->token_bytes(t);
      if (b.empty() || std::find(lv.end_ids.begin(), lv.end_ids.end(), t) != lv.end_ids.end()) continue;
      if (b.size() == 1 && byte_token[(unsigned char)b[0]] < 0) byte_token[(unsigned char)b[0]] = t;
      by_bytes.emplace(b, t);
      max_len = std::max(max_len, b.size());
    }
    std::map<std::string, std::shared_ptr<const compiled_grammar>> grammars;
    for (const auto& c : cases.find("valid")->items) {
      std::string name = c.find("name")->text, e;
      if (const json_value* b = c.find("builtin"))
        grammars[name] = b->text == "json_object" ? compile_any_json_object() : compile_event_lines();
      else
        grammars[name] = compile_json_schema(json_serialize(*c.find("schema")), &e);
    }
    const json_value* docs = cases.find("documents");
    for (size_t i = 0; docs && i < docs->items.size(); ++i) {
      const json_value& d = docs->items[i];
      auto g = grammars[d.find("case")->text];
      if (!g) { fail("document " + std::to_string(i) + ": unknown case"); continue; }
      const std::string& text = d.find("text")->text;
      bool by_byte = feed_document(g, lv, text, false, byte_token, by_bytes, max_len);
      bool by_token = feed_document(g, lv, text, true, byte_token, by_bytes, max_len);
      std::printf("{\"kind\":\"document\",\"index\":%zu,\"bytes\":%s,\"greedy\":%s}\n", i, by_byte ? "true" : "false",
                  by_token ? "true" : "false");
    }
  }
  token_hints hints = make_hints(*lv.vocab);
  double mask_us = 0;
  long masks = 0;
  for (const auto& c : cases.find("valid")->items) {
    std::string name = c.find("name")->text;
    std::shared_ptr<const compiled_grammar> g;
    bool lines = false;
    if (const json_value* b = c.find("builtin")) {
      if (b->text == "json_object") g = compile_any_json_object();
      else { g = compile_event_lines(); lines = true; }
    } else {
      std::string e;
      g = compile_json_schema(json_serialize(*c.find("schema")), &e);
      if (!g) { fail("schema " + name + " did not compile: " + e); continue; }
    }
    for (int w = 0; w < walks; ++w) {
      uint64_t seed = 1000003ull * uint64_t(w + 1) + std::hash<std::string>()(name);
      walk_result r = walk(g, lv, hints, seed, max_steps, w < 2 ? check_every : 0, lines, name, mask_us, masks);
      std::string line = "{\"kind\":\"walk\",\"name\":";
      json_append_quoted(name, line);
      line += ",\"seed\":" + std::to_string(seed) + ",\"complete\":" + (r.complete ? "true" : "false") +
              ",\"steps\":" + std::to_string(r.steps) + ",\"hex\":\"" + hex(r.text) + "\"}";
      std::printf("%s\n", line.c_str());
      std::fflush(stdout);
    }
  }
  std::printf("{\"kind\":\"summary\",\"failures\":%d,\"masks\":%ld,\"mean_mask_us\":%.1f}\n", failures, masks,
              masks ? mask_us / double(masks) : 0.0);
  return failures ? 1 : 0;
}
