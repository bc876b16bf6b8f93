// AVX2 + FMA + F16C kernels. Quantized weights: activations are Q8_0 / Q8_K (quants_ref.cc
// defines the formats; convert_act_row_avx2 produces bit-identical blocks) and the dot products
// are integer (maddubs/madd) per block, scaled in float once per block, as llama.cpp does.
//
// Tiling: a quantized weight block is decoded once into registers and used for up to 4 tokens
// (prefill reuses each row across the token block from L1); float weights use tiles of up to
// 4 rows x 3 tokens. Every output is accumulated by the same sequence of operations whatever the
// tile shape (integer block sums are exact; the float steps per block are identical), so results
// do not depend on the thread count, the row chunking or the number of tokens in the batch.
#include "kernels/quants.h"

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>

#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace infer {
namespace kq {

namespace {

inline float h2f(uint16_t h) { return _cvtsh_ss(h); }

inline float hsum(__m256 v) {
  __m128 lo = _mm256_castps256_ps128(v);
  __m128 hi = _mm256_extractf128_ps(v, 1);
  lo = _mm_add_ps(lo, hi);
  __m128 sh = _mm_movehdup_ps(lo);
  __m128 s = _mm_add_ps(lo, sh);
  sh = _mm_movehl_ps(sh, s);
  s = _mm_add_ss(s, sh);
  return _mm_cvtss_f32(s);
}

inline int hsum_i32(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_cvtsi128_si32(s);
}

// ---- activation conversion ----

// 4 x 8 int32 -> 32 int8 in element order.
inline __m256i pack_i32x32_to_i8(__m256i i0, __m256i i1, __m256i i2, __m256i i3) {
  i0 = _mm256_packs_epi32(i0, i1);
  i2 = _mm256_packs_epi32(i2, i3);
  i0 = _mm256_packs_epi16(i0, i2);
  return _mm256_permutevar8x32_epi32(i0, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

void act_q8_0(const float* x, block_q8_0x* y, int64_t nb) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  for (int64_t i = 0; i < nb; i++) {
    const float* xb = x + i * QK;
    __m256 v0 = _mm256_loadu_ps(xb), v1 = _mm256_loadu_ps(xb + 8);
    __m256 v2 = _mm256_loadu_ps(xb + 16), v3 = _mm256_loadu_ps(xb + 24);
    __m256 m = _mm256_max_ps(_mm256_max_ps(_mm256_andnot_ps(sign, v0), _mm256_andnot_ps(sign, v1)),
                             _mm256_max_ps(_mm256_andnot_ps(sign, v2), _mm256_andnot_ps(sign, v3)));
    __m128 m4 = _mm_max_ps(_mm256_extractf128_ps(m, 1), _mm256_castps256_ps128(m));
    m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
    m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
    const float amax = _mm_cvtss_f32(m4);
    const float d = amax / 127.0f;
    const float id = d ? 1.0f / d : 0.0f;
    y[i].d = _cvtsh_ss(_cvtss_sh(d, _MM_FROUND_TO_NEAREST_INT));
    const __m256 mul = _mm256_set1_ps(id);
    constexpr int rnd = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    __m256i i0 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v0, mul), rnd));
    __m256i i1 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v1, mul), rnd));
    __m256i i2 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v2, mul), rnd));
    __m256i i3 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v3, mul), rnd));
    const __m256i q = pack_i32x32_to_i8(i0, i1, i2, i3);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y[i].qs), q);
    const __m256i s4 = _mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_set1_epi8(1), q), _mm256_set1_epi16(1));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y[i].s4), s4);
  }
}

// Q8_1: the quants of act_q8_0 plus s = fp16(d * sum(qs)) (d before its fp16 rounding, as ggml).
void act_q8_1(const float* x, block_q8_1x* y, int64_t nb) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  for (int64_t i = 0; i < nb; i++) {
    const float* xb = x + i * QK;
    __m256 v0 = _mm256_loadu_ps(xb), v1 = _mm256_loadu_ps(xb + 8);
    __m256 v2 = _mm256_loadu_ps(xb + 16), v3 = _mm256_loadu_ps(xb + 24);
    __m256 m = _mm256_max_ps(_mm256_max_ps(_mm256_andnot_ps(sign, v0), _mm256_andnot_ps(sign, v1)),
                             _mm256_max_ps(_mm256_andnot_ps(sign, v2), _mm256_andnot_ps(sign, v3)));
    __m128 m4 = _mm_max_ps(_mm256_extractf128_ps(m, 1), _mm256_castps256_ps128(m));
    m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
    m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
    const float amax = _mm_cvtss_f32(m4);
    const float d = amax / 127.0f;
    const float id = d ? 1.0f / d : 0.0f;
    y[i].d = _cvtsh_ss(_cvtss_sh(d, _MM_FROUND_TO_NEAREST_INT));
    const __m256 mul = _mm256_set1_ps(id);
    constexpr int rnd = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    __m256i i0 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v0, mul), rnd));
    __m256i i1 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v1, mul), rnd));
    __m256i i2 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v2, mul), rnd));
    __m256i i3 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v3, mul), rnd));
    const int sum = hsum_i32(_mm256_add_epi32(_mm256_add_epi32(i0, i1), _mm256_add_epi32(i2, i3)));
    y[i].s = _cvtsh_ss(_cvtss_sh(d * static_cast<float>(sum), _MM_FROUND_TO_NEAREST_INT));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y[i].qs), pack_i32x32_to_i8(i0, i1, i2, i3));
  }
}

void act_q8_K(const float* x, block_q8_K* y, int64_t nb) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  for (int64_t i = 0; i < nb; i++) {
    const float* xb = x + i * QK_K;
    __m256 m = _mm256_setzero_ps();
    for (int j = 0; j < QK_K; j += 8) m = _mm256_max_ps(m, _mm256_andnot_ps(sign, _mm256_loadu_ps(xb + j)));
    __m128 m4 = _mm_max_ps(_mm256_extractf128_ps(m, 1), _mm256_castps256_ps128(m));
    m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
    m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
    const float amax = _mm_cvtss_f32(m4);
    if (!amax) {
      y[i].d = 0;
      std::memset(y[i].qs, 0, QK_K);
      std::memset(y[i].bsums, 0, sizeof y[i].bsums);
      continue;
    }
    float max = 0;  // first element of largest magnitude, with its sign (as the reference picks it)
    for (int j = 0; j < QK_K; j++)
      if (std::fabs(xb[j]) == amax) {
        max = xb[j];
        break;
      }
    const float iscale = -127.f / max;
    const __m256 mul = _mm256_set1_ps(iscale);
    const __m256i lim = _mm256_set1_epi32(127);
    constexpr int rnd = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    for (int j = 0; j < QK_K; j += 32) {
      __m256i q[4];
      for (int k = 0; k < 4; k++)
        q[k] = _mm256_min_epi32(lim, _mm256_cvtps_epi32(_mm256_round_ps(
                                         _mm256_mul_ps(_mm256_loadu_ps(xb + j + 8 * k), mul), rnd)));
      y[i].bsums[j / 16] = static_cast<int16_t>(hsum_i32(_mm256_add_epi32(q[0], q[1])));
      y[i].bsums[j / 16 + 1] = static_cast<int16_t>(hsum_i32(_mm256_add_epi32(q[2], q[3])));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(y[i].qs + j), pack_i32x32_to_i8(q[0], q[1], q[2], q[3]));
    }
    y[i].d = 1 / iscale;
  }
}

void act_round_f16(const float* x, float* out, int64_t n) {
  int64_t j = 0;
  for (; j + 8 <= n; j += 8)
    _mm256_storeu_ps(out + j, _mm256_cvtph_ps(_mm256_cvtps_ph(_mm256_loadu_ps(x + j), _MM_FROUND_TO_NEAREST_INT)));
  for (; j < n; j++) out[j] = fp16_to_fp32(fp32_to_fp16(x[j]));
}

