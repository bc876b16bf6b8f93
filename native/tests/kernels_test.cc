// Kernel tests: dequantize_row against per-element layout formulas; matmul against double
// precision references (over the exact activation quantization, tightly, and over the raw
// activations, within the quantization error bound); thread and batch invariance; thread pool.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "kernels/kernels.h"
#include "tests/ref_quant.h"
#include "tests/test_main.h"

using infer::tensor_type;
using infer::tensor_view;
using namespace infer_test;

namespace {

const tensor_type kAllTypes[] = {tensor_type::f32,    tensor_type::f16,    tensor_type::bf16,  tensor_type::q8_0,
                                 tensor_type::q4_0,   tensor_type::q5_0,   tensor_type::q4_k,  tensor_type::q5_k,
                                 tensor_type::q6_k,   tensor_type::q4_1,   tensor_type::q5_1,  tensor_type::q2_k,
                                 tensor_type::q3_k,   tensor_type::iq4_nl, tensor_type::iq4_xs, tensor_type::mxfp4};

// Types whose blocks are 256 wide and whose activations are Q8_K.
bool is_k(tensor_type t) {
  return t == tensor_type::q4_k || t == tensor_type::q5_k || t == tensor_type::q6_k || t == tensor_type::q2_k ||
         t == tensor_type::q3_k || t == tensor_type::iq4_xs;
}
// Types with a per-block min, whose activations are Q8_1 (Q8_0 quants plus s = fp16(d * sum)).
bool is_q8_1(tensor_type t) { return t == tensor_type::q4_1 || t == tensor_type::q5_1; }
bool is_float(tensor_type t) { return t == tensor_type::f32 || t == tensor_type::f16 || t == tensor_type::bf16; }

std::string tname(tensor_type t) { return infer::tensor_type_name(t); }

std::vector<float> randn(size_t n, std::mt19937& rng, float scale = 1.0f) {
  std::normal_distribution<float> d(0.0f, scale);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

// The activation each weight type's kernel sees, dequantized, with the per-element worst-case
// quantization error (test-side implementation of Q8_0 / Q8_K / f16 / bf16 rounding).
// For Q8_1 types, s (per 32-block) gets the blocks' fp16(d * sum(q)).
void quantized_activation(tensor_type wt, const float* x, int64_t n, std::vector<double>* a, std::vector<double>* err,
                          std::vector<double>* s = nullptr) {
  a->assign(static_cast<size_t>(n), 0.0);
  err->assign(static_cast<size_t>(n), 0.0);
  if (s) s->assign(static_cast<size_t>(n / 32), 0.0);
  if (wt == tensor_type::f32) {
    for (int64_t j = 0; j < n; j++) (*a)[j] = x[j];
    return;
  }
  if (wt == tensor_type::f16) {
    for (int64_t j = 0; j < n; j++) {
      (*a)[j] = infer::fp16_to_fp32(infer::fp32_to_fp16(x[j]));
      (*err)[j] = std::fabs(x[j]) * std::ldexp(1.0, -11) + 6e-8;
    }
    return;
  }
  if (wt == tensor_type::bf16) {
    for (int64_t j = 0; j < n; j++) {
      uint32_t u;
      std::memcpy(&u, &x[j], 4);
      u = ((u + (0x7fffu + ((u >> 16) & 1))) >> 16) << 16;
      float v;
      std::memcpy(&v, &u, 4);
      (*a)[j] = v;
      (*err)[j] = std::fabs(x[j]) * std::ldexp(1.0, -8);
    }
    return;
  }
  if (!is_k(wt)) {  // Q8_0: d = amax/127 stored as fp16, q = round_half_even(x / d)
    for (int64_t b = 0; b < n / 32; b++) {
      float amax = 0;
      for (int j = 0; j < 32; j++) amax = std::max(amax, std::fabs(x[b * 32 + j]));
      const float d = amax / 127.0f;
      const float id = d ? 1.0f / d : 0.0f;
      const double dh = infer::fp16_to_fp32(infer::fp32_to_fp16(d));
      int sum = 0;
      for (int j = 0; j < 32; j++) {
        int q = static_cast<int>(std::nearbyintf(x[b * 32 + j] * id));
        sum += q;
        (*a)[b * 32 + j] = dh * q;
        (*err)[b * 32 + j] = 0.6 * d + 1e-30;
      }
      if (s) (*s)[b] = infer::fp16_to_fp32(infer::fp32_to_fp16(d * static_cast<float>(sum)));
    }
    return;
  }
  // Q8_K: iscale = -127/max (max = signed largest magnitude), q = min(127, round(iscale*x)), d = 1/iscale
  for (int64_t b = 0; b < n / 256; b++) {
    const float* xb = x + b * 256;
    float max = 0, amax = 0;
    for (int j = 0; j < 256; j++)
      if (std::fabs(xb[j]) > amax) {
        amax = std::fabs(xb[j]);
        max = xb[j];
      }
    if (!amax) continue;
    const float iscale = -127.f / max;
    const float d = 1 / iscale;
    for (int j = 0; j < 256; j++) {
      int q = std::min(127, static_cast<int>(std::nearbyintf(iscale * xb[j])));
      (*a)[b * 256 + j] = static_cast<double>(d) * q;
      (*err)[b * 256 + j] = 0.51 * amax / 127.0;
    }
  }
}

struct weights {
  std::vector<uint8_t> bytes;
  tensor_view view;
};

weights make_weights(tensor_type t, int64_t rows, int64_t n, std::mt19937& rng, bool random_bits) {
  weights w;
  if (random_bits) {
    w.bytes = random_blocks(t, rows, n, rng);
  } else {
    auto f = randn(static_cast<size_t>(rows * n), rng, 0.05f);
    w.bytes = quantize_rows(t, f.data(), rows, n);
  }
  w.view.type = t;
  w.view.data = w.bytes.data();
  w.view.ne0 = n;
  w.view.ne1 = rows;
  w.view.row_bytes = infer::tensor_row_bytes(t, n);
  return w;
}

// Checks y (n_tokens x rows) against both references. Returns the max relative error seen.
void check_matmul(const weights& w, const std::vector<float>& x, int64_t n_tokens, const std::vector<float>& y,
                  const std::string& label) {
  const int64_t n = w.view.ne0, rows = w.view.ne1;
  const size_t rb = w.view.row_bytes;
  std::vector<double> a, err, s;
  int bad = 0;
  const bool q8_1 = is_q8_1(w.view.type);
  for (int64_t t = 0; t < n_tokens; t++) {
    quantized_activation(w.view.type, x.data() + t * n, n, &a, &err, &s);
    for (int64_t r = 0; r < rows; r++) {
      const uint8_t* row = w.bytes.data() + rb * static_cast<size_t>(r);
      double exact = 0, raw = 0, mag = 0, qbound = 0;
      for (int64_t j = 0; j < n; j++) {
        const double wj = ref_element(w.view.type, row, j);
        raw += wj * x[t * n + j];
        if (q8_1) {
          // w = d*q + m: d*q against the quantized activations, m against the block's s.
          const size_t bb = infer::tensor_type_block_bytes(w.view.type);
          const double m = infer::fp16_to_fp32(static_cast<uint16_t>(row[bb * (j / 32) + 2] | (row[bb * (j / 32) + 3] << 8)));
          exact += (wj - m) * a[j];
          mag += std::fabs((wj - m) * a[j]);
          qbound += (std::fabs(wj - m) + std::fabs(m)) * err[j];
          if (j % 32 == 0) {
            const double sa = s[j / 32];
            exact += m * sa;
            mag += std::fabs(m * sa);
            qbound += std::fabs(m * sa) * std::ldexp(1.0, -9);  // s's fp16 rounding vs the rounded d's
          }
          continue;
        }
        exact += wj * a[j];
        mag += std::fabs(wj * a[j]);
        qbound += std::fabs(wj) * err[j];
      }
      const double got = y[t * rows + r];
      // (1) against the same quantized activations: only float accumulation error.
      const double tol_exact = 2e-5 * mag + 1e-6;
      // (2) against the raw activations: within the activation quantization error bound.
      const double tol_raw = qbound + tol_exact;
      if (!(std::fabs(got - exact) <= tol_exact) || !(std::fabs(got - raw) <= tol_raw)) {
        if (bad++ < 3)
          CHECK(false, label + " t=" + std::to_string(t) + " r=" + std::to_string(r) + " got " + std::to_string(got) +
                           " exact " + std::to_string(exact) + " (tol " + std::to_string(tol_exact) + ") raw " +
                           std::to_string(raw) + " (tol " + std::to_string(tol_raw) + ")");
      }
    }
  }
  CHECK(bad == 0, label + ": " + std::to_string(bad) + " mismatching outputs");
}

}  // namespace

TEST(dequantize_row_matches_layout_formulas) {
  std::mt19937 rng(1);
  for (tensor_type t : kAllTypes) {
    for (int random_bits = 0; random_bits < 2; random_bits++) {
      const int64_t n = is_k(t) ? 512 : (is_float(t) ? 37 : 96);
      const int64_t rows = 5;
      weights w = make_weights(t, rows, n, rng, random_bits != 0);
      std::vector<float> out(static_cast<size_t>(n));
      int bad = 0;
      for (int64_t r = 0; r < rows; r++) {
        infer::dequantize_row(w.view, r, out.data());
        for (int64_t j = 0; j < n; j++) {
          double ref = ref_element(t, w.bytes.data() + w.view.row_bytes * r, j);
          if (std::fabs(out[j] - ref) > 1e-6 * std::fabs(ref) + 1e-9) bad++;
        }
      }
      CHECK(bad == 0, tname(t) + (random_bits ? " random bits" : " quantized") + ": " + std::to_string(bad) +
                          " elements differ");
    }
  }
}

TEST(reference_quantizers_roundtrip) {
  // Sanity of the test's own quantizers: dequantized values are close to the originals.
  std::mt19937 rng(2);
  const int64_t n = 512;
  auto f = randn(n, rng, 1.0f);
  for (tensor_type t : kAllTypes) {
    auto q = quantize_rows(t, f.data(), 1, n);
    double se = 0, ss = 0;
    for (int64_t j = 0; j < n; j++) {
      double d = ref_element(t, q.data(), j) - f[j];
      se += d * d;
      ss += static_cast<double>(f[j]) * f[j];
    }
    double rel = std::sqrt(se / ss);
    const double limit = t == tensor_type::q2_k ? 0.45
                         : t == tensor_type::q3_k ? 0.3
                         : t == tensor_type::q4_0 || t == tensor_type::q4_k || t == tensor_type::q4_1 ||
                                   t == tensor_type::iq4_nl || t == tensor_type::iq4_xs || t == tensor_type::mxfp4
                             ? 0.15
                         : t == tensor_type::q5_0 || t == tensor_type::q5_k || t == tensor_type::q5_1 ? 0.08
                         : t == tensor_type::q6_k ? 0.04 : 0.01;
    CHECK(rel < limit, tname(t) + " relative rms error " + std::to_string(rel));
  }
}

TEST(fp16_bf16_conversions) {
  // Every half value round-trips exactly through float.
  int bad = 0;
  for (uint32_t h = 0; h < 65536; h++) {
    float f = infer::fp16_to_fp32(static_cast<uint16_t>(h));
    bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
    if (nan) {
      if (!std::isnan(f)) bad++;
      continue;
    }
    if (infer::fp32_to_fp16(f) != h) bad++;
  }
  CHECK(bad == 0, std::to_string(bad) + " halves do not round-trip");
  CHECK(infer::fp32_to_fp16(1.0f) == 0x3c00, "1.0");
  CHECK(infer::fp32_to_fp16(65520.0f) == 0x7c00, "overflow to inf");
  CHECK(infer::fp32_to_fp16(1.0f + std::ldexp(1.0f, -11)) == 0x3c00, "tie rounds to even");
  CHECK(infer::fp32_to_fp16(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02, "tie rounds to even (up)");
  CHECK(infer::fp16_to_fp32(0x0001) == std::ldexp(1.0f, -24), "smallest subnormal");
  CHECK(infer::bf16_to_fp32(0x3f80) == 1.0f, "bf16 1.0");
}

TEST(matmul_all_types_against_references) {
  std::mt19937 rng(3);
  std::unique_ptr<infer::thread_pool> pools[3] = {std::make_unique<infer::thread_pool>(1),
                                                  std::make_unique<infer::thread_pool>(2),
                                                  std::make_unique<infer::thread_pool>(3)};
  for (tensor_type t : kAllTypes) {
    for (int random_bits = 0; random_bits < 2; random_bits++) {
      const int64_t n = is_k(t) ? 768 : (is_float(t) ? 83 : 160);
      const int64_t rows = random_bits ? 37 : 67;
      weights w = make_weights(t, rows, n, rng, random_bits != 0);
      for (int64_t n_tokens : {1, 3, 17}) {
        auto x = randn(static_cast<size_t>(n * n_tokens), rng, 1.0f);
        // A token with all zeros and one with a single spike exercise d == 0 and clipping paths.
        if (n_tokens > 1) std::fill(x.begin() + n, x.begin() + 2 * n, 0.0f);
        if (n_tokens > 2) x[2 * n + 5] = 50.0f;
        std::vector<float> first;
        for (int p = 0; p < 3; p++) {
          std::vector<float> y(static_cast<size_t>(rows * n_tokens), NAN);
          infer::matmul(w.view, x.data(), n_tokens, y.data(), *pools[p]);
          std::string label = tname(t) + (random_bits ? "/random" : "/quantized") + " rows=" + std::to_string(rows) +
                              " n=" + std::to_string(n) + " tokens=" + std::to_string(n_tokens) +
                              " threads=" + std::to_string(p + 1);
          if (p == 0) {
            check_matmul(w, x, n_tokens, y, label);
            first = y;
          } else {
            CHECK(std::memcmp(first.data(), y.data(), y.size() * 4) == 0, label + ": differs from 1 thread");
          }
        }
        // Batch invariance: each token's row equals a single-token matmul of that token.
        std::vector<float> y1(static_cast<size_t>(rows));
        int diff = 0;
        for (int64_t tok = 0; tok < n_tokens; tok++) {
          infer::matmul(w.view, x.data() + tok * n, 1, y1.data(), *pools[1]);
          if (std::memcmp(y1.data(), first.data() + tok * rows, static_cast<size_t>(rows) * 4) != 0) diff++;
        }
        CHECK(diff == 0, tname(t) + " tokens=" + std::to_string(n_tokens) + ": " + std::to_string(diff) +
                             " tokens differ between batched and single-token matmul");
      }
    }
  }
}

TEST(matmul_realistic_widths) {
  // Widths of Qwen2.5-0.5B (896, 4864) with rows that do not divide the tile sizes.
  std::mt19937 rng(4);
  infer::thread_pool pool(2);
  for (tensor_type t : kAllTypes) {
    for (int64_t n : {896, 4864}) {
      if (is_k(t) && n % 256) continue;
      weights w = make_weights(t, 45, n, rng, false);
      for (int64_t n_tokens : {1, 5}) {
        auto x = randn(static_cast<size_t>(n * n_tokens), rng, 0.5f);
        std::vector<float> y(static_cast<size_t>(45 * n_tokens));
        infer::matmul(w.view, x.data(), n_tokens, y.data(), pool);
        check_matmul(w, x, n_tokens, y, tname(t) + " n=" + std::to_string(n) + " tokens=" + std::to_string(n_tokens));
      }
    }
  }
}

TEST(thread_pool_runs_every_task_once) {
  for (int threads : {1, 2, 3, 4}) {
    infer::thread_pool pool(threads);
    CHECK(pool.size() == threads, "size");
    std::vector<std::atomic<int>> hits(5000);
    std::mt19937 rng(static_cast<unsigned>(threads));
    int bad = 0;
    for (int iter = 0; iter < 1000; iter++) {
      const int n_tasks = static_cast<int>(rng() % 600);
      for (int i = 0; i < n_tasks; i++) hits[i].store(0, std::memory_order_relaxed);
      std::atomic<int> bad_thread{0};
      pool.parallel_for(n_tasks, [&](int task, int th) {
        hits[task].fetch_add(1, std::memory_order_relaxed);
        if (th < 0 || th >= threads) bad_thread++;
        if ((task & 63) == 0) std::this_thread::yield();
      });
      for (int i = 0; i < n_tasks; i++)
        if (hits[i].load() != 1) bad++;
      if (bad_thread.load()) bad++;
      // Now and then let the workers fall asleep so the condition-variable path runs too.
      if (iter % 100 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    CHECK(bad == 0, "threads=" + std::to_string(threads) + ": " + std::to_string(bad) + " wrong task counts");
    pool.parallel_for(0, [&](int, int) { bad++; });
    CHECK(bad == 0, "zero tasks must not call fn");
  }
}

TEST(thread_pool_idle_workers_sleep) {
  // After a job, idle workers must stop consuming CPU (bounded spin, then block).
  infer::thread_pool pool(3);
  std::atomic<int> sum{0};
  pool.parallel_for(64, [&](int t, int) { sum += t; });
  CHECK(sum.load() == 64 * 63 / 2, "sum");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  clock_t c0 = std::clock();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  double cpu_ms = 1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  CHECK(cpu_ms < 20.0, "idle pool used " + std::to_string(cpu_ms) + " ms CPU in 200 ms");
}

TEST(thread_pool_create_destroy) {
  for (int i = 0; i < 50; i++) {
    infer::thread_pool pool(1 + i % 4);
    std::atomic<int> c{0};
    if (i % 2) pool.parallel_for(10, [&](int, int) { c++; });
    CHECK(c.load() == (i % 2 ? 10 : 0), "count");
  }
}

#include "kernels/quants.h"

TEST(activation_conversion_matches_reference_bits) {
  // The vectorized activation quantizers must produce byte-identical blocks to the portable
  // reference (so the two builds differ only in float summation order).
  std::mt19937 rng(5);
  namespace kq = infer::kq;
  for (kq::act_format f : {kq::act_format::q8_0, kq::act_format::q8_K, kq::act_format::q8_1,
                           kq::act_format::f32_round_f16, kq::act_format::f32_round_bf16}) {
    for (int iter = 0; iter < 20; iter++) {
      const int64_t n = 1024;
      auto x = randn(n, rng, iter % 2 ? 0.01f : 3.0f);
      if (iter == 3) std::fill(x.begin(), x.begin() + 300, 0.0f);  // all-zero blocks
      if (iter == 4)
        for (int64_t j = 0; j < n; j++) x[j] = static_cast<float>(static_cast<int>(j % 64) - 32) * 0.5f;  // ties
      if (iter == 5) { x[7] = 9.0f; x[8] = -9.0f; }  // equal magnitudes, opposite signs
      const size_t bytes = kq::act_row_bytes(f, n);
      std::vector<uint8_t> a(bytes), b(bytes);
      kq::convert_act_row(f, x.data(), a.data(), n);
      kq::convert_act_row_ref(f, x.data(), b.data(), n);
      CHECK(a == b, "format " + std::to_string(static_cast<int>(f)) + " iter " + std::to_string(iter));
    }
  }
  CHECK(true, std::string("avx2 kernels in this build: ") + (kq::have_avx2_kernels() ? "yes" : "no"));
}

TEST(portable_kernels_against_references) {
  // The portable kernels (the only ones on CPUs without AVX2) are checked in every build.
  std::mt19937 rng(6);
  namespace kq = infer::kq;
  for (tensor_type t : kAllTypes) {
    const int64_t n = is_k(t) ? 512 : (is_float(t) ? 45 : 96);
    const int64_t rows = 9, n_tokens = 3;
    weights w = make_weights(t, rows, n, rng, t == tensor_type::q6_k || t == tensor_type::q4_0 ||
                                                  t == tensor_type::q3_k || t == tensor_type::mxfp4 || t == tensor_type::q5_1);
    auto x = randn(static_cast<size_t>(n * n_tokens), rng, 1.0f);
    const kq::act_format f = kq::act_format_for(t);
    std::vector<uint8_t> act(kq::act_row_bytes(f, n));
    std::vector<float> y(static_cast<size_t>(rows * n_tokens));
    for (int64_t tok = 0; tok < n_tokens; tok++) {
      kq::convert_act_row_ref(f, x.data() + tok * n, act.data(), n);
      for (int64_t r = 0; r < rows; r++)
        y[tok * rows + r] = kq::vec_dot_ref(t, n, w.bytes.data() + w.view.row_bytes * r, act.data());
    }
    check_matmul(w, x, n_tokens, y, "portable " + tname(t));
  }
}

TEST(matmul_multi_matches_separate_matmuls) {
  // q/k/v-like weights of mixed types sharing one input (as a Q4_K_M file has them).
  std::mt19937 rng(8);
  const int64_t n = 512;
  weights a = make_weights(tensor_type::q4_k, 40, n, rng, false);
  weights b = make_weights(tensor_type::q6_k, 24, n, rng, false);
  weights c = make_weights(tensor_type::q8_0, 24, n, rng, false);
  weights d = make_weights(tensor_type::f16, 7, n, rng, false);
  for (int threads : {1, 2, 3}) {
    infer::thread_pool pool(threads);
    for (int64_t n_tokens : {1, 3, 17}) {
      auto x = randn(static_cast<size_t>(n * n_tokens), rng, 1.0f);
      const weights* ws[] = {&a, &b, &c, &d};
      std::vector<std::vector<float>> sep(4), multi(4);
      std::vector<infer::matmul_job> jobs;
      for (int j = 0; j < 4; j++) {
        sep[j].assign(static_cast<size_t>(ws[j]->view.ne1 * n_tokens), 0.f);
        multi[j].assign(sep[j].size(), NAN);
        infer::matmul(ws[j]->view, x.data(), n_tokens, sep[j].data(), pool);
        jobs.push_back({&ws[j]->view, multi[j].data()});
      }
      infer::matmul_multi(jobs.data(), static_cast<int>(jobs.size()), x.data(), n_tokens, pool);
      for (int j = 0; j < 4; j++)
        CHECK(std::memcmp(sep[j].data(), multi[j].data(), sep[j].size() * 4) == 0,
              "job " + std::to_string(j) + " threads " + std::to_string(threads) + " tokens " + std::to_string(n_tokens));
    }
  }
}

TEST(matmul_multi_many_jobs_and_mismatched_widths) {
  // More jobs than one pass takes, and a job whose width differs from the first (contract
  // violation, still computed correctly on its own).
  std::mt19937 rng(9);
  infer::thread_pool pool(2);
  const int64_t n = 64, n_tokens = 5;
  std::vector<weights> ws;
  for (int j = 0; j < 19; j++) ws.push_back(make_weights(j % 2 ? tensor_type::q8_0 : tensor_type::f32, 3 + j, n, rng, false));
  ws.push_back(make_weights(tensor_type::q8_0, 5, 2 * n, rng, false));
  auto x = randn(static_cast<size_t>(2 * n * n_tokens), rng, 1.0f);
  std::vector<std::vector<float>> y(ws.size());
  std::vector<infer::matmul_job> jobs;
  for (size_t j = 0; j < ws.size(); j++) {
    y[j].assign(static_cast<size_t>(ws[j].view.ne1 * n_tokens), NAN);
    jobs.push_back({&ws[j].view, y[j].data()});
  }
  infer::matmul_multi(jobs.data(), static_cast<int>(jobs.size()), x.data(), n_tokens, pool);
  for (size_t j = 0; j < ws.size(); j++) {
    std::vector<float> ref(y[j].size());
    infer::matmul(ws[j].view, x.data(), n_tokens, ref.data(), pool);
    CHECK(std::memcmp(ref.data(), y[j].data(), ref.size() * 4) == 0, "job " + std::to_string(j));
  }
}
