// exp, erf, gelu and sigmoid over a block of doubles, four lanes at a time,
// with the bits of the js backend (vmath.cc).
//
// The js backend calls Math.exp, which in V8 is fdlibm's __ieee754_exp (with
// exp(1) = Math.E), and
// its own erf/erfc (special.ts, fdlibm's s_erf.c scheme, which calls
// Math.exp). expJs is that exp (the port in splat/exp_fdlibm.h), so the
// scalar functions of scalar.h/special.cc give the js bits; the block
// functions below perform the same IEEE operations in the same order on four
// lanes (fdlibm's branches as masked lanes), and route the rare lanes they do
// not cover (NaN, ±inf, |x| > 708 for exp, erfc's far tail) through the scalar
// functions: the same bits either way, and as the js backend.
#pragma once

#include "splat/exp_fdlibm.h"

namespace rlx::interp {

/**
 * e^x as V8's Math.exp computes it: fdlibm's e_exp.c, operation for
 * operation, except that V8 returns Math.E for x = 1 (V8's ieee754.cc: fdlibm
 * is an ulp off there, 2.7182818284590455).
 */
constexpr double kE = 2.718281828459045;  // Math.E, 0x4005bf0a8b145769
inline double expJs(double x) { return x == 1.0 ? kE : splat::exp_fdlibm(x); }

// d[i] = f(x[i]) for i < n, rounded to float32 when r32 (what a separate
// Math.fround would give); d may be x. AVX2 when the CPU has it
// (RLX_INTERP_BASELINE=1 in the environment says no, to test the SSE2 build),
// the same bits either way.
void expBlock(double* d, const double* x, int n, bool r32);
void erfBlock(double* d, const double* x, int n, bool r32);
void geluBlock(double* d, const double* x, int n, bool r32);
void sigmoidBlock(double* d, const double* x, int n, bool r32);

}  // namespace rlx::interp
