// `infer_native_tests --bench`: kernel throughput at Qwen2.5-0.5B shapes.
//   matvec (1 token): GB/s of weight bytes streamed, over a working set far larger than the L3
//   cache (several copies of the matrix are cycled, as 24 layers would be), 1 and 2 threads.
//   matmul (512 tokens unless --tokens): GFLOP/s = 2 * rows * cols * tokens / time.
// Options: --types q8_0,f16,...  --threads 1,2  --seconds S (per measurement)  --no-prefill
//          --no-matvec --shapes 896x4864,4864x896,896x151936 (cols x rows: cols = ne0)
//          --model FILE.gguf (decode matvecs and 512-token prefill over a real file's weights)
//          --working-set-mib N (default 256: far above L3; small values measure the in-cache kernel speed)
//          --tokens N (default 512: the matmul section's token count; 16 is a 16-stream decode step,
//          whose weights, unlike a prefill's, come from memory once per step, so the working set is
//          cycled there too)
//          --sampler (instead: one sampling call over a 151,936-token row per sampling configuration)
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gguf/gguf_file.h"
#include "kernels/kernels.h"
#include "kernels/quants.h"
#include "sample/sampler.h"
#include "tests/ref_quant.h"
#include "tests/test_main.h"

namespace infer_test {
namespace {

using infer::tensor_type;

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) if (!item.empty()) out.push_back(item);
  return out;
}

// "q8_0_r4" / "q4_k_r4" / "q6_k_r4" are Q8_0 / Q4_K / Q6_K repacked as the engine does at load on
// CPUs with the kernels (4 rows interleaved).
struct r4_type {
  const char* name;
  tensor_type type, file_type;
  infer::tensor_view (*repack)(const infer::tensor_view&, void*, infer::thread_pool*);
};
const r4_type kR4Types[] = {{"q8_0_r4", tensor_type::q8_0_r4, tensor_type::q8_0, infer::repack_q8_0_r4},
                            {"q4_k_r4", tensor_type::q4_k_r4, tensor_type::q4_k, infer::repack_q4_k_r4},
                            {"q6_k_r4", tensor_type::q6_k_r4, tensor_type::q6_k, infer::repack_q6_k_r4}};

bool parse_type(const std::string& s, tensor_type* t) {
  for (const r4_type& r : kR4Types)
    if (s == r.name) {
      *t = r.type;
      return infer::kq::r4_kernels();
    }
  const tensor_type all[] = {tensor_type::f32,  tensor_type::f16,    tensor_type::bf16,   tensor_type::q8_0,
                             tensor_type::q4_0, tensor_type::q5_0,   tensor_type::q4_k,   tensor_type::q5_k,
                             tensor_type::q6_k, tensor_type::q4_1,   tensor_type::q5_1,   tensor_type::q2_k,
                             tensor_type::q3_k, tensor_type::iq4_nl, tensor_type::iq4_xs, tensor_type::mxfp4};
  for (tensor_type a : all)
    if (s == infer::tensor_type_name(a)) {
      *t = a;
      return true;
    }
  return false;
}

// Valid blocks of type t, filled fast (the bench needs hundreds of MB).
std::vector<uint8_t> fast_blocks(tensor_type t, int64_t rows, int64_t n, uint64_t seed) {
  std::mt19937 rng(static_cast<unsigned>(seed));
  // One random row template, then every row is that template with a few bytes varied.
  auto tmpl = random_blocks(t, 1, n, rng);
  std::vector<uint8_t> out(tmpl.size() * static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; r++) std::memcpy(out.data() + tmpl.size() * r, tmpl.data(), tmpl.size());
  return out;
}

// The bench's matrix of type t: the r4 types are made from their file type's blocks as the engine
// makes them.
std::vector<uint8_t> bench_blocks(tensor_type t, int64_t rows, int64_t n, uint64_t seed) {
  for (const r4_type& r : kR4Types)
    if (t == r.type) {
      auto file = fast_blocks(r.file_type, rows, n, seed);
      std::vector<uint8_t> out(file.size());
      r.repack({r.file_type, file.data(), n, rows, infer::tensor_row_bytes(r.file_type, n)}, out.data(), nullptr);
      return out;
    }
  return fast_blocks(t, rows, n, seed);
}

