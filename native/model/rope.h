// Rotary position embedding as ggml's CPU rope computes it: the per-position cos/sin cache
// (linear scaling, per-dimension frequency factors, YaRN) and its application to heads in the
// llama (adjacent pairs) or neox (half offset) layout.
#pragma once
#include <cstdint>

#include "model/model.h"

namespace infer {

// cs[i0], cs[i0 + 1] = cos, sin of dimension pair i0 / 2 at position pos (n_rot values).
void rope_cache(float* cs, int32_t pos, int64_t n_rot, const rope_params& r);

// Rotates the first n_rot dimensions of n_heads heads of head_dim values, in place.
void rope_apply(float* x, const float* cs, int64_t n_heads, int64_t head_dim, int64_t n_rot, rope_style style);

// Turns r into YaRN scaling with rope.scaling.factor `factor` over an original context of
// n_ctx_orig tokens, as llama.cpp sets it up for a context: ext_factor 1, beta_fast 32 and beta_slow
// 1 (llama.cpp's defaults, which it does not read from these families' files), and the attention
// factor it derives (its magnitude correction divided back out, times rope.scaling.attn_factor).
void rope_set_yarn(rope_params& r, float factor, int64_t n_ctx_orig, float file_attn_factor);

}  // namespace infer
