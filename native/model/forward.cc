#include "model/forward.h"

#include "model/rope.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(__F16C__) && defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define INFER_F16C 1
#endif

namespace infer {
namespace {

// RMSNorm as ggml computes it (sum of squares in double), then the elementwise weight.
void rms_norm(const float* x, const float* w, float* y, int64_t n, float eps) {
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i) sum += static_cast<double>(x[i] * x[i]);
  const float scale = 1.0f / std::sqrt(static_cast<float>(sum / n) + eps);
  for (int64_t i = 0; i < n; ++i) y[i] = (x[i] * scale) * w[i];
}

inline void store_f16(uint16_t* dst, const float* src, int64_t n) {
  int64_t i = 0;
#ifdef INFER_F16C
  for (; i + 8 <= n; i += 8) {
    __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), h);
  }
#endif
  for (; i < n; ++i) dst[i] = fp32_to_fp16(src[i]);
}

inline void add_bias(float* y, const std::vector<float>& b) {
  for (size_t i = 0; i < b.size(); ++i) y[i] += b[i];
}

// ---- attention of one token over its KV positions, for the query heads of one KV head ----
//
// Every (token, head) output is computed by the same operations in the same order whatever the
// grouping (heads are only interleaved, never mixed): score_j = dot(q, k_j) (8-lane FMA over the
// head dim, fixed horizontal sum) * scale; softmax with the sum in double over j in order;
// out = sum over j in order of (p_j * v_j) as FMAs from zero. So results do not depend on the
// batch, the thread count or which tokens share a task.

#ifdef INFER_F16C
inline float hsum8(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_hadd_ps(s, s);
  s = _mm_hadd_ps(s, s);
  return _mm_cvtss_f32(s);
}
#endif

#ifdef INFER_F16C
// hsum8 of 8 vectors at once, lane g = hsum8(v[g]) bit for bit: the same additions in the same
// order ((lo + hi), then the pair sums, then their sum), transposed so that 3 hadds serve all 8.
inline __m256 hsum8x8(const __m256* v) {
  __m256 half[4];  // [v[g].lo + v[g].hi | v[g + 4].lo + v[g + 4].hi]
  for (int g = 0; g < 4; ++g)
    half[g] = _mm256_add_ps(_mm256_permute2f128_ps(v[g], v[g + 4], 0x20), _mm256_permute2f128_ps(v[g], v[g + 4], 0x31));
  return _mm256_hadd_ps(_mm256_hadd_ps(half[0], half[1]), _mm256_hadd_ps(half[2], half[3]));
}
#endif

// Walks the rows of positions j, j+1, ... of one KV head through the block table, without a
// division per position.
struct kv_row_cursor {
  const uint16_t* const* blk;
  int bs;
  int64_t stride;
  int b, slot;
  kv_row_cursor(const uint16_t* const* blocks, int block_size, int64_t row_stride, int32_t j)
      : blk(blocks), bs(block_size), stride(row_stride), b(j / block_size), slot(j % block_size) {}
  const uint16_t* row() const { return blk[b] + static_cast<int64_t>(slot) * stride; }
  void next() {
    if (++slot == bs) {
      slot = 0;
      ++b;
    }
  }
};

// sc[g * stride + j - j0] = dot(q[g], k_j) * scale for j0 <= j < n_pos, H heads at once (k_j
// converted once).
template <int H>
void scores_heads(const float* const* q, const uint16_t* const* kblk, int bs, int64_t kv_stride, int64_t hd,
                  int32_t j0, int32_t n_pos, float scale, float* sc, int64_t stride) {
  kv_row_cursor rows(kblk, bs, kv_stride, j0);  // no division per position
  for (int32_t j = j0; j < n_pos; ++j, rows.next()) {
    const uint16_t* k = rows.row();
    float s[H];
    int64_t i = 0;
#ifdef INFER_F16C
    __m256 acc[H];
    for (int g = 0; g < H; ++g) acc[g] = _mm256_setzero_ps();
    for (; i + 8 <= hd; i += 8) {
      const __m256 kv = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(k + i)));
      for (int g = 0; g < H; ++g) acc[g] = _mm256_fmadd_ps(_mm256_loadu_ps(q[g] + i), kv, acc[g]);
    }
    if constexpr (H == 8) {
      _mm256_storeu_ps(s, hsum8x8(acc));
    } else {
      for (int g = 0; g < H; ++g) s[g] = hsum8(acc[g]);
    }
#else
    for (int g = 0; g < H; ++g) s[g] = 0.0f;
