// Small helpers shared by cuda_tests and cuda_bench: device buffers, a check counter, timers.
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace infer {
namespace cuda_check {

inline void ok_or_throw(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// A device array of T (RAII). poison() fills it with 0xFF bytes (NaN for floats) so unwritten
// outputs show up.
template <typename T>
class dbuf {
 public:
  explicit dbuf(size_t n) : n_(n) { ok_or_throw(cudaMalloc(&p_, std::max<size_t>(n, 1) * sizeof(T)), "cudaMalloc"); }
  explicit dbuf(const std::vector<T>& v) : dbuf(v.size()) { upload(v); }
  ~dbuf() { cudaFree(p_); }
  dbuf(const dbuf&) = delete;
  dbuf& operator=(const dbuf&) = delete;
  T* get() const { return p_; }
  void upload(const std::vector<T>& v) {
    ok_or_throw(cudaMemcpy(p_, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  std::vector<T> download() const {
    ok_or_throw(cudaDeviceSynchronize(), "kernel");
    std::vector<T> v(n_);
    ok_or_throw(cudaMemcpy(v.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return v;
  }
  void poison() { ok_or_throw(cudaMemset(p_, 0xFF, n_ * sizeof(T)), "cudaMemset"); }

 private:
  T* p_ = nullptr;
  size_t n_;
};

// ||a - b|| / ||b|| (NaN anywhere gives +inf) and max |a - b|.
struct err_stats {
  double rel_l2 = 0, max_abs = 0;
};
template <typename A, typename B>
err_stats compare(const A& a, const B& b, size_t n) {
  double num = 0, den = 0, mx = 0;
  for (size_t i = 0; i < n; ++i) {
    const double x = a[i], y = b[i];
    if (std::isnan(x) || std::isnan(y)) return {INFINITY, INFINITY};
    num += (x - y) * (x - y);
    den += y * y;
    mx = std::max(mx, std::fabs(x - y));
  }
  return {den > 0 ? std::sqrt(num / den) : std::sqrt(num), mx};
}

struct checker {
  int checks = 0, failures = 0;
  void expect(bool ok, const std::string& what, const std::string& detail = "") {
    ++checks;
    if (!ok) ++failures;
    std::printf("%s %s%s%s\n", ok ? "  ok  " : "  FAIL", what.c_str(), detail.empty() ? "" : "  ", detail.c_str());
    std::fflush(stdout);
  }
};

inline std::string fmt(const char* f, double a, double b = 0, double c = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c);
  return buf;
}

}  // namespace cuda_check
}  // namespace infer
