#include "model/forward.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__F16C__) && defined(__AVX2__)
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

inline float dot_f16(const float* q, const uint16_t* k, int64_t n) {
  int64_t i = 0;
  float sum = 0.0f;
#ifdef INFER_F16C
  __m256 acc = _mm256_setzero_ps();
  for (; i + 8 <= n; i += 8) {
    __m256 kv = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(k + i)));
    acc = _mm256_fmadd_ps(_mm256_loadu_ps(q + i), kv, acc);
  }
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1));
  s = _mm_hadd_ps(s, s);
  s = _mm_hadd_ps(s, s);
  sum = _mm_cvtss_f32(s);
#endif
  for (; i < n; ++i) sum += q[i] * fp16_to_fp32(k[i]);
  return sum;
}

inline void axpy_f16(float a, const uint16_t* v, float* out, int64_t n) {
  int64_t i = 0;
#ifdef INFER_F16C
  __m256 av = _mm256_set1_ps(a);
  for (; i + 8 <= n; i += 8) {
    __m256 vv = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v + i)));
    _mm256_storeu_ps(out + i, _mm256_fmadd_ps(av, vv, _mm256_loadu_ps(out + i)));
  }
#endif
  for (; i < n; ++i) out[i] += a * fp16_to_fp32(v[i]);
}

// theta_i = pos * base^(-2i/n_rot), computed iteratively in float as ggml's rope cache does.
void rope_cache(float* cs, int32_t pos, int64_t n_rot, float base) {
  const float theta_scale = std::pow(base, -2.0f / static_cast<float>(n_rot));
  float theta = static_cast<float>(pos);
  for (int64_t i0 = 0; i0 < n_rot; i0 += 2) {
    cs[i0] = std::cos(theta);
    cs[i0 + 1] = std::sin(theta);
    theta *= theta_scale;
  }
}

void rope_apply(float* x, const float* cs, int64_t n_heads, int64_t head_dim, int64_t n_rot, rope_style style) {
  for (int64_t h = 0; h < n_heads; ++h) {
    float* v = x + h * head_dim;
    if (style == rope_style::norm) {
      for (int64_t i0 = 0; i0 < n_rot; i0 += 2) {
        const float c = cs[i0], s = cs[i0 + 1];
        const float a = v[i0], b = v[i0 + 1];
        v[i0] = a * c - b * s;
        v[i0 + 1] = a * s + b * c;
      }
    } else {
      const int64_t half = n_rot / 2;
      for (int64_t i0 = 0; i0 < n_rot; i0 += 2) {
        const int64_t ic = i0 / 2;
        const float c = cs[i0], s = cs[i0 + 1];
        const float a = v[ic], b = v[ic + half];
        v[ic] = a * c - b * s;
        v[ic + half] = a * s + b * c;
      }
    }
  }
}

void add_bias(float* y, const std::vector<float>& b, int n_tokens) {
  if (b.empty()) return;
  const size_t d = b.size();
  for (int t = 0; t < n_tokens; ++t)
    for (size_t i = 0; i < d; ++i) y[t * d + i] += b[i];
}

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
  gate_.resize(T * hp_.n_ff);
  up_.resize(T * hp_.n_ff);
  out_rows_x_.resize(static_cast<size_t>(max_logits) * hp_.n_embd);
  logits_.resize(static_cast<size_t>(max_logits) * hp_.n_vocab);
  rope_cs_.resize(T * hp_.n_rot);
  n_ctx_ = hp_.n_ctx_train;
  scores_.resize(static_cast<size_t>(pool.size()) * n_ctx_);
}

void forward_pass::attention(int il, const fwd_token* toks, int n) {
  const int64_t hd = hp_.head_dim, nh = hp_.n_head, gqa = hp_.n_head / hp_.n_head_kv;
  const int bs = kv_.block_size();
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  pool_.parallel_for(static_cast<int>(n * nh), [&](int task, int thread) {
    const int t = task / static_cast<int>(nh);
    const int64_t h = task % nh;
    const int64_t kvh = h / gqa;
    const fwd_token& tk = toks[t];
    const float* q = q_.data() + t * hp_.q_dim() + h * hd;
    float* out = att_.data() + t * hp_.q_dim() + h * hd;
    float* sc = scores_.data() + static_cast<size_t>(thread) * n_ctx_;
    const int32_t n_pos = tk.pos + 1;
    float mx = -INFINITY;
    for (int32_t j = 0; j < n_pos; ++j) {
      const uint16_t* kp = kv_.k(il, tk.blocks[j / bs], j % bs) + kvh * hd;
      const float s = dot_f16(q, kp, hd) * scale;
      sc[j] = s;
      mx = std::max(mx, s);
    }
    double sum = 0.0;
    for (int32_t j = 0; j < n_pos; ++j) {
      const float e = std::exp(sc[j] - mx);
      sc[j] = e;
      sum += e;
    }
    const float inv = static_cast<float>(1.0 / sum);
    std::memset(out, 0, sizeof(float) * hd);
    for (int32_t j = 0; j < n_pos; ++j) {
      const uint16_t* vp = kv_.v(il, tk.blocks[j / bs], j % bs) + kvh * hd;
      axpy_f16(sc[j] * inv, vp, out, hd);
    }
  });
}

