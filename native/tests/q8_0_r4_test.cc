// q8_0_r4 (Q8_0 with 4 rows interleaved, made at load for the CPU): the matmul over it equals its
// scalar definition bit for bit, stays within float rounding of the plain Q8_0 matmul, gives the
// same bits whatever the thread count and token count, and dequantizes to the same rows.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/quants.h"
#include "tests/r4_checks.h"
#include "tests/test_main.h"

using infer::tensor_type;
using infer::tensor_view;
namespace kq = infer::kq;

namespace {

struct q8_weights {
  std::vector<uint8_t> bytes;
  tensor_view view;
};

q8_weights random_q8_0(int64_t rows, int64_t n, std::mt19937& rng) {
  q8_weights w;
  const int64_t nb = n / kq::QK;
  w.bytes.resize(static_cast<size_t>(rows * nb) * sizeof(kq::block_q8_0));
  auto* b = reinterpret_cast<kq::block_q8_0*>(w.bytes.data());
  std::uniform_int_distribution<int> q(-128, 127);
  std::uniform_real_distribution<float> d(0.0005f, 0.02f);
  for (int64_t i = 0; i < rows * nb; i++) {
    b[i].d = infer::fp32_to_fp16(i % 97 == 5 ? 0.0f : d(rng));  // a zero scale now and then
    for (auto& v : b[i].qs) v = static_cast<int8_t>(q(rng));
  }
  w.view = {tensor_type::q8_0, w.bytes.data(), n, rows, infer::tensor_row_bytes(tensor_type::q8_0, n)};
  return w;
}

}  // namespace

TEST(q8_0_r4_matmul_definition_batch_and_thread_invariance) {
  std::mt19937 rng(11);
  infer_test::pools_1_2_3 threads;
  auto& pools = threads.pools;
  for (auto [n, rows] : {std::pair<int64_t, int64_t>{96, 12}, {896, 44}, {160, 256}}) {
    q8_weights w = random_q8_0(rows, n, rng);
    CHECK(infer::can_repack_q8_0_r4(w.view) == kq::r4_kernels(), "can_repack follows the build's kernels");
    std::vector<uint8_t> packed(w.bytes.size());
    const tensor_view r4 = infer::repack_q8_0_r4(w.view, packed.data());
    CHECK(r4.type == tensor_type::q8_0_r4 && r4.ne0 == n && r4.ne1 == rows, "view");

    std::vector<float> a(static_cast<size_t>(n)), b(static_cast<size_t>(n));
    int deq_diff = 0;
    for (int64_t r = 0; r < rows; r++) {
      infer::dequantize_row(w.view, r, a.data());
      infer::dequantize_row(r4, r, b.data());
      deq_diff += std::memcmp(a.data(), b.data(), a.size() * 4) != 0;
    }
    CHECK(deq_diff == 0, std::to_string(deq_diff) + " rows dequantize differently");

    for (int nt : {1, 2, 3, 5, 8, 9, 17, 33}) {
      const std::string label = "n=" + std::to_string(n) + " rows=" + std::to_string(rows) + " tokens=" + std::to_string(nt);
      auto x = infer_test::randn(static_cast<size_t>(n * nt), rng);
      if (nt > 1) std::fill(x.begin() + n, x.begin() + 2 * n, 0.0f);  // an all-zero token (d == 0)

      // The definition, on the same activation blocks the matmul makes.
      const size_t as = kq::act_row_bytes(kq::act_format::q8_0, n);
      std::vector<uint8_t> act(as * static_cast<size_t>(nt));
      for (int t = 0; t < nt; t++) kq::convert_act_row(kq::act_format::q8_0, x.data() + t * n, act.data() + t * as, n);
      std::vector<float> def(static_cast<size_t>(rows * nt));
      kq::gemm_q8_0_r4_reference(n, packed.data(), static_cast<int>(rows), act.data(), as, nt, def.data(),
                                 static_cast<size_t>(rows));

      const std::vector<float> first = infer_test::check_r4_matmul(r4, x, nt, def, pools, label);
      // Within float rounding of the plain Q8_0 matmul (the same integers, summed in another order).
      std::vector<float> plain(static_cast<size_t>(rows * nt));
      infer::matmul(w.view, x.data(), nt, plain.data(), *pools[1]);
      double ymax = 0, dmax = 0;
      for (size_t k = 0; k < plain.size(); k++) {
        ymax = std::max(ymax, static_cast<double>(std::fabs(plain[k])));
        dmax = std::max(dmax, static_cast<double>(std::fabs(plain[k] - first[k])));
      }
      CHECK(dmax <= 2e-6 * ymax + 1e-30, label + ": max |q8_0 - q8_0_r4| " + std::to_string(dmax) + " of max |y| " + std::to_string(ymax));
    }
  }
}

TEST(q8_0_r4_only_where_it_applies) {
  std::mt19937 rng(12);
  q8_weights odd_rows = random_q8_0(10, 64, rng);
  CHECK(!infer::can_repack_q8_0_r4(odd_rows.view), "rows not a multiple of 4 stay Q8_0");
  q8_weights w = random_q8_0(8, 64, rng);
  w.view.type = tensor_type::q4_0;
  CHECK(!infer::can_repack_q8_0_r4(w.view), "only Q8_0");
}
