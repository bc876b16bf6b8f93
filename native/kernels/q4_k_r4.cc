// Q4_K weights with 4 rows interleaved (tensor_type::q4_k_r4), made at load for the CPU path.
//
// Why: the per-row Q4_K tile (quants_avx2.cc) spends, per 32 products, one maddubs, one scaled
// madd and one add, and decodes each row's scales separately. With 4 rows interleaved in 8-byte
// chunks, one 256-bit load holds 16 quants of each of 4 rows; against a token's 8 quants broadcast,
// one VNNI dpbusd (unsigned 4-bit weights x signed Q8_K activations, no bias needed) does 32
// products, 4 of them leave each row's sub-block dot in 2 lanes, and one dpwssd multiplies those by
// the rows' sub-block scales into the block sum. A horizontal add of two tokens then gives 8
// complete (row, token) block sums, and the float steps run once per 8 outputs.
//
// Every output is computed by the same operations in the same order whatever the tile, the token
// count or the thread count (so batched and single-token results stay identical): per super-block
// i, the exact integers
//   S_i = sum_j sc_j * sum_k q[32j + k] * y[32j + k]        (sc_j, m_j: the 6-bit scales and mins)
//   M_i = sum_j m_j * (bsums[2j] + bsums[2j + 1])
// then, as the per-row Q4_K path combines them (in one accumulator per output, in block order):
//   acc = fma(float(S_i), d_w * d_y, acc);  acc = fma(float(M_i), (-dmin_w) * d_y, acc).
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

// Row r's (r = 0..3) place in the mins section: rows 0, 2, 1, 3, so that the kernel's madd + hadd
// leaves the mins sums in the same lanes as the quant sums (see tile_r4).
constexpr int kMinSlot[4] = {0, 2, 1, 3};

// The file's 6-bit scale and min of sub-block j (ggml's get_scale_min_k4).
void file_scale_min(const uint8_t* q, int j, int* sc, int* m) {
  if (j < 4) {
    *sc = q[j] & 63;
    *m = q[j + 4] & 63;
  } else {
    *sc = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
    *m = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
  }
}

// The 64 six-bit values of a group block: v[4j + r] = row r's scale j, v[32 + 8 * kMinSlot[r] + j]
// = row r's min j. Stored as low nibbles (byte b: v[b] | v[b + 32] << 4) and high 2 bits (byte b:
// v[b], v[b + 16], v[b + 32], v[b + 48] at bits 0, 2, 4, 6).
void pack_scales(const int (&v)[64], uint8_t* out) {
  for (int b = 0; b < 32; b++) out[b] = static_cast<uint8_t>((v[b] & 15) | ((v[b + 32] & 15) << 4));
  for (int b = 0; b < 16; b++)
    out[32 + b] = static_cast<uint8_t>((v[b] >> 4) | ((v[b + 16] >> 4) << 2) | ((v[b + 32] >> 4) << 4) |
                                       ((v[b + 48] >> 4) << 6));
}

void unpack_scales(const uint8_t* in, int (&v)[64]) {
  for (int b = 0; b < 32; b++) {
    v[b] = in[b] & 15;
    v[b + 32] = in[b] >> 4;
  }
  for (int b = 0; b < 16; b++)
    for (int k = 0; k < 4; k++) v[b + 16 * k] |= ((in[32 + b] >> (2 * k)) & 3) << 4;
}

int scale_of(const int (&v)[64], int r, int j) { return v[4 * j + r]; }
int min_of(const int (&v)[64], int r, int j) { return v[32 + 8 * kMinSlot[r] + j]; }

}  // namespace

void repack_q4_k_r4_block(const block_q4_K* const* rows, int64_t i, block_q4_Kr4* out) {
  int v[64];
  for (int r = 0; r < 4; r++) {
    const block_q4_K& b = rows[r][i];
    out->d[r] = b.d;
    out->dmin[r] = b.dmin;
    for (int j = 0; j < 8; j++) {
      int sc, m;
      file_scale_min(b.scales, j, &sc, &m);
      v[4 * j + r] = sc;
      v[32 + 8 * kMinSlot[r] + j] = m;
    }
    for (int c = 0; c < 4; c++)
      for (int p = 0; p < 4; p++) std::memcpy(out->qs + (c * 4 + p) * 32 + 8 * r, b.qs + 32 * c + 8 * p, 8);
  }
  pack_scales(v, out->scales);
}

