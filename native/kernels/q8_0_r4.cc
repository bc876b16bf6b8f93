// Q8_0 weights with 4 rows interleaved (tensor_type::q8_0_r4), made at load for the CPU path.
//
// Why: a Q8_0 row against one token costs, per block, an integer dot (one VNNI instruction) and
// three float steps (scale product, int-to-float, fused add) on 8 partial sums, so several rows x
// several tokens (batched decode, prefill) spend most of their time on float work. With 4 rows
// interleaved in 8-byte chunks, one 256-bit load holds a chunk of each of the 4 rows, 4 VNNI steps
// leave every row's block dot in 2 lanes, and one horizontal add of two tokens puts 8 complete
// (row, token) block sums in one vector: the float steps then run once per 8 outputs instead of
// once per output. Measured on Qwen2.5-0.5B shapes, one thread: 2.0-2.2x the GMAC/s of the Q8_0 tile.
//
// Every output is computed by the same operations in the same order whatever the tile, the token
// count or the thread count (so batched and single-token results stay identical): per block i, the
// exact integer dot s_i of the row's and the token's quants, then
//   acc[i % 2] = fma(float(s_i), d_w * d_y, acc[i % 2]);   result = acc[0] + acc[1].
// The reference below does exactly that in scalar code, and the vector kernel lane by lane.
#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/quants.h"
#include "kernels/r4_layout.h"

#ifdef INFER_R4_VNNI
#include <immintrin.h>
#endif

namespace infer {
namespace kq {
namespace {

struct q8_0_r4_layout {
  using file_block = block_q8_0;
  using group_block = block_q8_0r4;
  static constexpr tensor_type file_type = tensor_type::q8_0, type = tensor_type::q8_0_r4;
  static constexpr int64_t block_elems = QK;
  static void repack(const block_q8_0* const* rows, int64_t i, block_q8_0r4* out) {
    for (int r = 0; r < 4; r++) {
      out->d[r] = rows[r][i].d;
      for (int c = 0; c < 4; c++) std::memcpy(out->qs + (c * 4 + r) * 8, rows[r][i].qs + c * 8, 8);
    }
  }
  static void unrepack(const block_q8_0r4& in, int r, block_q8_0* out) {
    out->d = in.d[r];
    for (int c = 0; c < 4; c++) std::memcpy(out->qs + c * 8, in.qs + (c * 4 + r) * 8, 8);
  }
};

}  // namespace

void dequantize_row_q8_0_r4(const tensor_view& w, int64_t row, float* out) {
  dequantize_row_r4<q8_0_r4_layout>(w, row, out);
}

// The definition of every output (see the top of the file), in scalar code.
void gemm_q8_0_r4_reference(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t as, int nt, float* y,
                            size_t ys) {
  const int64_t nb = n / QK;
  for (int g = 0; g < nr / 4; g++) {
    const auto* wb = reinterpret_cast<const block_q8_0r4*>(w) + static_cast<int64_t>(g) * nb;
    for (int r = 0; r < 4; r++)
      for (int t = 0; t < nt; t++) {
        const auto* a = reinterpret_cast<const block_q8_0x*>(act + t * as);
        float acc[2] = {0.0f, 0.0f};
        for (int64_t i = 0; i < nb; i++) {
          int32_t s = 0;
          for (int c = 0; c < 4; c++)
            for (int j = 0; j < 8; j++) s += wb[i].qs[(c * 4 + r) * 8 + j] * a[i].qs[c * 8 + j];
          const float scale = fp16_to_fp32(wb[i].d[r]) * a[i].d;
          acc[i % 2] = std::fma(static_cast<float>(s), scale, acc[i % 2]);
        }
        y[t * ys + g * 4 + r] = acc[0] + acc[1];
      }
  }
}

namespace {

#ifdef INFER_R4_VNNI
// 4 rows x P token pairs. yu[k]: token k's quants biased to unsigned (+128), n bytes; dyp[p]: per
// block the 8 activation scales in the lane order of a pair's block sums.
// last_single: the last pair has one token (its second lane group repeats the first).
// prefetch: ask for the weights kPrefetchBlocks blocks ahead (they run on into the next row group).
// With several tokens per block the hardware prefetcher alone falls behind: a 16-token pass over
// weights from memory ran at 0.65 of its in-cache rate. With one token the loads are dense enough
// for it, and the extra requests cost (a single-token matvec streamed 0.7x as fast with them).
constexpr int64_t kPrefetchBlocks = 16;

template <int P>
inline void tile_r4(int64_t nb, const block_q8_0r4* w, const uint8_t* const* yu, const float* const* dyp,
                    bool last_single, bool prefetch, float* acc_out) {
  __m256 acc[P][2];
  for (int p = 0; p < P; p++) acc[p][0] = acc[p][1] = _mm256_setzero_ps();
  const __m256i flip = _mm256_set1_epi8(static_cast<char>(0x80));
  const __m256i didx = _mm256_setr_epi32(0, 1, 0, 1, 2, 3, 2, 3);
  for (int64_t i = 0; i < nb; i++) {
    if (prefetch) {
      const char* ahead = reinterpret_cast<const char*>(w + i + kPrefetchBlocks);
      _mm_prefetch(ahead, _MM_HINT_T0);
      _mm_prefetch(ahead + 64, _MM_HINT_T0);
      _mm_prefetch(ahead + 128, _MM_HINT_T0);
    }
    __m256i q[4];
    for (int c = 0; c < 4; c++) q[c] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w[i].qs + 32 * c));
    // -128 * (the weights' partial sums): with it, sum((y + 128) * q) is sum(y * q).
    // Two chains of integer steps instead of one (exact integers: the order does not matter).
    const __m256i b01 = _mm256_dpbusd_epi32(_mm256_dpbusd_epi32(_mm256_setzero_si256(), flip, q[0]), flip, q[1]);
    const __m256i b23 = _mm256_dpbusd_epi32(_mm256_dpbusd_epi32(_mm256_setzero_si256(), flip, q[2]), flip, q[3]);
    const __m256i bias = _mm256_sub_epi32(_mm256_setzero_si256(), _mm256_add_epi32(b01, b23));
    const __m128 d4 = _mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(w[i].d)));
    const __m256 dw = _mm256_permutevar8x32_ps(_mm256_castps128_ps256(d4), didx);  // r0 r1 r0 r1 | r2 r3 r2 r3
    for (int p = 0; p < P; p++) {
      __m256i s[2];
      const int tokens = last_single && p == P - 1 ? 1 : 2;
      for (int k = 0; k < tokens; k++) {
        const uint8_t* u = yu[2 * p + k] + i * QK;
        long long chunk[4];
        std::memcpy(chunk, u, 32);
        const __m256i a01 = _mm256_dpbusd_epi32(_mm256_dpbusd_epi32(bias, _mm256_set1_epi64x(chunk[0]), q[0]),
                                                _mm256_set1_epi64x(chunk[1]), q[1]);
        const __m256i a23 = _mm256_dpbusd_epi32(_mm256_dpbusd_epi32(_mm256_setzero_si256(), _mm256_set1_epi64x(chunk[2]), q[2]),
                                                _mm256_set1_epi64x(chunk[3]), q[3]);
        s[k] = _mm256_add_epi32(a01, a23);  // lanes 2r, 2r+1: row r's block dot in two halves
      }
      if (tokens == 1) s[1] = s[0];
      // [t r0, t r1, t' r0, t' r1 | t r2, t r3, t' r2, t' r3]: 8 complete block dots
      const __m256 sums = _mm256_cvtepi32_ps(_mm256_hadd_epi32(s[0], s[1]));
      const __m256 scale = _mm256_mul_ps(dw, _mm256_loadu_ps(dyp[p] + i * 8));
      acc[p][i % 2] = _mm256_fmadd_ps(sums, scale, acc[p][i % 2]);
    }
  }
  for (int p = 0; p < P; p++) _mm256_storeu_ps(acc_out + 8 * p, _mm256_add_ps(acc[p][0], acc[p][1]));
}

