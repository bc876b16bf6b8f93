#!/usr/bin/env bash
# Kernel throughput at Qwen2.5-0.5B shapes: decode matvec GB/s per weight type (1 and 2 threads,
# 256 MiB working set so every call streams from DRAM) and 512-token prefill GFLOP/s.
# Compare matvec GB/s with the machine's memory bandwidth (perf-baseline: 34 GB/s with 2 threads,
# 25 GB/s with 1). Extra arguments go to the bench, e.g. --types q8_0,f16 --seconds 2.
# Usage: bash bench/kernels/kernels-bench.sh [--types ...] [--threads 1,2] [--seconds S]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
flock /tmp/native-build.lock node scripts/build.mjs --native-only >/dev/null
echo "# $(date -u +%FT%TZ) $(uname -m), $(nproc) cpus, load: $(cut -d' ' -f1-3 /proc/loadavg)"
exec ./build/native/infer_native_tests --bench "$@"
