// Internal to native/kernels: what the 4-row interleaved layouts (q8_0_r4, q4_k_r4, q6_k_r4) share
// apart from their tiles: the build condition of their kernels, whether a weight can take one, the
// repack of a whole weight over the pool, and one row dequantized through its file blocks.
//
// A layout L describes itself by
//   using file_block, group_block;           // a row's block in the file; block i of 4 rows
//   static constexpr tensor_type file_type, type;
//   static constexpr int64_t block_elems;    // elements per file block
//   static void repack(const file_block* const* rows, int64_t i, group_block* out);
//   static void unrepack(const group_block& in, int r, file_block* out);  // row r, byte for byte
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/r4_tiles.h"

// The r4 tiles use AVX-512 VNNI/VL on 256-bit registers; other builds keep the file layouts.
#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__) && defined(__AVX512VNNI__) && defined(__AVX512VL__)
#define INFER_R4_VNNI 1
#endif

namespace infer {
namespace kq {

#ifdef INFER_R4_VNNI
constexpr bool kR4Kernels = true;
#else
constexpr bool kR4Kernels = false;
#endif

template <typename L>
bool can_repack_r4(const tensor_view& w) {
  return kR4Kernels && w.type == L::file_type && w.ne1 % 4 == 0 && w.ne0 % L::block_elems == 0 &&
         w.row_bytes == tensor_row_bytes(L::file_type, w.ne0);
}

template <typename L>
tensor_view repack_r4(const tensor_view& w, void* dst, thread_pool* pool) {
  using file_block = typename L::file_block;
  auto* out = static_cast<typename L::group_block*>(dst);
  const int64_t nb = w.ne0 / L::block_elems;
  const auto* src = static_cast<const uint8_t*>(w.data);
  repack_row_groups(w.ne1 / 4, pool, [&](int64_t g0, int64_t g1) {
    for (int64_t g = g0; g < g1; g++) {
      const file_block* rows[4];
      for (int r = 0; r < 4; r++) rows[r] = reinterpret_cast<const file_block*>(src + (g * 4 + r) * w.row_bytes);
      for (int64_t i = 0; i < nb; i++) L::repack(rows, i, &out[g * nb + i]);
    }
  });
  tensor_view v = w;
  v.type = L::type;
  v.data = dst;
  return v;
}

// Row `row` through its file blocks, so it dequantizes exactly as the file's row does.
template <typename L>
void dequantize_row_r4(const tensor_view& w, int64_t row, float* out) {
  const int64_t nb = w.ne0 / L::block_elems;
  const auto* g = reinterpret_cast<const typename L::group_block*>(static_cast<const uint8_t*>(w.data) +
                                                                   (row / 4) * 4 * w.row_bytes);
  thread_local std::vector<typename L::file_block> buf;
  buf.resize(static_cast<size_t>(nb));
  for (int64_t i = 0; i < nb; i++) L::unrepack(g[i], static_cast<int>(row % 4), &buf[i]);
  dequantize_row({L::file_type, buf.data(), w.ne0, 1, w.row_bytes}, 0, out);
}

}  // namespace kq
}  // namespace infer