// ---- quantized weights x Q8_0 activations ----
// q4_0 / q5_0: the block's unsigned quants u (value = u - offset) go straight into maddubs
// with the activations; offset * s4 is subtracted per 4-value lane afterwards, which gives
// exactly the integers of sum((u - offset) * y). q8_0: signed x signed via the sign trick.

// fp16 scale -> 8 x float
inline __m256 f16x8(uint16_t h) { return _mm256_cvtph_ps(_mm_set1_epi16(static_cast<short>(h))); }

// 16 packed nibbles -> 32 bytes in element order (low nibbles are elements 0..15).
inline __m256i nibbles32(const uint8_t* qs) {
  const __m128i tmp = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
  return _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(tmp, 4), tmp), _mm256_set1_epi8(0x0F));
}

// 0x10 in every byte j whose bit j of qh is set (the fifth bit of Q5_0 / Q5_1).
inline __m256i fifth_bits32(const uint8_t* qh_bytes) {
  uint32_t qh;
  std::memcpy(&qh, qh_bytes, 4);
  const __m256i shuf = _mm256_set_epi64x(0x0303030303030303, 0x0202020202020202, 0x0101010101010101, 0);
  __m256i bits = _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(qh)), shuf);
  bits = _mm256_or_si256(bits, _mm256_set1_epi64x(0x7fbfdfeff7fbfdfe));
  bits = _mm256_cmpeq_epi8(bits, _mm256_set1_epi64x(-1));
  return _mm256_and_si256(bits, _mm256_set1_epi8(0x10));
}

// A 16-entry int8 table in both 128-bit lanes (for _mm256_shuffle_epi8 lookups).
inline __m256i table32(const int8_t* t) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t));
  return _mm256_set_m128i(v, v);
}

struct dec_q4_0 {
  using block = block_q4_0;
  static constexpr bool kUnsigned = true;
  static constexpr int kOffsetShift = 3;  // offset 8
  static inline __m256i quants(const block& b) { return nibbles32(b.qs); }
  static inline __m256 dscale(const block& b) { return f16x8(b.d); }
};

// IQ4_NL / MXFP4: signed values looked up from their tables (the sign trick applies).
struct dec_iq4_nl {
  using block = block_iq4_nl;
  static constexpr bool kUnsigned = false;
  static constexpr int kOffsetShift = 0;
  static inline __m256i quants(const block& b) { return _mm256_shuffle_epi8(table32(kvalues_iq4nl), nibbles32(b.qs)); }
  static inline __m256 dscale(const block& b) { return f16x8(b.d); }
};

// MXFP4 as unsigned quants: table value + 16 (4..28), so the block dot is one maddubs against
// the activations minus 16 * s4 (as Q5_0), without the two sign instructions of the signed path.
// The same integers (no saturation: 2 * 28 * 128 < 32767), so the same results.
constexpr int8_t kvalues_mxfp4_plus16[16] = {16, 17, 18, 19, 20, 22, 24, 28, 16, 15, 14, 13, 12, 10, 8, 4};

// nibbles32 from one 128-bit broadcast load (a variable shift moves the high lane's nibbles down).
inline __m256i nibbles32_bcast(const uint8_t* qs) {
  const __m256i v = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(qs)));
  return _mm256_and_si256(_mm256_srlv_epi64(v, _mm256_set_epi64x(4, 4, 0, 0)), _mm256_set1_epi8(0x0F));
}

struct dec_mxfp4 {
  using block = block_mxfp4;
  static constexpr bool kUnsigned = true;
  static constexpr int kOffsetShift = 4;  // offset 16
  static inline __m256i quants(const block& b) {
    return _mm256_shuffle_epi8(table32(kvalues_mxfp4_plus16), nibbles32_bcast(b.qs));
  }
  static inline __m256 dscale(const block& b) { return _mm256_set1_ps(e8m0_to_fp32_half(b.e)); }
};

struct dec_q5_0 {
  using block = block_q5_0;
  static constexpr bool kUnsigned = true;
  static constexpr int kOffsetShift = 4;  // offset 16
  static inline __m256i quants(const block& b) { return _mm256_or_si256(nibbles32(b.qs), fifth_bits32(b.qh)); }
  static inline __m256 dscale(const block& b) { return f16x8(b.d); }
};

struct dec_q8_0 {
  using block = block_q8_0;
  static constexpr bool kUnsigned = false;
  static constexpr int kOffsetShift = 0;
  static inline __m256i quants(const block& b) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.qs)); }
  static inline __m256 dscale(const block& b) { return f16x8(b.d); }
};

// lane k = sum over bytes 4k..4k+3 of u * s (u unsigned, s signed): one VNNI instruction where
// the CPU has it, else maddubs + madd (no saturation occurs for the value ranges used here, so
// both give the same integers).
inline __m256i dot4_u8_i8(__m256i u, __m256i s) {
#if defined(__AVX512VNNI__) && defined(__AVX512VL__)
  return _mm256_dpbusd_epi32(_mm256_setzero_si256(), u, s);
#elif defined(__AVXVNNI__)
  return _mm256_dpbusd_avx_epi32(_mm256_setzero_si256(), u, s);
#else
  return _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1));
#endif
}

// acc + madd(a, b) (int16 pairs -> int32 lanes): one VNNI instruction where the CPU has it.
// Integer arithmetic without saturation either way, so both give the same integers.
inline __m256i madd_acc(__m256i acc, __m256i a, __m256i b) {
#if defined(__AVX512VNNI__) && defined(__AVX512VL__)
  return _mm256_dpwssd_epi32(acc, a, b);
#elif defined(__AVXVNNI__)
  return _mm256_dpwssd_avx_epi32(acc, a, b);
#else
  return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
#endif
}

// Integer dot of one weight block with one activation block: 8 int32 lanes.
template <typename D>
inline __m256i block_dot(__m256i q, __m256i aq, const block_q8_0x& a) {
  const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.qs));
  if (D::kUnsigned) {
    const __m256i p = dot4_u8_i8(q, y);
    const __m256i s4 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.s4));
    return _mm256_sub_epi32(p, _mm256_slli_epi32(s4, D::kOffsetShift));
  }
  return dot4_u8_i8(aq, _mm256_sign_epi8(y, q));
}

// One weight row x TT tokens. Two accumulators per output (even / odd blocks) so the FMA
// latency chain does not bound the single-token (decode) case.
template <typename D, int TT>
inline void tile_q8_step(const typename D::block& w, const block_q8_0x* const* a, int64_t i, __m256* acc) {
  const __m256i q = D::quants(w);
  const __m256i aq = D::kUnsigned ? q : _mm256_sign_epi8(q, q);
  const __m256 dw = D::dscale(w);
  for (int t = 0; t < TT; t++) {
    const __m256i p = block_dot<D>(q, aq, a[t][i]);
    const __m256 scale = _mm256_mul_ps(dw, _mm256_broadcast_ss(&a[t][i].d));  // dw * dy, as a float product
    acc[t] = _mm256_fmadd_ps(scale, _mm256_cvtepi32_ps(p), acc[t]);
  }
}

template <typename D, int TT>
inline void tile_q8(int64_t nb, const typename D::block* w, const block_q8_0x* const* a, float* out) {
  __m256 acc0[TT], acc1[TT];
  for (int t = 0; t < TT; t++) acc0[t] = acc1[t] = _mm256_setzero_ps();
  int64_t i = 0;
  for (; i + 2 <= nb; i += 2) {
    tile_q8_step<D, TT>(w[i], a, i, acc0);
    tile_q8_step<D, TT>(w[i + 1], a, i + 1, acc1);
  }
  if (i < nb) tile_q8_step<D, TT>(w[i], a, i, acc0);
  for (int t = 0; t < TT; t++) out[t] = hsum(_mm256_add_ps(acc0[t], acc1[t]));
}

