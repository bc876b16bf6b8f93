// Elementwise ops on the device (launchers only): SwiGLU (bias and residual adds live in the
// matmul epilogue, matmul.cuh).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace infer {
namespace cu {

// gate[i] = silu(gate[i]) * up[i], n elements.
void swiglu(float* gate, const float* up, int64_t n, cudaStream_t stream);

}  // namespace cu
}  // namespace infer