void forward_pass::run(const fwd_token* toks, int n, const int32_t* out_rows, int n_out) {
  if (backend_) {  // device backend hook (CUDA)
    backend_->run(toks, n, out_rows, n_out, logits_.data());
    return;
  }
  const int64_t d = hp_.n_embd, qd = hp_.q_dim(), kvd = hp_.kv_dim(), ff = hp_.n_ff;
  const int bs = kv_.block_size();
  for (int t = 0; t < n; ++t) {
    dequantize_row(m_.w.token_embd, toks[t].token, x_.data() + t * d);
    rope_cache(rope_cs_.data() + t * hp_.n_rot, toks[t].pos, hp_.n_rot, hp_.rope_base);
  }
  for (int64_t il = 0; il < hp_.n_layer; ++il) {
    const layer_weights& L = m_.w.layers[il];
    for (int t = 0; t < n; ++t) rms_norm(x_.data() + t * d, L.attn_norm.data(), xn_.data() + t * d, d, hp_.rms_eps);
    matmul(L.wq, xn_.data(), n, q_.data(), pool_);
    matmul(L.wk, xn_.data(), n, k_.data(), pool_);
    matmul(L.wv, xn_.data(), n, v_.data(), pool_);
    add_bias(q_.data(), L.bq, n);
    add_bias(k_.data(), L.bk, n);
    add_bias(v_.data(), L.bv, n);
    for (int t = 0; t < n; ++t) {
      const float* cs = rope_cs_.data() + t * hp_.n_rot;
      rope_apply(q_.data() + t * qd, cs, hp_.n_head, hp_.head_dim, hp_.n_rot, hp_.rope);
      rope_apply(k_.data() + t * kvd, cs, hp_.n_head_kv, hp_.head_dim, hp_.n_rot, hp_.rope);
      const int32_t blk = toks[t].blocks[toks[t].pos / bs];
      const int slot = toks[t].pos % bs;
      store_f16(kv_.k(il, blk, slot), k_.data() + t * kvd, kvd);
      store_f16(kv_.v(il, blk, slot), v_.data() + t * kvd, kvd);
    }
    attention(static_cast<int>(il), toks, n);
    matmul(L.wo, att_.data(), n, xn_.data(), pool_);
    for (int64_t i = 0; i < n * d; ++i) x_[i] += xn_[i];
    for (int t = 0; t < n; ++t) rms_norm(x_.data() + t * d, L.ffn_norm.data(), xn_.data() + t * d, d, hp_.rms_eps);
    matmul(L.w_gate, xn_.data(), n, gate_.data(), pool_);
    matmul(L.w_up, xn_.data(), n, up_.data(), pool_);
    // SwiGLU; split over the pool for prefill-sized batches (exp dominates there).
    const int parts = n >= 16 ? pool_.size() * 2 : 1;
    auto swiglu = [&](int part, int) {
      const int64_t total = n * ff, per = (total + parts - 1) / parts;
      const int64_t i0 = part * per, i1 = std::min(total, i0 + per);
      for (int64_t i = i0; i < i1; ++i) {
        const float g = gate_[i];
        gate_[i] = (g / (1.0f + std::exp(-g))) * up_[i];
      }
    };
    if (parts > 1) pool_.parallel_for(parts, swiglu);
    else swiglu(0, 0);
    matmul(L.w_down, gate_.data(), n, xn_.data(), pool_);
    for (int64_t i = 0; i < n * d; ++i) x_[i] += xn_[i];
  }
  if (n_out == 0) return;
  for (int k = 0; k < n_out; ++k)
    rms_norm(x_.data() + out_rows[k] * d, m_.w.output_norm.data(), out_rows_x_.data() + k * d, d, hp_.rms_eps);
  matmul(m_.w.output, out_rows_x_.data(), n_out, logits_.data(), pool_);
}

}  // namespace infer
