// Test-side reference code, written independently of native/kernels: weight quantizers following
// llama.cpp's quantize_row_*_ref semantics (the K-quant ones without the iterative scale search,
// which only affects quality, not the format), and per-element dequantization read straight off
// the block layout.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/kernels.h"

namespace infer_test {

// Quantizes rows x[rows][n] into GGUF bytes of type t (row after row).
std::vector<uint8_t> quantize_rows(infer::tensor_type t, const float* x, int64_t rows, int64_t n);
// Element j of a row of type t, from the layout formulas (double for the references).
double ref_element(infer::tensor_type t, const uint8_t* row, int64_t j);
// Random bytes that form valid blocks of type t (every bit pattern of quants and scales; fp16
// scale fields forced to small finite values).
std::vector<uint8_t> random_blocks(infer::tensor_type t, int64_t rows, int64_t n, std::mt19937& rng);

}  // namespace infer_test
