// Dispatch from the matmul driver to the best kernels this build has: AVX2 (quants_avx2.cc)
// when compiled with -mavx2 -mfma -mf16c, else the portable reference kernels.
#include "kernels/quants.h"

namespace infer {
namespace kq {

void convert_act_row(act_format f, const float* x, void* out, int64_t n) { convert_act_row_ref(f, x, out, n); }

float vec_dot(tensor_type w, int64_t n, const void* w_row, const void* act_row) {
  return vec_dot_ref(w, n, w_row, act_row);
}

void gemm_tile(tensor_type w, int64_t n, const uint8_t* w_rows, size_t w_stride, int nr, const uint8_t* act,
               size_t act_stride, int nt, float* y, size_t y_stride) {
  for (int r = 0; r < nr; r++)
    for (int t = 0; t < nt; t++)
      y[t * y_stride + r] = vec_dot(w, n, w_rows + r * w_stride, act + t * act_stride);
}

}  // namespace kq
}  // namespace infer
