// Device detection that is safe without a driver or a GPU: every failure becomes available=false.
#include <cuda_runtime.h>

#include "cuda/cuda_api.h"

namespace infer {

cuda_device_info cuda_query_device() {
  cuda_device_info info;
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    info.error = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e);
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return info;
  }
  info.device_count = n;
  if (n == 0) {
    info.error = "no CUDA device";
    return info;
  }
  cudaDeviceProp p{};
  if ((e = cudaGetDeviceProperties(&p, 0)) != cudaSuccess) {
    info.error = std::string("cudaGetDeviceProperties: ") + cudaGetErrorString(e);
    cudaGetLastError();
    return info;
  }
  info.name = p.name;
  info.cc_major = p.major;
  info.cc_minor = p.minor;
  info.sm_count = p.multiProcessorCount;
  info.total_mib = static_cast<int64_t>(p.totalGlobalMem >> 20);
  int mem_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0) == cudaSuccess &&
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0) == cudaSuccess)
    info.peak_gbps = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9;
  cudaGetLastError();
  size_t free_b = 0, total_b = 0;
  if (cudaSetDevice(0) == cudaSuccess && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
    info.free_mib = static_cast<int64_t>(free_b >> 20);
  } else {
    info.error = "cudaMemGetInfo failed: the device cannot be used";
    cudaGetLastError();
    return info;
  }
  info.available = true;
  return info;
}

}  // namespace infer
