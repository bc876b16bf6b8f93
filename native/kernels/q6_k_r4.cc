// Q6_K weights with 4 rows interleaved (tensor_type::q6_k_r4), made at load for the CPU path.
//
// Why: the per-row Q6_K tile (quants_avx2.cc) spends, per 32 products, one maddubs, one madd with
// the group scales and one add, and decodes every row's 6-bit quants for itself. Here one 256-bit
// load holds 8 quants of each of 4 rows, and each dword lane only ever sees one group of 16 of one
// row (row r's group 2P + e in lane 2r + e): 4 VNNI dpbusd (unsigned 6-bit weights x signed Q8_K
// activations) leave the 4 rows' dots of groups 2P, 2P + 1 in the 8 lanes, and one 32-bit multiply
// by the 8 group scales adds them to the block sum. The "- 32" of every quant is 4 dpwssd of the
// rows' scales (times -32) with the token's bsums. A horizontal add of two tokens then gives 8
// complete (row, token) block sums, and the float steps run once per 8 outputs.
//
// Layout (block_q6_Kr4, quants.h): the 4 rows' d; their 16 scales, byte 8P + 2r + e = row r's scale
// of group 2P + e; the quants in 32 chunks of 32 bytes, chunk 4P + c holding in dword 2r + e row r's
// quants 16 (2P + e) + 4c .. + 3, stored as low nibbles (ql: 32-byte vector k holds chunk 2k in its
// low nibbles, chunk 2k + 1 in its high ones) and high 2 bits (qh: vector m holds chunk 4m + s at
// bits 2s). Same size as Q6_K; lossless (unrepack gives every row's Q6_K block back byte for byte).
// The activations' quants are reordered once per call to match (8 bytes per chunk: y[32P + 4c ..]
// then y[32P + 16 + 4c ..]).
//
// Every output is computed by the same operations in the same order whatever the tile, the token
// count or the thread count (so batched and single-token results stay identical): per super-block
// i, the exact integer
//   S_i = sum_g sc_g * (sum_k q[16g + k] * y[16g + k] - 32 * bsums[g])    (q: 0..63, sc_g: int8)
// i.e. the dot of the signed quants q - 32 with y, weighted by the group scales; then, in one
// accumulator per output in block order:
//   acc = fma(float(S_i), d_w * d_y, acc).
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

// A file block's 256 quants (0..63) in element order (ggml's dequantize_row_q6_K).
void file_quants(const block_q6_K& b, uint8_t (&q)[QK_K]) {
  for (int h = 0; h < 2; h++)
    for (int l = 0; l < 32; l++) {
      const uint8_t* ql = b.ql + 64 * h;
      const int qh = b.qh[32 * h + l];
      uint8_t* o = q + 128 * h + l;
      o[0] = static_cast<uint8_t>((ql[l] & 15) | ((qh & 3) << 4));
      o[32] = static_cast<uint8_t>((ql[l + 32] & 15) | (((qh >> 2) & 3) << 4));
      o[64] = static_cast<uint8_t>((ql[l] >> 4) | (((qh >> 4) & 3) << 4));
      o[96] = static_cast<uint8_t>((ql[l + 32] >> 4) | (((qh >> 6) & 3) << 4));
    }
}

// The inverse: the file's ql and qh from 256 quants.
void put_file_quants(const uint8_t (&q)[QK_K], block_q6_K* b) {
  for (int h = 0; h < 2; h++)
    for (int l = 0; l < 32; l++) {
      const uint8_t* v = q + 128 * h + l;
      b->ql[64 * h + l] = static_cast<uint8_t>((v[0] & 15) | ((v[64] & 15) << 4));
      b->ql[64 * h + l + 32] = static_cast<uint8_t>((v[32] & 15) | ((v[96] & 15) << 4));
      b->qh[32 * h + l] = static_cast<uint8_t>((v[0] >> 4) | ((v[32] >> 4) << 2) | ((v[64] >> 4) << 4) | ((v[96] >> 4) << 6));
    }
}

