// Elementwise ops on the device (launchers only): the gated activations where gate and up come
// from separate products, the embedding scale and the final logit soft-cap (bias and residual adds
// live in the matmul epilogue, matmul.cuh).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/activation.cuh"

namespace infer {
namespace cu {

// gate[i] = act(gate[i]) * up[i], n elements.
void glu(float* gate, const float* up, int64_t n, glu_kind act, cudaStream_t stream);
inline void swiglu(float* gate, const float* up, int64_t n, cudaStream_t stream) { glu(gate, up, n, glu_kind::silu, stream); }

// x[i] *= s (gemma's sqrt(n_embd) embedding scale).
void scale(float* x, int64_t n, float s, cudaStream_t stream);

// x[i] = tanh(x[i] / cap) * cap, as the CPU's softcap_row (x * (1 / cap), tanh, * cap).
void softcap(float* x, int64_t n, float cap, cudaStream_t stream);

}  // namespace cu
}  // namespace infer