// Enough copies of a rows x n matrix to fill the working set, cycled call by call so that each
// call reads its weights from memory, as a step over 24 layers does.
std::vector<std::vector<uint8_t>> working_set(tensor_type t, int64_t rows, int64_t n, size_t working_set_bytes,
                                              uint64_t seed) {
  const size_t bytes = infer::tensor_row_bytes(t, n) * static_cast<size_t>(rows);
  const size_t copies = std::max<size_t>(1, (working_set_bytes + bytes - 1) / bytes);
  std::vector<std::vector<uint8_t>> mats;
  for (size_t c = 0; c < copies; c++) mats.push_back(bench_blocks(t, rows, n, seed + c));
  return mats;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
double thread_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}
double process_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}
double best(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

// --model FILE: one decode step's worth of matvecs over the file's real weights (every 2-D
// "blk.*" weight, plus the LM head: output.weight, or token_embd.weight when tied), and a
// 512-token prefill over the layer weights. Kernel time only (no attention, norms, sampling).
int bench_model(const std::string& path, const std::vector<int>& threads, double seconds) {
  std::string err;
  auto f = infer::gguf_file::open(path, &err);
  if (!f) {
    std::fprintf(stderr, "error: %s\n", err.c_str());
    return 1;
  }
  std::vector<infer::tensor_view> layer, all;
  const infer::gguf_tensor_info* head = f->tensor("output.weight");
  if (!head) head = f->tensor("token_embd.weight");
  size_t layer_bytes = 0, head_bytes = head ? head->n_bytes : 0;
  double layer_params = 0;
  for (const auto& t : f->tensors()) {
    if (t.n_dims != 2 || t.name.rfind("blk.", 0) != 0) continue;
    layer.push_back(f->view(t));
    layer_bytes += t.n_bytes;
    layer_params += static_cast<double>(t.ne[0]) * static_cast<double>(t.ne[1]);
  }
  all = layer;
  if (head) all.push_back(f->view(*head));
  int64_t max_in = 1, max_out = 1;
  for (const auto& v : all) {
    max_in = std::max(max_in, v.ne0);
    max_out = std::max(max_out, v.ne1);
  }
  const int64_t n_tokens = 512;
  std::vector<float> x(static_cast<size_t>(max_in * n_tokens)), y(static_cast<size_t>(max_out * n_tokens));
  std::mt19937 rng(9);
  std::normal_distribution<float> nd(0, 1);
  for (auto& v : x) v = nd(rng);
  const double bytes = static_cast<double>(layer_bytes + head_bytes);
  std::printf("# %s: %zu layer matrices (%.1f MiB) + LM head %s (%.1f MiB)\n", path.c_str(), layer.size(),
              layer_bytes / 1048576.0, head ? head->name.c_str() : "-", head_bytes / 1048576.0);
  for (int th : threads) {
    infer::thread_pool pool(th);
    // warm the page cache / mapping once
    for (const auto& v : all) infer::matmul(v, x.data(), 1, y.data(), pool);
    std::vector<double> per;
    double c0 = process_cpu_seconds();
    auto start = std::chrono::steady_clock::now();
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds || per.size() < 5) {
      auto s = std::chrono::steady_clock::now();
      for (const auto& v : all) infer::matmul(v, x.data(), 1, y.data(), pool);
      per.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count());
    }
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double cpu = process_cpu_seconds() - c0;
    std::printf("decode matvecs  threads=%d: %.2f ms/token (best %.2f) = %.1f tok/s, %.1f GB/s (best %.1f); "
                "process got %.2f CPUs\n", th, median(per) * 1e3, best(per) * 1e3, 1.0 / median(per),
                bytes / median(per) / 1e9, bytes / best(per) / 1e9, cpu / wall);
    std::fflush(stdout);
    std::vector<double> pre;
    c0 = process_cpu_seconds();
    start = std::chrono::steady_clock::now();
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds || pre.size() < 2) {
      auto s = std::chrono::steady_clock::now();
      for (const auto& v : layer) infer::matmul(v, x.data(), n_tokens, y.data(), pool);
      pre.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count());
    }
    const double flop = 2.0 * layer_params * n_tokens;
    wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cpu = process_cpu_seconds() - c0;
    std::printf("prefill matmuls threads=%d: %.1f ms per %lld tokens (best %.1f) = %.1f tok/s, %.1f GFLOP/s "
                "(%.1f per CPU-second; process got %.2f CPUs)\n", th, median(pre) * 1e3,
                static_cast<long long>(n_tokens), best(pre) * 1e3, n_tokens / median(pre), flop / median(pre) / 1e9,
                flop * pre.size() / cpu / 1e9, cpu / wall);
    std::fflush(stdout);
  }
  return 0;
}

