// Weight layouts for the CPU forward pass, made once when a model is served on the CPU.
#pragma once
#include "model/model.h"

namespace infer {

// Repacks the dense matmul weights that have a faster CPU layout (Q8_0 -> q8_0_r4, Q4_K ->
// q4_k_r4, Q6_K -> q6_k_r4, 4 rows interleaved) into memory owned by m, points their views there (token_embd too
// when the output is tied to it) and releases the file pages they were read from. Experts stay as they are (their
// views are slices of one stacked tensor). Returns the bytes repacked.
// The repacked types are CPU-only: a GPU backend created later on the same model declines it, so
// engines that share one model must all be CPU engines (the registry gives each path one engine).
// INFER_Q8_0_R4=0 / INFER_Q4_K_R4=0 / INFER_Q6_K_R4=0 turn each off (A/B).
size_t use_cpu_layouts(model& m, thread_pool& pool);

}  // namespace infer
