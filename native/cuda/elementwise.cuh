// Small elementwise ops on the device (launchers only): SwiGLU, bias add, residual add.
// Kept in one file pair: each is a few lines and a separate nvcc invocation costs CI seconds.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace infer {
namespace cu {

// gate[i] = silu(gate[i]) * up[i], n elements.
void swiglu(float* gate, const float* up, int64_t n, cudaStream_t stream);
// y[t * d + i] += b[i] for t < n_rows.
void add_bias(float* y, const float* b, int n_rows, int d, cudaStream_t stream);
// x[i] += y[i], n elements.
void add_inplace(float* x, const float* y, int64_t n, cudaStream_t stream);

}  // namespace cu
}  // namespace infer
