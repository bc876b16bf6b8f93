// q4_k_r4 (Q4_K with 4 rows interleaved, made at load for the CPU): the repack is lossless (every
// row's Q4_K blocks come back byte for byte and dequantize the same), the matmul over it equals its
// scalar definition bit for bit, gives the same bits whatever the thread count and token count, and
// stays within float rounding of the plain Q4_K matmul (both measured against a double sum).
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

// The definition written out here again, independently of q4_k_r4.cc, on the file's own blocks:
// per super-block the exact integers S (scaled sub-block dots) and M (mins x pair sums of bsums),
// then acc = fma(float(S), d * dy, acc); acc = fma(float(M), -dmin * dy, acc).
void scale_min(const uint8_t* q, int j, int* sc, int* m) {
  if (j < 4) {
    *sc = q[j] & 63;
    *m = q[j + 4] & 63;
  } else {
    *sc = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
    *m = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
  }
}

void block_integers(const kq::block_q4_K& b, const kq::block_q8_K& a, int32_t* s, int32_t* m) {
  *s = *m = 0;
  for (int j = 0; j < 8; j++) {
    int sc, mn;
    scale_min(b.scales, j, &sc, &mn);
    int32_t dot = 0;
    for (int k = 0; k < 32; k++) {
      const uint8_t byte = b.qs[32 * (j / 2) + k];
      dot += (j % 2 ? byte >> 4 : byte & 15) * a.qs[32 * j + k];
    }
    *s += sc * dot;
    *m += mn * (a.bsums[2 * j] + a.bsums[2 * j + 1]);
  }
}

float definition(const kq::block_q4_K* w, const kq::block_q8_K* a, int64_t nb) {
  float acc = 0.0f;
  for (int64_t i = 0; i < nb; i++) {
    int32_t s, m;
    block_integers(w[i], a[i], &s, &m);
    acc = std::fma(static_cast<float>(s), infer::fp16_to_fp32(w[i].d) * a[i].d, acc);
    acc = std::fma(static_cast<float>(m), -infer::fp16_to_fp32(w[i].dmin) * a[i].d, acc);
  }
  return acc;
}

double exact(const kq::block_q4_K* w, const kq::block_q8_K* a, int64_t nb) {
  double acc = 0.0;
  for (int64_t i = 0; i < nb; i++) {
    int32_t s, m;
    block_integers(w[i], a[i], &s, &m);
    acc += static_cast<double>(infer::fp16_to_fp32(w[i].d)) * a[i].d * s -
           static_cast<double>(infer::fp16_to_fp32(w[i].dmin)) * a[i].d * m;
  }
  return acc;
}

}  // namespace

TEST(q4_k_r4_repack_definition_batch_and_thread_invariance) {
  const infer_test::k_r4_case<kq::block_q4_K, kq::block_q4_Kr4> c{
      "q4_k_r4", tensor_type::q4_k, tensor_type::q4_k_r4, infer::can_repack_q4_k_r4, infer::repack_q4_k_r4,
      kq::unrepack_q4_k_r4_block, kq::gemm_q4_k_r4_reference, definition, exact};
  infer_test::check_k_r4(c, 21);
}

TEST(q4_k_r4_only_where_it_applies) {
  std::mt19937 rng(22);
  std::vector<uint8_t> bytes = infer_test::random_blocks(tensor_type::q4_k, 10, 256, rng);
  const tensor_view odd{tensor_type::q4_k, bytes.data(), 256, 10, infer::tensor_row_bytes(tensor_type::q4_k, 256)};
  CHECK(!infer::can_repack_q4_k_r4(odd), "rows not a multiple of 4 stay Q4_K");
  tensor_view other = odd;
  other.ne1 = 8;
  other.type = tensor_type::q5_k;
  CHECK(!infer::can_repack_q4_k_r4(other), "only Q4_K");
}
