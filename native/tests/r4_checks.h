// Checks shared by the tests of the 4-row interleaved layouts (q8_0_r4_test.cc, q4_k_r4_test.cc,
// q6_k_r4_test.cc).
#pragma once
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
#include "tests/ref_quant.h"
#include "tests/test_main.h"

namespace infer_test {

// n values drawn from N(0, 1).
std::vector<float> randn(size_t n, std::mt19937& rng);

// One pool each of 1, 2 and 3 threads.
struct pools_1_2_3 {
  std::unique_ptr<infer::thread_pool> pools[3] = {std::make_unique<infer::thread_pool>(1),
                                                  std::make_unique<infer::thread_pool>(2),
                                                  std::make_unique<infer::thread_pool>(3)};
};

// matmul over r4 (n_tokens tokens of x) with each of the pools: the first pool's result equals def
// bit for bit, the others the first's, and every token alone (pools[1]) gives its own bits again.
// Returns the first pool's result.
std::vector<float> check_r4_matmul(const infer::tensor_view& r4, const std::vector<float>& x, int n_tokens,
                                   const std::vector<float>& def, const std::unique_ptr<infer::thread_pool> (&pools)[3],
                                   const std::string& label);

// A K-quant r4 layout (Q8_K activations) under test: its functions, and the test's own scalar
// definition of one output (written on the file's blocks, independently of the kernel file) and
// the double-precision sum of the same integers.
template <typename FileBlock, typename GroupBlock>
struct k_r4_case {
  const char* name;
  infer::tensor_type file_type, r4_type;
  bool (*can_repack)(const infer::tensor_view&);
  infer::tensor_view (*repack)(const infer::tensor_view&, void*, infer::thread_pool*);
  void (*unrepack)(const GroupBlock&, int, FileBlock*);
  void (*reference)(int64_t, const uint8_t*, int, const uint8_t*, size_t, int, float*, size_t);
  float (*definition)(const FileBlock*, const infer::kq::block_q8_K*, int64_t);
  double (*exact)(const FileBlock*, const infer::kq::block_q8_K*, int64_t);
};

// Over shapes 256x12, 1024x44, 768x200 and 1 .. 33 tokens (one all-zero): the repack round trip
// byte for byte and the dequantized rows; the kernel file's scalar reference and the matmul against
// the definition bit for bit; 1 / 2 / 3 threads and every token alone bit for bit; the plain matmul
// of the file type within 4e-6 of the largest output. Prints both largest errors against the double sum.
template <typename FileBlock, typename GroupBlock>
void check_k_r4(const k_r4_case<FileBlock, GroupBlock>& c, unsigned seed) {
  namespace kq = infer::kq;
  using infer::tensor_view;
  std::mt19937 rng(seed);
  infer_test::pools_1_2_3 threads;
  auto& pools = threads.pools;
  double worst_r4 = 0, worst_plain = 0;
  for (auto [n, rows] : {std::pair<int64_t, int64_t>{256, 12}, {1024, 44}, {768, 200}}) {
    const int64_t nb = n / kq::QK_K;
    std::vector<uint8_t> bytes = random_blocks(c.file_type, rows, n, rng);
    const tensor_view fv{c.file_type, bytes.data(), n, rows, infer::tensor_row_bytes(c.file_type, n)};
    CHECK(c.can_repack(fv) == kq::r4_kernels(), "can_repack follows the build's kernels");
    std::vector<uint8_t> packed(bytes.size());
    const tensor_view r4 = c.repack(fv, packed.data(), nullptr);
    CHECK(r4.type == c.r4_type && r4.ne0 == n && r4.ne1 == rows && r4.row_bytes == fv.row_bytes, "view");

    // Lossless: every row's blocks back byte for byte, and the same dequantized rows.
    const auto* file = reinterpret_cast<const FileBlock*>(bytes.data());
    const auto* groups = reinterpret_cast<const GroupBlock*>(packed.data());
    int block_diff = 0, deq_diff = 0;
    std::vector<float> da(static_cast<size_t>(n)), db(static_cast<size_t>(n));
    for (int64_t r = 0; r < rows; r++) {
      for (int64_t i = 0; i < nb; i++) {
        FileBlock back;
        c.unrepack(groups[(r / 4) * nb + i], static_cast<int>(r % 4), &back);
        block_diff += std::memcmp(&back, &file[r * nb + i], sizeof back) != 0;
      }
      infer::dequantize_row(fv, r, da.data());
      infer::dequantize_row(r4, r, db.data());
      deq_diff += std::memcmp(da.data(), db.data(), da.size() * 4) != 0;
    }
    CHECK(block_diff == 0, std::to_string(block_diff) + " blocks differ after the round trip");
    CHECK(deq_diff == 0, std::to_string(deq_diff) + " rows dequantize differently");

    for (int nt : {1, 2, 3, 5, 8, 9, 16, 17, 33}) {
      const std::string label = "n=" + std::to_string(n) + " rows=" + std::to_string(rows) + " tokens=" + std::to_string(nt);
      auto x = randn(static_cast<size_t>(n * nt), rng);
      if (nt > 1) std::fill(x.begin() + n, x.begin() + 2 * n, 0.0f);  // an all-zero token (d == 0)

      // The definitions on the same activation blocks the matmul makes: this file's, on the file
      // blocks, and fv_k_r4.cc's scalar reference, on the repacked ones.
      const size_t as = kq::act_row_bytes(kq::act_format::q8_K, n);
      std::vector<uint8_t> act(as * static_cast<size_t>(nt));
      for (int t = 0; t < nt; t++) kq::convert_act_row(kq::act_format::q8_K, x.data() + t * n, act.data() + t * as, n);
      std::vector<float> def(static_cast<size_t>(rows * nt)), ref(def.size());
      std::vector<double> dbl(def.size());
      for (int t = 0; t < nt; t++)
        for (int64_t r = 0; r < rows; r++) {
          const auto* a = reinterpret_cast<const kq::block_q8_K*>(act.data() + t * as);
          def[t * rows + r] = c.definition(file + r * nb, a, nb);
          dbl[t * rows + r] = c.exact(file + r * nb, a, nb);
        }
      c.reference(n, packed.data(), static_cast<int>(rows), act.data(), as, nt, ref.data(),
                                 static_cast<size_t>(rows));
      CHECK(std::memcmp(ref.data(), def.data(), def.size() * 4) == 0, label + ": the scalar reference differs from the definition");

      const std::vector<float> first = check_r4_matmul(r4, x, nt, def, pools, label);
      // Within float rounding of the plain matmul of the file type (the same integers, combined in another
      // order); both against the double-precision sum of the same integers.
      std::vector<float> plain(static_cast<size_t>(rows * nt));
      infer::matmul(fv, x.data(), nt, plain.data(), *pools[1]);
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
      CHECK(dmax <= 4e-6 * ymax + 1e-30, label + ": max |" + infer::tensor_type_name(c.file_type) + " - " + c.name + "| " + std::to_string(dmax) + " of max |y| " + std::to_string(ymax));
    }
  }
  std::printf("  %s: largest error against a double sum, of the largest output: %.2e (%s: %.2e)\n", c.name, worst_r4,
              infer::tensor_type_name(c.file_type), worst_plain);
}

}  // namespace infer_test
