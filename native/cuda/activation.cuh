// The gated FFN's activations as device functions, shared by the elementwise GLU kernel and the
// gate/up product's epilogue (matmul.cu), so both compute the same thing.
#pragma once
#include <cuda_fp16.h>

namespace infer {
namespace cu {

// Which activation a gated FFN applies to its gate (the up product multiplies the result).
enum class glu_kind { silu, gelu_tanh };

__device__ __forceinline__ float silu(float x) { return x / (1.0f + expf(-x)); }

// GELU, tanh form, as the CPU forward computes it (ggml's f16 table, forward.cc gelu_f16_table):
// the input rounded to f16, the formula in fp32, the result rounded to f16; exact outside
// (-10, 10): 0 below, x above.
__device__ __forceinline__ float gelu_tanh_f16(float x) {
  if (x <= -10.0f) return 0.0f;
  if (x >= 10.0f) return x;
  const float h = __half2float(__float2half_rn(x));
  const float g = 0.5f * h * (1.0f + tanhf(0.79788456080286535588f * h * (1.0f + 0.044715f * h * h)));
  return __half2float(__float2half_rn(g));
}

__device__ __forceinline__ float glu_apply(glu_kind k, float gate, float up) {
  return (k == glu_kind::gelu_tanh ? gelu_tanh_f16(gate) : silu(gate)) * up;
}

}  // namespace cu
}  // namespace infer
