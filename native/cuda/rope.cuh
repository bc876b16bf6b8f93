// Rotary position embedding on the device (launchers only).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace infer {
namespace cu {

// In place on q [n_tokens][n_head * head_dim] and k [n_tokens][n_head_kv * head_dim], first n_rot
// dims of each head. neox = false: adjacent pairs (llama, NORM); true: pairs n_rot/2 apart (qwen2).
// theta_i = pos * freq_base^(-2i / n_rot).
void rope(float* q, float* k, const int32_t* pos, int n_tokens, int n_head, int n_head_kv, int head_dim, int n_rot,
          float freq_base, bool neox, cudaStream_t stream);

}  // namespace cu
}  // namespace infer
