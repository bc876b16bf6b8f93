#include "model/rope.h"

#include <algorithm>
#include <cmath>

namespace infer {
namespace {

// The dimension (in pairs' units of n_rot) whose wavelength makes n_turns turns over n_ctx_orig
// positions: ggml_rope_yarn_corr_dim.
float yarn_corr_dim(int n_rot, int n_ctx_orig, float n_turns, float base) {
  return n_rot * std::log(n_ctx_orig / (n_turns * 2 * static_cast<float>(M_PI))) / (2 * std::log(base));
}

// 1 below the low correction dimension, 0 above the high one, linear between (ggml's ramp; i0 / 2
// is an integer division there).
float yarn_ramp(float low, float high, int64_t i0) {
  const float y = (static_cast<int>(i0 / 2) - low) / std::max(0.001f, high - low);
  return 1 - std::min(1.0f, std::max(0.0f, y));
}

}  // namespace

void rope_set_yarn(rope_params& r, float factor, int64_t n_ctx_orig, float file_attn_factor) {
  r.freq_scale = 1.0f / factor;
  r.ext_factor = 1.0f;
  r.yarn_n_ctx_orig = n_ctx_orig;
  // llama_context: attn_factor = mscale(factor) / (1 + 0.1 ln factor) * file attn_factor, where
  // mscale(s) = 1 for s <= 1, else 0.1 ln s + 1 (so about 1: ggml's rope multiplies its own
  // magnitude correction back in).
  const float inv_scale = 1.0f / r.freq_scale;
  float af = inv_scale <= 1.0f ? 1.0f : 0.1f * 1.0f * std::log(inv_scale) + 1.0f;
  af *= 1.0f / (1.0f + 0.1f * std::log(inv_scale));
  r.attn_factor = af * file_attn_factor;
}

void rope_cache(float* cs, int32_t pos, int64_t n_rot, const rope_params& r) {
  const float theta_scale = std::pow(r.base, -2.0f / static_cast<float>(n_rot));
  const bool plain = r.freq_factors.empty() && r.freq_scale == 1.0f && r.attn_factor == 1.0f && r.ext_factor == 0.0f;
  float corr[2] = {0.0f, 0.0f};
  float mscale = r.attn_factor;
  if (r.ext_factor != 0.0f) {
    const int n = static_cast<int>(n_rot), ctx = static_cast<int>(r.yarn_n_ctx_orig);
    corr[0] = std::max(0.0f, std::floor(yarn_corr_dim(n, ctx, r.yarn_beta_fast, r.base)));
    corr[1] = std::min(static_cast<float>(n - 1), std::ceil(yarn_corr_dim(n, ctx, r.yarn_beta_slow, r.base)));
    mscale *= 1.0f + 0.1f * std::log(1.0f / r.freq_scale);  // YaRN's magnitude correction
  }
  float theta = static_cast<float>(pos);
  for (int64_t i0 = 0; i0 < n_rot; i0 += 2) {
    if (plain) {
      cs[i0] = std::cos(theta);
      cs[i0 + 1] = std::sin(theta);
    } else {
      const float ff = r.freq_factors.empty() ? 1.0f : r.freq_factors[i0 / 2];
      const float extrap = theta / ff;
      float t = r.freq_scale * extrap;  // interpolated
      if (r.ext_factor != 0.0f) {      // YaRN: blend towards extrapolation on the fast dimensions
        const float mix = yarn_ramp(corr[0], corr[1], i0) * r.ext_factor;
        t = t * (1 - mix) + extrap * mix;
      }
      cs[i0] = std::cos(t) * mscale;
      cs[i0 + 1] = std::sin(t) * mscale;
    }
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

}  // namespace infer
