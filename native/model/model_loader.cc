// model_load: the only code that maps GGUF names/keys onto the model structs.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "model/model.h"

namespace infer {
namespace {

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
  if (hp.arch == "llama") hp.rope = rope_style::norm;
  else if (hp.arch == "qwen2") hp.rope = rope_style::neox;
  else fail(path, "unsupported architecture '" + hp.arch + "' (supported: llama, qwen2)");
  const std::string a = hp.arch + ".";

  hp.n_ctx_train = hparam_int(f, a + "context_length", true, 0);
  hp.n_embd = hparam_int(f, a + "embedding_length", true, 0);
  hp.n_layer = hparam_int(f, a + "block_count", true, 0);
  hp.n_ff = hparam_int(f, a + "feed_forward_length", true, 0);
  hp.n_head = hparam_int(f, a + "attention.head_count", true, 0);
  hp.n_head_kv = hparam_int(f, a + "attention.head_count_kv", false, hp.n_head);
  if (hp.n_head <= 0 || hp.n_embd <= 0 || hp.n_layer <= 0 || hp.n_ff <= 0 || hp.n_ctx_train <= 0)
    fail(path, "non-positive hyperparameter");
  hp.head_dim = hparam_int(f, a + "attention.key_length", false, hp.n_embd / hp.n_head);
  const int64_t v_len = hparam_int(f, a + "attention.value_length", false, hp.head_dim);
  if (v_len != hp.head_dim) fail(path, "attention.value_length != key_length (unsupported)");
  if (hp.n_head_kv <= 0 || hp.n_head % hp.n_head_kv != 0) fail(path, "head_count not a multiple of head_count_kv");
  hp.n_rot = hparam_int(f, a + "rope.dimension_count", false, hp.head_dim);
  if (hp.n_rot > hp.head_dim || hp.n_rot % 2 != 0) fail(path, "bad rope.dimension_count");
  if (hp.arch == "llama" && hp.n_rot != hp.head_dim) fail(path, "llama requires rope.dimension_count == head dim");
  hp.rope_base = f.get_f32(a + "rope.freq_base").value_or(10000.0f);
  if (auto st = f.get_string(a + "rope.scaling.type"); st && *st != "none" && *st != "linear")
    fail(path, "unsupported rope scaling type '" + std::string(*st) + "'");
  if (auto fac = f.get_f32(a + "rope.scaling.factor"); fac && *fac != 1.0f && *fac != 0.0f)
    fail(path, "rope scaling factor != 1 is not supported");
  auto eps = f.get_f32(a + "attention.layer_norm_rms_epsilon");
  if (!eps) fail(path, "missing metadata key " + a + "attention.layer_norm_rms_epsilon");
  hp.rms_eps = *eps;

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

  const int64_t qd = hp.q_dim(), kvd = hp.kv_dim();
  m->w.layers.resize(hp.n_layer);
  for (int64_t i = 0; i < hp.n_layer; ++i) {
    const std::string p = "blk." + std::to_string(i) + ".";
    layer_weights& L = m->w.layers[i];
    L.attn_norm = f32_vector(f, need(f, p + "attn_norm.weight"), hp.n_embd);
    L.ffn_norm = f32_vector(f, need(f, p + "ffn_norm.weight"), hp.n_embd);
    L.wq = matrix(f, p + "attn_q.weight", hp.n_embd, qd);
    L.wk = matrix(f, p + "attn_k.weight", hp.n_embd, kvd);
    L.wv = matrix(f, p + "attn_v.weight", hp.n_embd, kvd);
    L.wo = matrix(f, p + "attn_output.weight", qd, hp.n_embd);
    L.w_gate = matrix(f, p + "ffn_gate.weight", hp.n_embd, hp.n_ff);
    L.w_up = matrix(f, p + "ffn_up.weight", hp.n_embd, hp.n_ff);
    L.w_down = matrix(f, p + "ffn_down.weight", hp.n_ff, hp.n_embd);
    // Biases: qwen2 has them; accepted for llama too when present.
    if (auto* t = f.tensor(p + "attn_q.bias")) L.bq = f32_vector(f, *t, qd);
    if (auto* t = f.tensor(p + "attn_k.bias")) L.bk = f32_vector(f, *t, kvd);
    if (auto* t = f.tensor(p + "attn_v.bias")) L.bv = f32_vector(f, *t, kvd);
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
    for (size_t i = 0; i < toks->strings.size() && static_cast<int64_t>(i) < hp.n_vocab; ++i) {
      const std::string_view s = toks->strings[i];
      if (s == "<|eot_id|>" || s == "<|im_end|>" || s == "<|end|>" || s == "<end_of_turn>" || s == "<|endoftext|>" ||
          s == "<|eom_id|>" || s == "<|end_of_text|>" || s == "<|return|>" || s == "<|call|>") {
        const int32_t t = static_cast<int32_t>(i);
        if (std::find(m->vocab.eos.begin(), m->vocab.eos.end(), t) == m->vocab.eos.end()) m->vocab.eos.push_back(t);
      }
    }
  }
  return m;
}

}  // namespace infer