void unrepack_q4_k_r4_block(const block_q4_Kr4& in, int r, block_q4_K* out) {
  int v[64];
  unpack_scales(in.scales, v);
  out->d = in.d[r];
  out->dmin = in.dmin[r];
  for (int j = 0; j < 4; j++) {  // the inverse of get_scale_min_k4: all 96 bits are used, so exact
    const int sc_lo = scale_of(v, r, j), sc_hi = scale_of(v, r, j + 4);
    const int m_lo = min_of(v, r, j), m_hi = min_of(v, r, j + 4);
    out->scales[j] = static_cast<uint8_t>(sc_lo | ((sc_hi >> 4) << 6));
    out->scales[j + 4] = static_cast<uint8_t>(m_lo | ((m_hi >> 4) << 6));
    out->scales[j + 8] = static_cast<uint8_t>((sc_hi & 15) | ((m_hi & 15) << 4));
  }
  for (int c = 0; c < 4; c++)
    for (int p = 0; p < 4; p++) std::memcpy(out->qs + 32 * c + 8 * p, in.qs + (c * 4 + p) * 32 + 8 * r, 8);
}

namespace {

struct q4_k_r4_layout {
  using file_block = block_q4_K;
  using group_block = block_q4_Kr4;
  static constexpr tensor_type file_type = tensor_type::q4_k, type = tensor_type::q4_k_r4;
  static constexpr int64_t block_elems = QK_K;
  static void repack(const block_q4_K* const* rows, int64_t i, block_q4_Kr4* out) { repack_q4_k_r4_block(rows, i, out); }
  static void unrepack(const block_q4_Kr4& in, int r, block_q4_K* out) { unrepack_q4_k_r4_block(in, r, out); }
};

}  // namespace

void dequantize_row_q4_k_r4(const tensor_view& w, int64_t row, float* out) {
  dequantize_row_r4<q4_k_r4_layout>(w, row, out);
}

// The definition of every output (see the top of the file), in scalar code.
void gemm_q4_k_r4_reference(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t as, int nt, float* y,
                            size_t ys) {
  const int64_t nb = n / QK_K;
  for (int g = 0; g < nr / 4; g++) {
    const auto* wb = reinterpret_cast<const block_q4_Kr4*>(w) + static_cast<int64_t>(g) * nb;
    for (int r = 0; r < 4; r++)
      for (int t = 0; t < nt; t++) {
        const auto* a = reinterpret_cast<const block_q8_K*>(act + t * as);
        float acc = 0.0f;
        for (int64_t i = 0; i < nb; i++) {
          block_q4_K b;
          unrepack_q4_k_r4_block(wb[i], r, &b);
          int32_t s = 0, m = 0;
          for (int j = 0; j < 8; j++) {
            int sc, mn;
            file_scale_min(b.scales, j, &sc, &mn);
            int32_t dot = 0;
            for (int k = 0; k < 32; k++) {
              const int byte = b.qs[32 * (j / 2) + k];
              dot += (j % 2 ? byte >> 4 : byte & 15) * a[i].qs[32 * j + k];
            }
            s += sc * dot;
            m += mn * (a[i].bsums[2 * j] + a[i].bsums[2 * j + 1]);
          }
          acc = std::fma(static_cast<float>(s), fp16_to_fp32(b.d) * a[i].d, acc);
          acc = std::fma(static_cast<float>(m), -fp16_to_fp32(b.dmin) * a[i].d, acc);
        }
        y[t * ys + g * 4 + r] = acc;
      }
  }
}