void gemm_q8_0_r4_vnni(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t as, int nt, float* y, size_t ys) {
  const int64_t nb = n / QK;
  // Per call: each token's biased quants, and per pair of tokens the scales in lane order. Reused
  // for every row group of the call.
  thread_local std::vector<uint8_t> ubuf;
  if (ubuf.size() < static_cast<size_t>(nt * n)) ubuf.resize(static_cast<size_t>(nt * n));
  const __m256i flip = _mm256_set1_epi8(static_cast<char>(0x80));
  for (int t = 0; t < nt; t++) {
    const auto* a = reinterpret_cast<const block_q8_0x*>(act + t * as);
    uint8_t* u = ubuf.data() + static_cast<size_t>(t) * n;
    for (int64_t i = 0; i < nb; i++)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(u + i * QK),
                          _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a[i].qs)), flip));
  }
  const float* dbuf = pair_scales(nt, nb, [&](int t, int64_t i) { return reinterpret_cast<const block_q8_0x*>(act + t * as)[i].d; });
  for_pair_tiles(nr, nt, y, ys, [&](auto np_const, int g, const int* tokens, int p0, bool last_single, bool prefetch, float* o) {
    constexpr int NP = decltype(np_const)::value;
    const uint8_t* yu[2 * NP];
    const float* dyp[NP];
    for (int k = 0; k < 2 * NP; k++) yu[k] = ubuf.data() + static_cast<size_t>(tokens[k]) * n;
    for (int p = 0; p < NP; p++) dyp[p] = dbuf + static_cast<size_t>(p0 + p) * nb * 8;
    tile_r4<NP>(nb, reinterpret_cast<const block_q8_0r4*>(w) + static_cast<int64_t>(g) * nb, yu, dyp, last_single, prefetch, o);
  });
}
#endif

}  // namespace

void gemm_q8_0_r4(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t as, int nt, float* y, size_t ys) {
#ifdef INFER_R4_VNNI
  gemm_q8_0_r4_vnni(n, w, nr, act, as, nt, y, ys);
#else
  gemm_q8_0_r4_reference(n, w, nr, act, as, nt, y, ys);
#endif
}

}  // namespace kq

bool can_repack_q8_0_r4(const tensor_view& w) { return kq::can_repack_r4<kq::q8_0_r4_layout>(w); }
tensor_view repack_q8_0_r4(const tensor_view& w, void* dst, thread_pool* pool) {
  return kq::repack_r4<kq::q8_0_r4_layout>(w, dst, pool);
}

}  // namespace infer
