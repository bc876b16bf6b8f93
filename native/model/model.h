// A decoder-only transformer of the llama family and its relatives (llama, qwen2, qwen3, gemma2,
// gemma3, phi3, and the MoE families qwen3moe, gpt-oss) over mmap'd GGUF weights: hyperparameters read only from the file's metadata,
// weights as kernels.h tensor views (never dequantized as a whole). What differs between families
// is described here as data (flags, scales, optional tensors); model_loader.cc is the one place
// that maps an architecture onto it.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "gguf/gguf_file.h"
#include "kernels/kernels.h"

namespace infer {

enum class rope_style { norm, neox };  // norm: adjacent pairs (llama); neox: half offset (qwen2)
// The gated FFN's activation: SwiGLU, GeGLU, or gpt-oss's clamped SwiGLU (swiglu_oai).
enum class ffn_activation { silu, gelu_tanh, swiglu_oai };

// How the router's logits become the k experts and their weights (llama.cpp's gating functions):
// softmax over all experts then the top-k (qwen3moe, Mixtral: SOFTMAX), or the top-k logits then
// a softmax over those k (gpt-oss: SOFTMAX_WEIGHT).
enum class moe_gating { softmax_then_topk, topk_then_softmax };

// Mixture-of-experts FFN: a router picks n_expert_used of n_expert gated FFNs per token, their
// outputs summed with the routing weights.
struct moe_hparams {
  int64_t n_expert = 0;       // 0: dense FFN
  int64_t n_expert_used = 0;  // top-k
  int64_t n_ff_exp = 0;       // each expert's FFN width
  moe_gating gating = moe_gating::softmax_then_topk;
  bool norm_w = false;        // renormalise the k selected weights to sum 1
};

// RoPE of one kind of layer: base, linear position scale (1 / rope.scaling.factor), the factor
// cos/sin are multiplied by (LongRoPE's attn_factor), per-dimension frequency divisors, and YaRN
// (ext_factor != 0: the fast dimensions extrapolate instead of interpolating; rope.h).
struct rope_params {
  float base = 10000.0f;
  float freq_scale = 1.0f;
  float attn_factor = 1.0f;
  std::vector<float> freq_factors;  // n_rot / 2 divisors of theta, or empty
  float ext_factor = 0.0f;          // YaRN: 1, else 0
  int64_t yarn_n_ctx_orig = 0;      // rope.scaling.original_context_length
  float yarn_beta_fast = 32.0f, yarn_beta_slow = 1.0f;
};

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
  float rms_eps = 1e-5f;
  int64_t n_vocab = 0;
  rope_style rope = rope_style::norm;
  rope_params rope_global;  // full-attention layers
  rope_params rope_swa;     // sliding-window layers (gemma3: its own base)
  // Sliding-window attention: a query at position p sees positions > p - n_swa (n_swa = 0: none),
  // on the layers marked in swa_layers.
  int64_t n_swa = 0;
  std::vector<uint8_t> swa_layers;
  float attn_scale = 0.0f;     // query scale (1/sqrt(head_dim) unless the family sets another)
  float attn_softcap = 0.0f;   // scores -> tanh(s / cap) * cap when > 0 (gemma2)
  float final_softcap = 0.0f;  // logits -> tanh(l / cap) * cap when > 0 (gemma2)
  float embd_scale = 1.0f;     // token embeddings are multiplied by it (gemma: sqrt(n_embd))
  ffn_activation act = ffn_activation::silu;
  moe_hparams moe;
  bool has_attn_sinks = false;  // per-head sink logits in the attention softmax (gpt-oss)
  bool is_moe() const { return moe.n_expert > 0; }
  // FFN width one token's rows pass through (the dense width, or the selected experts' total).
  int64_t n_ff_active() const { return is_moe() ? moe.n_expert_used * moe.n_ff_exp : n_ff; }
  bool is_swa(int64_t il) const { return n_swa > 0 && swa_layers[il] != 0; }
  const rope_params& rope_of(int64_t il) const { return is_swa(il) ? rope_swa : rope_global; }
  // True when every layer is one the CUDA forward computes: the llama layer with what qwen2 (QKV
  // biases), qwen3 (per-head Q/K RMSNorm), phi3 (fused tensors), gemma2 and gemma3 (embedding
  // scale, GeGLU, soft-caps, sliding windows with their own RoPE base, post-attention/FFN norms,
  // query scale) add to it, with plain RoPE on every kind of layer. Declined: experts, gpt-oss's
  // clamped SwiGLU and sinks, scaled (linear, YaRN) or factored (rope_freqs, LongRoPE) RoPE.
  bool dense_plain_rope_layer() const {
    const bool family = arch == "llama" || arch == "qwen2" || arch == "qwen3" || arch == "phi3" || arch == "gemma2" ||
                        arch == "gemma3";
    const auto plain = [](const rope_params& r) {
      return r.freq_factors.empty() && r.freq_scale == 1.0f && r.attn_factor == 1.0f && r.ext_factor == 0.0f;
    };
    return family && !is_moe() && act != ffn_activation::swiglu_oai && !has_attn_sinks && plain(rope_global) &&
           (n_swa == 0 || plain(rope_swa)) && attn_scale > 0.0f;
  }
  int64_t q_dim() const { return n_head * head_dim; }
  int64_t kv_dim() const { return n_head_kv * head_dim; }
};

