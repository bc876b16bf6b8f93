// A llama/qwen2-family transformer over mmap'd GGUF weights: hyperparameters read only from the
// file's metadata, weights as kernels.h tensor views (never dequantized as a whole).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gguf/gguf_file.h"
#include "kernels/kernels.h"

namespace infer {

enum class rope_style { norm, neox };  // norm: adjacent pairs (llama); neox: half offset (qwen2)

struct model_hparams {
  std::string arch;
  int64_t n_ctx_train = 0;
  int64_t n_embd = 0;
  int64_t n_layer = 0;
  int64_t n_ff = 0;
  int64_t n_head = 0;
  int64_t n_head_kv = 0;
  int64_t head_dim = 0;    // key_length (= value_length)
  int64_t n_rot = 0;       // rope.dimension_count
  float rope_base = 10000.0f;
  float rms_eps = 1e-5f;
  int64_t n_vocab = 0;
  rope_style rope = rope_style::norm;
  int64_t q_dim() const { return n_head * head_dim; }
  int64_t kv_dim() const { return n_head_kv * head_dim; }
};

struct layer_weights {
  std::vector<float> attn_norm, ffn_norm;  // small: kept as f32 copies
  tensor_view wq, wk, wv, wo;
  std::vector<float> bq, bk, bv;  // empty when the architecture has no biases
  tensor_view w_gate, w_up, w_down;
};

// Everything the model needs from a file: filled by model_load (model_loader.cc), which is the
// only code that knows the GGUF reader.
struct model_weights {
  tensor_view token_embd;
  tensor_view output;  // == token_embd when tied
  bool tied_output = false;
  std::vector<float> output_norm;
  std::vector<layer_weights> layers;
};

struct model_vocab_info {
  int32_t bos = -1;
  std::vector<int32_t> eos;  // eos, eot, eom ... (deduplicated): every id that ends generation
};

struct model {
  std::string path;
  model_hparams hp;
  model_weights w;
  model_vocab_info vocab;
  std::shared_ptr<gguf_file> file;  // owns the mapping the tensor views point into
};

// Loads and validates; throws std::runtime_error naming the missing key/tensor or bad shape.
std::shared_ptr<model> model_load(const std::string& path);

}  // namespace infer
