// q6_k_r4 (Q6_K with 4 rows interleaved, made at load for the CPU): the repack is lossless (every
// row's Q6_K blocks come back byte for byte and dequantize the same), the matmul over it equals its
// scalar definition bit for bit, gives the same bits whatever the thread count and token count, and
// stays within float rounding of the plain Q6_K matmul (both measured against a double sum).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/quants.h"
#include "tests/r4_checks.h"
#include "tests/ref_quant.h"
#include "tests/test_main.h"

using infer::tensor_type;
using infer::tensor_view;
namespace kq = infer::kq;

namespace {

// The definition written out here again, independently of q6_k_r4.cc, on the file's own blocks:
// per super-block the exact integer S = sum over groups g of 16 of sc_g * sum (q - 32) * y, then
// acc = fma(float(S), d * dy, acc).
int32_t block_integer(const kq::block_q6_K& b, const kq::block_q8_K& a) {
  int32_t s = 0;
  for (int g = 0; g < 16; g++) {
    int32_t dot = 0;
    for (int k = 0; k < 16; k++) {
      const int e = 16 * g + k;                   // element e: half h, position l, quarter u
      const int h = e / 128, u = (e % 128) / 32, l = e % 32;
      const int low = (b.ql[64 * h + 32 * (u % 2) + l] >> (4 * (u / 2))) & 15;
      const int high = (b.qh[32 * h + l] >> (2 * u)) & 3;
      dot += ((low | (high << 4)) - 32) * a.qs[e];
    }
    s += b.scales[g] * dot;
  }
  return s;
}

float definition(const kq::block_q6_K* w, const kq::block_q8_K* a, int64_t nb) {
  float acc = 0.0f;
  for (int64_t i = 0; i < nb; i++)
    acc = std::fma(static_cast<float>(block_integer(w[i], a[i])), infer::fp16_to_fp32(w[i].d) * a[i].d, acc);
  return acc;
}

double exact(const kq::block_q6_K* w, const kq::block_q8_K* a, int64_t nb) {
  double acc = 0.0;
  for (int64_t i = 0; i < nb; i++)
    acc += static_cast<double>(infer::fp16_to_fp32(w[i].d)) * a[i].d * block_integer(w[i], a[i]);
  return acc;
}

}  // namespace

TEST(q6_k_r4_repack_definition_batch_and_thread_invariance) {
  const infer_test::k_r4_case<kq::block_q6_K, kq::block_q6_Kr4> c{
      "q6_k_r4", tensor_type::q6_k, tensor_type::q6_k_r4, infer::can_repack_q6_k_r4, infer::repack_q6_k_r4,
      kq::unrepack_q6_k_r4_block, kq::gemm_q6_k_r4_reference, definition, exact};
  infer_test::check_k_r4(c, 31);
}

TEST(q6_k_r4_only_where_it_applies) {
  std::mt19937 rng(32);
  std::vector<uint8_t> bytes = infer_test::random_blocks(tensor_type::q6_k, 10, 256, rng);
  const tensor_view odd{tensor_type::q6_k, bytes.data(), 256, 10, infer::tensor_row_bytes(tensor_type::q6_k, 256)};
  CHECK(!infer::can_repack_q6_k_r4(odd), "rows not a multiple of 4 stay Q6_K");
  tensor_view other = odd;
  other.ne1 = 8;
  other.type = tensor_type::q4_k;
  CHECK(!infer::can_repack_q6_k_r4(other), "only Q6_K");
}