// The experts of one MoE weight, stacked in one 3-D tensor [ne0, ne1, n_expert]: expert e is
// the 2-D view at data + e * expert_bytes (so only the selected experts' bytes are ever read).
struct expert_stack {
  tensor_view first;  // expert 0
  size_t expert_bytes = 0;
  tensor_view expert(int64_t e) const {
    tensor_view v = first;
    v.data = static_cast<const uint8_t*>(first.data) + static_cast<size_t>(e) * expert_bytes;
    return v;
  }
};

struct moe_weights {
  tensor_view router;  // ffn_gate_inp [n_embd, n_expert]
  expert_stack gate, up, down;
  // Biases (gpt-oss), empty when the file has none: the router's [n_expert], and per expert
  // [n_expert][n_ff_exp] for gate and up, [n_expert][n_embd] for down.
  std::vector<float> router_b, gate_b, up_b, down_b;
};

struct layer_weights {
  std::vector<float> attn_norm, ffn_norm;  // small: kept as f32 copies
  // Optional norms, empty when the family has none: per-head RMSNorm of Q and K before RoPE
  // (qwen3, gemma3) and RMSNorm of the attention and FFN outputs before their residual (gemma).
  std::vector<float> q_norm, k_norm, attn_post_norm, ffn_post_norm;
  tensor_view wq, wk, wv, wo;       // row ranges of one fused attn_qkv where the file has it (phi3)
  std::vector<float> bq, bk, bv, bo;  // empty when the architecture has no biases
  std::vector<float> attn_sinks;      // [n_head] sink logits (gpt-oss), or empty
  tensor_view w_gate, w_up, w_down;  // gate and up: row ranges of one fused ffn_up (phi3)
  moe_weights moe;                   // MoE layers: the router and experts (the dense FFN views stay empty)
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

// Memory from std::aligned_alloc, released with std::free.
struct free_deleter {
  void operator()(uint8_t* p) const { std::free(p); }
};
using weight_buffer = std::unique_ptr<uint8_t, free_deleter>;

struct model {
  std::string path;
  model_hparams hp;
  model_weights w;
  model_vocab_info vocab;
  std::shared_ptr<gguf_file> file;  // owns the mapping the tensor views point into
  // Weights repacked for the CPU (use_cpu_layouts in cpu_layout.h); their views point here.
  weight_buffer cpu_weights;
};

// Loads and validates; throws std::runtime_error naming the missing key/tensor or bad shape.
std::shared_ptr<model> model_load(const std::string& path);

}  // namespace infer