// One sampling call over a Qwen-sized vocabulary (151,936 logits, N(0, sd) like a random model's
// flat rows or, with sd 8, a peaked one) per configuration: greedy, temperature, the filters,
// logprobs; median µs of the call alone (the logits are restored before each call).
int bench_sampler(double seconds) {
  const int64_t V = 151936;
  std::printf("# infer sampler bench: one row of %lld logits, median us per call\n", static_cast<long long>(V));
  std::printf("%-30s %10s %10s\n", "config", "sd 3", "sd 8");
  struct config {
    const char* name;
    float temperature, top_p;
    int32_t top_k;
    float min_p;
    int32_t top_logprobs;
  };
  const config configs[] = {
      {"greedy", 0.0f, 1.0f, 0, 0.0f, -1},        {"greedy + 5 top_logprobs", 0.0f, 1.0f, 0, 0.0f, 5},
      {"T=1", 1.0f, 1.0f, 0, 0.0f, -1},           {"T=0.8", 0.8f, 1.0f, 0, 0.0f, -1},
      {"T=1 + logprobs", 1.0f, 1.0f, 0, 0.0f, 0}, {"T=0.8 top_k=40", 0.8f, 1.0f, 40, 0.0f, -1},
      {"T=0.8 top_p=0.95", 0.8f, 0.95f, 0, 0.0f, -1}, {"T=0.8 min_p=0.05", 0.8f, 1.0f, 0, 0.05f, -1},
  };
  for (const config& c : configs) {
    std::printf("%-30s", c.name);
    for (float sd : {3.0f, 8.0f}) {
      std::mt19937 g(11);
      std::normal_distribution<float> nd(0.0f, sd);
      std::vector<float> base(static_cast<size_t>(V)), l;
      for (auto& x : base) x = nd(g);
      infer::sampling_params p;
      p.temperature = c.temperature;
      p.top_p = c.top_p;
      p.top_k = c.top_k;
      p.min_p = c.min_p;
      p.top_logprobs = c.top_logprobs;
      p.has_seed = true;
      infer::sampler smp(p, V);
      infer::sampler_scratch sc;
      std::vector<double> per_call;
      auto start = std::chrono::steady_clock::now();
      while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds || per_call.size() < 5) {
        l = base;
        auto t0 = std::chrono::steady_clock::now();
        smp.sample(l.data(), nullptr, sc);
        per_call.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
      std::printf(" %10.1f", median(per_call) * 1e6);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int run_bench(int argc, char** argv) {
  std::vector<std::string> types = {"q8_0", "q4_0", "q5_0", "f16", "bf16", "q4_k", "q5_k", "q6_k"};
  if (infer::kq::r4_kernels()) types.insert(types.begin() + 1, "q8_0_r4");
  std::vector<int> threads = {1, 2};
  std::vector<std::pair<int64_t, int64_t>> shapes = {{896, 4864}, {4864, 896}, {896, 151936}};
  double seconds = 0.6;
  size_t kWorkingSet = 256u << 20;
  bool prefill = true, matvec = true;
  std::string model;
  bool sampler_only = false;
  int64_t n_tokens = 512;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--types") types = split(next());
    else if (a == "--threads") {
      threads.clear();
      for (auto& s : split(next())) threads.push_back(std::atoi(s.c_str()));
    } else if (a == "--seconds") seconds = std::atof(next().c_str());
    else if (a == "--no-prefill") prefill = false;
    else if (a == "--model") model = next();
    else if (a == "--working-set-mib") kWorkingSet = static_cast<size_t>(std::atoll(next().c_str())) << 20;
    else if (a == "--no-matvec") matvec = false;
    else if (a == "--sampler") sampler_only = true;
    else if (a == "--tokens") n_tokens = std::max<int64_t>(1, std::atoll(next().c_str()));
    else if (a == "--shapes") {
      shapes.clear();
      for (auto& s : split(next())) {
        auto x = s.find('x');
        shapes.push_back({std::atoll(s.substr(0, x).c_str()), std::atoll(s.substr(x + 1).c_str())});
      }
    }
  }
  if (!model.empty()) return bench_model(model, threads, seconds);
  if (sampler_only) return bench_sampler(seconds);
  std::printf("# infer kernels bench (medians; matvec GB/s = weight bytes / time, working set >= %zu MiB)\n",
              kWorkingSet >> 20);
  if (matvec) {
    std::printf("%-6s %-12s %7s %8s %10s %9s %9s %12s\n", "type", "shape", "threads", "MiB", "us/call", "GB/s",
                "best GB/s", "per-core(1t)");
    for (const auto& ts : types) {
      tensor_type t;
      if (!parse_type(ts, &t)) {
        std::fprintf(stderr, "unknown type %s\n", ts.c_str());
        return 2;
      }
      for (auto [n, rows] : shapes) {
        if (n % infer::tensor_type_block_elems(t)) {
          std::printf("%-6s %5lldx%-6lld   (row width not a multiple of %lld: skipped)\n", ts.c_str(),
                      static_cast<long long>(n), static_cast<long long>(rows),
                      static_cast<long long>(infer::tensor_type_block_elems(t)));
          continue;
        }
        const size_t bytes = infer::tensor_row_bytes(t, n) * static_cast<size_t>(rows);
        const auto mats = working_set(t, rows, n, kWorkingSet, 100);
        const int copies = static_cast<int>(mats.size());
        std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(rows));
        std::mt19937 rng(5);
        std::normal_distribution<float> nd(0, 1);
        for (auto& v : x) v = nd(rng);
        for (int th : threads) {
          infer::thread_pool pool(th);
          std::vector<double> per_call, cpu_call;
          auto start = std::chrono::steady_clock::now();
          int c = 0;
          while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds ||
                 per_call.size() < 5) {
            infer::tensor_view w{t, mats[c].data(), n, rows, infer::tensor_row_bytes(t, n)};
            auto s = std::chrono::steady_clock::now();
            const double c0 = thread_cpu_seconds();
            infer::matmul(w, x.data(), 1, y.data(), pool);
            cpu_call.push_back(thread_cpu_seconds() - c0);
            per_call.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count());
            c = (c + 1) % copies;
          }
          double med = median(per_call);
          std::printf("%-6s %5lldx%-6lld %7d %8.1f %10.1f %9.2f %9.2f", ts.c_str(), static_cast<long long>(n),
                      static_cast<long long>(rows), th, bytes / 1048576.0, med * 1e6, bytes / med / 1e9,
                      bytes / best(per_call) / 1e9);
          if (th == 1) std::printf(" %12.2f\n", bytes / median(cpu_call) / 1e9);
          else std::printf("\n");
          std::fflush(stdout);
        }
      }
    }
  }
  if (prefill) {
    std::printf("\n%-6s %-12s %7s %7s %10s %9s %9s %12s\n", "type", "shape", "tokens", "threads", "ms/call",
                "GFLOP/s", "best", "per-core(1t)");
    for (const auto& ts : types) {
      tensor_type t;
      if (!parse_type(ts, &t)) return 2;
      for (auto [n, rows] : shapes) {
        if (rows > 10000 || n % infer::tensor_type_block_elems(t)) continue;  // layer shapes only
        const auto mats = working_set(t, rows, n, kWorkingSet, 7);
        const int copies = static_cast<int>(mats.size());
        std::vector<float> x(static_cast<size_t>(n * n_tokens)), y(static_cast<size_t>(rows * n_tokens));
        std::mt19937 rng(6);
        std::normal_distribution<float> nd(0, 1);
        for (auto& v : x) v = nd(rng);
        for (int th : threads) {
          infer::thread_pool pool(th);
          std::vector<double> per_call, cpu_per_call;
          auto start = std::chrono::steady_clock::now();
          int c = 0;
          while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds ||
                 per_call.size() < 3) {
            infer::tensor_view w{t, mats[c].data(), n, rows, infer::tensor_row_bytes(t, n)};
            c = (c + 1) % copies;
            auto s = std::chrono::steady_clock::now();
            double c0 = thread_cpu_seconds();
            infer::matmul(w, x.data(), n_tokens, y.data(), pool);
            cpu_per_call.push_back(thread_cpu_seconds() - c0);
            per_call.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count());
          }
          double med = median(per_call);
          const double flop = 2.0 * rows * n * n_tokens;
          std::printf("%-6s %5lldx%-6lld %7lld %7d %10.2f %9.1f %9.1f ", ts.c_str(), static_cast<long long>(n),
                      static_cast<long long>(rows), static_cast<long long>(n_tokens), th, med * 1e3, flop / med / 1e9,
                      flop / best(per_call) / 1e9);
          if (th == 1) std::printf("%*s%12.1f\n", 0, "", flop / median(cpu_per_call) / 1e9);
          else std::printf("\n");
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}

}  // namespace infer_test