// ---- Q4_1 / Q5_1 x Q8_1: unsigned quants straight into maddubs; the min term m * s per block is
// summed in a scalar beside the vector accumulators (as ggml does). ----

struct dec_q4_1 {
  using block = block_q4_1;
  static inline __m256i quants(const block& b) { return nibbles32(b.qs); }
};
struct dec_q5_1 {
  using block = block_q5_1;
  static inline __m256i quants(const block& b) { return _mm256_or_si256(nibbles32(b.qs), fifth_bits32(b.qh)); }
};

template <typename D, int TT>
inline void tile_q8_1_step(const typename D::block& w, const block_q8_1x* const* a, int64_t i, __m256* acc,
                           float* summs) {
  const __m256i q = D::quants(w);
  const __m256 dw = f16x8(w.d);
  const float m = h2f(w.m);
  for (int t = 0; t < TT; t++) {
    const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a[t][i].qs));
    const __m256i p = dot4_u8_i8(q, y);
    acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(dw, _mm256_broadcast_ss(&a[t][i].d)), _mm256_cvtepi32_ps(p), acc[t]);
    summs[t] += m * a[t][i].s;
  }
}

template <typename D, int TT>
inline void tile_q8_1(int64_t nb, const typename D::block* w, const block_q8_1x* const* a, float* out) {
  __m256 acc0[TT], acc1[TT];
  float summs[TT];
  for (int t = 0; t < TT; t++) {
    acc0[t] = acc1[t] = _mm256_setzero_ps();
    summs[t] = 0;
  }
  int64_t i = 0;
  for (; i + 2 <= nb; i += 2) {
    tile_q8_1_step<D, TT>(w[i], a, i, acc0, summs);
    tile_q8_1_step<D, TT>(w[i + 1], a, i + 1, acc1, summs);
  }
  if (i < nb) tile_q8_1_step<D, TT>(w[i], a, i, acc0, summs);
  for (int t = 0; t < TT; t++) out[t] = hsum(_mm256_add_ps(acc0[t], acc1[t])) + summs[t];
}

// ---- K-quants x Q8_K ----

// Unpacks the 12 bytes of 6-bit scales and mins (get_scale_min_k4 for j = 0..7) into
// 16 int16: lanes 0..7 the scales, lanes 8..15 the mins (llama.cpp's utmp/kmask method).
inline __m256i scales_mins_k4(const uint8_t* s) {
  constexpr uint32_t kmask1 = 0x3f3f3f3f, kmask2 = 0x0f0f0f0f, kmask3 = 0x03030303;
  uint32_t u[4];
  std::memcpy(u, s, 12);
  u[3] = ((u[2] >> 4) & kmask2) | (((u[1] >> 6) & kmask3) << 4);
  const uint32_t uaux = u[1] & kmask1;
  u[1] = (u[2] & kmask2) | (((u[0] >> 6) & kmask3) << 4);
  u[2] = uaux;
  u[0] &= kmask1;
  return _mm256_cvtepu8_epi16(_mm_set_epi32(static_cast<int>(u[3]), static_cast<int>(u[2]),
                                            static_cast<int>(u[1]), static_cast<int>(u[0])));
}

// Ask for the weights 8 blocks ahead (three cache lines; K-quant blocks are 144-210 bytes). On a
// pass of 4+ tokens over weights from memory the hardware prefetcher alone falls behind (a 16-token
// Q6_K matmul ran at 0.77 of its prefetched rate, Q4_K at 0.90-0.97); distances 4-16 measured alike.
constexpr int64_t kPrefetchBlocks = 8;
inline void prefetch_ahead(const void* block, size_t bsize) {
  const char* p = static_cast<const char*>(block) + kPrefetchBlocks * bsize;
  _mm_prefetch(p, _MM_HINT_T0);
  _mm_prefetch(p + 64, _MM_HINT_T0);
  _mm_prefetch(p + 128, _MM_HINT_T0);
}

// Shuffle masks that broadcast int16 lane j of a 128-bit half to all 8 lanes.
inline __m256i scale_shuffle(int j) { return _mm256_set1_epi16(static_cast<int16_t>(((2 * j + 1) << 8) | (2 * j))); }

// Q4_K / Q5_K: sumi lanes = sum over sub-blocks of madd(maddubs(q, y), scale); min lanes =
// madd(bsums, mins duplicated per pair of 16-groups).
template <bool FIVE, int TT>
inline void tile_q45_K(int64_t nb, const uint8_t* wrow, const block_q8_K* const* a, bool prefetch, float* out) {
  __m256 acc[TT];
  for (int t = 0; t < TT; t++) acc[t] = _mm256_setzero_ps();
  const __m256i m4 = _mm256_set1_epi8(0x0F);
  const size_t bsize = FIVE ? sizeof(block_q5_K) : sizeof(block_q4_K);
  for (int64_t i = 0; i < nb; i++) {
    const uint8_t* b = wrow + i * bsize;
    if (prefetch) prefetch_ahead(b, bsize);
    uint16_t dh, dminh;
    std::memcpy(&dh, b, 2);
    std::memcpy(&dminh, b + 2, 2);
    const __m256 dv = _mm256_set1_ps(h2f(dh)), ndminv = _mm256_set1_ps(-h2f(dminh));
    const __m256i sm = scales_mins_k4(b + 4);
    const __m256i scales = _mm256_permute2x128_si256(sm, sm, 0x00);  // scales in both halves
    const __m128i mins8 = _mm256_extracti128_si256(sm, 1);
    // mins per 16-group: m0 m0 m1 m1 ... m7 m7
    const __m256i mins16 = _mm256_set_m128i(_mm_unpackhi_epi16(mins8, mins8), _mm_unpacklo_epi16(mins8, mins8));
    const uint8_t* qs = FIVE ? b + 48 : b + 16;
    const __m256i qh = FIVE ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 16)) : _mm256_setzero_si256();
    // Two integer accumulators per token (low / high nibble sub-blocks): shorter dependency chains.
    __m256i sumi[TT], sumi2[TT];
    for (int t = 0; t < TT; t++) sumi[t] = sumi2[t] = _mm256_setzero_si256();
    for (int c = 0; c < 4; c++) {
      const __m256i raw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qs + 32 * c));
      __m256i lo = _mm256_and_si256(raw, m4);
      __m256i hi = _mm256_and_si256(_mm256_srli_epi16(raw, 4), m4);
      if (FIVE) {
        const __m256i one = _mm256_set1_epi8(1);
        lo = _mm256_add_epi8(lo, _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2 * c), one), 4));
        hi = _mm256_add_epi8(hi, _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2 * c + 1), one), 4));
      }
      const __m256i s_lo = _mm256_shuffle_epi8(scales, scale_shuffle(2 * c));
      const __m256i s_hi = _mm256_shuffle_epi8(scales, scale_shuffle(2 * c + 1));
      for (int t = 0; t < TT; t++) {
        const int8_t* y = a[t][i].qs + 64 * c;
        const __m256i y0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y));
        const __m256i y1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y + 32));
        sumi[t] = madd_acc(sumi[t], _mm256_maddubs_epi16(lo, y0), s_lo);
        __m256i& acc2 = TT >= 8 ? sumi[t] : sumi2[t];  // 8 tokens: enough independent chains
        acc2 = madd_acc(acc2, _mm256_maddubs_epi16(hi, y1), s_hi);
      }
    }
    for (int t = 0; t < TT; t++) sumi[t] = _mm256_add_epi32(sumi[t], sumi2[t]);
    for (int t = 0; t < TT; t++) {
      const __m256i bs = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a[t][i].bsums));
      const __m256i pm = _mm256_madd_epi16(bs, mins16);
      const __m256 dy = _mm256_broadcast_ss(&a[t][i].d);
      acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(dv, dy), _mm256_cvtepi32_ps(sumi[t]), acc[t]);
      acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(ndminv, dy), _mm256_cvtepi32_ps(pm), acc[t]);
    }
  }
  for (int t = 0; t < TT; t++) out[t] = hsum(acc[t]);
}

