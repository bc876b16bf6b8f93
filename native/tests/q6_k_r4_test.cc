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
  std::mt19937 rng(31);
  infer_test::pools_1_2_3 threads;
  auto& pools = threads.pools;
  double worst_r4 = 0, worst_plain = 0;
  for (auto [n, rows] : {std::pair<int64_t, int64_t>{256, 12}, {1024, 44}, {768, 200}}) {
    const int64_t nb = n / kq::QK_K;
    std::vector<uint8_t> bytes = infer_test::random_blocks(tensor_type::q6_k, rows, n, rng);
    const tensor_view q6{tensor_type::q6_k, bytes.data(), n, rows, infer::tensor_row_bytes(tensor_type::q6_k, n)};
    CHECK(infer::can_repack_q6_k_r4(q6) == kq::r4_kernels(), "can_repack follows the build's kernels");
    std::vector<uint8_t> packed(bytes.size());
    const tensor_view r4 = infer::repack_q6_k_r4(q6, packed.data());
    CHECK(r4.type == tensor_type::q6_k_r4 && r4.ne0 == n && r4.ne1 == rows && r4.row_bytes == q6.row_bytes, "view");

    // Lossless: every row's blocks back byte for byte, and the same dequantized rows.
    const auto* file = reinterpret_cast<const kq::block_q6_K*>(bytes.data());
    const auto* groups = reinterpret_cast<const kq::block_q6_Kr4*>(packed.data());
    int block_diff = 0, deq_diff = 0;
    std::vector<float> da(static_cast<size_t>(n)), db(static_cast<size_t>(n));
    for (int64_t r = 0; r < rows; r++) {
      for (int64_t i = 0; i < nb; i++) {
        kq::block_q6_K back;
        kq::unrepack_q6_k_r4_block(groups[(r / 4) * nb + i], static_cast<int>(r % 4), &back);
        block_diff += std::memcmp(&back, &file[r * nb + i], sizeof back) != 0;
      }
      infer::dequantize_row(q6, r, da.data());
      infer::dequantize_row(r4, r, db.data());
      deq_diff += std::memcmp(da.data(), db.data(), da.size() * 4) != 0;
    }
    CHECK(block_diff == 0, std::to_string(block_diff) + " blocks differ after the round trip");
    CHECK(deq_diff == 0, std::to_string(deq_diff) + " rows dequantize differently");

    for (int nt : {1, 2, 3, 5, 8, 9, 16, 17, 33}) {
      const std::string label = "n=" + std::to_string(n) + " rows=" + std::to_string(rows) + " tokens=" + std::to_string(nt);
      auto x = infer_test::randn(static_cast<size_t>(n * nt), rng);
      if (nt > 1) std::fill(x.begin() + n, x.begin() + 2 * n, 0.0f);  // an all-zero token (d == 0)

      // The definitions on the same activation blocks the matmul makes: this file's, on the file
      // blocks, and q6_k_r4.cc's scalar reference, on the repacked ones.
      const size_t as = kq::act_row_bytes(kq::act_format::q8_K, n);
      std::vector<uint8_t> act(as * static_cast<size_t>(nt));
      for (int t = 0; t < nt; t++) kq::convert_act_row(kq::act_format::q8_K, x.data() + t * n, act.data() + t * as, n);
      std::vector<float> def(static_cast<size_t>(rows * nt)), ref(def.size());
      std::vector<double> dbl(def.size());
      for (int t = 0; t < nt; t++)
        for (int64_t r = 0; r < rows; r++) {
          const auto* a = reinterpret_cast<const kq::block_q8_K*>(act.data() + t * as);
          def[t * rows + r] = definition(file + r * nb, a, nb);
          dbl[t * rows + r] = exact(file + r * nb, a, nb);
        }
      kq::gemm_q6_k_r4_reference(n, packed.data(), static_cast<int>(rows), act.data(), as, nt, ref.data(),
                                 static_cast<size_t>(rows));
      CHECK(std::memcmp(ref.data(), def.data(), def.size() * 4) == 0, label + ": the scalar reference differs from the definition");

      const std::vector<float> first = infer_test::check_r4_matmul(r4, x, nt, def, pools, label);
      // Within float rounding of the plain Q6_K matmul (the same integers, combined in another
      // order); both against the double-precision sum of the same integers.
      std::vector<float> plain(static_cast<size_t>(rows * nt));
      infer::matmul(q6, x.data(), nt, plain.data(), *pools[1]);
      double ymax = 0, dmax = 0, e_r4 = 0, e_plain = 0;
      for (size_t k = 0; k < plain.size(); k++) {
        ymax = std::max(ymax, std::fabs(dbl[k]));
        dmax = std::max(dmax, static_cast<double>(std::fabs(plain[k] - first[k])));
        e_r4 = std::max(e_r4, std::fabs(first[k] - dbl[k]));
        e_plain = std::max(e_plain, std::fabs(plain[k] - dbl[k]));
      }
      if (ymax > 0) {
        worst_r4 = std::max(worst_r4, e_r4 / ymax);
        worst_plain = std::max(worst_plain, e_plain / ymax);
      }
      CHECK(dmax <= 4e-6 * ymax + 1e-30, label + ": max |q6_k - q6_k_r4| " + std::to_string(dmax) + " of max |y| " + std::to_string(ymax));
    }
  }
  std::printf("  q6_k_r4: largest error against a double sum, of the largest output: %.2e (q6_k: %.2e)\n", worst_r4,
              worst_plain);
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