#endif
    for (; i < hd; ++i) {
      const float kf = fp16_to_fp32(k[i]);
      for (int g = 0; g < H; ++g) s[g] += q[g][i] * kf;
    }
    for (int g = 0; g < H; ++g) sc[g * stride + j - j0] = s[g] * scale;
  }
}

// out[g][0 .. hd) = sum_j p[g][j] * v_j, H query rows at once, 32 dims per pass (one cache line
// of f16 V per position) with the accumulators in registers. Every row attends [jmin, jmax), or,
// with kOwnRanges (the grouped prefill rows of attend_rows), its own [lo[g], hi[g]) inside it:
// positions outside a row's range are skipped, not added as 0, so each row's sum is the same, in
// the same order, as over its own range alone. Decode (no ranges) pays no per-position check.
template <int H, bool kOwnRanges>
void weighted_values(const float* const* p, const int32_t* lo, const int32_t* hi, const uint16_t* const* vblk, int bs,
                     int64_t kv_stride, int64_t hd, int32_t jmin, int32_t jmax, float* const* out) {
  const auto attends = [&](int g, int32_t j) -> bool {
    if constexpr (kOwnRanges) {
      return j >= lo[g] && j < hi[g];
    } else {
      (void)g;
      (void)j;
      return true;
    }
  };
  int64_t i0 = 0;
#ifdef INFER_F16C
  for (; i0 + 32 <= hd; i0 += 32) {
    __m256 acc[H][4];
    for (int g = 0; g < H; ++g)
      for (int c = 0; c < 4; ++c) acc[g][c] = _mm256_setzero_ps();
    kv_row_cursor rows(vblk, bs, kv_stride, jmin);  // no division per position
    for (int32_t j = jmin; j < jmax; ++j, rows.next()) {
      const uint16_t* v = rows.row() + i0;
      __m256 vv[4];
      for (int c = 0; c < 4; ++c) vv[c] = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v + 8 * c)));
      for (int g = 0; g < H; ++g) {
        if (!attends(g, j)) continue;
        const __m256 a = _mm256_broadcast_ss(p[g] + j);
        for (int c = 0; c < 4; ++c) acc[g][c] = _mm256_fmadd_ps(a, vv[c], acc[g][c]);
      }
    }
    for (int g = 0; g < H; ++g)
      for (int c = 0; c < 4; ++c) _mm256_storeu_ps(out[g] + i0 + 8 * c, acc[g][c]);
  }
  for (; i0 + 8 <= hd; i0 += 8) {
    __m256 acc[H];
    for (int g = 0; g < H; ++g) acc[g] = _mm256_setzero_ps();
    kv_row_cursor rows(vblk, bs, kv_stride, jmin);  // no division per position
    for (int32_t j = jmin; j < jmax; ++j, rows.next()) {
      const uint16_t* v = rows.row() + i0;
      const __m256 vv = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v)));
      for (int g = 0; g < H; ++g)
        if (attends(g, j)) acc[g] = _mm256_fmadd_ps(_mm256_broadcast_ss(p[g] + j), vv, acc[g]);
    }
    for (int g = 0; g < H; ++g) _mm256_storeu_ps(out[g] + i0, acc[g]);
  }
#endif
  for (; i0 < hd; ++i0) {
    for (int g = 0; g < H; ++g) {
      const int32_t from = kOwnRanges ? lo[g] : jmin, to = kOwnRanges ? hi[g] : jmax;
      float s = 0.0f;
      kv_row_cursor rows(vblk, bs, kv_stride, from);  // no division per position
      for (int32_t j = from; j < to; ++j, rows.next()) s = std::fma(p[g][j], fp16_to_fp32(rows.row()[i0]), s);
      out[g][i0] = s;
    }
  }
}

#ifdef INFER_F16C
// exp(x) for 8 floats: x clamped to [-87.3, 88.37], n = round(x * log2(e)), r = x - n * ln 2 (in
// two parts), e^r by a degree-7 Taylor-style polynomial (Cephes expf coefficients), times 2^n.
// About 1 ulp; below -87.3 gives ~1e-38 instead of 0, above 88.37 a large finite value.
inline __m256 exp8(__m256 x) {
  x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-87.3f)), _mm256_set1_ps(88.37f));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  const __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
}
#endif

// y[i] = f(x[i]) for i < n with exp8 inside f; the tail goes through the same vector code (padded),
// so every element is computed the same way wherever it sits.
template <typename F>
inline void map8(const float* x, float* y, int64_t n, float pad, F f) {
  int64_t i = 0;
#ifdef INFER_F16C
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, f(_mm256_loadu_ps(x + i), i));
  if (i < n) {
    float in[8], out[8];
    for (int k = 0; k < 8; ++k) in[k] = i + k < n ? x[i + k] : pad;
    _mm256_storeu_ps(out, f(_mm256_loadu_ps(in), i));
    for (int64_t k = 0; i + k < n; ++k) y[i + k] = out[k];
  }