// Q6_K: q in 0..63 (maddubs with y), minus 32 * sum(y) per 16-group via bsums.
template <int TT>
inline void tile_q6_K(int64_t nb, const block_q6_K* w, const block_q8_K* const* a, bool prefetch, float* out) {
  __m256 acc[TT];
  for (int t = 0; t < TT; t++) acc[t] = _mm256_setzero_ps();
  const __m256i m4 = _mm256_set1_epi8(0x0F);
  const __m256i m2 = _mm256_set1_epi8(3);
  for (int64_t i = 0; i < nb; i++) {
    const block_q6_K& b = w[i];
    if (prefetch) prefetch_ahead(&b, sizeof(block_q6_K));
    const __m256 dv = _mm256_set1_ps(h2f(b.d));
    // scales as int16: lanes 0..7 = group 2k, lanes 8..15 = group 2k+1, for each 32-value vector
    const __m128i sc8 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.scales));
    const __m256i sc16 = _mm256_cvtepi8_epi16(sc8);  // 16 scales as int16
    const __m256i sc_half[2] = {_mm256_permute2x128_si256(sc16, sc16, 0x00), _mm256_permute2x128_si256(sc16, sc16, 0x11)};
    __m256i sumi[TT], sumi2[TT];
    for (int t = 0; t < TT; t++) sumi[t] = sumi2[t] = _mm256_setzero_si256();
    for (int h = 0; h < 2; h++) {
      const __m256i ql0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.ql + 64 * h));
      const __m256i ql1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.ql + 64 * h + 32));
      const __m256i qh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.qh + 32 * h));
      __m256i q[4];
      q[0] = _mm256_or_si256(_mm256_and_si256(ql0, m4), _mm256_slli_epi16(_mm256_and_si256(qh, m2), 4));
      q[1] = _mm256_or_si256(_mm256_and_si256(ql1, m4),
                             _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2), m2), 4));
      q[2] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql0, 4), m4),
                             _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 4), m2), 4));
      q[3] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql1, 4), m4),
                             _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 6), m2), 4));
      // vector k of this half uses group 8h+2k in its low 16 values and 8h+2k+1 in its high 16
      __m256i s[4];
      for (int k = 0; k < 4; k++)
        s[k] = _mm256_shuffle_epi8(sc_half[h], _mm256_set_m128i(_mm_set1_epi16(static_cast<int16_t>(((4 * k + 3) << 8) | (4 * k + 2))),
                                                                _mm_set1_epi16(static_cast<int16_t>(((4 * k + 1) << 8) | (4 * k)))));
      for (int t = 0; t < TT; t++) {
        const int8_t* y = a[t][i].qs + 128 * h;
        for (int k = 0; k < 4; k++) {
          const __m256i yk = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y + 32 * k));
          __m256i& acc_k = (k & 1) && TT < 8 ? sumi2[t] : sumi[t];
          acc_k = madd_acc(acc_k, _mm256_maddubs_epi16(q[k], yk), s[k]);
        }
      }
    }
    for (int t = 0; t < TT; t++) sumi[t] = _mm256_add_epi32(sumi[t], sumi2[t]);
    for (int t = 0; t < TT; t++) {
      // 32 * sum_g scale_g * bsum_g, in 8 lanes (exact integers)
      const __m256i bs = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a[t][i].bsums));
      const __m256i corr = _mm256_slli_epi32(_mm256_madd_epi16(bs, sc16), 5);
      acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(dv, _mm256_broadcast_ss(&a[t][i].d)),
                               _mm256_cvtepi32_ps(_mm256_sub_epi32(sumi[t], corr)), acc[t]);
    }
  }
  for (int t = 0; t < TT; t++) out[t] = hsum(acc[t]);
}

// Q2_K / Q3_K: 16 groups of 16 with one scale each (as Q6_K). Quants are unsigned in the
// maddubs (Q2_K 0..3; Q3_K 0..7, i.e. value + 4), the group scales applied by madd. Q2_K then
// subtracts dmin * sum(min_g * bsum_g); Q3_K subtracts 4 * sum(scale_g * bsum_g) (exact integers).
template <bool THREE, int TT>
inline void tile_q23_K(int64_t nb, const uint8_t* wrow, const block_q8_K* const* a, float* out) {
  __m256 acc[TT];
  for (int t = 0; t < TT; t++) acc[t] = _mm256_setzero_ps();
  const __m256i m3 = _mm256_set1_epi8(3);
  const __m256i one = _mm256_set1_epi8(1);
  const size_t bsize = THREE ? sizeof(block_q3_K) : sizeof(block_q2_K);
  for (int64_t i = 0; i < nb; i++) {
    const uint8_t* b = wrow + i * bsize;
    __m256i sc16, mins16 = _mm256_setzero_si256();
    const uint8_t* qs;
    __m256i hbits = _mm256_setzero_si256();
    float d, dmin = 0;
    if (THREE) {
      const block_q3_K& w = *reinterpret_cast<const block_q3_K*>(b);
      // the kmask unpacking of unpack_q3_K_scales, in one vector: 16 bytes, then minus 32
      uint32_t aux[4];
      std::memcpy(aux, w.scales, 12);
      const uint32_t tmp = aux[2];
      constexpr uint32_t kmask1 = 0x03030303, kmask2 = 0x0f0f0f0f;
      aux[2] = ((aux[0] >> 4) & kmask2) | (((tmp >> 4) & kmask1) << 4);
      aux[3] = ((aux[1] >> 4) & kmask2) | (((tmp >> 6) & kmask1) << 4);
      aux[0] = (aux[0] & kmask2) | (((tmp >> 0) & kmask1) << 4);
      aux[1] = (aux[1] & kmask2) | (((tmp >> 2) & kmask1) << 4);
      const __m128i sc8 = _mm_sub_epi8(_mm_set_epi32(static_cast<int>(aux[3]), static_cast<int>(aux[2]),
                                                     static_cast<int>(aux[1]), static_cast<int>(aux[0])),
                                       _mm_set1_epi8(32));
      sc16 = _mm256_cvtepi8_epi16(sc8);
      qs = w.qs;
      hbits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w.hmask));
      d = h2f(w.d);
    } else {
      const block_q2_K& w = *reinterpret_cast<const block_q2_K*>(b);
      const __m128i sm = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w.scales));
      sc16 = _mm256_cvtepu8_epi16(_mm_and_si128(sm, _mm_set1_epi8(0x0F)));
      mins16 = _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(sm, 4), _mm_set1_epi8(0x0F)));
      qs = w.qs;
      d = h2f(w.d);
      dmin = h2f(w.dmin);
    }
    const __m256i sc_half[2] = {_mm256_permute2x128_si256(sc16, sc16, 0x00), _mm256_permute2x128_si256(sc16, sc16, 0x11)};
    __m256i sumi[TT], sumi2[TT];
    for (int t = 0; t < TT; t++) sumi[t] = sumi2[t] = _mm256_setzero_si256();
    for (int h = 0; h < 2; h++) {
      const __m256i q2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qs + 32 * h));
      __m256i q[4];
      for (int k = 0; k < 4; k++) {
        q[k] = _mm256_and_si256(_mm256_srli_epi16(q2, 2 * k), m3);
        if (THREE)
          q[k] = _mm256_or_si256(q[k], _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(hbits, 4 * h + k), one), 2));
      }
      // vector k of this half uses group 8h+2k in its low 16 values and 8h+2k+1 in its high 16
      __m256i s[4];
      for (int k = 0; k < 4; k++)
        s[k] = _mm256_shuffle_epi8(sc_half[h], _mm256_set_m128i(_mm_set1_epi16(static_cast<int16_t>(((4 * k + 3) << 8) | (4 * k + 2))),
                                                                _mm_set1_epi16(static_cast<int16_t>(((4 * k + 1) << 8) | (4 * k)))));
      for (int t = 0; t < TT; t++) {
        const int8_t* y = a[t][i].qs + 128 * h;
        for (int k = 0; k < 4; k++) {
          const __m256i yk = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y + 32 * k));
          __m256i& acc_k = (k & 1) && TT < 8 ? sumi2[t] : sumi[t];
          acc_k = madd_acc(acc_k, _mm256_maddubs_epi16(q[k], yk), s[k]);
        }
      }
    }
    for (int t = 0; t < TT; t++) sumi[t] = _mm256_add_epi32(sumi[t], sumi2[t]);
    const __m256 dv = _mm256_set1_ps(d), ndminv = _mm256_set1_ps(-dmin);
    for (int t = 0; t < TT; t++) {
      const __m256i bs = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a[t][i].bsums));
      const __m256 dy = _mm256_broadcast_ss(&a[t][i].d);
      if (THREE) {
        const __m256i corr = _mm256_slli_epi32(_mm256_madd_epi16(bs, sc16), 2);
        acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(dv, dy), _mm256_cvtepi32_ps(_mm256_sub_epi32(sumi[t], corr)), acc[t]);
      } else {
        acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(dv, dy), _mm256_cvtepi32_ps(sumi[t]), acc[t]);
        acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(ndminv, dy), _mm256_cvtepi32_ps(_mm256_madd_epi16(bs, mins16)), acc[t]);
      }
    }
  }
  for (int t = 0; t < TT; t++) out[t] = hsum(acc[t]);
}