// Byte j of chunk C (= 4P + c) belongs to row j / 8; its element within the row's block:
int chunk_elem(int C, int j) { return 16 * (2 * (C / 4) + (j / 4) % 2) + 4 * (C % 4) + j % 4; }

}  // namespace

void repack_q6_k_r4_block(const block_q6_K* const* rows, int64_t i, block_q6_Kr4* out) {
  uint8_t q[4][QK_K];
  for (int r = 0; r < 4; r++) {
    const block_q6_K& b = rows[r][i];
    out->d[r] = b.d;
    file_quants(b, q[r]);
    for (int g = 0; g < 16; g++) out->scales[8 * (g / 2) + 2 * r + g % 2] = b.scales[g];
  }
  std::memset(out->qh, 0, sizeof out->qh);
  for (int C = 0; C < 32; C++)
    for (int j = 0; j < 32; j++) {
      const int v = q[j / 8][chunk_elem(C, j)];
      uint8_t& lo = out->ql[32 * (C / 2) + j];
      lo = static_cast<uint8_t>(C % 2 ? (lo & 15) | ((v & 15) << 4) : (v & 15));
      out->qh[32 * (C / 4) + j] |= static_cast<uint8_t>((v >> 4) << (2 * (C % 4)));
    }
}

void unrepack_q6_k_r4_block(const block_q6_Kr4& in, int r, block_q6_K* out) {
  uint8_t q[QK_K];
  for (int C = 0; C < 32; C++)
    for (int j = 8 * r; j < 8 * r + 8; j++) {
      const int lo = (in.ql[32 * (C / 2) + j] >> (4 * (C % 2))) & 15;
      const int hi = (in.qh[32 * (C / 4) + j] >> (2 * (C % 4))) & 3;
      q[chunk_elem(C, j)] = static_cast<uint8_t>(lo | (hi << 4));
    }
  put_file_quants(q, out);
  for (int g = 0; g < 16; g++) out->scales[g] = in.scales[8 * (g / 2) + 2 * r + g % 2];
  out->d = in.d[r];
}

namespace {

struct q6_k_r4_layout {
  using file_block = block_q6_K;
  using group_block = block_q6_Kr4;
  static constexpr tensor_type file_type = tensor_type::q6_k, type = tensor_type::q6_k_r4;
  static constexpr int64_t block_elems = QK_K;
  static void repack(const block_q6_K* const* rows, int64_t i, block_q6_Kr4* out) { repack_q6_k_r4_block(rows, i, out); }
  static void unrepack(const block_q6_Kr4& in, int r, block_q6_K* out) { unrepack_q6_k_r4_block(in, r, out); }
};

}  // namespace

void dequantize_row_q6_k_r4(const tensor_view& w, int64_t row, float* out) {
  dequantize_row_r4<q6_k_r4_layout>(w, row, out);
}

// The definition of every output (see the top of the file), in scalar code.
void gemm_q6_k_r4_reference(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t as, int nt, float* y,
                            size_t ys) {
  const int64_t nb = n / QK_K;
  for (int g = 0; g < nr / 4; g++) {
    const auto* wb = reinterpret_cast<const block_q6_Kr4*>(w) + static_cast<int64_t>(g) * nb;
    for (int r = 0; r < 4; r++)
      for (int t = 0; t < nt; t++) {
        const auto* a = reinterpret_cast<const block_q8_K*>(act + t * as);
        float acc = 0.0f;
        for (int64_t i = 0; i < nb; i++) {
          block_q6_K b;
          unrepack_q6_k_r4_block(wb[i], r, &b);
          uint8_t q[QK_K];
          file_quants(b, q);
          int32_t s = 0;
          for (int grp = 0; grp < 16; grp++) {
            int32_t dot = 0;
            for (int k = 0; k < 16; k++) dot += q[16 * grp + k] * a[i].qs[16 * grp + k];
            s += b.scales[grp] * (dot - 32 * a[i].bsums[grp]);
          }
          acc = std::fma(static_cast<float>(s), fp16_to_fp32(b.d) * a[i].d, acc);
        }
        y[t * ys + g * 4 + r] = acc;
      }
  }
}

