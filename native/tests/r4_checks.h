// Checks shared by the tests of the 4-row interleaved layouts (q8_0_r4_test.cc, q4_k_r4_test.cc).
#pragma once
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernels/kernels.h"

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

}  // namespace infer_test
