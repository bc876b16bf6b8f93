// Sampling support on the device (launchers only): greedy argmax, softmax, top-k. The engine's
// full sampler (penalties, grammar masks, top-p, seeds) stays on the CPU and gets the logits rows
// copied back; these serve greedy decoding without a copy (bench) and device-side top-k.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace infer {
namespace cu {

// out[r] = index of the largest logits[r][...] (lowest index on ties), n_rows rows of n_vocab.
void argmax_rows(const float* logits, int n_rows, int n_vocab, int32_t* out, cudaStream_t stream);
// probs[r][i] = softmax(logits[r] / temperature)[i] (probs may alias logits).
void softmax_rows(const float* logits, float* probs, int n_rows, int n_vocab, float temperature, cudaStream_t stream);
// The k largest of each row, best first (ties: lower index first); k <= 64.
void topk_rows(const float* logits, int n_rows, int n_vocab, int k, int32_t* ids, float* values, cudaStream_t stream);

}  // namespace cu
}  // namespace infer
