#!/bin/sh
# Small GGUF files of each family the CUDA forward serves, for `cuda_tests --model F` on the GPU
# machine (which has no node): run here, then carry build/gpu-models with the run (run-gpu.sh runs
# every file it finds there). Random weights, a 4000-token vocabulary, 1.8-7.6 MiB each.
#   sh bench/cuda/make-gpu-models.sh
set -eu
cd "$(dirname "$0")/../.."
dir=build/gpu-models
mkdir -p "$dir"
gen() { out="$dir/$1.gguf"; shift; [ -f "$out" ] || node bin/svc.mjs model make "$@" --vocab-limit 4000 --out "$out"; }
shape="--dim 256 --layers 2 --heads 4 --kv-heads 2 --ffn 512"
gen llama-q6_k --arch llama --dtype q6_k $shape
gen qwen3-q4_k_m --arch qwen3 --dtype q4_k_m $shape --head-dim 128
gen phi3-q8_0 --arch phi3 --dtype q8_0 $shape
# gemma2: the file's soft-caps (50 / 30), a window of 24 on even layers, head dim 128 (q_dim 2x dim).
gen gemma2-q4_k_m --arch gemma2 --dtype q4_k_m $shape --head-dim 128 --sliding-window 24
# gemma3: 6 layers (5 windowed with RoPE base 10000, 1 full), one KV head of 256, as Gemma 3 1B.
gen gemma3-q8_0 --arch gemma3 --dtype q8_0 --dim 256 --layers 6 --heads 4 --kv-heads 1 --ffn 512 --head-dim 256 --sliding-window 24
ls -l "$dir"