#else
  (void)x; (void)y; (void)n; (void)pad; (void)f;
#endif
}

// Softmax of sc[0 .. n) in place; the result is the probabilities (p_j = e_j * (1 / sum)). With a
// sink (gpt-oss), as ggml's soft_max with sinks: one more logit, in the max and in the sum
// (its term scalar expf), that takes probability but has no value.
void softmax_row(float* sc, int32_t n, const float* sink) {
  float mx = -INFINITY;
  for (int32_t j = 0; j < n; ++j) mx = std::max(mx, sc[j]);
  if (sink) mx = std::max(mx, *sink);
#ifdef INFER_F16C
  const __m256 vmx = _mm256_set1_ps(mx);
  map8(sc, sc, n, mx, [&](__m256 v, int64_t) { return exp8(_mm256_sub_ps(v, vmx)); });
#else
  for (int32_t j = 0; j < n; ++j) sc[j] = std::exp(sc[j] - mx);
#endif
  double sum = 0.0;
  for (int32_t j = 0; j < n; ++j) sum += sc[j];
  if (sink) sum += static_cast<double>(std::exp(*sink - mx));
  const float inv = static_cast<float>(1.0 / sum);
  for (int32_t j = 0; j < n; ++j) sc[j] *= inv;
}

// g[i] = silu(g[i]) * u[i], silu(x) = x / (1 + exp(-x)).
void swiglu_row(float* g, const float* u, int64_t n) {
#ifdef INFER_F16C
  map8(g, g, n, 0.0f, [&](__m256 x, int64_t i) {
    const __m256 e = exp8(_mm256_sub_ps(_mm256_setzero_ps(), x));
    __m256 uv;
    if (i + 8 <= n) {
      uv = _mm256_loadu_ps(u + i);
    } else {
      float pad[8] = {};
      for (int64_t k = 0; i + k < n; ++k) pad[k] = u[i + k];
      uv = _mm256_loadu_ps(pad);
    }
    return _mm256_mul_ps(_mm256_div_ps(x, _mm256_add_ps(_mm256_set1_ps(1.0f), e)), uv);
  });
#else
  for (int64_t i = 0; i < n; ++i) g[i] = (g[i] / (1.0f + std::exp(-g[i]))) * u[i];
#endif
}

// gpt-oss's clamped SwiGLU as ggml's swiglu_oai (alpha 1.702, limit 7): the gate clamped above,
// the up clamped both sides, g * sigmoid(alpha g) * (u + 1); scalar expf as ggml's loop.
void swiglu_oai_row(float* g, const float* u, int64_t n) {
  constexpr float alpha = 1.702f, limit = 7.0f;
  for (int64_t i = 0; i < n; ++i) {
    const float x = std::min(g[i], limit);
    const float y = std::clamp(u[i], -limit, limit);
    g[i] = x / (1.0f + std::exp(alpha * (-x))) * (y + 1.0f);
  }
}

// GELU (tanh form) as ggml's CPU backend computes it: looked up in a table of f16 results indexed
// by the f16-rounded input, exact below -10 (0) and above 10 (x).
const float* gelu_f16_table() {
  static const std::vector<float> table = [] {
    std::vector<float> t(1 << 16);
    for (uint32_t i = 0; i < t.size(); ++i) {
      const float x = fp16_to_fp32(static_cast<uint16_t>(i));
      const float g = 0.5f * x * (1.0f + std::tanh(0.79788456080286535588f * x * (1.0f + 0.044715f * x * x)));
      t[i] = fp16_to_fp32(fp32_to_fp16(g));
    }
    return t;
  }();
  return table.data();
}

// g[i] = gelu(g[i]) * u[i].
void geglu_row(float* g, const float* u, int64_t n) {
  const float* table = gelu_f16_table();
  int64_t i = 0;
#ifdef INFER_F16C
  const __m256 lo = _mm256_set1_ps(-10.0f), hi = _mm256_set1_ps(10.0f);
  for (; i + 8 <= n; i += 8) {  // the same lookup, 8 at a time (f16 bits as gather indices)
    const __m256 x = _mm256_loadu_ps(g + i);
    const __m256i idx = _mm256_cvtepu16_epi32(_mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT));
    __m256 a = _mm256_i32gather_ps(table, idx, 4);
    a = _mm256_blendv_ps(a, _mm256_setzero_ps(), _mm256_cmp_ps(x, lo, _CMP_LE_OQ));
    a = _mm256_blendv_ps(a, x, _mm256_cmp_ps(x, hi, _CMP_GE_OQ));
    _mm256_storeu_ps(g + i, _mm256_mul_ps(a, _mm256_loadu_ps(u + i)));
  }
