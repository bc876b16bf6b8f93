// Dispatch from the matmul driver to the best kernels this build has: AVX2 (quants_avx2.cc)
// when compiled with AVX2+FMA+F16C (the default -march=native on x86-64 machines that have
// them), else the portable reference kernels.
#include "kernels/quants.h"
#include "kernels/r4_layout.h"

namespace infer {
namespace kq {

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
constexpr bool kAvx2 = true;
#else
constexpr bool kAvx2 = false;
#endif

bool r4_kernels() { return kR4Kernels; }

void convert_act_row(act_format f, const float* x, void* out, int64_t n) {
  if (kAvx2) convert_act_row_avx2(f, x, out, n);
  else convert_act_row_ref(f, x, out, n);
}

float vec_dot(tensor_type w, int64_t n, const void* w_row, const void* act_row) {
  if (kAvx2) {
    float y = 0;
    gemm_tile_avx2(w, n, static_cast<const uint8_t*>(w_row), 0, 1, static_cast<const uint8_t*>(act_row), 0, 1, &y, 1);
    return y;
  }
  return vec_dot_ref(w, n, w_row, act_row);
}

void gemm_tile(tensor_type w, int64_t n, const uint8_t* w_rows, size_t w_stride, int nr, const uint8_t* act,
               size_t act_stride, int nt, float* y, size_t y_stride) {
  if (w == tensor_type::q8_0_r4) {  // groups of 4 rows, not rows: its own kernel in every build
    gemm_q8_0_r4(n, w_rows, nr, act, act_stride, nt, y, y_stride);
    return;
  }
  if (w == tensor_type::q4_k_r4) {
    gemm_q4_k_r4(n, w_rows, nr, act, act_stride, nt, y, y_stride);
    return;
  }
  if (w == tensor_type::q6_k_r4) {
    gemm_q6_k_r4(n, w_rows, nr, act, act_stride, nt, y, y_stride);
    return;
  }
  if (kAvx2) {
    gemm_tile_avx2(w, n, w_rows, w_stride, nr, act, act_stride, nt, y, y_stride);
    return;
  }
  for (int r = 0; r < nr; r++)
    for (int t = 0; t < nt; t++)
      y[t * y_stride + r] = vec_dot_ref(w, n, w_rows + r * w_stride, act + t * act_stride);
}

}  // namespace kq
}  // namespace infer