// IQ4_XS: per 32-value sub-block, signed table values (sign trick into maddubs) times the
// sub-block's scale (ls - 32) by madd; one float scale per super-block.
template <int TT>
inline void tile_iq4_xs(int64_t nb, const block_iq4_xs* w, const block_q8_K* const* a, float* out) {
  __m256 acc[TT];
  for (int t = 0; t < TT; t++) acc[t] = _mm256_setzero_ps();
  const __m256i values = table32(kvalues_iq4nl);
  for (int64_t i = 0; i < nb; i++) {
    const block_iq4_xs& b = w[i];
    __m256i sumi[TT], sumi2[TT];
    for (int t = 0; t < TT; t++) sumi[t] = sumi2[t] = _mm256_setzero_si256();
    uint32_t sh = b.scales_h;
    for (int ib = 0; ib < QK_K / 32; ib += 2) {
      const int ls1 = ((b.scales_l[ib / 2] & 0xf) | ((sh << 4) & 0x30)) - 32;
      const int ls2 = ((b.scales_l[ib / 2] >> 4) | ((sh << 2) & 0x30)) - 32;
      sh >>= 4;
      const __m256i q1 = _mm256_shuffle_epi8(values, nibbles32(b.qs + 16 * ib));
      const __m256i q2 = _mm256_shuffle_epi8(values, nibbles32(b.qs + 16 * ib + 16));
      const __m256i aq1 = _mm256_sign_epi8(q1, q1), aq2 = _mm256_sign_epi8(q2, q2);
      const __m256i s1 = _mm256_set1_epi16(static_cast<int16_t>(ls1)), s2 = _mm256_set1_epi16(static_cast<int16_t>(ls2));
      for (int t = 0; t < TT; t++) {
        const int8_t* y = a[t][i].qs + 32 * ib;
        const __m256i y1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y));
        const __m256i y2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y + 32));
        sumi[t] = madd_acc(sumi[t], _mm256_maddubs_epi16(aq1, _mm256_sign_epi8(y1, q1)), s1);
        sumi2[t] = madd_acc(sumi2[t], _mm256_maddubs_epi16(aq2, _mm256_sign_epi8(y2, q2)), s2);
      }
    }
    const __m256 dv = _mm256_set1_ps(h2f(b.d));
    for (int t = 0; t < TT; t++)
      acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(dv, _mm256_broadcast_ss(&a[t][i].d)),
                               _mm256_cvtepi32_ps(_mm256_add_epi32(sumi[t], sumi2[t])), acc[t]);
  }
  for (int t = 0; t < TT; t++) out[t] = hsum(acc[t]);
}

// ---- float weights: RT rows x TT tokens, one accumulator per output ----

struct ld_f32 {
  using elem = float;
  static inline __m256 load8(const float* p) { return _mm256_loadu_ps(p); }
  static inline float one(const float* p) { return *p; }
};
struct ld_f16 {
  using elem = uint16_t;
  static inline __m256 load8(const uint16_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  static inline float one(const uint16_t* p) { return h2f(*p); }
};
struct ld_bf16 {
  using elem = uint16_t;
  static inline __m256 load8(const uint16_t* p) {
    const __m256i v = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(v, 16));
  }
  static inline float one(const uint16_t* p) { return bf16_to_fp32(*p); }
};

template <typename L, int RT, int TT>
inline void tile_float(int64_t n, const uint8_t* w, size_t w_stride, const float* const* x, float* const* out) {
  const typename L::elem* wr[RT];
  for (int r = 0; r < RT; r++) wr[r] = reinterpret_cast<const typename L::elem*>(w + r * w_stride);
  __m256 acc[RT][TT];
  for (int r = 0; r < RT; r++)
    for (int t = 0; t < TT; t++) acc[r][t] = _mm256_setzero_ps();
  // Rows of a tile are read in lockstep: RT short streams that the hardware prefetcher barely
  // trains on (a 896-wide f16 row is 28 cache lines). Prefetch the next tile's rows (contiguous
  // after this tile) at the rate this tile consumes its own, so decode streams at full speed.
  // A tile of long rows spans more than L1 can hold ahead, so those prefetches go to L2 only.
  const char* next = reinterpret_cast<const char*>(w + RT * w_stride);
  constexpr int kStepBytes = RT * 8 * static_cast<int>(sizeof(typename L::elem));
  const bool to_l1 = RT * w_stride <= 16384;
  int64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    const char* pf = next + (j / 8) * kStepBytes;
    if (to_l1) {
      for (int k = 0; k < kStepBytes; k += 64) _mm_prefetch(pf + k, _MM_HINT_T0);
    } else {
      for (int k = 0; k < kStepBytes; k += 64) _mm_prefetch(pf + k, _MM_HINT_T1);
    }
    __m256 xv[TT];
    for (int t = 0; t < TT; t++) xv[t] = _mm256_loadu_ps(x[t] + j);
    for (int r = 0; r < RT; r++) {
      __m256 wv = L::load8(wr[r] + j);
      // Keep wv in a register: otherwise the compiler folds the load into each FMA and issues
      // RT*TT loads per step instead of RT+TT, which makes the tile load-bound.
      __asm__("" : "+x"(wv));
      for (int t = 0; t < TT; t++) acc[r][t] = _mm256_fmadd_ps(wv, xv[t], acc[r][t]);
    }
  }
  for (int r = 0; r < RT; r++)
    for (int t = 0; t < TT; t++) {
      float s = hsum(acc[r][t]);
      for (int64_t k = j; k < n; k++) s += L::one(wr[r] + k) * x[t][k];
      out[t][r] = s;
    }
}

