#!/bin/sh
# One command for a session with a GPU (needs only cmake, a C++ compiler and nvcc; no node):
# builds cuda_tests and cuda_bench for sm_90 in build/gpu, runs the kernel + CPU-vs-GPU parity
# suite, then the decode bench on the 0.5B-shaped model. Logs and JSON go to $OUT (or build/gpu).
#   sh bench/cuda/run-gpu.sh [cuda_bench args, default: --dtype all]
set -eu
cd "$(dirname "$0")/../.."
out="${OUT:-build/gpu}"
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
start=$(date +%s)
cmake -S . -B build/gpu -DCMAKE_BUILD_TYPE=Release -DINFER_CUDA_ARCHS=90 -Wno-dev >"$out/cmake.log" 2>&1 || { cat "$out/cmake.log"; exit 1; }
cmake --build build/gpu -j "$(nproc)" --target cuda_tests cuda_bench >>"$out/cmake.log" 2>&1 || { tail -50 "$out/cmake.log"; exit 1; }
echo "build: $(( $(date +%s) - start )) s"
rc=0
build/gpu/cuda_tests 2>&1 | tee "$out/cuda-tests.log" || rc=1
grep -q ' 0 failures\|SKIP' "$out/cuda-tests.log" || rc=1
# The step-budget suite once more with CUDA graphs off: graphs serve passes of <= 16 rows, so this
# moves every budget's small passes onto plain launches.
INFER_CUDA_GRAPHS=0 build/gpu/cuda_tests --budgets 2>&1 | tee "$out/budgets-no-graphs.log"
grep -q ' 0 failures\|SKIP' "$out/budgets-no-graphs.log" || rc=1
# GGUF files through the real loader (bench/cuda/make-gpu-models.sh makes them where node is; carry
# build/gpu-models to the GPU machine): llama, qwen3, phi3, gemma2, gemma3.
for f in build/gpu-models/*.gguf; do
  [ -f "$f" ] || continue
  name=$(basename "$f" .gguf)
  build/gpu/cuda_tests --model "$f" 2>&1 | tee "$out/model-$name.log"
  grep -q ' 0 failures\|SKIP' "$out/model-$name.log" || rc=1
done
# CUDA_SANITIZE=1: memcheck over the kernel checks as well (slow; compute-sanitizer is on the image).
if [ "${CUDA_SANITIZE:-0}" = 1 ]; then
  compute-sanitizer --tool memcheck build/gpu/cuda_tests --kernels 2>&1 | tail -20 | tee "$out/sanitizer.log" || rc=1
fi
if [ $# -eq 0 ]; then set -- --dtype all; fi
build/gpu/cuda_bench "$@" --json "$out/cuda-bench.json" 2>&1 | tee "$out/cuda-bench.log"
# Qwen3-0.6B shapes (per-head Q/K norms, head dim 128): the qwen3 layer's cost on the same device.
build/gpu/cuda_bench --shape qwen3-0.6b --dtype q8_0 --graphs on --json "$out/cuda-bench-qwen3.json" 2>&1 | tee "$out/cuda-bench-qwen3.log"
# Gemma-3-1B shapes (GeGLU, post-norms, windowed layers, 262k vocabulary).
build/gpu/cuda_bench --shape gemma3-1b --dtype q8_0 --graphs on --json "$out/cuda-bench-gemma3.json" 2>&1 | tee "$out/cuda-bench-gemma3.log"
exit $rc
