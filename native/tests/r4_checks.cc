#include "tests/r4_checks.h"

#include <cmath>
#include <cstring>

#include "tests/test_main.h"

namespace infer_test {

std::vector<float> randn(size_t n, std::mt19937& rng) {
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = g(rng);
  return v;
}

std::vector<float> check_r4_matmul(const infer::tensor_view& r4, const std::vector<float>& x, int n_tokens,
                                   const std::vector<float>& def, const std::unique_ptr<infer::thread_pool> (&pools)[3],
                                   const std::string& label) {
  const int64_t rows = r4.ne1, n = r4.ne0;
  std::vector<float> first;
  for (int p = 0; p < 3; p++) {
    std::vector<float> y(static_cast<size_t>(rows * n_tokens), NAN);
    infer::matmul(r4, x.data(), n_tokens, y.data(), *pools[p]);
    if (p == 0) {
      CHECK(std::memcmp(y.data(), def.data(), y.size() * 4) == 0, label + ": differs from the scalar definition");
      first = y;
    } else {
      CHECK(std::memcmp(first.data(), y.data(), y.size() * 4) == 0, label + ": differs between thread counts");
    }
  }
  // Batch invariance: each token alone gives the same bits.
  std::vector<float> one(static_cast<size_t>(rows));
  int tok_diff = 0;
  for (int t = 0; t < n_tokens; t++) {
    infer::matmul(r4, x.data() + t * n, 1, one.data(), *pools[1]);
    tok_diff += std::memcmp(one.data(), first.data() + t * rows, one.size() * 4) != 0;
  }
  CHECK(tok_diff == 0, label + ": " + std::to_string(tok_diff) + " tokens differ from their single-token matmul");
  return first;
}

}  // namespace infer_test