template <typename L>
void gemm_float_direct(int64_t n, const uint8_t* w, size_t ws, int nr, const uint8_t* act, size_t as, int nt,
                       float* y, size_t ys) {
  for (int t0 = 0; t0 < nt; t0 += 3) {
    const int tt = nt - t0 < 3 ? nt - t0 : 3;
    const float* x[3];
    for (int t = 0; t < tt; t++) x[t] = reinterpret_cast<const float*>(act + (t0 + t) * as);
    for (int r0 = 0; r0 < nr; r0 += 4) {
      const int rt = nr - r0 < 4 ? nr - r0 : 4;
      float* o[3];
      for (int t = 0; t < tt; t++) o[t] = y + (t0 + t) * ys + r0;
      const uint8_t* wr = w + r0 * ws;
#define INFER_TILE(R, T) \
  case (R) * 4 + (T): tile_float<L, R, T>(n, wr, ws, x, o); break;
      switch (rt * 4 + tt) {
        INFER_TILE(1, 1) INFER_TILE(1, 2) INFER_TILE(1, 3)
        INFER_TILE(2, 1) INFER_TILE(2, 2) INFER_TILE(2, 3)
        INFER_TILE(3, 1) INFER_TILE(3, 2) INFER_TILE(3, 3)
        INFER_TILE(4, 1) INFER_TILE(4, 2) INFER_TILE(4, 3)
        default: break;
      }
#undef INFER_TILE
    }
  }
}

// f16/bf16 with several token groups: convert each 4-row tile to f32 once (exact) and run the
// f32 tiles over it, instead of converting every weight vector once per token group.
template <typename L>
void gemm_float(int64_t n, const uint8_t* w, size_t ws, int nr, const uint8_t* act, size_t as, int nt, float* y,
                size_t ys) {
  if (std::is_same<L, ld_f32>::value || nt < 6) {
    gemm_float_direct<L>(n, w, ws, nr, act, as, nt, y, ys);
    return;
  }
  thread_local std::vector<float> scratch;
  if (scratch.size() < static_cast<size_t>(4 * n)) scratch.resize(static_cast<size_t>(4 * n));
  for (int r0 = 0; r0 < nr; r0 += 4) {
    const int rt = nr - r0 < 4 ? nr - r0 : 4;
    for (int r = 0; r < rt; r++) {
      const auto* src = reinterpret_cast<const typename L::elem*>(w + (r0 + r) * ws);
      float* dst = scratch.data() + r * n;
      int64_t j = 0;
      for (; j + 8 <= n; j += 8) _mm256_storeu_ps(dst + j, L::load8(src + j));
      for (; j < n; j++) dst[j] = L::one(src + j);
    }
    gemm_float_direct<ld_f32>(n, reinterpret_cast<const uint8_t*>(scratch.data()), static_cast<size_t>(n) * 4, rt,
                              act, as, nt, y + r0, ys);
  }
}

// Quantized weights: each row against tokens in groups of up to 4. Calls
// run(std::integral_constant<int, TT>(), t0) for groups of 4, then once for the 1-3 left.
template <typename F>
inline void by_token_groups(int nt, F run) {
  int t0 = 0;
  for (; t0 + 4 <= nt; t0 += 4) run(std::integral_constant<int, 4>(), t0);
  switch (nt - t0) {
    case 3: run(std::integral_constant<int, 3>(), t0); break;
    case 2: run(std::integral_constant<int, 2>(), t0); break;
    case 1: run(std::integral_constant<int, 1>(), t0); break;
    default: break;
  }
}

// Only with VNNI: dpbusd sums the u8 x s8 products in 32 bits, where maddubs would saturate.
#if (defined(__AVX512VNNI__) && defined(__AVX512VL__)) || defined(__AVXVNNI__)
constexpr bool kBiasedQ8 = true;
#else
constexpr bool kBiasedQ8 = false;
#endif

// Q8_0 weights x several tokens without the per-token sign trick: the activations are biased
// once per tile to unsigned (yu = y + 128, 32 bytes per block), so each token's block dot is one
// u8 x s8 dot-accumulate starting from -128 * sum(q) (computed once per weight block):
// sum(yu * q) - 128 * sum(q) = sum(y * q), the same integers as tile_q8<dec_q8_0>.
template <int TT>
inline void tile_q8_0u_step(const block_q8_0& w, const uint8_t* const* yu, const float* const* dy, int64_t i,
                            __m256* acc) {
  const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w.qs));
  const __m256i bias = _mm256_sub_epi32(_mm256_setzero_si256(), dot4_u8_i8(_mm256_set1_epi8(static_cast<char>(0x80)), q));
  const __m256 dw = _mm256_cvtph_ps(_mm_set1_epi16(static_cast<short>(w.d)));
  for (int t = 0; t < TT; t++) {
    const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(yu[t] + i * QK));
#if defined(__AVX512VNNI__) && defined(__AVX512VL__)
    const __m256i p = _mm256_dpbusd_epi32(bias, u, q);
#elif defined(__AVXVNNI__)
    const __m256i p = _mm256_dpbusd_avx_epi32(bias, u, q);
#else
    const __m256i p = bias;  // unreachable: maddubs would saturate 255 * 127 pairs (kBiasedQ8 is false)
    (void)u;
#endif
    const __m256 scale = _mm256_mul_ps(dw, _mm256_broadcast_ss(dy[t] + i));
    acc[t] = _mm256_fmadd_ps(scale, _mm256_cvtepi32_ps(p), acc[t]);
  }
}

template <int TT>
inline void tile_q8_0u(int64_t nb, const block_q8_0* w, const uint8_t* const* yu, const float* const* dy, float* out) {
  __m256 acc0[TT], acc1[TT];
  for (int t = 0; t < TT; t++) acc0[t] = acc1[t] = _mm256_setzero_ps();
  int64_t i = 0;
  for (; i + 2 <= nb; i += 2) {
    tile_q8_0u_step<TT>(w[i], yu, dy, i, acc0);
    tile_q8_0u_step<TT>(w[i + 1], yu, dy, i + 1, acc1);
  }
  if (i < nb) tile_q8_0u_step<TT>(w[i], yu, dy, i, acc0);
  for (int t = 0; t < TT; t++) out[t] = hsum(_mm256_add_ps(acc0[t], acc1[t]));
}

void gemm_q8_0u(int64_t n, const uint8_t* w, size_t ws, int nr, const uint8_t* act, size_t as, int nt, float* y,
                size_t ys) {
  const int64_t nb = n / QK;
  // Per tile: biased quants and scales of its tokens, contiguous (stays in L1/L2 for the tile).
  thread_local std::vector<uint8_t> ubuf;
  thread_local std::vector<float> dbuf;
  if (ubuf.size() < static_cast<size_t>(nt * n)) ubuf.resize(static_cast<size_t>(nt * n));
  if (dbuf.size() < static_cast<size_t>(nt * nb)) dbuf.resize(static_cast<size_t>(nt * nb));
  const __m256i flip = _mm256_set1_epi8(static_cast<char>(0x80));
  for (int t = 0; t < nt; t++) {
    const block_q8_0x* a = reinterpret_cast<const block_q8_0x*>(act + t * as);
    uint8_t* u = ubuf.data() + static_cast<size_t>(t) * n;
    float* d = dbuf.data() + static_cast<size_t>(t) * nb;
    for (int64_t i = 0; i < nb; i++) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(u + i * QK),
                          _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a[i].qs)), flip));
      d[i] = a[i].d;
    }
  }
  auto run = [&](auto tt_const, int t0) {
    constexpr int TT = decltype(tt_const)::value;
    const uint8_t* yu[TT];
    const float* dy[TT];
    for (int t = 0; t < TT; t++) {
      yu[t] = ubuf.data() + static_cast<size_t>(t0 + t) * n;
      dy[t] = dbuf.data() + static_cast<size_t>(t0 + t) * nb;
    }
    for (int r = 0; r < nr; r++) {
      float o[TT];
      tile_q8_0u<TT>(nb, reinterpret_cast<const block_q8_0*>(w + r * ws), yu, dy, o);
      for (int t = 0; t < TT; t++) y[(t0 + t) * ys + r] = o[t];
    }
  };
  by_token_groups(nt, run);
}

