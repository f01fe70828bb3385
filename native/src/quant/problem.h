// One integer GEMM problem as the kernels of qgemm.cc and qgemv.cc see it
// (internal to native/src/quant).
#pragma once

#include <cstdint>

#include "quant/qgemm.h"

namespace rlx {
namespace quant {

/** One problem: int8 weights b [n][k], or packed int4 weights w [n][k/2] with scales. */
struct Problem {
  int64_t M, N, K, gs, G;
  const int8_t* a;
  const int8_t* b;   // int8 path
  const uint8_t* w;  // int4 path
  const float* as;
  const float* ws;
  int32_t* out_i;
  float* out_f;
  /** Weight code (n, k). */
  int code(int64_t n, int64_t k) const {
    if (w == nullptr) return b[n * K + k];
    const uint8_t v = w[(n * K + k) >> 1];  // K even: element k of row n is in the low nibble iff k is even
    const int nib = (k & 1) ? (v >> 4) : (v & 15);
    return nib >= 8 ? nib - 16 : nib;
  }
};

/** Rows up to which run_few_rows takes the problem (no packing). */
constexpr int64_t FEW_ROWS = 16;

/**
 * The few-row kernels (qgemv.cc): computes p and returns true when p.M ≤
 * FEW_ROWS and `isa` has a few-row path (AVX-512BW or AVX2); false otherwise,
 * leaving p to the packed kernels.
 */
bool run_few_rows(const Problem& p, Isa isa);

}  // namespace quant
}  // namespace rlx
