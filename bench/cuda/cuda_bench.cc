// cuda_bench: decode tokens/s of the CUDA backend on a Qwen2.5-0.5B-shaped model (random weights,
// real encodings), and the fraction of device memory bandwidth that reaches:
//   bytes per token = every weight matrix once (tied LM head counted once) + the K/V rows read
//   fraction        = bytes per token / time per token / peak
// against two peaks: the device's nominal one (bus width x memory clock) and a measured
// device-to-device copy (bytes read + written), as METHOD.md asks.
//   cuda_bench [--dtype q8_0|q4_0|q5_0|q4_k|q5_k|q6_k|f16|bf16|f32|all] [--graphs on|off|both]
//              [--prompt 128] [--tokens 128] [--json FILE]
// Each dtype runs with CUDA graphs on and off (side by side, same process).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/gpu_backend.h"
#include "cuda/matmul.cuh"
#include "cuda_check.h"
#include "kv/kv_pool.h"
#include "model/forward.h"
#include "synth_model.h"

using namespace infer;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Device-to-device copy of 1 GiB, events, median of 10 after 2 warm-ups; GB/s counting read + write.
double measure_copy_gbps() {
  const size_t n = size_t{1} << 30;
  void *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess || cudaMalloc(&b, n) != cudaSuccess) return 0;
  cudaMemset(a, 1, n);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<double> t;
  for (int i = 0; i < 12; ++i) {
    cudaEventRecord(e0);
    cudaMemcpy(b, a, n, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    if (i >= 2) t.push_back(ms);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFree(a);
  cudaFree(b);
  return 2.0 * n / (median(t) * 1e-3) / 1e9;
}

// Decode matvec alone (llm.c napkin math): GB/s of weight bytes for the 0.5B model's two largest
// shapes, rotating over enough copies that L2 never holds the weights. Median of 20 after warm-up.
void bench_matvec(const std::vector<std::string>& dtypes, double nominal) {
  struct shape { int64_t ne0, ne1; const char* name; };
  const shape shapes[] = {{896, 4864, "ffn_up 896x4864"}, {4864, 896, "ffn_down 4864x896"}, {896, 151936, "lm_head 896x151936"}};
  std::printf("\n%-6s %-20s %3s %10s %9s %9s\n", "dtype", "matvec", "ver", "us", "GB/s", "%nominal");
  for (const auto& dt : dtypes) {
    tensor_type t;
    if (!synth_parse_type(dt, &t)) continue;
    for (const shape& sh : shapes)
    for (int ver : {1, 2}) {
      tensor_type tt = t;
      if (sh.ne0 % 256 != 0 && (t == tensor_type::q4_k || t == tensor_type::q5_k || t == tensor_type::q6_k)) continue;
      std::vector<std::unique_ptr<uint8_t[]>> storage;
      const tensor_view w = synth_tensor(tt, sh.ne0, sh.ne1, 7, storage);
      const size_t bytes = w.row_bytes * w.ne1;
      const int copies = static_cast<int>(std::max<size_t>(2, (size_t{200} << 20) / bytes + 1));
      std::vector<uint8_t*> dev(copies);
      for (auto& p : dev) {
        cuda_check::ok_or_throw(cudaMalloc(&p, bytes), "cudaMalloc");
        cuda_check::ok_or_throw(cudaMemcpy(p, w.data, bytes, cudaMemcpyHostToDevice), "upload");
      }
      float *x = nullptr, *y = nullptr;
      cudaMalloc(&x, sh.ne0 * sizeof(float));
      cudaMalloc(&y, sh.ne1 * sizeof(float));
      std::vector<float> hx(sh.ne0);
      for (int64_t i = 0; i < sh.ne0; ++i) hx[i] = static_cast<float>((i * 2654435761u) % 1000) / 500.0f - 1.0f;
      cudaMemcpy(x, hx.data(), sh.ne0 * sizeof(float), cudaMemcpyHostToDevice);  // never time on zeros
      cudaEvent_t e0, e1;
      cudaEventCreate(&e0);
      cudaEventCreate(&e1);
      std::vector<double> us;
      for (int i = 0; i < 25; ++i) {
        cu::device_tensor d{tt, dev[i % copies], w.ne0, w.ne1, w.row_bytes};
        cudaEventRecord(e0);
        cu::matmul(d, x, 1, y, nullptr, ver);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        if (i >= 5) us.push_back(ms * 1e3);
      }
      const double med = median(us), gbps = bytes / (med * 1e-6) / 1e9;
      std::printf("%-6s %-20s %3d %10.1f %9.0f %8.1f%%\n", dt.c_str(), sh.name, ver, med, gbps, nominal > 0 ? 100 * gbps / nominal : 0);
      cudaEventDestroy(e0);
      cudaEventDestroy(e1);
      cudaFree(x);
      cudaFree(y);
      for (auto* p : dev) cudaFree(p);
    }
  }
}

struct bench_row {
  std::string dtype;
  bool graphs = true;
  double weight_mb = 0, prefill_tps = 0, decode_tps = 0, ms_per_tok = 0, gbps = 0, frac_nominal = 0, frac_copy = 0;
};

// The benchmarked model's shapes: Qwen2.5-0.5B (qwen2, QKV biases), Qwen3-0.6B (qwen3: per-head
// Q/K norms, head dim 128 over n_embd 1024) or Gemma-3-1B (gemma3: one KV head of 256, GeGLU,
// post-norms, 5 of 6 layers windowed to 512 with RoPE base 10000, the 262k vocabulary).
synth_spec shape_spec(const std::string& shape) {
  synth_spec s;
  s.vocab = 151936;
  s.ctx = 32768;
  s.tied = true;
  if (shape == "qwen3-0.6b") {
    s.arch = "qwen3";
    s.dim = 1024, s.layers = 28, s.heads = 16, s.kv_heads = 8, s.head_dim = 128, s.ffn = 3072;
  } else if (shape == "qwen2-0.5b") {
    s.arch = "qwen2";
    s.dim = 896, s.layers = 24, s.heads = 14, s.kv_heads = 2, s.ffn = 4864;
  } else if (shape == "gemma3-1b") {
    s.arch = "gemma3";
    s.dim = 1152, s.layers = 26, s.heads = 4, s.kv_heads = 1, s.head_dim = 256, s.ffn = 6912, s.vocab = 262144;
    s.window = 512, s.swa_period = 6;
  } else {
    throw std::runtime_error("unknown shape " + shape + " (qwen2-0.5b, qwen3-0.6b, gemma3-1b)");
  }
  return s;
}

bench_row bench_one(const std::string& shape, const std::string& dtype, bool graphs, int prompt, int tokens,
                    double nominal, double copy) {
  synth_spec s = shape_spec(shape);
  s.dtype = dtype;
  auto sm = synth_model_make(s);
  const model& m = *sm->m;
  const int bs = 16, max_tokens = 512;
  const int64_t n_blocks = (prompt + tokens + 512) / bs + 2;
  thread_pool pool(1);
  kv_pool kv(m.hp.n_layer, m.hp.kv_dim(), n_blocks, bs);
  forward_pass fwd(m, kv, pool, max_tokens, 1);
  std::string why;
  setenv("INFER_CUDA_GRAPHS", graphs ? "1" : "0", 1);  // read when the backend is created
  fwd.attach_backend(gpu_backend_create(m, kv, max_tokens, 1, &why));
  if (!fwd.backend()) throw std::runtime_error("CUDA backend not created: " + why);
  std::vector<int32_t> blocks(n_blocks);
  for (int64_t i = 0; i < n_blocks; ++i) blocks[i] = static_cast<int32_t>(i);
  const int64_t V = m.hp.n_vocab;
  auto argmax = [&] { return static_cast<int32_t>(std::max_element(fwd.logits(0), fwd.logits(0) + V) - fwd.logits(0)); };
  using clk = std::chrono::steady_clock;
  // Prefill: a 512-token chunk, 3 runs (the first warms up), median of the last two.
  std::vector<fwd_token> toks(max_tokens);
  std::vector<double> pre;
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < max_tokens; ++i) toks[i] = {static_cast<int32_t>((i * 7919 + r) % V), i, blocks.data()};
    const int32_t last = max_tokens - 1;
    const auto t0 = clk::now();
    fwd.run(toks.data(), max_tokens, &last, 1);
    const double sec = std::chrono::duration<double>(clk::now() - t0).count();
    if (r > 0) pre.push_back(sec);
  }
  bench_row row;
  row.dtype = dtype;
  row.graphs = graphs;
  row.weight_mb = sm->weight_bytes / 1e6;
  row.prefill_tps = max_tokens / median(pre);
  // The measured sequence: `prompt` tokens prefilled, then `tokens` greedy decode steps.
  for (int i = 0; i < prompt; ++i) toks[i] = {static_cast<int32_t>((i * 104729) % V), i, blocks.data()};
  const int32_t last = prompt - 1;
  fwd.run(toks.data(), prompt, &last, 1);
  int32_t t = argmax();
  std::vector<double> step;
  for (int p = prompt; p < prompt + tokens; ++p) {
    fwd_token ft{t, p, blocks.data()};
    const int32_t zero = 0;
    const auto t0 = clk::now();
    fwd.run(&ft, 1, &zero, 1);
    t = argmax();  // greedy on the host, as the engine's sampler does
    step.push_back(std::chrono::duration<double>(clk::now() - t0).count());
  }
  const double sec = median(step);
  const double kv_bytes = 2.0 * 2 * m.hp.n_layer * m.hp.kv_dim() * (prompt + tokens / 2.0);
  const double bytes = static_cast<double>(sm->weight_bytes) + kv_bytes;
  row.ms_per_tok = sec * 1e3;
  row.decode_tps = 1.0 / sec;
  row.gbps = bytes / sec / 1e9;
  row.frac_nominal = nominal > 0 ? row.gbps / nominal : 0;
  row.frac_copy = copy > 0 ? row.gbps / copy : 0;
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> dtypes = {"q8_0"};
  int prompt = 128, tokens = 128;
  std::string json, shape = "qwen2-0.5b";
  std::vector<bool> graph_modes = {true, false};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--dtype" && i + 1 < argc) {
      const std::string d = argv[++i];
      dtypes = d == "all" ? std::vector<std::string>{"q8_0", "q4_0", "q5_0", "q4_k", "q6_k", "f16", "bf16"}
                          : std::vector<std::string>{d};
    } else if (a == "--prompt" && i + 1 < argc) prompt = std::max(1, std::atoi(argv[++i]));
    else if (a == "--tokens" && i + 1 < argc) tokens = std::max(1, std::atoi(argv[++i]));
    else if (a == "--json" && i + 1 < argc) json = argv[++i];
    else if (a == "--shape" && i + 1 < argc) shape = argv[++i];
    else if (a == "--graphs" && i + 1 < argc) {
      const std::string g = argv[++i];
      graph_modes = g == "on" ? std::vector<bool>{true} : g == "off" ? std::vector<bool>{false} : std::vector<bool>{true, false};
    }
    else {
      std::fprintf(stderr, "usage: cuda_bench [--shape qwen2-0.5b|qwen3-0.6b|gemma3-1b] [--dtype T|all] [--graphs on|off|both] [--prompt N] "
                   "[--tokens N] [--json FILE]\n");
      return 2;
    }
  }
  const gpu_info& g = gpu_query();
  if (!g.available) {
    std::printf("cuda_bench: SKIP no usable GPU (%s)\n", g.error.c_str());
    return 0;
  }
  const double copy = measure_copy_gbps();
  std::printf("device: %s, nominal %.0f GB/s, measured D2D copy %.0f GB/s\n", g.name.c_str(), g.peak_gbps, copy);
  std::vector<bench_row> rows;
  try {
    const synth_spec s = shape_spec(shape);
    std::printf("model: %s shapes (%s, %lldx%lld, %lld/%lld heads of %lld, ffn %lld, vocab %lld, tied), prompt %d, decode %d\n",
                shape.c_str(), s.arch.c_str(), static_cast<long long>(s.dim), static_cast<long long>(s.layers),
                static_cast<long long>(s.heads), static_cast<long long>(s.kv_heads),
                static_cast<long long>(s.head_dim > 0 ? s.head_dim : s.dim / s.heads), static_cast<long long>(s.ffn),
                static_cast<long long>(s.vocab), prompt, tokens);
    bench_matvec(dtypes, g.peak_gbps);
    for (const auto& d : dtypes)
      for (bool gm : graph_modes) rows.push_back(bench_one(shape, d, gm, prompt, tokens, g.peak_gbps, copy));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuda_bench: %s\n", e.what());
    return 1;
  }
  std::printf("\n%-6s %6s %10s %12s %11s %9s %9s %10s %10s\n", "dtype", "graphs", "weights MB", "prefill t/s", "decode t/s",
              "ms/token", "GB/s", "%nominal", "%D2D copy");
  for (const auto& r : rows)
    std::printf("%-6s %6s %10.0f %12.0f %11.1f %9.3f %9.0f %9.1f%% %9.1f%%\n", r.dtype.c_str(), r.graphs ? "on" : "off", r.weight_mb, r.prefill_tps,
                r.decode_tps, r.ms_per_tok, r.gbps, 100 * r.frac_nominal, 100 * r.frac_copy);
  if (!json.empty()) {
    std::ofstream f(json);
    f << "{\"device\":\"" << g.name << "\",\"nominal_gbps\":" << g.peak_gbps << ",\"copy_gbps\":" << copy
      << ",\"shape\":\"" << shape << "\",\"prompt\":" << prompt << ",\"tokens\":" << tokens << ",\"rows\":[";
    for (size_t i = 0; i < rows.size(); ++i)
      f << (i ? "," : "") << "{\"dtype\":\"" << rows[i].dtype << "\",\"graphs\":" << (rows[i].graphs ? "true" : "false") << ",\"weight_mb\":" << rows[i].weight_mb
        << ",\"prefill_tps\":" << rows[i].prefill_tps << ",\"decode_tps\":" << rows[i].decode_tps
        << ",\"ms_per_token\":" << rows[i].ms_per_tok << ",\"gbps\":" << rows[i].gbps
        << ",\"frac_nominal\":" << rows[i].frac_nominal << ",\"frac_copy\":" << rows[i].frac_copy << "}";
    f << "]}\n";
  }
  return 0;
}