// Q4_K x one token (decode), 2 rows per pass: the rows share the activation loads, and the next
// pair of rows is prefetched (interleaved row streams barely train the hardware prefetcher).
// Per row the same steps in the same order as tile_q45_K<false, 1>, so the results are identical.
template <int RT>
inline void tile_q4_K_rows(int64_t nb, const uint8_t* w, size_t ws, const block_q8_K* a, float* out) {
  __m256 acc[RT];
  for (int r = 0; r < RT; r++) acc[r] = _mm256_setzero_ps();
  const __m256i m4 = _mm256_set1_epi8(0x0F);
  const char* next = reinterpret_cast<const char*>(w + RT * ws);
  constexpr int kStep = RT * static_cast<int>(sizeof(block_q4_K));
  for (int64_t i = 0; i < nb; i++) {
    if (RT > 1)
      for (int k = 0; k < kStep; k += 64) _mm_prefetch(next + i * kStep + k, _MM_HINT_T0);
    __m256i sumi[RT], sumi2[RT], scales[RT];
    for (int r = 0; r < RT; r++) {
      sumi[r] = sumi2[r] = _mm256_setzero_si256();
      const __m256i sm = scales_mins_k4(w + r * ws + i * sizeof(block_q4_K) + 4);
      scales[r] = _mm256_permute2x128_si256(sm, sm, 0x00);
    }
    for (int c = 0; c < 4; c++) {
      const int8_t* y = a[i].qs + 64 * c;
      const __m256i y0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y));
      const __m256i y1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y + 32));
      for (int r = 0; r < RT; r++) {
        const uint8_t* qs = w + r * ws + i * sizeof(block_q4_K) + 16;
        const __m256i raw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qs + 32 * c));
        const __m256i lo = _mm256_and_si256(raw, m4);
        const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(raw, 4), m4);
        sumi[r] = madd_acc(sumi[r], _mm256_maddubs_epi16(lo, y0), _mm256_shuffle_epi8(scales[r], scale_shuffle(2 * c)));
        sumi2[r] = madd_acc(sumi2[r], _mm256_maddubs_epi16(hi, y1), _mm256_shuffle_epi8(scales[r], scale_shuffle(2 * c + 1)));
      }
    }
    const __m256i bs = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a[i].bsums));
    const __m256 dy = _mm256_broadcast_ss(&a[i].d);
    for (int r = 0; r < RT; r++) {
      const uint8_t* b = w + r * ws + i * sizeof(block_q4_K);
      uint16_t dh, dminh;
      std::memcpy(&dh, b, 2);
      std::memcpy(&dminh, b + 2, 2);
      const __m256 dv = _mm256_set1_ps(h2f(dh)), ndminv = _mm256_set1_ps(-h2f(dminh));
      const __m128i mins8 = _mm256_extracti128_si256(scales_mins_k4(b + 4), 1);
      const __m256i mins16 = _mm256_set_m128i(_mm_unpackhi_epi16(mins8, mins8), _mm_unpacklo_epi16(mins8, mins8));
      const __m256i pm = _mm256_madd_epi16(bs, mins16);
      acc[r] = _mm256_fmadd_ps(_mm256_mul_ps(dv, dy), _mm256_cvtepi32_ps(_mm256_add_epi32(sumi[r], sumi2[r])), acc[r]);
      acc[r] = _mm256_fmadd_ps(_mm256_mul_ps(ndminv, dy), _mm256_cvtepi32_ps(pm), acc[r]);
    }
  }
  for (int r = 0; r < RT; r++) out[r] = hsum(acc[r]);
}

void gemv_q4_K(int64_t n, const uint8_t* w, size_t ws, int nr, const uint8_t* act, float* y) {
  const int64_t nb = n / QK_K;
  const block_q8_K* a = reinterpret_cast<const block_q8_K*>(act);
  int r = 0;
  for (; r + 2 <= nr; r += 2) tile_q4_K_rows<2>(nb, w + r * ws, ws, a, y + r);
  for (; r < nr; r++) tile_q4_K_rows<1>(nb, w + r * ws, ws, a, y + r);
}

// MXFP4 x one token (decode), RT rows per pass: the rows share each activation block's loads
// (quants, offset sums, scale). Per row the same steps in the same order as tile_q8<dec_mxfp4, 1>
// (even blocks into acc0, odd into acc1, then hsum(acc0 + acc1)), so the results are identical.
template <int RT>
inline void mxfp4_rows_step(const block_mxfp4* const* wr, const block_q8_0x& a, int64_t i, __m256* acc) {
  const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.qs));
  const __m256i off = _mm256_slli_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.s4)), dec_mxfp4::kOffsetShift);
  const __m256 dy = _mm256_broadcast_ss(&a.d);
  for (int r = 0; r < RT; r++) {
    const __m256i p = _mm256_sub_epi32(dot4_u8_i8(dec_mxfp4::quants(wr[r][i]), y), off);
    acc[r] = _mm256_fmadd_ps(_mm256_mul_ps(dec_mxfp4::dscale(wr[r][i]), dy), _mm256_cvtepi32_ps(p), acc[r]);
  }
}

template <int RT>
inline void tile_mxfp4_rows(int64_t nb, const uint8_t* w, size_t ws, const block_q8_0x* a, float* out) {
  const block_mxfp4* wr[RT];
  for (int r = 0; r < RT; r++) wr[r] = reinterpret_cast<const block_mxfp4*>(w + r * ws);
  __m256 acc0[RT], acc1[RT];
  for (int r = 0; r < RT; r++) acc0[r] = acc1[r] = _mm256_setzero_ps();
  // RT interleaved streams barely train the hardware prefetcher: prefetch the next tile's rows
  // (contiguous after this one) at the rate this tile reads its own.
  const char* next = reinterpret_cast<const char*>(w + RT * ws);
  constexpr int kStep = RT * 2 * static_cast<int>(sizeof(block_mxfp4));
  int64_t i = 0;
  for (; i + 2 <= nb; i += 2) {
    if (RT > 1)
      for (int k = 0; k < kStep; k += 64) _mm_prefetch(next + (i / 2) * kStep + k, _MM_HINT_T0);
    mxfp4_rows_step<RT>(wr, a[i], i, acc0);
    mxfp4_rows_step<RT>(wr, a[i + 1], i + 1, acc1);
  }
  if (i < nb) mxfp4_rows_step<RT>(wr, a[i], i, acc0);
  for (int r = 0; r < RT; r++) out[r] = hsum(_mm256_add_ps(acc0[r], acc1[r]));
}

void gemv_mxfp4(int64_t n, const uint8_t* w, size_t ws, int nr, const uint8_t* act, float* y) {
  const int64_t nb = n / QK;
  const block_q8_0x* a = reinterpret_cast<const block_q8_0x*>(act);
  int r = 0;
  // 2 rows per pass: measured faster than 4 (and than 1) at gpt-oss's 2880 x 2880 experts.
  for (; r + 2 <= nr; r += 2) tile_mxfp4_rows<2>(nb, w + r * ws, ws, a, y + r);
  for (; r < nr; r++) tile_mxfp4_rows<1>(nb, w + r * ws, ws, a, y + r);
}

