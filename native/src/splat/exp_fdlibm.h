// e^x as JavaScript's Math.exp computes it, for the rasterize passes.
//
// V8's Math.exp is fdlibm's __ieee754_exp (V8's src/base/ieee754.cc);
// glibc's exp rounds differently in the last bit for a few percent of
// arguments. The js reference kernels call Math.exp, so computing α with
// fdlibm's algorithm, operation for operation, gives the reference's α to the
// bit, and with it the same skip and stop decisions (α < ALPHA_MIN,
// T·(1 − α) ≤ T_STOP) where glibc could flip one at a boundary. Checked
// bit for bit against node's Math.exp over millions of arguments while this
// was written (the splat tests check the kernels against the js reference).
//
// exp_fdlibm is the scalar function (every argument). exp4_nonpositive is
// the same arithmetic on four lanes (GCC/Clang vector extensions, so one
// source serves SSE2, AVX2 and NEON) for arguments in [EXP4_MIN, 0], the
// range where fdlibm takes no special branch other than the ones replicated
// here; callers route anything else through exp_fdlibm. Both must be
// compiled without FMA contraction (CMakeLists.txt: -ffp-contract=off).
//
// The algorithm and its coefficients are fdlibm's e_exp.c, whose notice is
// kept here as it asks:
//   Copyright (C) 2004 by Sun Microsystems, Inc. All rights reserved.
//   Permission to use, copy, modify, and distribute this software is freely
//   granted, provided that this notice is preserved.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

#include "splat/simd.h"

namespace rlx {
namespace splat {

namespace fdlibm {
constexpr double ln2HI = 6.93147180369123816490e-01;  // 0x3fe62e42 fee00000: t·ln2HI exact for |t| < 2^11
constexpr double ln2LO = 1.90821492927058770002e-10;  // 0x3dea39ef 35793c76
constexpr double invln2 = 1.44269504088896338700e+00;
constexpr double P1 = 1.66666666666666019037e-01, P2 = -2.77777777770155933842e-03, P3 = 6.61375632143793436117e-05,
                 P4 = -1.65339022054652515390e-06, P5 = 4.13813679705723846039e-08;
constexpr double o_threshold = 7.09782712893383973096e+02, u_threshold = -7.45133219101941108420e+02;
constexpr double twom1000 = 9.33263618503218878990e-302;  // 2^-1000

inline uint32_t high_word(double x) {
  uint64_t u;
  std::memcpy(&u, &x, 8);
  return static_cast<uint32_t>(u >> 32);
}
/** x with k added to its binary exponent (fdlibm's `__HI(y) += k << 20`). */
inline double add_exponent(double y, int32_t k) {
  uint64_t u;
  std::memcpy(&u, &y, 8);
  u += static_cast<uint64_t>(static_cast<int64_t>(k)) << 52;
  std::memcpy(&y, &u, 8);
  return y;
}
}  // namespace fdlibm

/** fdlibm's __ieee754_exp (the arithmetic of V8's Math.exp). */
inline double exp_fdlibm(double x) {
  using namespace fdlibm;
  uint32_t hx = high_word(x);
  const int xsb = static_cast<int>((hx >> 31) & 1);
  hx &= 0x7fffffff;
  double hi = 0, lo = 0;
  int k = 0;
  if (hx >= 0x40862E42) {  // |x| ≥ 709.78...
    if (hx >= 0x7ff00000) return x != x ? x + x : (xsb == 0 ? x : 0.0);
    if (x > o_threshold) return std::numeric_limits<double>::infinity();
    if (x < u_threshold) return 0.0;
  }
  if (hx > 0x3fd62e42) {  // |x| > ½ ln 2: x = k ln2 + r
    if (hx < 0x3FF0A2B2) {  // and |x| < 1.5 ln2
      hi = xsb ? x + ln2HI : x - ln2HI;
      lo = xsb ? -ln2LO : ln2LO;
      k = 1 - xsb - xsb;
    } else {
      k = static_cast<int>(invln2 * x + (xsb ? -0.5 : 0.5));
      const double t = k;
      hi = x - t * ln2HI;
      lo = t * ln2LO;
    }
    x = hi - lo;
  } else if (hx < 0x3e300000) {  // |x| < 2^-28
    return 1.0 + x;
  }
  const double t = x * x;
  const double c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k == 0) return 1.0 - ((x * c) / (c - 2.0) - x);
  const double y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
  if (k >= -1021) return add_exponent(y, k);
  return add_exponent(y, k + 1000) * twom1000;
}

/** Smallest argument exp4_nonpositive takes: fdlibm's k stays ≥ −1021 (no subnormal scaling). */
constexpr double EXP4_MIN = -700.0;

/**
 * exp_fdlibm on four lanes, each in [EXP4_MIN, 0] (−0 included), bit for bit.
 * fdlibm's branches for that range, as selects: |x| ≤ ½ ln 2 (high word
 * ≤ 0x3fd62e42) takes k = 0; |x| < 2^-28 returns 1 + x; otherwise
 * k = (int)(x/ln2 − ½) (truncation, as fdlibm's cast), which for
 * ½ ln 2 < |x| < 1.5 ln 2 is −1 with the same hi and lo as fdlibm's special
 * case there. With lo = 0, hi = x the k ≠ 0 formula is the k = 0 one
 * (q/(c − 2) = −(q/(2 − c)) exactly), and for k ≥ −1021 the exponent add is
 * the multiplication by 2^k.
 */
RLX_ALWAYS_INLINE v4d exp4_nonpositive(v4d x) {
  using namespace fdlibm;
  const v4d ax = -x;
  // high word of |x| > 0x3fd62e42  ⇔  |x| ≥ the double 0x3fd62e43'00000000 (positive doubles order like their bits).
  const uint64_t reduceBits = 0x3fd62e4300000000ull, tinyBits = 0x3e30000000000000ull;
  double reduceFrom, tinyBelow;
  std::memcpy(&reduceFrom, &reduceBits, 8);
  std::memcpy(&tinyBelow, &tinyBits, 8);
  const v4m reduce = ax >= reduceFrom;
  const v4m tiny = ax < tinyBelow;
  const v4i k = __builtin_convertvector(invln2 * x + (-0.5), v4i);  // truncates toward zero like fdlibm's (int)
  const v4d t = v4_select(reduce, __builtin_convertvector(k, v4d), v4_splat(0.0));
  const v4d hi = v4_select(reduce, x - t * ln2HI, x);
  const v4d lo = t * ln2LO;  // +0 where not reduced
  const v4d r = hi - lo;
  const v4d rr = r * r;
  const v4d c = r - rr * (P1 + rr * (P2 + rr * (P3 + rr * (P4 + rr * P5))));
  const v4d y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
  // 2^k from its bits (k = 0 where not reduced).
  const v4m kk = __builtin_convertvector(k, v4m) & reduce;
  const v4m scaleBits = (kk + 1023) << 52;
  v4d scale;
  std::memcpy(&scale, &scaleBits, 32);
  return v4_select(tiny, 1.0 + x, y * scale);
}

}  // namespace splat
}  // namespace rlx
