// Integer GEMM kernels for quantized inference (the contract is
// src/quant/kernels/contract.ts, the reference src/quant/kernels/js.ts; the
// JS entry points are quant_binding.cc):
//
//   int8_matmul  out[m, n] = Σ_k a[m, k]·b[n, k]                          int8 → int32, exact (k ≤ 131071)
//   int4_matmul  out[m, n] = (float)(aScale[m] · Σ_g wScale[n, g]·s_g)     float64 sum over g ascending
//                s_g = Σ_{k in group g} a[m, k]·w4[n, k]                    int32, exact
//
// One problem per call (the binding loops over a batch). Three code paths,
// chosen at run time: AVX-512 VNNI (vpdpbusd, u8×s8 → s32, with a shifted to
// u8 by +128 and 128·Σ_k b[n, k] subtracted per column and group), AVX2
// (vpmaddwd on operands sign-extended to int16: exact, no saturation) and
// portable scalar loops. All give the same bits: the integer sums are exact
// (wrapping int32 arithmetic whose true result fits), and the float steps of
// int4 are the same IEEE operations in the same order (no FMA: -ffp-contract=off).
#pragma once

#include <cstdint>

namespace rlx {
namespace quant {

enum class Isa { scalar = 0, avx2 = 1, vnni = 2 };

/** The best path this CPU runs. */
Isa best_isa();
/** The path the kernels use now (best_isa() unless lowered by set_isa, for tests). */
Isa current_isa();
/** Uses `isa`, or the best this CPU has if that is lower; returns the one now in use. */
Isa set_isa(Isa isa);
const char* isa_name(Isa isa);

void int8_matmul(int64_t m, int64_t n, int64_t k, const int8_t* a, const int8_t* b, int32_t* out);
void int4_matmul(int64_t m, int64_t n, int64_t k, int64_t group, const int8_t* a, const float* a_scale, const uint8_t* w, const float* w_scale, float* out);

}  // namespace quant
}  // namespace rlx
