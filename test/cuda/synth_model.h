// Random-weight llama/qwen2/qwen3/phi3/gemma2/gemma3 models built in memory in any GGUF weight encoding, for the CUDA
// checks and bench (no file, no node: a GPU machine needs only the compiler). Weights are random
// blocks of the real encodings (random quants, small positive scales), so the device decoders see
// every bit pattern the CPU decoders see.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/model.h"

namespace infer {

struct synth_spec {
  std::string arch = "qwen2";
  int64_t dim = 128, layers = 2, heads = 4, kv_heads = 2, ffn = 512, vocab = 1000, ctx = 4096;
  int64_t head_dim = 0;  // 0: dim / heads (qwen3's files set a larger one)
  float rope_base = 1e6f, eps = 1e-6f;
  // gemma2 / gemma3 (ignored by the other families): sliding window (0: none) on the layers
  // il % swa_period < swa_period - 1, whose RoPE base is rope_base_swa on gemma3 (gemma2's windowed
  // layers keep rope_base); soft-caps (0: none); query scale (0: 1 / sqrt(head_dim)).
  int64_t window = 0, swa_period = 2;
  float rope_base_swa = 10000.0f;
  float attn_softcap = 0.0f, final_softcap = 0.0f, attn_scale = 0.0f;
  bool tied = true;
  std::string dtype = "q8_0";  // f32 f16 bf16 q8_0 q4_0 q5_0 q4_k q5_k q6_k (K-quants fall back when ne0 % 256 != 0)
  uint64_t seed = 1;
};

struct synth_model {
  std::shared_ptr<model> m;
  std::vector<std::unique_ptr<uint8_t[]>> storage;  // owns the weight bytes the views point into
  size_t weight_bytes = 0;                          // every 2-D weight (the tied matrix once)
};

// Throws std::runtime_error on an unknown dtype.
std::unique_ptr<synth_model> synth_model_make(const synth_spec& s);

// A copy of m whose 2-D weights are dequantized to f32 (norms, biases and hparams as they are): the
// CPU forward runs it with fp32 activations, as the GPU runs m, so the two can be compared far
// more tightly than against the CPU on m (which quantizes activations to 8 bits for quantized
// weights and to f16 for f16 ones).
std::unique_ptr<synth_model> synth_model_dequantized(const model& m);

// A weight matrix of random blocks of type t (rows x ne0), owned by `storage`.
tensor_view synth_tensor(tensor_type t, int64_t ne0, int64_t rows, uint64_t seed,
                         std::vector<std::unique_ptr<uint8_t[]>>& storage);

bool synth_parse_type(const std::string& name, tensor_type* out);

}  // namespace infer