#endif
  for (; i < n; ++i) {
    const float x = g[i];
    const float a = x <= -10.0f ? 0.0f : x >= 10.0f ? x : table[fp32_to_fp16(x)];
    g[i] = a * u[i];
  }
}

// v -> tanh(v / cap) * cap, as ggml's scale, tanh, scale.
void softcap_row(float* v, int64_t n, float cap) {
  const float inv = 1.0f / cap;
  for (int64_t i = 0; i < n; ++i) v[i] = std::tanh(v[i] * inv) * cap;
}

constexpr int kHeadsPerScorePass = 8;  // query heads whose scores share one K conversion
constexpr int kHeadsPerValuePass = 4;  // query heads whose outputs share one V conversion (4 x 32 dims of accumulators)
// Query rows (consecutive tokens of one sequence x the query heads of one KV head) that attend in
// one task of a prefill: each K/V row is then read from memory once for all of them instead of
// once per token (at 512 tokens the K/V of a layer outgrow L2, and per-token reads made attention
// a quarter of a Qwen3 prefill).
constexpr int kQueryRowsPerTask = 16;

// Query rows per attention task: whole head passes, as many tokens as fit kQueryRowsPerTask.
int query_rows_per_task(const model_hparams& hp) {
  const int per_pass = static_cast<int>(std::min<int64_t>(hp.n_head / hp.n_head_kv, kHeadsPerScorePass));
  return std::max(1, kQueryRowsPerTask / per_pass) * per_pass;
}

// The positions one query attends and how its scores are shaped: [j0, n_pos) (j0 > 0 under a
// sliding window), the query scale, the soft-cap (0: none), and the sink logits of the pass's
// query heads (null: none).
struct attend_span {
  int32_t j0, n_pos;
  float scale, softcap;
  const float* sinks;
};

// Attention of `rows` query rows (rows <= kQueryRowsPerTask) with their own spans, all inside
// [jmin, jmax): scores of every row over the whole union (each score is the dot product
// scores_heads computes for that row alone; a row's positions outside its span are computed and
// ignored), then per row its soft-cap and softmax over its span, then the weighted values.
void attend_rows(int rows, const float* const* q, float* const* out, const attend_span* spans, int32_t jmin,
                 int32_t jmax, const uint16_t* const* kblk, const uint16_t* const* vblk, int bs, int64_t kv_stride,
                 int64_t hd, float* sc, int64_t stride) {
  for (int r0 = 0; r0 < rows; r0 += kHeadsPerScorePass) {
    float* s0 = sc + r0 * stride;
    const float scale = spans[r0].scale;
#define INFER_SCORES(G) \
  case G: scores_heads<G>(q + r0, kblk, bs, kv_stride, hd, jmin, jmax, scale, s0, stride); break;
    switch (std::min(kHeadsPerScorePass, rows - r0)) {
      INFER_SCORES(1) INFER_SCORES(2) INFER_SCORES(3) INFER_SCORES(4)
      INFER_SCORES(5) INFER_SCORES(6) INFER_SCORES(7) INFER_SCORES(8)
      default: break;
    }
#undef INFER_SCORES
  }
  const float* p[kQueryRowsPerTask];
  int32_t lo[kQueryRowsPerTask], hi[kQueryRowsPerTask];
  for (int r = 0; r < rows; ++r) {
    float* row = sc + r * stride + (spans[r].j0 - jmin);
    const int32_t n = spans[r].n_pos - spans[r].j0;
    if (spans[r].softcap > 0.0f) softcap_row(row, n, spans[r].softcap);
    softmax_row(row, n, spans[r].sinks);  // a row's span: its own head's sink
    p[r] = sc + r * stride - jmin;  // p[r][j]: position j's probability
    lo[r] = spans[r].j0;
    hi[r] = spans[r].n_pos;
  }
  for (int r0 = 0; r0 < rows; r0 += kHeadsPerValuePass) {
#define INFER_VALUES(G) \
  case G: weighted_values<G, true>(p + r0, lo + r0, hi + r0, vblk, bs, kv_stride, hd, jmin, jmax, out + r0); break;
    switch (std::min(kHeadsPerValuePass, rows - r0)) {
      INFER_VALUES(1) INFER_VALUES(2) INFER_VALUES(3) INFER_VALUES(4)
      default: break;
    }
#undef INFER_VALUES
  }
}

