// RMSNorm on the device (launchers only).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace infer {
namespace cu {

// y[k] = x[rows ? rows[k] : k] * rsqrt(mean(x^2) + eps) * w for k < n_rows, rows of d floats.
// rows (device, optional) gathers the rows whose logits are wanted. y may be x (in place) when rows
// is null.
void rms_norm(const float* x, const float* w, float* y, int n_rows, int d, float eps, const int32_t* rows,
              cudaStream_t stream);

// y[k] += x[k] * rsqrt(mean(x[k]^2) + eps) * w for k < n_rows (x and y distinct): a norm of a
// sublayer's output fused with the residual add (gemma's post-attention and post-FFN norms).
void rms_norm_add(const float* x, const float* w, float* y, int n_rows, int d, float eps, cudaStream_t stream);

}  // namespace cu
}  // namespace infer
