// model_load: the only code that maps GGUF names/keys onto the model structs.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "model/model.h"
#include "model/rope.h"

namespace infer {
namespace {

// What an architecture adds to the llama layer; the rest is read from the file.
struct family_traits {
  const char* arch;
  rope_style rope;
  bool qk_norm;     // attn_q_norm / attn_k_norm per head before RoPE
  bool post_norms;  // post_attention_norm / post_ffw_norm on the sublayer outputs
  void (*hparams)(const gguf_file& f, const std::string& prefix, model_hparams& hp);  // family-only keys
  const char* ffn_norm = "ffn_norm";  // the pre-FFN norm's tensor (gpt-oss: post_attention_norm)
  // gpt-oss: attn_output.bias, attn_sinks, and biases on the router and the experts.
  bool oai_biases_sinks = false;
};

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error("model_load(" + path + "): " + what);
}

// Scalar or per-layer array (llama.cpp accepts both); per-layer arrays must be uniform here.
int64_t hparam_int(const gguf_file& f, const std::string& key, bool required, int64_t dflt) {
  const gguf_value* v = f.find(key);
  if (!v) {
    if (required) fail(f.path(), "missing metadata key " + key);
    return dflt;
  }
  if (v->is_array()) {
    if (v->count == 0) fail(f.path(), "empty array for " + key);
    auto first = v->int_at(0);
    if (!first) fail(f.path(), "non-integer array for " + key);
    for (uint64_t i = 1; i < v->count; ++i)
      if (v->int_at(i) != first) fail(f.path(), "per-layer values of " + key + " differ (unsupported)");
    return *first;
  }
  auto x = v->as_int();
  if (!x) fail(f.path(), "metadata key " + key + " is not an integer");
  return *x;
}

std::vector<float> f32_vector(const gguf_file& f, const gguf_tensor_info& t, int64_t n) {
  if (t.n_elements() != n) fail(f.path(), "tensor " + t.name + " has " + std::to_string(t.n_elements()) +
                                              " elements, expected " + std::to_string(n));
  std::vector<float> out(n);
  tensor_view v = f.view(t);
  v.ne0 = n;  // a 1-D vector as one row
  v.ne1 = 1;
  v.row_bytes = tensor_row_bytes(v.type, n);
  dequantize_row(v, 0, out.data());
  return out;
}

const gguf_tensor_info& need(const gguf_file& f, const std::string& name) {
  const gguf_tensor_info* t = f.tensor(name);
  if (!t) fail(f.path(), "missing tensor " + name);
  return *t;
}

tensor_view matrix(const gguf_file& f, const std::string& name, int64_t ne0, int64_t ne1) {
  const gguf_tensor_info& t = need(f, name);
  if (t.ne[0] != ne0 || t.n_rows() != ne1)
    fail(f.path(), "tensor " + name + " has shape [" + std::to_string(t.ne[0]) + ", " + std::to_string(t.n_rows()) +
                       "], expected [" + std::to_string(ne0) + ", " + std::to_string(ne1) + "]");
  return f.view(t);
}

// A stacked expert tensor [ne0, ne1, n_expert], as a view of expert 0 and the stride between experts.
expert_stack experts(const gguf_file& f, const std::string& name, int64_t ne0, int64_t ne1, int64_t n_expert) {
  const gguf_tensor_info& t = need(f, name);
  if (t.ne[0] != ne0 || t.ne[1] != ne1 || t.ne[2] != n_expert || t.ne[3] != 1)
    fail(f.path(), "tensor " + name + " has shape [" + std::to_string(t.ne[0]) + ", " + std::to_string(t.ne[1]) + ", " +
                       std::to_string(t.ne[2]) + "], expected [" + std::to_string(ne0) + ", " + std::to_string(ne1) +
                       ", " + std::to_string(n_expert) + "]");
  expert_stack s;
  s.first = f.view(t);
  s.first.ne1 = ne1;
  s.expert_bytes = s.first.row_bytes * static_cast<size_t>(ne1);
  return s;
}

// The router and the experts of one MoE layer (with their biases where the family has them).
moe_weights load_moe_layer(const gguf_file& f, const std::string& p, const model_hparams& hp, bool biases) {
  const int64_t d = hp.n_embd, ffe = hp.moe.n_ff_exp, ne = hp.moe.n_expert;
  moe_weights w;
  w.router = matrix(f, p + "ffn_gate_inp.weight", d, ne);
  w.gate = experts(f, p + "ffn_gate_exps.weight", d, ffe, ne);
  w.up = experts(f, p + "ffn_up_exps.weight", d, ffe, ne);
  w.down = experts(f, p + "ffn_down_exps.weight", ffe, d, ne);
  if (biases) {
    w.router_b = f32_vector(f, need(f, p + "ffn_gate_inp.bias"), ne);
    w.gate_b = f32_vector(f, need(f, p + "ffn_gate_exps.bias"), ne * ffe);
    w.up_b = f32_vector(f, need(f, p + "ffn_up_exps.bias"), ne * ffe);
    w.down_b = f32_vector(f, need(f, p + "ffn_down_exps.bias"), ne * d);
  }
  return w;
}


// Rows [r0, r0 + n) of a weight, as a view of their own (fused tensors split without copying).
tensor_view rows(const tensor_view& w, int64_t r0, int64_t n) {
  tensor_view v = w;
  v.data = static_cast<const uint8_t*>(w.data) + static_cast<size_t>(r0) * w.row_bytes;
  v.ne1 = n;
  return v;
}

// Layers marked sliding-window in a repeating pattern of `period` layers, the last of each period
// being a full-attention layer (llama.cpp's set_swa_pattern).
std::vector<uint8_t> swa_pattern(int64_t n_layer, int64_t period) {
  std::vector<uint8_t> out(static_cast<size_t>(n_layer));
  for (int64_t il = 0; il < n_layer; ++il) out[il] = il % period < period - 1;
  return out;
}

// The query scale of the gemma families: 1/sqrt(head size), except for the 27B shapes (known only
// by their layer count, as llama.cpp and gemma_pytorch do), which use 1/sqrt(dim / heads).
float gemma_query_scale(const model_hparams& hp, int64_t layers_27b) {
  const int64_t n = hp.n_layer == layers_27b ? hp.n_embd / hp.n_head : hp.head_dim;
  return 1.0f / std::sqrt(static_cast<float>(n));
}

void gemma2_hparams(const gguf_file& f, const std::string& a, model_hparams& hp) {
  hp.embd_scale = std::sqrt(static_cast<float>(hp.n_embd));
  hp.act = ffn_activation::gelu_tanh;
  hp.n_swa = hparam_int(f, a + "attention.sliding_window", false, 4096);
  hp.swa_layers = swa_pattern(hp.n_layer, 2);
  hp.rope_swa = hp.rope_global;
  hp.attn_softcap = f.get_f32(a + "attn_logit_softcapping").value_or(50.0f);
  hp.final_softcap = f.get_f32(a + "final_logit_softcapping").value_or(30.0f);
  hp.attn_scale = gemma_query_scale(hp, 46);
}

void gemma3_hparams(const gguf_file& f, const std::string& a, model_hparams& hp) {
  hp.embd_scale = std::sqrt(static_cast<float>(hp.n_embd));
  hp.act = ffn_activation::gelu_tanh;
  hp.n_swa = hparam_int(f, a + "attention.sliding_window", false, 0);
  if (hp.n_swa > 0) {
    hp.swa_layers = swa_pattern(hp.n_layer, 6);
    hp.rope_swa = rope_params{};  // local layers: base 10000, unscaled
  } else {
    // Without sliding windows llama.cpp's gemma3 graph applies the final soft-cap when the file sets one.
    hp.final_softcap = f.get_f32(a + "final_logit_softcapping").value_or(0.0f);
  }
  hp.attn_scale = gemma_query_scale(hp, 62);
}

void no_extra_hparams(const gguf_file&, const std::string&, model_hparams&) {}

// Expert counts of an MoE file (expert_count 0 or absent: dense). llama.cpp's qwen3moe and llama
// graphs both renormalise the selected weights (norm_w is fixed in the graph, not read from the
// file) and apply no weight scale.
void read_moe_hparams(const gguf_file& f, const std::string& a, model_hparams& hp, int64_t n_ff_exp_default) {
  moe_hparams& m = hp.moe;
  m.n_expert = hparam_int(f, a + "expert_count", false, 0);
  if (m.n_expert == 0) return;
  m.n_expert_used = hparam_int(f, a + "expert_used_count", true, 0);
  if (m.n_expert < 0 || m.n_expert_used <= 0 || m.n_expert_used > m.n_expert)
    fail(f.path(), "expert_used_count must be in [1, expert_count]");
  m.n_ff_exp = hparam_int(f, a + "expert_feed_forward_length", false, n_ff_exp_default);
  if (m.n_ff_exp <= 0) fail(f.path(), "non-positive expert feed_forward_length");
  m.norm_w = true;
}

// gpt-oss: every layer an MoE with top-k-then-softmax routing (no renormalisation) and the clamped
// SwiGLU; sliding-window layers alternate with full ones (llama.cpp's pattern 2 unless the file
// has attention.sliding_window_pattern), both with the same RoPE unless rope.freq_base_swa is set;
// attention sinks; the query scale 1/sqrt(rope dimensions).
void gptoss_hparams(const gguf_file& f, const std::string& a, model_hparams& hp) {
  read_moe_hparams(f, a, hp, 0);
  if (!hp.is_moe()) fail(f.path(), "gpt-oss needs " + a + "expert_count > 0");
  if (!f.find(a + "expert_feed_forward_length")) fail(f.path(), "missing metadata key " + a + "expert_feed_forward_length");
  hp.moe.gating = moe_gating::topk_then_softmax;
  hp.moe.norm_w = false;
  hp.act = ffn_activation::swiglu_oai;
  hp.has_attn_sinks = true;
  hp.n_swa = hparam_int(f, a + "attention.sliding_window", true, 0);
  const gguf_value* pattern = f.find(a + "attention.sliding_window_pattern");
  if (pattern && pattern->is_array()) fail(f.path(), "per-layer attention.sliding_window_pattern arrays are not supported");
  const int64_t period = hparam_int(f, a + "attention.sliding_window_pattern", false, 2);
  if (period < 1) fail(f.path(), "attention.sliding_window_pattern must be positive");
  hp.swa_layers = swa_pattern(hp.n_layer, period);
  hp.rope_swa = hp.rope_global;
  if (auto b = f.get_f32(a + "rope.freq_base_swa")) hp.rope_swa.base = *b;
  if (hp.n_rot != hp.head_dim) fail(f.path(), "gpt-oss requires rope.dimension_count == head size");
  hp.attn_scale = 1.0f / std::sqrt(static_cast<float>(hp.n_rot));
}

// Llama files with experts are Mixtral: each expert has the dense FFN width.
void llama_hparams(const gguf_file& f, const std::string& a, model_hparams& hp) { read_moe_hparams(f, a, hp, hp.n_ff); }

void qwen3moe_hparams(const gguf_file& f, const std::string& a, model_hparams& hp) {
  read_moe_hparams(f, a, hp, hp.n_ff / std::max<int64_t>(1, hparam_int(f, a + "expert_used_count", true, 1)));
  if (!hp.is_moe()) fail(f.path(), "qwen3moe needs " + a + "expert_count > 0");
}

// What each supported architecture adds to the llama layer. Mistral and Llama 3.x files are
// `llama` (their rope_freqs and scaling are read for every family); phi3's fused tensors are found
// by name. llama.cpp disables phi3's sliding window, and ignores llama's, so neither is read.
const family_traits kFamilies[] = {
    {"llama", rope_style::norm, false, false, llama_hparams},
    {"qwen2", rope_style::neox, false, false, no_extra_hparams},
    {"qwen3", rope_style::neox, true, false, no_extra_hparams},
    {"qwen3moe", rope_style::neox, true, false, qwen3moe_hparams},
    {"gemma2", rope_style::neox, false, true, gemma2_hparams},
    {"gemma3", rope_style::neox, true, true, gemma3_hparams},
    {"phi3", rope_style::neox, false, false, no_extra_hparams},
    {"gpt-oss", rope_style::neox, false, false, gptoss_hparams, "post_attention_norm", true},
};

const family_traits* find_family(const std::string& arch) {
  for (const family_traits& fam : kFamilies)
    if (arch == fam.arch) return &fam;
  return nullptr;
}

std::string supported_families() {
  std::string s;
  for (const family_traits& fam : kFamilies) s += (s.empty() ? "" : ", ") + std::string(fam.arch);
  return s;
}

// Base, scaling (linear or YaRN) and attention factor of the full-attention layers' RoPE.
void load_rope(const gguf_file& f, const std::string& a, const family_traits&, model_hparams& hp) {
  rope_params& r = hp.rope_global;
  r.base = f.get_f32(a + "rope.freq_base").value_or(10000.0f);
  const std::string type(f.get_string(a + "rope.scaling.type").value_or("none"));
  if (type != "none" && type != "linear" && type != "longrope" && type != "yarn")
    fail(f.path(), "unsupported rope scaling type '" + type + "' (supported: none, linear, longrope, yarn)");
  float factor = 1.0f;
  if (auto fac = f.get_f32(a + "rope.scaling.factor"); fac && *fac != 0.0f) {
    if (type == "none" && *fac != 1.0f) fail(f.path(), "rope.scaling.factor set without a scaling type");
    factor = *fac;
    if (type == "linear") r.freq_scale = 1.0f / *fac;
  }
  r.attn_factor = f.get_f32(a + "rope.scaling.attn_factor").value_or(1.0f);
  if (type == "yarn") {
    // llama.cpp reads neither rope.scaling.yarn_* key for these families (its defaults apply).
    const int64_t orig = hparam_int(f, a + "rope.scaling.original_context_length", false, hp.n_ctx_train);
    if (orig <= 0) fail(f.path(), "non-positive rope.scaling.original_context_length");
    rope_set_yarn(r, factor, orig, r.attn_factor);
  }
  hp.rope_swa = r;
}

// Per-dimension frequency divisors: rope_freqs (Llama 3.1+) or LongRoPE's long/short factors
// (phi3). Long factors apply when the model's context exceeds the original training context
// (the engine serves the whole context), short ones otherwise, as llama.cpp picks by its context.
void load_rope_factors(const gguf_file& f, const family_traits&, model_hparams& hp) {
  const int64_t n = hp.n_rot / 2;
  std::vector<float>& ff = hp.rope_global.freq_factors;
  if (const gguf_tensor_info* t = f.tensor("rope_freqs.weight")) {
    ff = f32_vector(f, *t, n);
  } else {
    const int64_t orig = hparam_int(f, hp.arch + ".rope.scaling.original_context_length", false, hp.n_ctx_train);
    const char* name = hp.n_ctx_train > orig ? "rope_factors_long.weight" : "rope_factors_short.weight";
    if (const gguf_tensor_info* t = f.tensor(name)) ff = f32_vector(f, *t, n);
  }
  if (hp.n_swa == 0) hp.rope_swa = hp.rope_global;
}

}  // namespace