// Token groups outer, rows inner: the group's activations (up to 4 rows of blocks) stay in L1
// while the row chunk's weights are re-read from L2, one weight block per 4 token dot products.
template <typename D>
void gemm_q8(int64_t n, const uint8_t* w, size_t ws, int nr, const uint8_t* act, size_t as, int nt, float* y,
             size_t ys) {
  const int64_t nb = n / QK;
  auto run = [&](auto tt_const, int t0) {
    constexpr int TT = decltype(tt_const)::value;
    const block_q8_0x* a[TT];
    for (int t = 0; t < TT; t++) a[t] = reinterpret_cast<const block_q8_0x*>(act + (t0 + t) * as);
    for (int r = 0; r < nr; r++) {
      float o[TT];
      tile_q8<D, TT>(nb, reinterpret_cast<const typename D::block*>(w + r * ws), a, o);
      for (int t = 0; t < TT; t++) y[(t0 + t) * ys + r] = o[t];
    }
  };
  by_token_groups(nt, run);
}

template <typename D>
void gemm_q8_1(int64_t n, const uint8_t* w, size_t ws, int nr, const uint8_t* act, size_t as, int nt, float* y,
               size_t ys) {
  const int64_t nb = n / QK;
  auto run = [&](auto tt_const, int t0) {
    constexpr int TT = decltype(tt_const)::value;
    const block_q8_1x* a[TT];
    for (int t = 0; t < TT; t++) a[t] = reinterpret_cast<const block_q8_1x*>(act + (t0 + t) * as);
    for (int r = 0; r < nr; r++) {
      float o[TT];
      tile_q8_1<D, TT>(nb, reinterpret_cast<const typename D::block*>(w + r * ws), a, o);
      for (int t = 0; t < TT; t++) y[(t0 + t) * ys + r] = o[t];
    }
  };
  by_token_groups(nt, run);
}

// K-quant tiles of 8 tokens where the CPU has 32 vector registers (AVX-512VL): each decoded
// weight block serves twice as many token dot products as the 4-token tiles.
#if defined(__AVX512VL__)
constexpr bool kKQuantTokens8 = true;
#else
constexpr bool kKQuantTokens8 = false;
#endif

template <int KIND>  // 2: q2_K, 3: q3_K, 4: q4_K, 5: q5_K, 6: q6_K, 7: iq4_xs
void gemm_k(int64_t n, const uint8_t* w, size_t ws, int nr, const uint8_t* act, size_t as, int nt, float* y,
            size_t ys) {
  const int64_t nb = n / QK_K;
  auto run = [&](auto tt_const, int t0) {
    constexpr int TT = decltype(tt_const)::value;
    const block_q8_K* a[TT];
    for (int t = 0; t < TT; t++) a[t] = reinterpret_cast<const block_q8_K*>(act + (t0 + t) * as);
    // The first group of tokens brings the chunk's rows in; one token streams fast enough alone.
    const bool prefetch = t0 == 0 && nt >= 4;
    for (int r = 0; r < nr; r++) {
      const uint8_t* wr = w + r * ws;
      float o[TT];
      if (KIND == 6) tile_q6_K<TT>(nb, reinterpret_cast<const block_q6_K*>(wr), a, prefetch, o);
      else if (KIND == 7) tile_iq4_xs<TT>(nb, reinterpret_cast<const block_iq4_xs*>(wr), a, o);
      else if (KIND <= 3) tile_q23_K<KIND == 3, TT>(nb, wr, a, o);
      else tile_q45_K<KIND == 5, TT>(nb, wr, a, prefetch, o);
      for (int t = 0; t < TT; t++) y[(t0 + t) * ys + r] = o[t];
    }
  };
  int t8 = 0;
  if (kKQuantTokens8) for (; t8 + 8 <= nt; t8 += 8) run(std::integral_constant<int, 8>(), t8);
  by_token_groups(nt - t8, [&](auto tt, int t0) { run(tt, t8 + t0); });
}

}  // namespace

bool have_avx2_kernels() { return true; }

void convert_act_row_avx2(act_format f, const float* x, void* out, int64_t n) {
  switch (f) {
    case act_format::q8_0: act_q8_0(x, static_cast<block_q8_0x*>(out), n / QK); break;
    case act_format::q8_K: act_q8_K(x, static_cast<block_q8_K*>(out), n / QK_K); break;
    case act_format::q8_1: act_q8_1(x, static_cast<block_q8_1x*>(out), n / QK); break;
    case act_format::f32_round_f16: act_round_f16(x, static_cast<float*>(out), n); break;
    default: convert_act_row_ref(f, x, out, n); break;
  }
}

void gemm_tile_avx2(tensor_type w, int64_t n, const uint8_t* wr, size_t ws, int nr, const uint8_t* act, size_t as,
                    int nt, float* y, size_t ys) {
  switch (w) {
    case tensor_type::f32: gemm_float<ld_f32>(n, wr, ws, nr, act, as, nt, y, ys); break;
    case tensor_type::f16: gemm_float<ld_f16>(n, wr, ws, nr, act, as, nt, y, ys); break;
    case tensor_type::bf16: gemm_float<ld_bf16>(n, wr, ws, nr, act, as, nt, y, ys); break;
    case tensor_type::q4_0: gemm_q8<dec_q4_0>(n, wr, ws, nr, act, as, nt, y, ys); break;
    case tensor_type::q5_0: gemm_q8<dec_q5_0>(n, wr, ws, nr, act, as, nt, y, ys); break;
    case tensor_type::q8_0:
      if (kBiasedQ8 && nt >= 4) gemm_q8_0u(n, wr, ws, nr, act, as, nt, y, ys);  // prefill: biased activations
      else gemm_q8<dec_q8_0>(n, wr, ws, nr, act, as, nt, y, ys);
      break;
    case tensor_type::q4_k:
      if (nt == 1) gemv_q4_K(n, wr, ws, nr, act, y);  // decode: rows share the activation loads
      else gemm_k<4>(n, wr, ws, nr, act, as, nt, y, ys);
      break;
    case tensor_type::q5_k: gemm_k<5>(n, wr, ws, nr, act, as, nt, y, ys); break;
    case tensor_type::q6_k: gemm_k<6>(n, wr, ws, nr, act, as, nt, y, ys); break;
    case tensor_type::q2_k: gemm_k<2>(n, wr, ws, nr, act, as, nt, y, ys); break;
    case tensor_type::q3_k: gemm_k<3>(n, wr, ws, nr, act, as, nt, y, ys); break;
    case tensor_type::iq4_xs: gemm_k<7>(n, wr, ws, nr, act, as, nt, y, ys); break;
    case tensor_type::q4_1: gemm_q8_1<dec_q4_1>(n, wr, ws, nr, act, as, nt, y, ys); break;
    case tensor_type::q5_1: gemm_q8_1<dec_q5_1>(n, wr, ws, nr, act, as, nt, y, ys); break;
    case tensor_type::iq4_nl: gemm_q8<dec_iq4_nl>(n, wr, ws, nr, act, as, nt, y, ys); break;
    case tensor_type::mxfp4:
      if (nt == 1) gemv_mxfp4(n, wr, ws, nr, act, y);  // decode: rows share the activation loads
      else gemm_q8<dec_mxfp4>(n, wr, ws, nr, act, as, nt, y, ys);
      break;
    case tensor_type::q8_0_r4: gemm_q8_0_r4(n, wr, nr, act, as, nt, y, ys); break;  // (gemm_tile routes it there first)
    case tensor_type::q4_k_r4: gemm_q4_k_r4(n, wr, nr, act, as, nt, y, ys); break;  // (likewise)
    case tensor_type::q6_k_r4: gemm_q6_k_r4(n, wr, nr, act, as, nt, y, ys); break;
  }
}

}  // namespace kq
}  // namespace infer

#else  // no AVX2: the portable kernels are used (quants.cc)

namespace infer {
namespace kq {
bool have_avx2_kernels() { return false; }
void convert_act_row_avx2(act_format f, const float* x, void* out, int64_t n) { convert_act_row_ref(f, x, out, n); }
void gemm_tile_avx2(tensor_type, int64_t, const uint8_t*, size_t, int, const uint8_t*, size_t, int, float*, size_t) {}
}  // namespace kq
}  // namespace infer

#endif