template <int H>
void attend_heads(const float* const* q, float* const* out, const uint16_t* const* kblk, const uint16_t* const* vblk,
                  int bs, int64_t kv_stride, int64_t hd, const attend_span& sp, float* sc, int64_t stride) {
  const int32_t j0 = sp.j0, n_pos = sp.n_pos;
  scores_heads<H>(q, kblk, bs, kv_stride, hd, j0, n_pos, sp.scale, sc, stride);
  for (int g = 0; g < H; ++g) {
    if (sp.softcap > 0.0f) softcap_row(sc + g * stride, n_pos - j0, sp.softcap);
    softmax_row(sc + g * stride, n_pos - j0, sp.sinks ? sp.sinks + g : nullptr);
  }
  const float* p[H];  // p[g][j]: head g's probability of position j
  for (int g = 0; g < H; ++g) p[g] = sc + g * stride - j0;
  int g0 = 0;
  for (; g0 + kHeadsPerValuePass <= H; g0 += kHeadsPerValuePass)
    weighted_values<kHeadsPerValuePass, false>(p + g0, nullptr, nullptr, vblk, bs, kv_stride, hd, j0, n_pos, out + g0);
  switch (H - g0) {
    case 3: weighted_values<3, false>(p + g0, nullptr, nullptr, vblk, bs, kv_stride, hd, j0, n_pos, out + g0); break;
    case 2: weighted_values<2, false>(p + g0, nullptr, nullptr, vblk, bs, kv_stride, hd, j0, n_pos, out + g0); break;
    case 1: weighted_values<1, false>(p + g0, nullptr, nullptr, vblk, bs, kv_stride, hd, j0, n_pos, out + g0); break;
    default: break;
  }
}

// ---- INFER_FORWARD_PROFILE=1: wall time per stage of each CPU pass of >= 64 tokens, to stderr;
// INFER_FORWARD_PROFILE=all: of every pass (decode steps included) ----
enum stage { st_embed, st_norm, st_qkv, st_rope_kv, st_attn, st_wo, st_resid_norm, st_gate_up, st_swiglu, st_down, st_head, st_count };
const char* const kStageNames[st_count] = {"embed", "norm+resid", "qkv", "bias+rope+kv", "attention", "wo",
                                           "resid+ffn_norm", "gate+up", "swiglu", "down", "head"};

class stage_timer {
 public:
  explicit stage_timer(int n_tokens) {
    static const int min_tokens = [] {
      const char* e = std::getenv("INFER_FORWARD_PROFILE");
      if (!e || !*e || *e == '0') return -1;
      return std::strcmp(e, "all") == 0 ? 1 : 64;
    }();
    on_ = min_tokens > 0 && n_tokens >= min_tokens;
    n_ = n_tokens;
    if (on_) last_ = start_ = std::chrono::steady_clock::now();
  }
  void mark(stage s) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    acc_[s] += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }
  ~stage_timer() {
    if (!on_) return;
    const double total = std::chrono::duration<double>(last_ - start_).count();
    std::fprintf(stderr, "forward %d tokens: %.1f ms (%.1f tok/s)", n_, total * 1e3, n_ / total);
    for (int s = 0; s < st_count; ++s)
      std::fprintf(stderr, "%s %s %.1f ms (%.1f%%)", s ? "," : ";", kStageNames[s], acc_[s] * 1e3, 100 * acc_[s] / total);
    std::fprintf(stderr, "\n");
  }

 private:
  bool on_ = false;
  int n_ = 0;
  std::chrono::steady_clock::time_point start_, last_;
  double acc_[st_count] = {};
};

}  // namespace

forward_pass::forward_pass(const model& m, kv_pool& kv, thread_pool& pool, int max_tokens, int max_logits)
    : m_(m), hp_(m.hp), kv_(kv), pool_(pool), max_tokens_(max_tokens), max_logits_(max_logits) {
  const size_t T = static_cast<size_t>(max_tokens);
  x_.resize(T * hp_.n_embd);
  xn_.resize(T * hp_.n_embd);
  q_.resize(T * hp_.q_dim());
  k_.resize(T * hp_.kv_dim());
  v_.resize(T * hp_.kv_dim());
  att_.resize(T * hp_.q_dim());
  if (hp_.is_moe()) {
    moe_ = std::make_unique<moe_ffn>(hp_, max_tokens);
  } else {
    gate_.resize(T * hp_.n_ff);
    up_.resize(T * hp_.n_ff);
  }
  out_rows_x_.resize(static_cast<size_t>(max_hidden_rows()) * hp_.n_embd);  // embedding output: every token a row
  logits_.resize(static_cast<size_t>(max_logits) * hp_.n_vocab);
  rope_cs_.resize(T * hp_.n_rot);
  if (hp_.n_swa > 0) rope_cs_swa_.resize(T * hp_.n_rot);
  n_ctx_ = hp_.n_ctx_train;
  // Scores of the query heads of one KV head (one score pass at a time), per thread. (Groups of
  // prefill tokens use a per-thread buffer sized by the positions they attend: attention().)
  const int64_t gqa = hp_.n_head / hp_.n_head_kv;
  scores_.resize(static_cast<size_t>(pool.size()) * std::min<int64_t>(gqa, kHeadsPerScorePass) * n_ctx_);
  max_blocks_ = (n_ctx_ + kv.block_size() - 1) / kv.block_size();
  blk_ptrs_.resize(static_cast<size_t>(pool.size()) * 2 * max_blocks_);
}

