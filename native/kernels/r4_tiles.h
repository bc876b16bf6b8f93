// Internal to native/kernels: what the 4-row interleaved kernels (q8_0_r4.cc, q4_k_r4.cc) share:
// the repack split over the pool, the per-pair activation scales in lane order, and the walk of a
// call's row groups x token pairs with the scatter of each tile's (row, token) lanes into y.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernels/thread_pool.h"

namespace infer {
namespace kq {

// Runs repack(g0, g1) over [0, groups) of row groups, split over pool's threads when given.
template <typename Repack>
void repack_row_groups(int64_t groups, thread_pool* pool, Repack repack) {
  if (!pool) {
    repack(int64_t{0}, groups);
    return;
  }
  const int tasks = static_cast<int>(std::min<int64_t>(groups, 4 * static_cast<int64_t>(pool->size())));
  pool->parallel_for(tasks, [&](int task, int) { repack(groups * task / tasks, groups * (task + 1) / tasks); });
}

// Per pair of tokens (the last one paired with itself when nt is odd), per block, the 8 activation
// scales in the lane order of a pair's block sums: t t t' t' t t t' t'. d_of(t, i): token t's scale
// of block i. Returns the buffer (thread-local, reused call after call).
template <typename DOf>
const float* pair_scales(int nt, int64_t nb, DOf d_of) {
  thread_local std::vector<float> dbuf;
  const int pairs = (nt + 1) / 2;
  if (dbuf.size() < static_cast<size_t>(pairs * nb * 8)) dbuf.resize(static_cast<size_t>(pairs * nb * 8));
  for (int p = 0; p < pairs; p++) {
    const int t0 = 2 * p, t1 = 2 * p + 1 < nt ? 2 * p + 1 : 2 * p;
    float* d = dbuf.data() + static_cast<size_t>(p) * nb * 8;
    for (int64_t i = 0; i < nb; i++, d += 8) {
      d[0] = d[1] = d[4] = d[5] = d_of(t0, i);
      d[2] = d[3] = d[6] = d[7] = d_of(t1, i);
    }
  }
  return dbuf.data();
}

// Walks nr / 4 row groups x the call's token pairs in tiles of up to 4 pairs:
// tile(std::integral_constant<int, P>, g, tokens, pair0, last_single, prefetch, out) fills out[8 * P]
// with a tile's lanes [t r0, t r1, t' r0, t' r1 | t r2, t r3, t' r2, t' r3] per pair, where tokens[k]
// (k < 2P) is the token of lane group k (the last token again past nt) and last_single says the
// last pair has one token. prefetch: the first pass over a row group of a call with 4+ tokens
// (it brings the group's weights in; later passes find them in L1).
template <typename Tile>
void for_pair_tiles(int nr, int nt, float* y, size_t ys, Tile tile) {
  const int pairs = (nt + 1) / 2;
  alignas(32) float o[32];
  int tokens[8];
  for (int g = 0; g < nr / 4; g++) {
    for (int p0 = 0; p0 < pairs; p0 += 4) {
      const int np = pairs - p0 < 4 ? pairs - p0 : 4;
      for (int k = 0; k < 2 * np; k++) tokens[k] = 2 * p0 + k < nt ? 2 * p0 + k : nt - 1;
      const bool last_single = p0 + np == pairs && nt % 2 == 1;
      const bool prefetch = p0 == 0 && nt >= 4;
      switch (np) {
        case 4: tile(std::integral_constant<int, 4>(), g, tokens, p0, last_single, prefetch, o); break;
        case 3: tile(std::integral_constant<int, 3>(), g, tokens, p0, last_single, prefetch, o); break;
        case 2: tile(std::integral_constant<int, 2>(), g, tokens, p0, last_single, prefetch, o); break;
        default: tile(std::integral_constant<int, 1>(), g, tokens, p0, last_single, prefetch, o); break;
      }
      for (int p = 0; p < np; p++) {
        static constexpr int kRow[8] = {0, 1, 0, 1, 2, 3, 2, 3};
        static constexpr int kTok[8] = {0, 0, 1, 1, 0, 0, 1, 1};
        for (int l = 0; l < 8; l++) {
          const int t = 2 * (p0 + p) + kTok[l];
          if (t < nt) y[t * ys + g * 4 + kRow[l]] = o[8 * p + l];
        }
      }
    }
  }
}

}  // namespace kq
}  // namespace infer