std::shared_ptr<model> model_load(const std::string& path) {
  std::string err;
  std::shared_ptr<gguf_file> file(gguf_file::open(path, &err));
  if (!file) throw std::runtime_error("model_load(" + path + "): " + err);
  const gguf_file& f = *file;
  auto m = std::make_shared<model>();
  m->path = path;
  m->file = file;
  model_hparams& hp = m->hp;

  auto arch = f.get_string("general.architecture");
  if (!arch) fail(path, "missing metadata key general.architecture");
  hp.arch = std::string(*arch);
  const family_traits* fam = find_family(hp.arch);
  if (!fam) fail(path, "unsupported architecture '" + hp.arch + "' (supported: " + supported_families() + ")");
  hp.rope = fam->rope;
  const std::string a = hp.arch + ".";

  hp.n_ctx_train = hparam_int(f, a + "context_length", true, 0);
  hp.n_embd = hparam_int(f, a + "embedding_length", true, 0);
  hp.n_layer = hparam_int(f, a + "block_count", true, 0);
  hp.n_ff = hparam_int(f, a + "feed_forward_length", true, 0);
  hp.n_head = hparam_int(f, a + "attention.head_count", true, 0);
  hp.n_head_kv = hparam_int(f, a + "attention.head_count_kv", false, hp.n_head);
  if (hp.n_head <= 0 || hp.n_embd <= 0 || hp.n_layer <= 0 || hp.n_ff <= 0 || hp.n_ctx_train <= 0)
    fail(path, "non-positive hyperparameter");
  // The head size is its own key where it is not dim / heads (qwen3, gemma).
  hp.head_dim = hparam_int(f, a + "attention.key_length", false, hp.n_embd / hp.n_head);
  const int64_t v_len = hparam_int(f, a + "attention.value_length", false, hp.head_dim);
  if (v_len != hp.head_dim) fail(path, "attention.value_length != key_length (unsupported)");
  if (hp.n_head_kv <= 0 || hp.n_head % hp.n_head_kv != 0) fail(path, "head_count not a multiple of head_count_kv");
  hp.n_rot = hparam_int(f, a + "rope.dimension_count", false, hp.head_dim);
  if (hp.n_rot > hp.head_dim || hp.n_rot % 2 != 0) fail(path, "bad rope.dimension_count");
  if (hp.rope == rope_style::norm && hp.n_rot != hp.head_dim) fail(path, hp.arch + " requires rope.dimension_count == head dim");
  auto eps = f.get_f32(a + "attention.layer_norm_rms_epsilon");
  if (!eps) fail(path, "missing metadata key " + a + "attention.layer_norm_rms_epsilon");
  hp.rms_eps = *eps;
  hp.attn_scale = 1.0f / std::sqrt(static_cast<float>(hp.head_dim));
  load_rope(f, a, *fam, hp);
  fam->hparams(f, a, hp);
  if (hp.n_swa < 0) fail(path, "negative attention.sliding_window");

  const gguf_tensor_info& emb = need(f, "token_embd.weight");
  if (emb.ne[0] != hp.n_embd) fail(path, "token_embd.weight row length != embedding_length");
  hp.n_vocab = emb.n_rows();
  m->w.token_embd = f.view(emb);
  m->w.output_norm = f32_vector(f, need(f, "output_norm.weight"), hp.n_embd);
  if (f.tensor("output.weight")) {
    m->w.output = matrix(f, "output.weight", hp.n_embd, hp.n_vocab);
  } else {
    m->w.output = m->w.token_embd;
    m->w.tied_output = true;
  }
  load_rope_factors(f, *fam, hp);

  const int64_t qd = hp.q_dim(), kvd = hp.kv_dim(), hd = hp.head_dim;
  m->w.layers.resize(hp.n_layer);
  for (int64_t i = 0; i < hp.n_layer; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    layer_weights& L = m->w.layers[i];
    L.attn_norm = f32_vector(f, need(f, p + "attn_norm.weight"), hp.n_embd);
    L.ffn_norm = f32_vector(f, need(f, p + fam->ffn_norm + ".weight"), hp.n_embd);
    if (f.tensor(p + "attn_qkv.weight")) {  // fused Q, K, V rows (phi3)
      const tensor_view qkv = matrix(f, p + "attn_qkv.weight", hp.n_embd, qd + 2 * kvd);
      L.wq = rows(qkv, 0, qd);
      L.wk = rows(qkv, qd, kvd);
      L.wv = rows(qkv, qd + kvd, kvd);
    } else {
      L.wq = matrix(f, p + "attn_q.weight", hp.n_embd, qd);
      L.wk = matrix(f, p + "attn_k.weight", hp.n_embd, kvd);
      L.wv = matrix(f, p + "attn_v.weight", hp.n_embd, kvd);
    }
    L.wo = matrix(f, p + "attn_output.weight", qd, hp.n_embd);
    if (hp.is_moe()) {
      L.moe = load_moe_layer(f, p, hp, fam->oai_biases_sinks);
    } else if (f.tensor(p + "ffn_gate.weight")) {
      L.w_gate = matrix(f, p + "ffn_gate.weight", hp.n_embd, hp.n_ff);
      L.w_up = matrix(f, p + "ffn_up.weight", hp.n_embd, hp.n_ff);
    } else {  // fused gate and up rows (phi3): the first n_ff rows are the gate
      const tensor_view up = matrix(f, p + "ffn_up.weight", hp.n_embd, 2 * hp.n_ff);
      L.w_gate = rows(up, 0, hp.n_ff);
      L.w_up = rows(up, hp.n_ff, hp.n_ff);
    }
    if (!hp.is_moe()) L.w_down = matrix(f, p + "ffn_down.weight", hp.n_ff, hp.n_embd);
    // Biases: qwen2 has them; accepted for the other families too when present.
    if (auto* t = f.tensor(p + "attn_q.bias")) L.bq = f32_vector(f, *t, qd);
    if (auto* t = f.tensor(p + "attn_k.bias")) L.bk = f32_vector(f, *t, kvd);
    if (auto* t = f.tensor(p + "attn_v.bias")) L.bv = f32_vector(f, *t, kvd);
    if (fam->oai_biases_sinks) {
      L.bo = f32_vector(f, need(f, p + "attn_output.bias"), hp.n_embd);
      L.attn_sinks = f32_vector(f, need(f, p + "attn_sinks.weight"), hp.n_head);
    }
    if (fam->qk_norm) {
      L.q_norm = f32_vector(f, need(f, p + "attn_q_norm.weight"), hd);
      L.k_norm = f32_vector(f, need(f, p + "attn_k_norm.weight"), hd);
    }
    if (fam->post_norms) {
      L.attn_post_norm = f32_vector(f, need(f, p + "post_attention_norm.weight"), hp.n_embd);
      L.ffn_post_norm = f32_vector(f, need(f, p + "post_ffw_norm.weight"), hp.n_embd);
    }
  }

  // Ids that end generation: eos, eot, eom when present.
  if (auto b = f.get_i64("tokenizer.ggml.bos_token_id")) m->vocab.bos = static_cast<int32_t>(*b);
  for (const char* k : {"tokenizer.ggml.eos_token_id", "tokenizer.ggml.eot_token_id", "tokenizer.ggml.eom_token_id"}) {
    if (auto id = f.get_i64(k); id && *id >= 0 && *id < hp.n_vocab) {
      const int32_t t = static_cast<int32_t>(*id);
      if (std::find(m->vocab.eos.begin(), m->vocab.eos.end(), t) == m->vocab.eos.end()) m->vocab.eos.push_back(t);
    }
  }
  // End-of-generation tokens named by text, as llama.cpp detects them when the ids are not set.
  if (const gguf_value* toks = f.get_array("tokenizer.ggml.tokens")) {
    int32_t end_id = -1;
    bool has_return = false, has_call = false;
    for (size_t i = 0; i < toks->strings.size() && static_cast<int64_t>(i) < hp.n_vocab; ++i) {
      const std::string_view s = toks->strings[i];
      if (s == "<|end|>") end_id = static_cast<int32_t>(i);
      has_return |= s == "<|return|>";
      has_call |= s == "<|call|>";
      if (s == "<|eot_id|>" || s == "<|im_end|>" || s == "<|end|>" || s == "<end_of_turn>" || s == "<|endoftext|>" ||
          s == "<|eom_id|>" || s == "<|end_of_text|>" || s == "<|return|>" || s == "<|call|>") {
        const int32_t t = static_cast<int32_t>(i);
        if (std::find(m->vocab.eos.begin(), m->vocab.eos.end(), t) == m->vocab.eos.end()) m->vocab.eos.push_back(t);
      }
    }
    // Harmony (gpt-oss) ends each message with <|end|> but a turn only with <|return|> or <|call|>:
    // where both exist <|end|> does not end generation (llama.cpp's rule).
    if (has_return && has_call && end_id >= 0)
      m->vocab.eos.erase(std::remove(m->vocab.eos.begin(), m->vocab.eos.end(), end_id), m->vocab.eos.end());
  }
  return m;
}

}  // namespace infer
