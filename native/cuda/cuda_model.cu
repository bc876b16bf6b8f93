// cuda_forward: the model's forward pass on the device. Weights are uploaded once in their GGUF
// encodings (no dequantized copy); K/V live in a device pool with the CPU kv_pool's layout and
// block ids, so the prefix cache and KV export/import work unchanged (per-block sync hooks).
// Per run: one packed host->device copy of the batch's placement, ~14 launches per layer (replayed
// as one CUDA graph for decode-sized batches), one device->host copy of the wanted logits rows.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "cuda/attention.cuh"
#include "cuda/common.cuh"
#include "cuda/cuda_api.h"
#include "cuda/elementwise.cuh"
#include "cuda/matmul.cuh"
#include "cuda/rms_norm.cuh"
#include "cuda/rope.cuh"

namespace infer {
namespace {

using cu::device_tensor;

// Owns every device allocation of one model (freed in reverse on destruction).
class device_arena {
 public:
  ~device_arena() {
    for (auto it = ptrs_.rbegin(); it != ptrs_.rend(); ++it) cudaFree(*it);
  }
  template <typename T>
  T* alloc(size_t n) {
    void* p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(T)));
    ptrs_.push_back(p);
    return static_cast<T*>(p);
  }

 private:
  std::vector<void*> ptrs_;
};

struct device_layer {
  const float *attn_norm, *ffn_norm, *bq = nullptr, *bk = nullptr, *bv = nullptr;
  const float *q_norm = nullptr, *k_norm = nullptr;  // qwen3, gemma3: per-head RMSNorm of Q and K before RoPE
  // gemma: RMSNorm of the attention and FFN outputs before their residual add (null: none).
  const float *attn_post_norm = nullptr, *ffn_post_norm = nullptr;
  cu::attn_params attn;  // query scale, soft-cap, sliding window (0: none)
  float rope_base = 10000.0f;  // the layer's RoPE (gemma3's windowed layers have their own)
  device_tensor wq, wk, wv, wo, w_gate, w_up, w_down;
};

class cuda_forward final : public forward_backend {
 public:
  cuda_forward(const model& m, kv_pool& kv, int max_tokens, int max_logits)
      : m_(m), hp_(m.hp), kv_(kv), max_tokens_(max_tokens), max_logits_(max_logits) {
    check_supported();
    CUDA_CHECK(cudaSetDevice(0));
    reserve_memory_or_throw();
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    upload_weights();
    const size_t kv_elems = static_cast<size_t>(kv.n_layer()) * kv.n_blocks() * kv.block_elems();
    k_cache_ = arena_.alloc<uint16_t>(kv_elems);
    v_cache_ = arena_.alloc<uint16_t>(kv_elems);
    const size_t T = static_cast<size_t>(max_tokens);
    x_ = arena_.alloc<float>(T * hp_.n_embd);
    xn_ = arena_.alloc<float>(T * hp_.n_embd);
    q_ = arena_.alloc<float>(T * hp_.q_dim());
    k_ = arena_.alloc<float>(T * hp_.kv_dim());
    v_ = arena_.alloc<float>(T * hp_.kv_dim());
    att_ = arena_.alloc<float>(T * hp_.q_dim());
    gate_ = arena_.alloc<float>(T * hp_.n_ff);
    up_ = arena_.alloc<float>(T * hp_.n_ff);
    out_x_ = arena_.alloc<float>(static_cast<size_t>(max_logits) * hp_.n_embd);
    logits_ = arena_.alloc<float>(static_cast<size_t>(max_logits) * hp_.n_vocab);
    // ids, pos, table_off (max_tokens each) + out_rows (max_logits); the block tables follow in
    // a separately grown buffer.
    meta_ = arena_.alloc<int32_t>(3 * T + max_logits);
    CUDA_CHECK(cudaMallocHost(&host_meta_, (3 * T + max_logits) * sizeof(int32_t)));
    // The uploads went through the legacy stream, which stream_ does not wait for.
    CUDA_CHECK(cudaDeviceSynchronize());
    // INFER_CUDA_GRAPHS=0 launches every kernel directly (A/B checks, debugging).
    if (const char* e = std::getenv("INFER_CUDA_GRAPHS")) use_graphs_ = std::strcmp(e, "0") != 0;
  }

  ~cuda_forward() override {
    if (stream_) cudaStreamSynchronize(stream_);
    drop_graphs();
    if (tables_) cudaFree(tables_);
    if (host_meta_) cudaFreeHost(host_meta_);
    if (host_tables_) cudaFreeHost(host_tables_);
    if (stream_) cudaStreamDestroy(stream_);
  }