namespace {

#ifdef INFER_R4_VNNI
// Ask for the weights this many group blocks (840 bytes each, ~2.5 KiB) ahead on the first pass
// over a row group with 4+ tokens, as q4_k_r4 and q8_0_r4 do.
constexpr int64_t kPrefetchBlocks = 3;

inline __m256i bcast8(const void* p) {
  long long v;
  std::memcpy(&v, p, 8);
  return _mm256_set1_epi64x(v);
}

// The tokens' quants in chunk order (per 32 bytes: dwords 0 4 1 5 2 6 3 7), token t at t * n; a
// thread-local buffer, reused call after call.
const std::vector<int8_t>& chunk_order_quants(int64_t n, const uint8_t* act, size_t as, int nt) {
  thread_local std::vector<int8_t> ybuf;
  if (ybuf.size() < static_cast<size_t>(nt * n)) ybuf.resize(static_cast<size_t>(nt * n));
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  for (int t = 0; t < nt; t++) {
    const auto* a = reinterpret_cast<const block_q8_K*>(act + t * as);
    int8_t* o = ybuf.data() + static_cast<size_t>(t) * n;
    for (int64_t i = 0; i < n / QK_K; i++)
      for (int k = 0; k < QK_K; k += 32)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i * QK_K + k),
                            _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a[i].qs + k)), order));
  }
  return ybuf;
}

