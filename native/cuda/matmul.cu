// Quantized matmul / matvec: GGUF weights stay encoded in device memory and are dequantized in
// registers, 32 weights (one unit) per lane at a time; fp32 activations and accumulation.
//
// Decode (n_tokens == 1) is memory-bound: every weight byte is read once per token and used for
// one FMA, so the target is device bandwidth. A warp owns a row and its lanes walk consecutive
// units, so one warp-wide step reads 32 adjacent units (~1 KB for Q8_0), coalesced.
// Batches (prefill, many decoding sequences) reuse each dequantized unit for NT = 8 tokens from
// registers, cutting weight traffic 8x; that path becomes compute-bound (FFMA, no tensor cores yet).
#include <atomic>
#include <cstdlib>
#include <stdexcept>

#include "cuda/common.cuh"
#include "cuda/dequant.cuh"
#include "cuda/elementwise.cuh"
#include "cuda/matmul.cuh"

namespace infer {
namespace cu {

// ----------------------------------------------------------------------------
// CUDA kernels

constexpr int kMatmulWarps = 4;  // rows per block

// Decode stages x in shared memory, unit u's 32 floats at u * kUnitStride: read from global memory
// by unit, a lane's float4 loads were 128 bytes apart, 32 L1 wavefronts per instruction (more
// than the weights cost); the 4-float skew puts a load phase's 8 lanes on distinct banks.
constexpr int kUnitStride = 36;
inline size_t staged_x_bytes(int ne0, int nt) { return nt == 1 ? static_cast<size_t>(ne0 / 32) * kUnitStride * sizeof(float) : 0; }

// Version 1, the forward pass's kernel. One launch covers the parts of `set` (q, k and v of a
// layer: one type and row length), rows numbered across them, each with its own output, optional
// bias, and optionally added into its output (residual adds): kernels a decode step does not
// launch. GLU: parts 0 and 1 are gate and up; a warp takes row r of both (one pass over x) and
// writes act(gate) * up to part 0's output (set.act: SiLU, or GELU for gemma). The epilogue's
// adds are the CPU's, in its order.
template <tensor_type T, int NT, bool GLU>
__global__ void __launch_bounds__(kMatmulWarps * 32)
    matmul_kernel(const matmul_set set, int ne0, const float* __restrict__ x, int n_tokens) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  extern __shared__ float4 x_staged[];
  if constexpr (NT == 1) {  // before any thread returns: every thread copies and syncs
    float ss = 0.0f;
    for (int i = threadIdx.x; i < ne0 / 4; i += blockDim.x) {
      const float4 v = reinterpret_cast<const float4*>(x)[i];
      x_staged[(i / 8) * (kUnitStride / 4) + i % 8] = v;
      ss += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    if (set.norm_w) {  // uniform per launch; each thread rescales what it staged, as rms_norm does
      const float scale = rsqrtf(block_sum(ss) / static_cast<float>(ne0) + set.norm_eps);
      for (int i = threadIdx.x; i < ne0 / 4; i += blockDim.x) {
        float4& v = x_staged[(i / 8) * (kUnitStride / 4) + i % 8];
        const float4 w = reinterpret_cast<const float4*>(set.norm_w)[i];
        v.x = (v.x * scale) * w.x, v.y = (v.y * scale) * w.y, v.z = (v.z * scale) * w.z, v.w = (v.w * scale) * w.w;
      }
    }
    __syncthreads();
  }
  int r = blockIdx.x * kMatmulWarps + warp;
  int k = 0;
  if constexpr (GLU) {
    if (r >= set.part[0].ne1) return;
  } else {
    while (k < set.n && r >= set.part[k].ne1) r -= set.part[k++].ne1;
    if (k == set.n) return;
  }
  const matmul_part P = k == 0 ? set.part[0] : k == 1 ? set.part[1] : set.part[2];
  const int t0 = blockIdx.y * NT;
  const int nt = min(NT, n_tokens - t0);
  const uint8_t* row = P.w + static_cast<size_t>(r) * P.row_bytes;
  const uint8_t* row_up = GLU ? set.part[1].w + static_cast<size_t>(r) * set.part[1].row_bytes : nullptr;
  const int n_units = ne0 / 32;
  float acc[NT], acc_up[GLU ? NT : 1];
#pragma unroll
  for (int t = 0; t < NT; ++t) acc[t] = 0.0f;
#pragma unroll
  for (int t = 0; t < (GLU ? NT : 1); ++t) acc_up[t] = 0.0f;
  for (int u = lane; u < n_units; u += 32) {
    float wv[32], wu[GLU ? 32 : 1];
    dequant_unit<T>(row, u, wv);
    if constexpr (GLU) dequant_unit<T>(row_up, u, wu);
#pragma unroll
    for (int t = 0; t < NT; ++t) {
      if (t < nt) {
        const float4* xp = NT == 1 ? x_staged + u * (kUnitStride / 4)
                                   : reinterpret_cast<const float4*>(x + static_cast<size_t>(t0 + t) * ne0 + u * 32);
        float s = 0.0f, su = 0.0f;
#pragma unroll
        for (int i = 0; i < 8; ++i) {
          const float4 v = xp[i];
          s += wv[4 * i] * v.x + wv[4 * i + 1] * v.y + wv[4 * i + 2] * v.z + wv[4 * i + 3] * v.w;
          if constexpr (GLU) su += wu[4 * i] * v.x + wu[4 * i + 1] * v.y + wu[4 * i + 2] * v.z + wu[4 * i + 3] * v.w;
        }
        acc[t] += s;
        if constexpr (GLU) acc_up[t] += su;
      }
    }
  }
#pragma unroll
  for (int t = 0; t < NT; ++t) {
    const float s = warp_sum(acc[t]);
    const float su = GLU ? warp_sum(acc_up[GLU ? t : 0]) : 0.0f;
    if (lane != 0 || t >= nt) continue;
    float* o = P.y + static_cast<size_t>(t0 + t) * P.ne1 + r;
    if constexpr (GLU) {
      *o = glu_apply(set.act, s, su);
    } else {
      const float v = P.bias ? s + P.bias[r] : s;
      *o = set.accumulate ? *o + v : v;
    }
  }
}

// Version 2 (workbench; pick with INFER_CUDA_MATMUL=2). In version 1 each lane loads its own
// unit byte by byte, so one warp-wide load touches 32 units ~34 bytes apart: ~9 L1 wavefronts per
// instruction, which may cap the matvec below HBM bandwidth. Here a warp first stages 32
// consecutive units of its row in shared memory with 4-byte (or 2-byte, when the row is only
// 2-byte aligned) loads, 128 contiguous bytes per instruction, then each lane decodes its unit
// from shared memory. Plain f32/f16/bf16 rows skip the staging: lanes read 16 contiguous bytes
// each, 512 bytes per warp-wide load.
template <tensor_type T>
__host__ __device__ constexpr int chunk_bytes() {  // bytes of 32 consecutive units (K-quants: 4 super-blocks)
  return T == tensor_type::q8_0 ? 1088 : T == tensor_type::q4_0 ? 576 : T == tensor_type::q5_0 ? 704
       : T == tensor_type::q4_k ? 576 : T == tensor_type::q5_k ? 704 : T == tensor_type::q6_k ? 840 : 0;
}

template <tensor_type T, int NT>
__global__ void __launch_bounds__(kMatmulWarps * 32)
    matmul_kernel2(const uint8_t* __restrict__ w, size_t row_bytes, int ne0, int ne1, const float* __restrict__ x,
                   int n_tokens, float* __restrict__ y) {
  constexpr int CB = chunk_bytes<T>();
  __shared__ __align__(16) uint8_t stage[kMatmulWarps][CB + 16];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int r = blockIdx.x * kMatmulWarps + warp;
  if (r >= ne1) return;  // whole warps only; the kernel syncs warps, never the block
  const int t0 = blockIdx.y * NT;
  const int nt = min(NT, n_tokens - t0);
  const uint8_t* row = w + static_cast<size_t>(r) * row_bytes;
  uint8_t* buf = stage[warp];
  const int n_units = ne0 / 32;
  float acc[NT];
#pragma unroll
  for (int t = 0; t < NT; ++t) acc[t] = 0.0f;
  for (int u0 = 0; u0 < n_units; u0 += 32) {
    const int nu = min(32, n_units - u0);
    const uint8_t* src = row + static_cast<size_t>(u0 / 32) * CB;
    const int nbytes = nu * CB / 32;  // exact: K-quant rows hold whole super-blocks (8 units)
    if ((reinterpret_cast<uintptr_t>(src) & 3) == 0) {
      for (int i = lane; i < nbytes / 4; i += 32)
        reinterpret_cast<uint32_t*>(buf)[i] = reinterpret_cast<const uint32_t*>(src)[i];
      if (lane < nbytes % 4) buf[nbytes - nbytes % 4 + lane] = src[nbytes - nbytes % 4 + lane];
    } else {  // GGUF blocks have even sizes, so rows are at least 2-byte aligned
      for (int i = lane; i < nbytes / 2; i += 32)
        reinterpret_cast<uint16_t*>(buf)[i] = reinterpret_cast<const uint16_t*>(src)[i];
    }
    __syncwarp();
    if (lane < nu) {
      float wv[32];
      dequant_unit<T>(buf, lane, wv);
#pragma unroll
      for (int t = 0; t < NT; ++t) {
        if (t < nt) {
          const float4* xp = reinterpret_cast<const float4*>(x + static_cast<size_t>(t0 + t) * ne0 + (u0 + lane) * 32);
          float s = 0.0f;
#pragma unroll
          for (int i = 0; i < 8; ++i) {
            const float4 v = xp[i];
            s += wv[4 * i] * v.x + wv[4 * i + 1] * v.y + wv[4 * i + 2] * v.z + wv[4 * i + 3] * v.w;
          }
          acc[t] += s;
        }
      }
    }
    __syncwarp();  // buf is rewritten by the next chunk
  }
#pragma unroll
  for (int t = 0; t < NT; ++t) {
    const float s = warp_sum(acc[t]);
    if (lane == 0 && t < nt) y[static_cast<size_t>(t0 + t) * ne1 + r] = s;
  }
}

// Plain types, version 2: lane l reads elements [8k.. or 4k..) at 16-byte granularity, coalesced.
template <tensor_type T, int NT>
__global__ void __launch_bounds__(kMatmulWarps * 32)
    matmul_plain_kernel2(const uint8_t* __restrict__ w, size_t row_bytes, int ne0, int ne1,
                         const float* __restrict__ x, int n_tokens, float* __restrict__ y) {
  constexpr int EPL = T == tensor_type::f32 ? 4 : 8;  // elements per 16-byte load
  const int lane = threadIdx.x % 32;
  const int r = blockIdx.x * kMatmulWarps + threadIdx.x / 32;
  if (r >= ne1) return;
  const int t0 = blockIdx.y * NT;
  const int nt = min(NT, n_tokens - t0);
  const uint8_t* row = w + static_cast<size_t>(r) * row_bytes;
  float acc[NT];
#pragma unroll
  for (int t = 0; t < NT; ++t) acc[t] = 0.0f;
  for (int e = lane * EPL; e < ne0; e += 32 * EPL) {
    const uint4 q = *reinterpret_cast<const uint4*>(row + static_cast<size_t>(e) * (T == tensor_type::f32 ? 4 : 2));
    float wv[EPL];
    if constexpr (T == tensor_type::f32) {
      wv[0] = __uint_as_float(q.x); wv[1] = __uint_as_float(q.y); wv[2] = __uint_as_float(q.z); wv[3] = __uint_as_float(q.w);
    } else {
      const uint32_t p[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        if constexpr (T == tensor_type::f16) {
          wv[2 * k] = f16_to_f32(static_cast<uint16_t>(p[k] & 0xFFFF));
          wv[2 * k + 1] = f16_to_f32(static_cast<uint16_t>(p[k] >> 16));
        } else {
          wv[2 * k] = __uint_as_float(p[k] << 16);
          wv[2 * k + 1] = __uint_as_float(p[k] & 0xFFFF0000u);
        }
      }
    }
#pragma unroll
    for (int t = 0; t < NT; ++t) {
      if (t < nt) {
        const float4* xp = reinterpret_cast<const float4*>(x + static_cast<size_t>(t0 + t) * ne0 + e);
        float s = 0.0f;
#pragma unroll
        for (int i = 0; i < EPL / 4; ++i) {
          const float4 v = xp[i];
          s += wv[4 * i] * v.x + wv[4 * i + 1] * v.y + wv[4 * i + 2] * v.z + wv[4 * i + 3] * v.w;
        }
        acc[t] += s;
      }
    }
  }
#pragma unroll
  for (int t = 0; t < NT; ++t) {
    const float s = warp_sum(acc[t]);
    if (lane == 0 && t < nt) y[static_cast<size_t>(t0 + t) * ne1 + r] = s;
  }
}

// Memory-bound: one read of a row, one write of ne0 floats per token.
template <tensor_type T>
__global__ void get_rows_kernel(const uint8_t* __restrict__ w, size_t row_bytes, int ne0, const int32_t* __restrict__ ids,
                                float* __restrict__ out) {
  const uint8_t* row = w + static_cast<size_t>(ids[blockIdx.x]) * row_bytes;
  float* o = out + static_cast<size_t>(blockIdx.x) * ne0;
  for (int u = threadIdx.x; u < ne0 / 32; u += blockDim.x) {
    float wv[32];
    dequant_unit<T>(row, u, wv);
#pragma unroll
    for (int i = 0; i < 32; ++i) o[u * 32 + i] = wv[i];
  }
}

// ----------------------------------------------------------------------------
// kernel launchers

namespace {

// Past 48 KiB a kernel must opt in to dynamic shared memory (x of a 7B model's ffn_down: 49 KiB).
template <tensor_type T, int NT, bool GLU>
void reserve_staged_x(size_t bytes) {
  static std::atomic<size_t> allowed{48 * 1024};
  if (bytes <= allowed.load()) return;
  CUDA_CHECK(cudaFuncSetAttribute(matmul_kernel<T, NT, GLU>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  allowed.store(bytes);
}

template <tensor_type T, int NT>
void matmul_launch(const device_tensor& w, const float* x, int n_tokens, float* y, cudaStream_t stream, int version) {
  const dim3 block(kMatmulWarps * 32);
  // gridDim.y is limited to 65535 token groups (524k tokens): far above any batch.
  const int ne0 = static_cast<int>(w.ne0), ne1 = static_cast<int>(w.ne1);
  const dim3 grid(ceil_div(ne1, kMatmulWarps), ceil_div(n_tokens, NT));
  if (version != 2) {
    matmul_set set{};
    set.part[0] = {w.data, w.row_bytes, ne1, nullptr, y};
    set.n = 1;
    reserve_staged_x<T, NT, false>(staged_x_bytes(ne0, NT));
    matmul_kernel<T, NT, false><<<dim3(ceil_div(ne1, kMatmulWarps), grid.y), block, staged_x_bytes(ne0, NT), stream>>>(
        set, ne0, x, n_tokens);
  } else if constexpr (T == tensor_type::f32 || T == tensor_type::f16 || T == tensor_type::bf16) {
    matmul_plain_kernel2<T, NT><<<grid, block, 0, stream>>>(w.data, w.row_bytes, ne0, ne1, x, n_tokens, y);
  } else {
    matmul_kernel2<T, NT><<<grid, block, 0, stream>>>(w.data, w.row_bytes, ne0, ne1, x, n_tokens, y);
  }
}

template <tensor_type T>
void matmul_typed(const device_tensor& w, const float* x, int n_tokens, float* y, cudaStream_t stream, int version) {
  if (n_tokens == 1) matmul_launch<T, 1>(w, x, n_tokens, y, stream, version);
  else matmul_launch<T, 8>(w, x, n_tokens, y, stream, version);
  CUDA_CHECK_LAUNCH();
}

template <tensor_type T, bool GLU>
void matmul_set_typed(const matmul_set& set, int ne0, const float* x, int n_tokens, cudaStream_t stream) {
  int rows = 0;
  for (int k = 0; k < (GLU ? 1 : set.n); ++k) rows += set.part[k].ne1;
  const dim3 block(kMatmulWarps * 32);
  if (n_tokens == 1) {
    reserve_staged_x<T, 1, GLU>(staged_x_bytes(ne0, 1));
    matmul_kernel<T, 1, GLU><<<dim3(ceil_div(rows, kMatmulWarps), 1), block, staged_x_bytes(ne0, 1), stream>>>(set, ne0, x, n_tokens);
  } else {
    matmul_kernel<T, 8, GLU><<<dim3(ceil_div(rows, kMatmulWarps), ceil_div(n_tokens, 8)), block, 0, stream>>>(set, ne0, x, n_tokens);
  }
  CUDA_CHECK_LAUNCH();
}

template <tensor_type T>
void matmul_set_plain(const matmul_set& set, int ne0, const float* x, int n_tokens, cudaStream_t stream) {
  matmul_set_typed<T, false>(set, ne0, x, n_tokens, stream);
}

template <tensor_type T>
void matmul_set_glu(const matmul_set& set, int ne0, const float* x, int n_tokens, cudaStream_t stream) {
  matmul_set_typed<T, true>(set, ne0, x, n_tokens, stream);
}

// INFER_CUDA_MATMUL=1 or 2 selects that version process-wide (read once). Otherwise version 2 for
// the plain types (its 16-byte loads read an f16 lm_head at 80% of bandwidth, version 1 at 45%)
// and version 1 for the quantized ones (as fast or faster there).
int default_version(tensor_type t) {
  static const int forced = [] {
    const char* e = std::getenv("INFER_CUDA_MATMUL");
    return e && (e[0] == '1' || e[0] == '2') ? e[0] - '0' : 0;
  }();
  if (forced) return forced;
  return t == tensor_type::f32 || t == tensor_type::f16 || t == tensor_type::bf16 ? 2 : 1;
}

template <tensor_type T>
void get_rows_typed(const device_tensor& w, const int32_t* ids, int n_rows, float* out, cudaStream_t stream) {
  get_rows_kernel<T><<<n_rows, 128, 0, stream>>>(w.data, w.row_bytes, static_cast<int>(w.ne0), ids, out);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

bool matmul_supported(tensor_type t, int64_t ne0) {
  if (ne0 <= 0 || ne0 % 32 != 0) return false;
  switch (t) {
    case tensor_type::f32: case tensor_type::f16: case tensor_type::bf16: case tensor_type::q8_0:
    case tensor_type::q4_0: case tensor_type::q5_0:
      return true;
    case tensor_type::q4_k: case tensor_type::q5_k: case tensor_type::q6_k:
      return ne0 % 256 == 0;
    default:  // no CUDA kernels (yet) for the other types: the model runs on the CPU forward
      return false;
  }
}

#define INFER_DISPATCH_TYPE(t, fn, ...)                                  \
  switch (t) {                                                           \
    case tensor_type::f32: fn<tensor_type::f32>(__VA_ARGS__); break;     \
    case tensor_type::f16: fn<tensor_type::f16>(__VA_ARGS__); break;     \
    case tensor_type::bf16: fn<tensor_type::bf16>(__VA_ARGS__); break;   \
    case tensor_type::q8_0: fn<tensor_type::q8_0>(__VA_ARGS__); break;   \
    case tensor_type::q4_0: fn<tensor_type::q4_0>(__VA_ARGS__); break;   \
    case tensor_type::q5_0: fn<tensor_type::q5_0>(__VA_ARGS__); break;   \
    case tensor_type::q4_k: fn<tensor_type::q4_k>(__VA_ARGS__); break;   \
    case tensor_type::q5_k: fn<tensor_type::q5_k>(__VA_ARGS__); break;   \
    case tensor_type::q6_k: fn<tensor_type::q6_k>(__VA_ARGS__); break;   \
    default: throw std::runtime_error("cuda: unsupported weight type");  \
  }

void matmul(const device_tensor& w, const float* x, int n_tokens, float* y, cudaStream_t stream, int version) {
  if (n_tokens <= 0) return;
  if (!matmul_supported(w.type, w.ne0)) throw std::runtime_error("cuda matmul: unsupported weight type or row length");
  if (version == 0) version = default_version(w.type);
  INFER_DISPATCH_TYPE(w.type, matmul_typed, w, x, n_tokens, y, stream, version)
}

void matmul_multi(std::initializer_list<matmul_out> outs, const float* x, int n_tokens, bool accumulate, cudaStream_t stream,
                  rms_in norm) {
  if (n_tokens <= 0) return;
  if (norm.w && n_tokens != 1) throw std::runtime_error("cuda matmul: a fused RMSNorm is for decode (one token) only");
  // Consecutive matrices of one type and row length share a launch (at most 3 per launch).
  matmul_set set{};
  set.accumulate = accumulate;
  set.norm_w = norm.w;
  set.norm_eps = norm.eps;
  const device_tensor* first = nullptr;
  auto flush = [&] {
    if (set.n == 0) return;
    INFER_DISPATCH_TYPE(first->type, matmul_set_plain, set, static_cast<int>(first->ne0), x, n_tokens, stream)
    set.n = 0;
  };
  for (const matmul_out& o : outs) {
    const device_tensor& w = *o.w;
    if (!matmul_supported(w.type, w.ne0)) throw std::runtime_error("cuda matmul: unsupported weight type or row length");
    if (set.n == 3 || (first && (first->type != w.type || first->ne0 != w.ne0))) flush();
    if (set.n == 0) first = &w;
    set.part[set.n++] = {w.data, w.row_bytes, static_cast<int>(w.ne1), o.bias, o.y};
  }
  flush();
}

void matmul_glu(const device_tensor& gate, const device_tensor& up, const float* x, int n_tokens, float* y, float* up_scratch,
                cudaStream_t stream, rms_in norm, glu_kind act) {
  if (n_tokens <= 0) return;
  if (norm.w && n_tokens != 1) throw std::runtime_error("cuda matmul: a fused RMSNorm is for decode (one token) only");
  if (gate.type != up.type || gate.ne0 != up.ne0 || gate.ne1 != up.ne1) {
    // Mixed encodings (a K-quant mix may give gate and up different types): two products, then the GLU.
    matmul_multi({{&gate, y}}, x, n_tokens, false, stream, norm);
    matmul_multi({{&up, up_scratch}}, x, n_tokens, false, stream, norm);
    glu(y, up_scratch, static_cast<int64_t>(n_tokens) * gate.ne1, act, stream);
    return;
  }
  if (!matmul_supported(gate.type, gate.ne0)) throw std::runtime_error("cuda matmul: unsupported weight type or row length");
  matmul_set set{};
  set.part[0] = {gate.data, gate.row_bytes, static_cast<int>(gate.ne1), nullptr, y};
  set.part[1] = {up.data, up.row_bytes, static_cast<int>(up.ne1), nullptr, nullptr};
  set.n = 2;
  set.norm_w = norm.w;
  set.norm_eps = norm.eps;
  set.act = act;
  INFER_DISPATCH_TYPE(gate.type, matmul_set_glu, set, static_cast<int>(gate.ne0), x, n_tokens, stream)
}

void get_rows(const device_tensor& w, const int32_t* ids, int n_rows, float* out, cudaStream_t stream) {
  if (n_rows <= 0) return;
  if (!matmul_supported(w.type, w.ne0)) throw std::runtime_error("cuda get_rows: unsupported weight type or row length");
  INFER_DISPATCH_TYPE(w.type, get_rows_typed, w, ids, n_rows, out, stream)
}

}  // namespace cu
}  // namespace infer