  const char* name() const override { return "cuda"; }

  void run(const fwd_token* toks, int n, const int32_t* out_rows, int n_out, float* logits) override {
    if (n <= 0) return;
    if (n > max_tokens_ || n_out > max_logits_) throw std::runtime_error("cuda forward: batch larger than allocated");
    CUDA_CHECK(cudaSetDevice(0));
    upload_placement(toks, n, out_rows, n_out);
    // Decode-sized batches replay a captured graph: ~340 launches per token for a 24-layer model
    // would otherwise cost more host time than the kernels take. Every per-step input (ids,
    // positions, block tables) is read from device memory, so one graph per (n, n_out) serves
    // every step; a reallocation of the table buffer drops them all.
    if (use_graphs_ && n <= kMaxGraphTokens) {
      cudaGraphExec_t& exec = graphs_[static_cast<int64_t>(n) * (max_logits_ + 1) + n_out];
      if (!exec && !capture(n, n_out, &exec)) use_graphs_ = false;  // capture failed: plain launches from now on
      if (exec) CUDA_CHECK(cudaGraphLaunch(exec, stream_));
      else launch_forward(n, n_out);
    } else {
      launch_forward(n, n_out);
    }
    if (n_out > 0)
      CUDA_CHECK(cudaMemcpyAsync(logits, logits_, sizeof(float) * n_out * hp_.n_vocab, cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  // Every kernel of one pass, on stream_, no host synchronisation (graph-capturable).
  void launch_forward(int n, int n_out) {
    const int T = max_tokens_;
    const int32_t *d_ids = meta_, *d_pos = meta_ + T, *d_toff = meta_ + 2 * T, *d_out = meta_ + 3 * T;
    const int d = static_cast<int>(hp_.n_embd), kvd = static_cast<int>(hp_.kv_dim());
    const cu::token_placement tp{d_pos, d_toff, tables_};
    cu::get_rows(emb_, d_ids, n, x_, stream_);
    if (hp_.embd_scale != 1.0f) cu::scale(x_, static_cast<int64_t>(n) * d, hp_.embd_scale, stream_);  // gemma: sqrt(n_embd)
    for (int64_t il = 0; il < hp_.n_layer; ++il) {
      const device_layer& L = layers_[il];
      // Decode normalises x inside the products that read it (the blocks staging x sum its squares).
      const bool fuse_norm = n == 1;
      if (!fuse_norm) cu::rms_norm(x_, L.attn_norm, xn_, n, d, hp_.rms_eps, nullptr, stream_);
      cu::matmul_multi({{&L.wq, q_, L.bq}, {&L.wk, k_, L.bk}, {&L.wv, v_, L.bv}}, fuse_norm ? x_ : xn_, n, false, stream_,
                       fuse_norm ? cu::rms_in{L.attn_norm, hp_.rms_eps} : cu::rms_in{});
      if (L.q_norm) {  // each head's row of head_dim normalised in place
        const int hd = static_cast<int>(hp_.head_dim);
        cu::rms_norm(q_, L.q_norm, q_, n * static_cast<int>(hp_.n_head), hd, hp_.rms_eps, nullptr, stream_);
        cu::rms_norm(k_, L.k_norm, k_, n * static_cast<int>(hp_.n_head_kv), hd, hp_.rms_eps, nullptr, stream_);
      }
      cu::rope(q_, k_, d_pos, n, static_cast<int>(hp_.n_head), static_cast<int>(hp_.n_head_kv),
               static_cast<int>(hp_.head_dim), static_cast<int>(hp_.n_rot), L.rope_base, hp_.rope == rope_style::neox,
               stream_);
      const size_t layer_off = static_cast<size_t>(il) * kv_.n_blocks() * kv_.block_elems();
      const cu::paged_kv pkv{k_cache_ + layer_off, v_cache_ + layer_off, kv_.block_size(), kvd};
      cu::kv_store(pkv, tp, k_, v_, n, stream_);
      cu::attention(pkv, tp, q_, att_, n, static_cast<int>(hp_.n_head), static_cast<int>(hp_.n_head_kv),
                    static_cast<int>(hp_.head_dim), L.attn, stream_);
      residual_product(L.wo, att_, L.attn_post_norm, n);  // x += wo · att (normed first on gemma)
      if (!fuse_norm) cu::rms_norm(x_, L.ffn_norm, xn_, n, d, hp_.rms_eps, nullptr, stream_);
      cu::matmul_glu(L.w_gate, L.w_up, fuse_norm ? x_ : xn_, n, gate_, up_, stream_,
                     fuse_norm ? cu::rms_in{L.ffn_norm, hp_.rms_eps} : cu::rms_in{}, glu_);
      residual_product(L.w_down, gate_, L.ffn_post_norm, n);  // x += w_down · glu (normed first on gemma)
    }
    if (n_out > 0) {
      cu::rms_norm(x_, out_norm_, out_x_, n_out, d, hp_.rms_eps, d_out, stream_);
      cu::matmul(out_, out_x_, n_out, logits_, stream_);
      if (hp_.final_softcap > 0.0f)  // gemma2
        cu::softcap(logits_, static_cast<int64_t>(n_out) * hp_.n_vocab, hp_.final_softcap, stream_);
    }
  }

  // x += W · in, or with a post-norm (gemma) x += RMSNorm(W · in) · post_norm, the product going
  // through xn_ (free at that point: the next norm rewrites it).
  void residual_product(const device_tensor& w, const float* in, const float* post_norm, int n) {
    if (!post_norm) {
      cu::matmul_multi({{&w, x_}}, in, n, true, stream_);
      return;
    }
    cu::matmul_multi({{&w, xn_}}, in, n, false, stream_);
    cu::rms_norm_add(xn_, post_norm, x_, n, static_cast<int>(hp_.n_embd), hp_.rms_eps, stream_);
  }

  // Captures launch_forward(n, n_out) into *exec; false (and nothing kept) when capture fails.
  bool capture(int n, int n_out, cudaGraphExec_t* exec) {
    cudaGraph_t g = nullptr;
    // Thread-local mode: other engines' threads may call CUDA meanwhile.
    if (cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    bool ok = true;
    try {
      launch_forward(n, n_out);
    } catch (const std::exception&) {
      ok = false;
    }
    ok = cudaStreamEndCapture(stream_, &g) == cudaSuccess && ok;
    if (ok) ok = cudaGraphInstantiate(exec, g, 0) == cudaSuccess;
    if (g) cudaGraphDestroy(g);
    if (!ok) {
      *exec = nullptr;
      cudaGetLastError();
    }
    return ok;
  }

  void drop_graphs() {
    for (auto& [key, exec] : graphs_)
      if (exec) cudaGraphExecDestroy(exec);
    graphs_.clear();
  }

  void kv_to_host(int32_t block) override { copy_block(block, true); }
  void kv_to_device(int32_t block) override { copy_block(block, false); }

 private:
  void check_supported() const {
    // The CUDA forward implements the llama layer and its qwen2/qwen3/phi3/gemma2/gemma3 variants;
    // other families (and scaled or factored RoPE) run on the CPU forward.
    if (!hp_.dense_plain_rope_layer())
      throw std::runtime_error("cuda: architecture " + hp_.arch + " uses layer features the CUDA forward lacks");
    if (!cu::attention_supported(static_cast<int>(hp_.head_dim)))
      throw std::runtime_error("cuda: head dim " + std::to_string(hp_.head_dim) + " unsupported (32/64/128/256)");
    const auto need = [&](const tensor_view& t, const char* what) {
      if (!cu::matmul_supported(t.type, t.ne0))
        throw std::runtime_error(std::string("cuda: ") + what + " has type " + tensor_type_name(t.type) +
                                 " / row length " + std::to_string(t.ne0) + " unsupported");
    };
    need(m_.w.token_embd, "token_embd");
    need(m_.w.output, "output");
    for (const auto& L : m_.w.layers) {
      for (const tensor_view* t : {&L.wq, &L.wk, &L.wv, &L.wo, &L.w_gate, &L.w_up, &L.w_down}) need(*t, "layer weight");
      if (!L.bo.empty()) throw std::runtime_error("cuda: attention output bias unsupported");
    }
  }

  size_t weight_bytes() const {
    size_t b = m_.w.token_embd.row_bytes * m_.w.token_embd.ne1;
    if (!m_.w.tied_output) b += m_.w.output.row_bytes * m_.w.output.ne1;
    for (const auto& L : m_.w.layers)
      for (const tensor_view* t : {&L.wq, &L.wk, &L.wv, &L.wo, &L.w_gate, &L.w_up, &L.w_down}) b += t->row_bytes * t->ne1;
    return b;
  }

  // Refuses up front (so the engine falls back to the CPU) when weights + KV + scratch do not fit
  // in free device memory with a 256 MiB margin.
  void reserve_memory_or_throw() const {
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const size_t T = static_cast<size_t>(max_tokens_);
    const size_t kv_b = 2 * static_cast<size_t>(kv_.n_layer()) * kv_.n_blocks() * kv_.block_elems() * sizeof(uint16_t);
    const size_t scratch = sizeof(float) * (T * (3 * hp_.n_embd + 2 * hp_.q_dim() + 2 * hp_.kv_dim() + 2 * hp_.n_ff) +
                                            static_cast<size_t>(max_logits_) * (hp_.n_embd + hp_.n_vocab));
    const size_t need = weight_bytes() + kv_b + scratch + (size_t{256} << 20);
    if (need > free_b)
      throw std::runtime_error("cuda: model needs " + std::to_string(need >> 20) + " MiB, device has " +
                               std::to_string(free_b >> 20) + " MiB free");
  }

  device_tensor upload(const tensor_view& t) {
    device_tensor d;
    d.type = t.type;
    d.ne0 = t.ne0;
    d.ne1 = t.ne1;
    d.row_bytes = t.row_bytes;
    const size_t bytes = t.row_bytes * t.ne1;
    uint8_t* p = arena_.alloc<uint8_t>(bytes);
    CUDA_CHECK(cudaMemcpy(p, t.data, bytes, cudaMemcpyHostToDevice));
    d.data = p;
    return d;
  }

  const float* upload(const std::vector<float>& v) {
    if (v.empty()) return nullptr;
    float* p = arena_.alloc<float>(v.size());
    CUDA_CHECK(cudaMemcpy(p, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice));
    return p;
  }

  void upload_weights() {
    glu_ = hp_.act == ffn_activation::gelu_tanh ? cu::glu_kind::gelu_tanh : cu::glu_kind::silu;
    emb_ = upload(m_.w.token_embd);
    out_ = m_.w.tied_output ? emb_ : upload(m_.w.output);
    out_norm_ = upload(m_.w.output_norm);
    layers_.resize(m_.w.layers.size());
    for (size_t i = 0; i < layers_.size(); ++i) {
      const layer_weights& s = m_.w.layers[i];
      device_layer& L = layers_[i];
      L.attn_norm = upload(s.attn_norm);
      L.ffn_norm = upload(s.ffn_norm);
      L.bq = upload(s.bq);
      L.bk = upload(s.bk);
      L.bv = upload(s.bv);
      L.q_norm = upload(s.q_norm);
      L.k_norm = upload(s.k_norm);
      L.attn_post_norm = upload(s.attn_post_norm);
      L.ffn_post_norm = upload(s.ffn_post_norm);
      L.attn.scale = hp_.attn_scale;
      L.attn.softcap = hp_.attn_softcap;
      L.attn.window = hp_.is_swa(static_cast<int64_t>(i)) ? static_cast<int>(std::min<int64_t>(hp_.n_swa, 1 << 30)) : 0;
      L.rope_base = hp_.rope_of(static_cast<int64_t>(i)).base;
      L.wq = upload(s.wq);
      L.wk = upload(s.wk);
      L.wv = upload(s.wv);
      L.wo = upload(s.wo);
      L.w_gate = upload(s.w_gate);
      L.w_up = upload(s.w_up);
      L.w_down = upload(s.w_down);
    }
  }

  // Tokens of one sequence share its block table (same pointer): each table is sent once, as long
  // as the furthest position of that sequence in the batch needs.
  void upload_placement(const fwd_token* toks, int n, const int32_t* out_rows, int n_out) {
    const int T = max_tokens_;
    const int bs = kv_.block_size();
    int32_t* h = host_meta_;
    table_index_.clear();
    table_list_.clear();
    for (int t = 0; t < n; ++t) {
      const int need = toks[t].pos / bs + 1;
      auto it = table_index_.find(toks[t].blocks);
      if (it == table_index_.end()) {
        table_index_.emplace(toks[t].blocks, table_list_.size());
        table_list_.push_back({toks[t].blocks, need});
      } else if (table_list_[it->second].second < need) {
        table_list_[it->second].second = need;
      }
    }
    size_t total = 0;
    std::vector<size_t>& offs = table_offs_;
    offs.resize(table_list_.size());
    for (size_t i = 0; i < table_list_.size(); ++i) {
      offs[i] = total;
      total += static_cast<size_t>(table_list_[i].second);
    }
    if (total > tables_cap_) grow_tables(total);
    for (size_t i = 0; i < table_list_.size(); ++i)
      std::memcpy(host_tables_ + offs[i], table_list_[i].first, sizeof(int32_t) * table_list_[i].second);
    for (int t = 0; t < n; ++t) {
      h[t] = toks[t].token;
      h[T + t] = toks[t].pos;
      h[2 * T + t] = static_cast<int32_t>(offs[table_index_[toks[t].blocks]]);
    }
    for (int k = 0; k < n_out; ++k) h[3 * T + k] = out_rows[k];
    CUDA_CHECK(cudaMemcpyAsync(meta_, h, sizeof(int32_t) * (3 * T + max_logits_), cudaMemcpyHostToDevice, stream_));
    CUDA_CHECK(cudaMemcpyAsync(tables_, host_tables_, sizeof(int32_t) * total, cudaMemcpyHostToDevice, stream_));
  }

  void grow_tables(size_t n) {
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    drop_graphs();  // they captured the old buffer's address
    const size_t cap = std::max(n, 2 * tables_cap_);
    if (tables_) cudaFree(tables_);
    if (host_tables_) cudaFreeHost(host_tables_);
    tables_ = nullptr;
    host_tables_ = nullptr;
    tables_cap_ = 0;
    CUDA_CHECK(cudaMalloc(&tables_, cap * sizeof(int32_t)));
    CUDA_CHECK(cudaMallocHost(&host_tables_, cap * sizeof(int32_t)));
    tables_cap_ = cap;
  }

  // On stream_ (not the legacy default stream, which stream_ does not wait for: a pageable
  // host->device cudaMemcpy may return before its DMA lands), then synchronised.
  void copy_block(int32_t block, bool to_host) {
    if (block < 0 || block >= kv_.n_blocks()) throw std::runtime_error("cuda: KV block id out of range");
    CUDA_CHECK(cudaSetDevice(0));
    const size_t be = kv_.block_elems();
    for (int64_t l = 0; l < kv_.n_layer(); ++l) {
      const size_t off = (static_cast<size_t>(l) * kv_.n_blocks() + block) * be;
      if (to_host) {
        CUDA_CHECK(cudaMemcpyAsync(kv_.k(l, block, 0), k_cache_ + off, be * 2, cudaMemcpyDeviceToHost, stream_));
        CUDA_CHECK(cudaMemcpyAsync(kv_.v(l, block, 0), v_cache_ + off, be * 2, cudaMemcpyDeviceToHost, stream_));
      } else {
        CUDA_CHECK(cudaMemcpyAsync(k_cache_ + off, kv_.k(l, block, 0), be * 2, cudaMemcpyHostToDevice, stream_));
        CUDA_CHECK(cudaMemcpyAsync(v_cache_ + off, kv_.v(l, block, 0), be * 2, cudaMemcpyHostToDevice, stream_));
      }
    }
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  const model& m_;
  const model_hparams& hp_;
  kv_pool& kv_;
  int max_tokens_, max_logits_;
  cudaStream_t stream_ = nullptr;
  device_arena arena_;
  device_tensor emb_, out_;
  const float* out_norm_ = nullptr;
  std::vector<device_layer> layers_;
  cu::glu_kind glu_ = cu::glu_kind::silu;  // the FFN's gate activation (gemma: GELU)
  uint16_t *k_cache_ = nullptr, *v_cache_ = nullptr;
  float *x_, *xn_, *q_, *k_, *v_, *att_, *gate_, *up_, *out_x_, *logits_;
  int32_t* meta_ = nullptr;
  int32_t* host_meta_ = nullptr;
  int32_t* tables_ = nullptr;
  int32_t* host_tables_ = nullptr;
  size_t tables_cap_ = 0;
  std::unordered_map<const int32_t*, size_t> table_index_;
  std::vector<std::pair<const int32_t*, int>> table_list_;
  std::vector<size_t> table_offs_;
  static constexpr int kMaxGraphTokens = 16;  // graphs for decode-sized batches only
  bool use_graphs_ = true;
  std::unordered_map<int64_t, cudaGraphExec_t> graphs_;
};

}  // namespace

std::unique_ptr<forward_backend> cuda_forward_create(const model& m, kv_pool& kv, int max_tokens, int max_logits) {
  return std::make_unique<cuda_forward>(m, kv, max_tokens, max_logits);
}

}  // namespace infer