// 4 rows x P token pairs. yp[k]: token k's quants in chunk order (see the top); a[k]: its Q8_K
// blocks (for bsums); dyp[p]: per block the 8 activation scales in the lane order of a pair's block
// sums. kLastSingle: the last pair has one token (its second lane group repeats the first). The
// token count is a template constant so that the per-token block sums stay in registers.
template <int P, bool kLastSingle>
inline void tile_r4(int64_t nb, const block_q6_Kr4* w, const int8_t* const* yp, const block_q8_K* const* a,
                    const float* const* dyp, bool prefetch, float* acc_out) {
  constexpr int T = 2 * P;
  constexpr int tokens = kLastSingle ? T - 1 : T;
  __m256 acc[P];
  for (int p = 0; p < P; p++) acc[p] = _mm256_setzero_ps();
  const __m256i m4 = _mm256_set1_epi8(0x0F), m30 = _mm256_set1_epi8(0x30);
  const __m256i neg32 = _mm256_set1_epi16(-32);
  const __m256i didx = _mm256_setr_epi32(0, 1, 0, 1, 2, 3, 2, 3);
  for (int64_t i = 0; i < nb; i++) {
    const block_q6_Kr4& b = w[i];
    if (prefetch) {
      const char* ahead = reinterpret_cast<const char*>(w + i + kPrefetchBlocks);
      for (int k = 0; k < static_cast<int>(sizeof(block_q6_Kr4)); k += 64) _mm_prefetch(ahead + k, _MM_HINT_T0);
    }
    __m256i s[T];
    for (int t = 0; t < T; t++) s[t] = _mm256_setzero_si256();
    for (int gp = 0; gp < 8; gp++) {  // groups 2gp, 2gp + 1 of the 4 rows: chunks 4gp .. 4gp + 3
      const __m256i ql0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.ql + 64 * gp));
      const __m256i ql1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.ql + 64 * gp + 32));
      const __m256i qh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.qh + 32 * gp));
      __m256i q[4];  // chunk 4gp + c: nibble, and the high 2 bits (at 2c in qh) moved to bits 4-5
      q[0] = _mm256_or_si256(_mm256_and_si256(ql0, m4), _mm256_and_si256(_mm256_slli_epi16(qh, 4), m30));
      q[1] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql0, 4), m4), _mm256_and_si256(_mm256_slli_epi16(qh, 2), m30));
      q[2] = _mm256_or_si256(_mm256_and_si256(ql1, m4), _mm256_and_si256(qh, m30));
      q[3] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql1, 4), m4), _mm256_and_si256(_mm256_srli_epi16(qh, 2), m30));
      // lane 2r + e: row r's scale of group 2gp + e
      const __m256i sc = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(b.scales + 8 * gp)));
      for (int t = 0; t < tokens; t++) {
        const int8_t* y = yp[t] + i * QK_K + 32 * gp;
        // lane 2r + e: row r's dot of group 2gp + e (16 products; |.| <= 129024)
        __m256i d = _mm256_dpbusd_epi32(_mm256_setzero_si256(), q[0], bcast8(y));
        for (int c = 1; c < 4; c++) d = _mm256_dpbusd_epi32(d, q[c], bcast8(y + 8 * c));
        s[t] = _mm256_add_epi32(s[t], _mm256_mullo_epi32(d, sc));
      }
    }
    // - 32 * sum_g sc_g * bsums[g]: in lanes 2r and 2r + 1, row r's groups 4k, 4k + 1 and 4k + 2, 4k + 3
    for (int k = 0; k < 4; k++) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.scales + 16 * k));
      const __m256i nsc = _mm256_mullo_epi16(_mm256_cvtepi8_epi16(_mm_unpacklo_epi16(x, _mm_srli_si128(x, 8))), neg32);
      for (int t = 0; t < tokens; t++) s[t] = _mm256_dpwssd_epi32(s[t], nsc, bcast8(a[t][i].bsums + 4 * k));
    }
    const __m128 d4 = _mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(b.d)));
    const __m256 dw = _mm256_permutevar8x32_ps(_mm256_castps128_ps256(d4), didx);  // r0 r1 r0 r1 | r2 r3 r2 r3
    for (int p = 0; p < P; p++) {
      const __m256i s1 = 2 * p + 1 < tokens ? s[2 * p + 1] : s[2 * p];
      // [t r0, t r1, t' r0, t' r1 | t r2, t r3, t' r2, t' r3]: 8 complete block sums
      const __m256 sums = _mm256_cvtepi32_ps(_mm256_hadd_epi32(s[2 * p], s1));
      acc[p] = _mm256_fmadd_ps(sums, _mm256_mul_ps(dw, _mm256_loadu_ps(dyp[p] + i * 8)), acc[p]);
    }
  }
  for (int p = 0; p < P; p++) _mm256_storeu_ps(acc_out + 8 * p, acc[p]);
}

// One token streams the weights once from memory, with little work per byte: without a software
// prefetch the pass stalled on its loads (the block's ql and qh are read as two interleaved runs
// 512 bytes apart) and ran at 0.6-0.7x of the per-row Q6_K tile on the output head. Each of the
// pass's two groups is asked for this many blocks ahead (2 x 3.3 KiB in flight).
constexpr int64_t kOneTokenPrefetchBlocks = 4;

