// Quantized matmul / matvec: GGUF weights stay encoded in device memory and are dequantized in
// registers, 32 weights (one unit) per lane at a time; fp32 activations and accumulation.
//
// Decode (n_tokens == 1) is memory-bound: every weight byte is read once per token and used for
// one FMA, so the target is device bandwidth. A warp owns a row and its lanes walk consecutive
// units, so one warp-wide step reads 32 adjacent units (~1 KB for Q8_0), coalesced.
// Batches (prefill, many decoding sequences) reuse each dequantized unit for NT = 8 tokens from
// registers, cutting weight traffic 8x; that path becomes compute-bound (FFMA, no tensor cores yet).
#include "cuda/common.cuh"
#include "cuda/dequant.cuh"
#include "cuda/matmul.cuh"

namespace infer {
namespace cu {

// ----------------------------------------------------------------------------
// CUDA kernels

constexpr int kMatmulWarps = 4;  // rows per block

template <tensor_type T, int NT>
__global__ void __launch_bounds__(kMatmulWarps * 32)
    matmul_kernel(const uint8_t* __restrict__ w, size_t row_bytes, int ne0, int ne1, const float* __restrict__ x,
                  int n_tokens, float* __restrict__ y) {
  const int lane = threadIdx.x % 32;
  const int r = blockIdx.x * kMatmulWarps + threadIdx.x / 32;
  if (r >= ne1) return;
  const int t0 = blockIdx.y * NT;
  const int nt = min(NT, n_tokens - t0);
  const uint8_t* row = w + static_cast<size_t>(r) * row_bytes;
  const int n_units = ne0 / 32;
  float acc[NT];
#pragma unroll
  for (int t = 0; t < NT; ++t) acc[t] = 0.0f;
  for (int u = lane; u < n_units; u += 32) {
    float wv[32];
    dequant_unit<T>(row, u, wv);
#pragma unroll
    for (int t = 0; t < NT; ++t) {
      if (t < nt) {
        const float4* xp = reinterpret_cast<const float4*>(x + static_cast<size_t>(t0 + t) * ne0 + u * 32);
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

template <tensor_type T>
void matmul_typed(const device_tensor& w, const float* x, int n_tokens, float* y, cudaStream_t stream) {
  const dim3 block(kMatmulWarps * 32);
  const int gx = ceil_div(static_cast<int>(w.ne1), kMatmulWarps);
  if (n_tokens == 1) {
    matmul_kernel<T, 1><<<dim3(gx, 1), block, 0, stream>>>(w.data, w.row_bytes, static_cast<int>(w.ne0),
                                                           static_cast<int>(w.ne1), x, 1, y);
  } else {
    constexpr int NT = 8;
    // gridDim.y is limited to 65535 token groups (524k tokens): far above any batch.
    matmul_kernel<T, NT><<<dim3(gx, ceil_div(n_tokens, NT)), block, 0, stream>>>(
        w.data, w.row_bytes, static_cast<int>(w.ne0), static_cast<int>(w.ne1), x, n_tokens, y);
  }
  CUDA_CHECK_LAUNCH();
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
  }
  return false;
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
  }

void matmul(const device_tensor& w, const float* x, int n_tokens, float* y, cudaStream_t stream) {
  if (n_tokens <= 0) return;
  if (!matmul_supported(w.type, w.ne0)) throw std::runtime_error("cuda matmul: unsupported weight type or row length");
  INFER_DISPATCH_TYPE(w.type, matmul_typed, w, x, n_tokens, y, stream)
}

void get_rows(const device_tensor& w, const int32_t* ids, int n_rows, float* out, cudaStream_t stream) {
  if (n_rows <= 0) return;
  if (!matmul_supported(w.type, w.ne0)) throw std::runtime_error("cuda get_rows: unsupported weight type or row length");
  INFER_DISPATCH_TYPE(w.type, get_rows_typed, w, ids, n_rows, out, stream)
}

}  // namespace cu
}  // namespace infer