void forward_pass::attention(int il, const fwd_token* toks, int n) {
  const int64_t hd = hp_.head_dim, nkv = hp_.n_head_kv, gqa = hp_.n_head / hp_.n_head_kv, kvd = hp_.kv_dim();
  const int bs = kv_.block_size();
  const bool swa = hp_.is_swa(il);
  const int64_t per_pass = std::min<int64_t>(gqa, kHeadsPerScorePass);
  const int rows_per_task = query_rows_per_task(hp_);
  // Groups of 2-3 tokens (7 or 8 query heads per KV head) read K/V as often as single tokens
  // (the score and value passes split them anyway) and only add the span checks: not grouped.
  const int fit = rows_per_task / static_cast<int>(per_pass);
  const int max_group = fit >= 4 ? fit : 1;
  // Token groups: runs of up to max_group consecutive positions of one sequence (a prefill
  // chunk); a decode token is a group of its own.
  thread_local std::vector<int> group_starts;
  std::vector<int>& group_start = group_starts;  // the pool's workers read this thread's instance
  group_start.clear();
  for (int t = 0; t < n; ++t)
    if (t == 0 || toks[t].blocks != toks[t - 1].blocks || toks[t].pos != toks[t - 1].pos + 1 ||
        t - group_start.back() >= max_group)
      group_start.push_back(t);
  const int n_groups = static_cast<int>(group_start.size());
  group_start.push_back(n);
  auto span_of = [&](const fwd_token& tk) {
    const int32_t n_pos = tk.pos + 1;
    return attend_span{swa ? std::max<int32_t>(0, n_pos - static_cast<int32_t>(hp_.n_swa)) : 0, n_pos, hp_.attn_scale,
                       hp_.attn_softcap, nullptr};
  };
  const std::vector<float>& sinks = m_.w.layers[il].attn_sinks;  // gpt-oss: one logit per query head
  // One task per (token group, KV head); the last tokens of a prefill attend to the most
  // positions, so tasks run from the last group back (the long ones first balance better).
  pool_.parallel_for(n_groups * static_cast<int>(nkv), [&](int task, int thread) {
    const int gi = n_groups - 1 - task / static_cast<int>(nkv);
    const int64_t kvh = task % nkv;
    const int t_first = group_start[gi], t_end = group_start[gi + 1];
    const fwd_token& tk = toks[t_end - 1];  // the group's last token sees every position the others see
    attend_span sp = span_of(tk);
    const int32_t n_pos = sp.n_pos;
    const int n_blk = (n_pos + bs - 1) / bs;
    // Block base pointers of this layer and KV head (per-thread scratch sized for n_ctx).
    const uint16_t** kb = blk_ptrs_.data() + static_cast<size_t>(thread) * 2 * max_blocks_;
    const uint16_t** vb = kb + max_blocks_;
    for (int b = 0; b < n_blk; ++b) {
      kb[b] = kv_.k(il, tk.blocks[b], 0) + kvh * hd;
      vb[b] = kv_.v(il, tk.blocks[b], 0) + kvh * hd;
    }
    if (t_end - t_first > 1) {
      const int32_t jmin = span_of(toks[t_first]).j0;
      // This worker's scores for the group's rows over [jmin, n_pos): grows to the longest prefill
      // seen instead of holding rows x n_ctx per thread from the start.
      thread_local std::vector<float> group_scores;
      const int64_t stride = n_pos - jmin;
      const size_t need = static_cast<size_t>(rows_per_task * stride);
      if (group_scores.size() < need) group_scores.resize(need);
      float* sc = group_scores.data();
      for (int64_t h0 = 0; h0 < gqa; h0 += per_pass) {
        const int H = static_cast<int>(std::min(per_pass, gqa - h0));
        const float* q[kQueryRowsPerTask];
        float* out[kQueryRowsPerTask];
        attend_span spans[kQueryRowsPerTask];
        int rows = 0;
        for (int t = t_first; t < t_end; ++t)
          for (int g = 0; g < H; ++g, ++rows) {
            const int64_t h = kvh * gqa + h0 + g;
            q[rows] = q_.data() + t * hp_.q_dim() + h * hd;
            out[rows] = att_.data() + t * hp_.q_dim() + h * hd;
            spans[rows] = span_of(toks[t]);
            if (!sinks.empty()) spans[rows].sinks = sinks.data() + h;
          }
        attend_rows(rows, q, out, spans, jmin, n_pos, kb, vb, bs, kvd, hd, sc, stride);
      }
      return;
    }
    float* sc = scores_.data() + static_cast<size_t>(thread) * per_pass * n_ctx_;
    const int t = t_first;
    for (int64_t h0 = 0; h0 < gqa; h0 += per_pass) {
      const int H = static_cast<int>(std::min(per_pass, gqa - h0));
      if (!sinks.empty()) sp.sinks = sinks.data() + kvh * gqa + h0;
      const float* q[kHeadsPerScorePass];
      float* out[kHeadsPerScorePass];
      for (int g = 0; g < H; ++g) {
        const int64_t h = kvh * gqa + h0 + g;
        q[g] = q_.data() + t * hp_.q_dim() + h * hd;
        out[g] = att_.data() + t * hp_.q_dim() + h * hd;
      }
#define INFER_ATTEND(G) \
  case G: attend_heads<G>(q, out, kb, vb, bs, kvd, hd, sp, sc, n_ctx_); break;
      switch (H) {
        INFER_ATTEND(1) INFER_ATTEND(2) INFER_ATTEND(3) INFER_ATTEND(4)
        INFER_ATTEND(5) INFER_ATTEND(6) INFER_ATTEND(7) INFER_ATTEND(8)
        default: break;
      }
#undef INFER_ATTEND
    }
  });
}