// One token over two row groups A and B (8 rows): the same integer steps per (row, block) as
// tile_r4, but the token's 8-byte broadcasts and bsums serve both groups, and the horizontal add
// pairs A with B, so every conversion and fused add gives 8 outputs, not 4 of 8 lanes.
// Lanes of acc_out: [A r0, A r1, B r0, B r1 | A r2, A r3, B r2, B r3].
// B's blocks follow A's, and the next pair follows B (the prefetch runs on into it).
inline void tile_r4_one_token(int64_t nb, const block_q6_Kr4* wa, const block_q6_Kr4* wb, const int8_t* yq,
                              const block_q8_K* a, float* acc_out) {
  __m256 acc = _mm256_setzero_ps();
  const __m256i m4 = _mm256_set1_epi8(0x0F), m30 = _mm256_set1_epi8(0x30);
  const __m256i neg32 = _mm256_set1_epi16(-32);
  const __m256i didx = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
  for (int64_t i = 0; i < nb; i++) {
    // A's and B's block j = i + ahead, or past the end the next pair's (which follows B).
    const int64_t j = i + kOneTokenPrefetchBlocks;
    const char* pa = reinterpret_cast<const char*>(j < nb ? wa + j : wa + nb + j);
    const char* pb = pa + nb * sizeof(block_q6_Kr4);
    for (int k = 0; k < static_cast<int>(sizeof(block_q6_Kr4)); k += 64) {
      _mm_prefetch(pa + k, _MM_HINT_T0);
      _mm_prefetch(pb + k, _MM_HINT_T0);
    }
    const block_q6_Kr4& ba = wa[i];
    const block_q6_Kr4& bb = wb[i];
    __m256i sa = _mm256_setzero_si256(), sb = _mm256_setzero_si256();
    for (int gp = 0; gp < 8; gp++) {
      const int8_t* y = yq + i * QK_K + 32 * gp;
      const __m256i y0 = bcast8(y), y1 = bcast8(y + 8), y2 = bcast8(y + 16), y3 = bcast8(y + 24);
      for (int h = 0; h < 2; h++) {
        const block_q6_Kr4& b = h ? bb : ba;
        const __m256i ql0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.ql + 64 * gp));
        const __m256i ql1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.ql + 64 * gp + 32));
        const __m256i qh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.qh + 32 * gp));
        const __m256i q0 = _mm256_or_si256(_mm256_and_si256(ql0, m4), _mm256_and_si256(_mm256_slli_epi16(qh, 4), m30));
        const __m256i q1 = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql0, 4), m4), _mm256_and_si256(_mm256_slli_epi16(qh, 2), m30));
        const __m256i q2 = _mm256_or_si256(_mm256_and_si256(ql1, m4), _mm256_and_si256(qh, m30));
        const __m256i q3 = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql1, 4), m4), _mm256_and_si256(_mm256_srli_epi16(qh, 2), m30));
        const __m256i sc = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(b.scales + 8 * gp)));
        __m256i d = _mm256_dpbusd_epi32(_mm256_setzero_si256(), q0, y0);
        d = _mm256_dpbusd_epi32(d, q1, y1);
        d = _mm256_dpbusd_epi32(d, q2, y2);
        d = _mm256_dpbusd_epi32(d, q3, y3);
        __m256i& s = h ? sb : sa;
        s = _mm256_add_epi32(s, _mm256_mullo_epi32(d, sc));
      }
    }
    for (int k = 0; k < 4; k++) {
      const __m256i bs = bcast8(a[i].bsums + 4 * k);
      const __m128i xa = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ba.scales + 16 * k));
      const __m128i xb = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bb.scales + 16 * k));
      const __m256i nsa = _mm256_mullo_epi16(_mm256_cvtepi8_epi16(_mm_unpacklo_epi16(xa, _mm_srli_si128(xa, 8))), neg32);
      const __m256i nsb = _mm256_mullo_epi16(_mm256_cvtepi8_epi16(_mm_unpacklo_epi16(xb, _mm_srli_si128(xb, 8))), neg32);
      sa = _mm256_dpwssd_epi32(sa, nsa, bs);
      sb = _mm256_dpwssd_epi32(sb, nsb, bs);
    }
    const __m128 da = _mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(ba.d)));
    const __m128 db = _mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(bb.d)));
    const __m256 dw = _mm256_permutevar8x32_ps(_mm256_set_m128(db, da), didx);  // A r0 r1 B r0 r1 | A r2 r3 B r2 r3
    const __m256 sums = _mm256_cvtepi32_ps(_mm256_hadd_epi32(sa, sb));
    acc = _mm256_fmadd_ps(sums, _mm256_mul_ps(dw, _mm256_set1_ps(a[i].d)), acc);
  }
  _mm256_storeu_ps(acc_out, acc);
}