namespace {

#ifdef INFER_R4_VNNI
// Ask for the weights this many group blocks (576 bytes each) ahead on the first pass over a row
// group with 4+ tokens (as q8_0_r4 does, about 2 KiB ahead): the hardware prefetcher alone falls
// behind when each block takes this much integer work.
constexpr int64_t kPrefetchBlocks = 4;

inline __m256i bcast8(const int8_t* p) {
  long long v;
  std::memcpy(&v, p, 8);
  return _mm256_set1_epi64x(v);
}

// 4 rows x P token pairs. a[k]: token k's Q8_K blocks; bs8[k]: per block token k's 8 pair sums
// bsums[2j] + bsums[2j+1]; dyp[p]: per block the 8 activation scales in the lane order of a pair's
// block sums. last_single: the last pair has one token (its second lane group repeats the first).
template <int P>
inline void tile_r4(int64_t nb, const block_q4_Kr4* w, const block_q8_K* const* a, const int16_t* const* bs8,
                    const float* const* dyp, bool last_single, bool prefetch, float* acc_out) {
  constexpr int T = 2 * P;
  const int tokens = last_single ? T - 1 : T;
  __m256 acc[P];
  for (int p = 0; p < P; p++) acc[p] = _mm256_setzero_ps();
  const __m256i m4 = _mm256_set1_epi8(0x0F);
  const __m256i m2 = _mm256_set1_epi8(0x03);
  const __m256i didx = _mm256_setr_epi32(0, 1, 0, 1, 2, 3, 2, 3);
  const __m256i shift_lo = _mm256_setr_epi64x(0, 0, 2, 2), shift_hi = _mm256_setr_epi64x(4, 4, 6, 6);
  // pshufb masks: sub-block j's 4 scales (bytes 4(j%4) + r of a 128-bit half) as dwords in the
  // lanes of the quant sums, rows 0 0 1 1 | 2 2 3 3.
  __m256i smask[4];
  for (int j = 0; j < 4; j++) {
    alignas(32) int8_t m[32];
    for (int l = 0; l < 8; l++) {
      const int r = l / 2;
      m[4 * l] = static_cast<int8_t>(4 * j + r);
      m[4 * l + 1] = m[4 * l + 2] = m[4 * l + 3] = -128;  // zero: the scale's high int16 is 0
    }
    smask[j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(m));
  }
  for (int64_t i = 0; i < nb; i++) {
    const block_q4_Kr4& b = w[i];
    if (prefetch) {
      const char* ahead = reinterpret_cast<const char*>(w + i + kPrefetchBlocks);
      for (int k = 0; k < static_cast<int>(sizeof(block_q4_Kr4)); k += 64) _mm_prefetch(ahead + k, _MM_HINT_T0);
    }
    // The 64 six-bit values: sc bytes 4j + r (scales), mn bytes 8 * slot + j (mins).
    const __m256i nib = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.scales));
    const __m256i high = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b.scales + 32)));
    const __m256i sc = _mm256_or_si256(_mm256_and_si256(nib, m4),
                                       _mm256_slli_epi16(_mm256_and_si256(_mm256_srlv_epi64(high, shift_lo), m2), 4));
    const __m256i mn = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(nib, 4), m4),
                                       _mm256_slli_epi16(_mm256_and_si256(_mm256_srlv_epi64(high, shift_hi), m2), 4));
    const __m256i sc03 = _mm256_permute2x128_si256(sc, sc, 0x00), sc47 = _mm256_permute2x128_si256(sc, sc, 0x11);

    __m256i s[T];
    for (int t = 0; t < T; t++) s[t] = _mm256_setzero_si256();
    for (int c = 0; c < 4; c++) {
      __m256i lo[4], hi[4];
      for (int p = 0; p < 4; p++) {
        const __m256i raw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.qs + (c * 4 + p) * 32));
        lo[p] = _mm256_and_si256(raw, m4);                          // sub-block 2c, quants 8p .. 8p+7
        hi[p] = _mm256_and_si256(_mm256_srli_epi16(raw, 4), m4);    // sub-block 2c+1
      }
      const __m256i sc_lo = _mm256_shuffle_epi8(c < 2 ? sc03 : sc47, smask[(2 * c) % 4]);
      const __m256i sc_hi = _mm256_shuffle_epi8(c < 2 ? sc03 : sc47, smask[(2 * c + 1) % 4]);
      for (int t = 0; t < tokens; t++) {
        const int8_t* y = a[t][i].qs + 64 * c;
        // lanes 2r, 2r+1: row r's sub-block dot in two halves of 16 products (|.| <= 30720: int16)
        __m256i dl = _mm256_dpbusd_epi32(_mm256_setzero_si256(), lo[0], bcast8(y));
        __m256i dh = _mm256_dpbusd_epi32(_mm256_setzero_si256(), hi[0], bcast8(y + 32));
        for (int p = 1; p < 4; p++) {
          dl = _mm256_dpbusd_epi32(dl, lo[p], bcast8(y + 8 * p));
          dh = _mm256_dpbusd_epi32(dh, hi[p], bcast8(y + 32 + 8 * p));
        }
        // times the sub-block scale: each dword is (dot, sign) x (scale, 0) as int16 pairs
        s[t] = _mm256_dpwssd_epi32(_mm256_dpwssd_epi32(s[t], dl, sc_lo), dh, sc_hi);
      }
    }
    // mins as int16: rows (0, 2) and (1, 3) by the slot order
    const __m256i mn02 = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(mn));
    const __m256i mn13 = _mm256_cvtepu8_epi16(_mm256_extracti128_si256(mn, 1));
    const __m128 d4 = _mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(b.d)));
    const __m128 m4f = _mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(b.dmin)));
    const __m256 dw = _mm256_permutevar8x32_ps(_mm256_castps128_ps256(d4), didx);  // r0 r1 r0 r1 | r2 r3 r2 r3
    const __m256 ndw = _mm256_xor_ps(_mm256_permutevar8x32_ps(_mm256_castps128_ps256(m4f), didx), _mm256_set1_ps(-0.0f));
    for (int p = 0; p < P; p++) {
      __m256i mins[2];
      for (int k = 0; k < 2; k++) {
        const int t = 2 * p + k < tokens ? 2 * p + k : 2 * p;
        const __m256i bs = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bs8[t] + i * 8)));
        // lanes 0 0 1 1 | 2 2 3 3 (rows): madd of (slot 0 | slot 1) and (slot 2 | slot 3), then hadd
        mins[k] = _mm256_hadd_epi32(_mm256_madd_epi16(mn02, bs), _mm256_madd_epi16(mn13, bs));
      }
      const __m256i s1 = 2 * p + 1 < tokens ? s[2 * p + 1] : s[2 * p];
      // [t r0, t r1, t' r0, t' r1 | t r2, t r3, t' r2, t' r3]: 8 complete block sums
      const __m256 sums = _mm256_cvtepi32_ps(_mm256_hadd_epi32(s[2 * p], s1));
      const __m256 msums = _mm256_cvtepi32_ps(_mm256_hadd_epi32(mins[0], mins[1]));
      const __m256 dy = _mm256_loadu_ps(dyp[p] + i * 8);
      acc[p] = _mm256_fmadd_ps(sums, _mm256_mul_ps(dw, dy), acc[p]);
      acc[p] = _mm256_fmadd_ps(msums, _mm256_mul_ps(ndw, dy), acc[p]);
    }
  }
  for (int p = 0; p < P; p++) _mm256_storeu_ps(acc_out + 8 * p, acc[p]);
}