void forward_pass::run(const fwd_token* toks, int n, const int32_t* out_rows, int n_out) {
  if (backend_ && !hidden_output_) {  // device backend hook (CUDA); embeddings run here on the CPU
    backend_->run(toks, n, out_rows, n_out, logits_.data());
    return;
  }
  const int64_t d = hp_.n_embd, qd = hp_.q_dim(), kvd = hp_.kv_dim(), ff = hp_.n_ff, hd = hp_.head_dim;
  const int bs = kv_.block_size();
  stage_timer prof(n);
  // Per-token stages run over the pool in token chunks for prefill-sized batches (each token's
  // arithmetic is the same either way), inline for decode.
  const int chunks = n >= 8 && pool_.size() > 1 ? std::min(n, pool_.size() * 4) : 1;
  auto for_tokens = [&](auto&& fn) {
    auto part = [&](int c, int) {
      const int t0 = static_cast<int>(static_cast<int64_t>(n) * c / chunks);
      const int t1 = static_cast<int>(static_cast<int64_t>(n) * (c + 1) / chunks);
      for (int t = t0; t < t1; ++t) fn(t);
    };
    if (chunks > 1) pool_.parallel_for(chunks, part);
    else part(0, 0);
  };

  for_tokens([&](int t) {
    float* x = x_.data() + t * d;
    dequantize_row(m_.w.token_embd, toks[t].token, x);
    if (hp_.embd_scale != 1.0f)
      for (int64_t i = 0; i < d; ++i) x[i] *= hp_.embd_scale;
    rope_cache(rope_cs_.data() + t * hp_.n_rot, toks[t].pos, hp_.n_rot, hp_.rope_global);
    if (hp_.n_swa > 0) rope_cache(rope_cs_swa_.data() + t * hp_.n_rot, toks[t].pos, hp_.n_rot, hp_.rope_swa);
  });
  prof.mark(st_embed);
  for (int64_t il = 0; il < hp_.n_layer; ++il) {
    const layer_weights& L = m_.w.layers[il];
    // The previous layer's FFN residual, fused with this layer's attention norm.
    for_tokens([&](int t) {
      float* x = x_.data() + t * d;
      float* xn = xn_.data() + t * d;
      if (il > 0)
        for (int64_t i = 0; i < d; ++i) x[i] += xn[i];
      rms_norm(x, L.attn_norm.data(), xn, d, hp_.rms_eps);
    });
    prof.mark(st_norm);
    const matmul_job qkv[3] = {{&L.wq, q_.data()}, {&L.wk, k_.data()}, {&L.wv, v_.data()}};
    matmul_multi(qkv, 3, xn_.data(), n, pool_);
    prof.mark(st_qkv);
    for_tokens([&](int t) {
      float* q = q_.data() + t * qd;
      float* k = k_.data() + t * kvd;
      float* v = v_.data() + t * kvd;
      add_bias(q, L.bq);
      add_bias(k, L.bk);
      add_bias(v, L.bv);
      if (!L.q_norm.empty()) {  // per-head RMSNorm of Q and K
        for (int64_t h = 0; h < hp_.n_head; ++h) rms_norm(q + h * hd, L.q_norm.data(), q + h * hd, hd, hp_.rms_eps);
        for (int64_t h = 0; h < hp_.n_head_kv; ++h) rms_norm(k + h * hd, L.k_norm.data(), k + h * hd, hd, hp_.rms_eps);
      }
      const float* cs = (hp_.is_swa(il) ? rope_cs_swa_ : rope_cs_).data() + t * hp_.n_rot;
      rope_apply(q, cs, hp_.n_head, hp_.head_dim, hp_.n_rot, hp_.rope);
      rope_apply(k, cs, hp_.n_head_kv, hp_.head_dim, hp_.n_rot, hp_.rope);
      const int32_t blk = toks[t].blocks[toks[t].pos / bs];
      const int slot = toks[t].pos % bs;
      store_f16(kv_.k(il, blk, slot), k, kvd);
      store_f16(kv_.v(il, blk, slot), v, kvd);
    });
    prof.mark(st_rope_kv);
    attention(static_cast<int>(il), toks, n);
    prof.mark(st_attn);
    matmul(L.wo, att_.data(), n, xn_.data(), pool_);
    prof.mark(st_wo);
    for_tokens([&](int t) {
      float* x = x_.data() + t * d;
      float* xn = xn_.data() + t * d;
      add_bias(xn, L.bo);
      if (!L.attn_post_norm.empty()) rms_norm(xn, L.attn_post_norm.data(), xn, d, hp_.rms_eps);
      for (int64_t i = 0; i < d; ++i) x[i] += xn[i];
      rms_norm(x, L.ffn_norm.data(), xn, d, hp_.rms_eps);
    });
    prof.mark(st_resid_norm);
    if (moe_) {  // mixture of experts (moe_ffn.h), with the family's gated activation
      const moe_ffn::glu_fn glu = hp_.act == ffn_activation::gelu_tanh    ? geglu_row
                                  : hp_.act == ffn_activation::swiglu_oai ? swiglu_oai_row
                                                                          : swiglu_row;
      moe_->run(L.moe, xn_.data(), n, xn_.data(), glu, pool_);
    } else {
      const matmul_job gate_up[2] = {{&L.w_gate, gate_.data()}, {&L.w_up, up_.data()}};
      matmul_multi(gate_up, 2, xn_.data(), n, pool_);
      prof.mark(st_gate_up);
      for_tokens([&](int t) {  // SwiGLU or GeGLU
        float* g = gate_.data() + t * ff;
        const float* u = up_.data() + t * ff;
        if (hp_.act == ffn_activation::gelu_tanh) geglu_row(g, u, ff);
        else swiglu_row(g, u, ff);
      });
      prof.mark(st_swiglu);
      matmul(L.w_down, gate_.data(), n, xn_.data(), pool_);
    }
    if (!L.ffn_post_norm.empty())  // before the residual, which the next layer's norm step adds
      for_tokens([&](int t) { rms_norm(xn_.data() + t * d, L.ffn_post_norm.data(), xn_.data() + t * d, d, hp_.rms_eps); });
    prof.mark(st_down);
  }
  if (n_out == 0) return;
  // The last layer's FFN residual, for the rows whose logits are wanted (x_ itself is left as is).
  for (int k = 0; k < n_out; ++k) {
    const float* x = x_.data() + out_rows[k] * d;
    const float* xn = xn_.data() + out_rows[k] * d;
    float* y = out_rows_x_.data() + k * d;
    for (int64_t i = 0; i < d; ++i) y[i] = x[i] + xn[i];
    rms_norm(y, m_.w.output_norm.data(), y, d, hp_.rms_eps);
  }
  if (hidden_output_) return;  // embeddings: the final-normed rows are the output
  matmul(m_.w.output, out_rows_x_.data(), n_out, logits_.data(), pool_);
  if (hp_.final_softcap > 0.0f) softcap_row(logits_.data(), static_cast<int64_t>(n_out) * hp_.n_vocab, hp_.final_softcap);
  prof.mark(st_head);
}

}  // namespace infer
