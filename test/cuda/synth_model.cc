#include "synth_model.h"

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

namespace infer {
namespace {

// Writes an fp16 scale at byte offset `off` of a block.
void put_f16(uint8_t* b, size_t off, float v) {
  const uint16_t h = fp32_to_fp16(v);
  b[off] = static_cast<uint8_t>(h & 0xFF);
  b[off + 1] = static_cast<uint8_t>(h >> 8);
}

uint16_t to_bf16(float f) {  // round to nearest even
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
}

}  // namespace

bool synth_parse_type(const std::string& n, tensor_type* out) {
  static const std::pair<const char*, tensor_type> kTypes[] = {
      {"f32", tensor_type::f32},   {"f16", tensor_type::f16},   {"bf16", tensor_type::bf16},
      {"q8_0", tensor_type::q8_0}, {"q4_0", tensor_type::q4_0}, {"q5_0", tensor_type::q5_0},
      {"q4_k", tensor_type::q4_k}, {"q5_k", tensor_type::q5_k}, {"q6_k", tensor_type::q6_k}};
  for (auto& [name, t] : kTypes)
    if (n == name) {
      *out = t;
      return true;
    }
  return false;
}

tensor_view synth_tensor(tensor_type t, int64_t ne0, int64_t rows, uint64_t seed,
                         std::vector<std::unique_ptr<uint8_t[]>>& storage) {
  const size_t rb = tensor_row_bytes(t, ne0);
  const size_t bytes = rb * rows;
  // 16 extra bytes keep vector loads of the last f32/f16 row in bounds on any platform.
  storage.emplace_back(new uint8_t[bytes + 16]);
  uint8_t* p = storage.back().get();
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> nd(0.0f, 0.02f);
  const int64_t n = ne0 * rows;
  switch (t) {
    case tensor_type::f32:
      for (int64_t i = 0; i < n; ++i) reinterpret_cast<float*>(p)[i] = nd(rng);
      break;
    case tensor_type::f16:
      for (int64_t i = 0; i < n; ++i) reinterpret_cast<uint16_t*>(p)[i] = fp32_to_fp16(nd(rng));
      break;
    case tensor_type::bf16:
      for (int64_t i = 0; i < n; ++i) reinterpret_cast<uint16_t*>(p)[i] = to_bf16(nd(rng));
      break;
    default: {
      for (size_t i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(rng() & 0xFF);
      const size_t bb = tensor_type_block_bytes(t);
      std::uniform_real_distribution<float> ud(0.5f, 1.5f);
      for (size_t off = 0; off < bytes; off += bb) {
        uint8_t* b = p + off;
        switch (t) {
          case tensor_type::q8_0: put_f16(b, 0, 0.02f / 64 * ud(rng)); break;
          case tensor_type::q4_0: put_f16(b, 0, 0.02f / 4 * ud(rng)); break;
          case tensor_type::q5_0: put_f16(b, 0, 0.02f / 8 * ud(rng)); break;
          case tensor_type::q4_k:
          case tensor_type::q5_k: {
            // dmin ~ mean quant x d keeps the weights centred (mean of sc*q - m*dmin/d ~ 0).
            const float d = 0.02f / 256 * ud(rng);
            put_f16(b, 0, d);
            put_f16(b, 2, d * (t == tensor_type::q4_k ? 7.5f : 15.5f));
            break;
          }
          case tensor_type::q6_k: put_f16(b, 208, 0.02f / 2048 * ud(rng)); break;
          default: break;
        }
      }
    }
  }
  tensor_view v;
  v.type = t;
  v.data = p;
  v.ne0 = ne0;
  v.ne1 = rows;
  v.row_bytes = rb;
  return v;
}

std::unique_ptr<synth_model> synth_model_make(const synth_spec& s) {
  tensor_type base;
  if (!synth_parse_type(s.dtype, &base)) throw std::runtime_error("synth_model: unknown dtype " + s.dtype);
  auto out = std::make_unique<synth_model>();
  auto m = std::make_shared<model>();
  model_hparams& hp = m->hp;
  hp.arch = s.arch;
  hp.rope = s.arch == "llama" ? rope_style::norm : rope_style::neox;
  hp.n_ctx_train = s.ctx;
  hp.n_embd = s.dim;
  hp.n_layer = s.layers;
  hp.n_ff = s.ffn;
  hp.n_head = s.heads;
  hp.n_head_kv = s.kv_heads;
  hp.head_dim = s.head_dim > 0 ? s.head_dim : s.dim / s.heads;
  hp.n_rot = hp.head_dim;
  hp.rope_global.base = s.rope_base;
  hp.attn_scale = 1.0f / std::sqrt(static_cast<float>(hp.head_dim));
  const bool gemma = s.arch == "gemma2" || s.arch == "gemma3";
  if (gemma) {  // as model_loader.cc's gemma2_hparams / gemma3_hparams, with the spec's window and caps
    hp.embd_scale = std::sqrt(static_cast<float>(s.dim));
    hp.act = ffn_activation::gelu_tanh;
    if (s.attn_scale > 0.0f) hp.attn_scale = s.attn_scale;
    hp.attn_softcap = s.attn_softcap;
    hp.final_softcap = s.final_softcap;
    hp.n_swa = s.window;
    hp.swa_layers.resize(s.layers);
    for (int64_t il = 0; il < s.layers; ++il) hp.swa_layers[il] = s.window > 0 && il % s.swa_period < s.swa_period - 1;
    hp.rope_swa = hp.rope_global;
    if (s.arch == "gemma3") hp.rope_swa.base = s.rope_base_swa;
  }
  hp.rms_eps = s.eps;
  hp.n_vocab = s.vocab;
  uint64_t seed = s.seed * 1000003ull;
  // llama.cpp's fallbacks for rows that are not a multiple of 256.
  auto type_for = [&](int64_t ne0) {
    if (ne0 % 256 == 0) return base;
    if (base == tensor_type::q4_k || base == tensor_type::q5_k) return tensor_type::q5_0;
    if (base == tensor_type::q6_k) return tensor_type::q8_0;
    return base;
  };
  auto mat = [&](int64_t ne0, int64_t rows) {
    tensor_view v = synth_tensor(type_for(ne0), ne0, rows, ++seed, out->storage);
    out->weight_bytes += v.row_bytes * v.ne1;
    return v;
  };
  std::mt19937_64 rng(s.seed);
  std::normal_distribution<float> nd(1.0f, 0.1f), bd(0.0f, 0.02f);
  auto vec = [&](int64_t n, std::normal_distribution<float>& d) {
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    return v;
  };
  m->w.token_embd = mat(s.dim, s.vocab);
  m->w.tied_output = s.tied;
  m->w.output = s.tied ? m->w.token_embd : mat(s.dim, s.vocab);
  m->w.output_norm = vec(s.dim, nd);
  const int64_t qd = hp.q_dim(), kvd = hp.kv_dim();
  // Rows [r0, r0 + n) of a fused weight, as the loader splits phi3's attn_qkv and ffn_up.
  auto rows_of = [](tensor_view v, int64_t r0, int64_t n) {
    v.data = static_cast<const uint8_t*>(v.data) + static_cast<size_t>(r0) * v.row_bytes;
    v.ne1 = n;
    return v;
  };
  m->w.layers.resize(s.layers);
  for (auto& L : m->w.layers) {
    L.attn_norm = vec(s.dim, nd);
    L.ffn_norm = vec(s.dim, nd);
    if (s.arch == "phi3") {
      const tensor_view qkv = mat(s.dim, qd + 2 * kvd), gate_up = mat(s.dim, 2 * s.ffn);
      L.wq = rows_of(qkv, 0, qd);
      L.wk = rows_of(qkv, qd, kvd);
      L.wv = rows_of(qkv, qd + kvd, kvd);
      L.w_gate = rows_of(gate_up, 0, s.ffn);
      L.w_up = rows_of(gate_up, s.ffn, s.ffn);
    } else {
      L.wq = mat(s.dim, qd);
      L.wk = mat(s.dim, kvd);
      L.wv = mat(s.dim, kvd);
      L.w_gate = mat(s.dim, s.ffn);
      L.w_up = mat(s.dim, s.ffn);
    }
    L.wo = mat(qd, s.dim);
    L.w_down = mat(s.ffn, s.dim);
    if (s.arch == "qwen2") {
      L.bq = vec(qd, bd);
      L.bk = vec(kvd, bd);
      L.bv = vec(kvd, bd);
    }
    if (s.arch == "qwen3" || s.arch == "gemma3") {
      L.q_norm = vec(hp.head_dim, nd);
      L.k_norm = vec(hp.head_dim, nd);
    }
    if (gemma) {
      L.attn_post_norm = vec(s.dim, nd);
      L.ffn_post_norm = vec(s.dim, nd);
    }
  }
  m->path = "synthetic:" + s.arch + ":" + s.dtype;
  out->m = m;
  return out;
}

std::unique_ptr<synth_model> synth_model_dequantized(const model& m) {
  auto out = std::make_unique<synth_model>();
  auto f = std::make_shared<model>();
  f->hp = m.hp;
  f->w = m.w;
  f->vocab = m.vocab;
  auto to_f32 = [&](const tensor_view& t) {
    const size_t rb = tensor_row_bytes(tensor_type::f32, t.ne0);
    out->storage.emplace_back(new uint8_t[rb * t.ne1 + 16]);
    float* p = reinterpret_cast<float*>(out->storage.back().get());
    for (int64_t r = 0; r < t.ne1; ++r) dequantize_row(t, r, p + r * t.ne0);
    tensor_view v = t;
    v.type = tensor_type::f32;
    v.data = p;
    v.row_bytes = rb;
    out->weight_bytes += rb * t.ne1;
    return v;
  };
  f->w.token_embd = to_f32(m.w.token_embd);
  f->w.output = m.w.tied_output ? f->w.token_embd : to_f32(m.w.output);
  for (layer_weights& L : f->w.layers)
    for (tensor_view* t : {&L.wq, &L.wk, &L.wv, &L.wo, &L.w_gate, &L.w_up, &L.w_down}) *t = to_f32(*t);
  f->path = m.path + ":f32";
  out->m = f;
  return out;
}

}  // namespace infer