void gemm_q4_k_r4_vnni(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t as, int nt, float* y, size_t ys) {
  const int64_t nb = n / QK_K;
  // Per call: each token's pair sums of bsums, and per pair of tokens the scales in lane order.
  // Reused for every row group of the call.
  thread_local std::vector<int16_t> bbuf;
  if (bbuf.size() < static_cast<size_t>(nt * nb * 8)) bbuf.resize(static_cast<size_t>(nt * nb * 8));
  for (int t = 0; t < nt; t++) {
    const auto* a = reinterpret_cast<const block_q8_K*>(act + t * as);
    int16_t* o = bbuf.data() + static_cast<size_t>(t) * nb * 8;
    for (int64_t i = 0; i < nb; i++)
      for (int j = 0; j < 8; j++) o[i * 8 + j] = static_cast<int16_t>(a[i].bsums[2 * j] + a[i].bsums[2 * j + 1]);
  }
  const float* dbuf = pair_scales(nt, nb, [&](int t, int64_t i) { return reinterpret_cast<const block_q8_K*>(act + t * as)[i].d; });
  for_pair_tiles(nr, nt, y, ys, [&](auto np_const, int g, const int* tokens, int p0, bool last_single, bool prefetch, float* o) {
    constexpr int NP = decltype(np_const)::value;
    const block_q8_K* at[2 * NP];
    const int16_t* bs[2 * NP];
    const float* dyp[NP];
    for (int k = 0; k < 2 * NP; k++) {
      at[k] = reinterpret_cast<const block_q8_K*>(act + tokens[k] * as);
      bs[k] = bbuf.data() + static_cast<size_t>(tokens[k]) * nb * 8;
    }
    for (int p = 0; p < NP; p++) dyp[p] = dbuf + static_cast<size_t>(p0 + p) * nb * 8;
    tile_r4<NP>(nb, reinterpret_cast<const block_q4_Kr4*>(w) + static_cast<int64_t>(g) * nb, at, bs, dyp, last_single, prefetch, o);
  });
}
#endif

}  // namespace

void gemm_q4_k_r4(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t as, int nt, float* y, size_t ys) {
#ifdef INFER_R4_VNNI
  gemm_q4_k_r4_vnni(n, w, nr, act, as, nt, y, ys);
#else
  gemm_q4_k_r4_reference(n, w, nr, act, as, nt, y, ys);
#endif
}

}  // namespace kq

bool can_repack_q4_k_r4(const tensor_view& w) { return kq::can_repack_r4<kq::q4_k_r4_layout>(w); }
tensor_view repack_q4_k_r4(const tensor_view& w, void* dst, thread_pool* pool) {
  return kq::repack_r4<kq::q4_k_r4_layout>(w, dst, pool);
}

}  // namespace infer