// One token (a decode stream's matvec): row groups two at a time, weights streamed from memory.
void gemv_q6_k_r4_vnni(int64_t n, const uint8_t* w, int nr, const uint8_t* act, float* y) {
  const int64_t nb = n / QK_K;
  const auto* a = reinterpret_cast<const block_q8_K*>(act);
  const int8_t* yq = chunk_order_quants(n, act, 0, 1).data();
  const auto* wg = reinterpret_cast<const block_q6_Kr4*>(w);
  const int groups = nr / 4;
  alignas(32) float o[8];
  for (int g = 0; g < groups; g += 2) {
    const int gb = g + 1 < groups ? g + 1 : g;  // an odd last group pairs with itself
    tile_r4_one_token(nb, wg + g * nb, wg + gb * nb, yq, a, o);
    static constexpr int kRow[8] = {0, 1, 0, 1, 2, 3, 2, 3};
    static constexpr int kGroup[8] = {0, 0, 1, 1, 0, 0, 1, 1};
    for (int l = 0; l < 8; l++) y[(kGroup[l] ? gb : g) * 4 + kRow[l]] = o[l];
  }
}

void gemm_q6_k_r4_vnni(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t as, int nt, float* y, size_t ys) {
  if (nt == 1) return gemv_q6_k_r4_vnni(n, w, nr, act, y);
  const int64_t nb = n / QK_K;
  // Per call: each token's quants in chunk order (per 32: dwords 0 4 1 5 2 6 3 7), and per pair of
  // tokens the scales in lane order. Reused for every row group of the call.
  const std::vector<int8_t>& ybuf = chunk_order_quants(n, act, as, nt);
  const float* dbuf = pair_scales(nt, nb, [&](int t, int64_t i) { return reinterpret_cast<const block_q8_K*>(act + t * as)[i].d; });
  for_pair_tiles(nr, nt, y, ys, [&](auto np_const, int g, const int* tokens, int p0, bool last_single, bool prefetch, float* o) {
    constexpr int NP = decltype(np_const)::value;
    const int8_t* yp[2 * NP];
    const block_q8_K* at[2 * NP];
    const float* dyp[NP];
    for (int k = 0; k < 2 * NP; k++) {
      yp[k] = ybuf.data() + static_cast<size_t>(tokens[k]) * n;
      at[k] = reinterpret_cast<const block_q8_K*>(act + tokens[k] * as);
    }
    for (int p = 0; p < NP; p++) dyp[p] = dbuf + static_cast<size_t>(p0 + p) * nb * 8;
    const auto* wg = reinterpret_cast<const block_q6_Kr4*>(w) + static_cast<int64_t>(g) * nb;
    if (last_single) tile_r4<NP, true>(nb, wg, yp, at, dyp, prefetch, o);
    else tile_r4<NP, false>(nb, wg, yp, at, dyp, prefetch, o);
  });
}
#endif

}  // namespace

void gemm_q6_k_r4(int64_t n, const uint8_t* w, int nr, const uint8_t* act, size_t as, int nt, float* y, size_t ys) {
#ifdef INFER_R4_VNNI
  gemm_q6_k_r4_vnni(n, w, nr, act, as, nt, y, ys);
#else
  gemm_q6_k_r4_reference(n, w, nr, act, as, nt, y, ys);
#endif
}

}  // namespace kq

bool can_repack_q6_k_r4(const tensor_view& w) { return kq::can_repack_r4<kq::q6_k_r4_layout>(w); }
tensor_view repack_q6_k_r4(const tensor_view& w, void* dst, thread_pool* pool) {
  return kq::repack_r4<kq::q6_k_r4_layout>(w, dst, pool);
}

}  // namespace infer
