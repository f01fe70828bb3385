// Real scalar helpers with the js backend's exact semantics: TypedArray store
// conversions, NumPy's float -> int32 cast, float16/bfloat16 encoding
// (src/tensor/half.ts), and the functions of src/backends/js/special.ts and
// runtime.ts (erf/erfc are ports of special.ts, itself fdlibm's scheme).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include "vmath.h"

namespace rlx::interp {

// JavaScript's ToInt32 (what an Int32Array store and `x | 0` do).
inline int32_t jsToInt32(double x) {
  if (x >= -2147483648.0 && x <= 2147483647.0) return static_cast<int32_t>(x);
  if (!std::isfinite(x)) return 0;
  double m = std::fmod(std::trunc(x), 4294967296.0);
  if (m < 0) m += 4294967296.0;
  return static_cast<int32_t>(static_cast<uint32_t>(m));
}
// ToUint8 (a Uint8Array store): the low byte of ToInt32.
inline uint8_t jsToUint8(double x) { return static_cast<uint8_t>(static_cast<uint32_t>(jsToInt32(x)) & 0xffu); }
// ToInt8 (an Int8Array store): the low byte of ToInt32, two's complement.
inline int8_t jsToInt8(double x) { return static_cast<int8_t>(jsToUint8(x)); }

// float -> int32 as NumPy on x86 (runtime.ts toInt32): truncation; NaN and out of range give INT32_MIN.
inline double npToInt32(double v) {
  double t = std::trunc(v);
  return (t >= -2147483648.0 && t <= 2147483647.0) ? t : -2147483648.0;
}
// Any real value -> int8/uint8 as rlx casts it (src/tensor/dtype.ts floatToInt):
// through int32 as above, then the low byte (integers wrap modulo 256; NaN,
// inf and values outside int32 give 0). An integer input is exact in npToInt32.
inline double npToInt8(double v) { return static_cast<double>(jsToInt8(npToInt32(v))); }
inline double npToUint8(double v) { return static_cast<double>(jsToUint8(npToInt32(v))); }

inline double fround(double x) { return static_cast<double>(static_cast<float>(x)); }

// float16 bits -> value (table filled on first use).
const float* f16Table();
inline double f16ToDouble(uint16_t h) { return f16Table()[h]; }

// IEEE binary16 bits nearest to the double x (half.ts f32ToF16Bits: rounded once, from the double).
inline uint16_t doubleToF16(double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, 8);
  const uint32_t sign = static_cast<uint32_t>(bits >> 48) & 0x8000u;
  if (x != x) return static_cast<uint16_t>(sign | 0x7e00u);
  const double a = std::fabs(x);
  if (a >= 65520.0) return static_cast<uint16_t>(sign | 0x7c00u);
  if (a < 6.103515625e-5) return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(a * 16777216.0)));
  const int e = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  const uint32_t m = static_cast<uint32_t>(std::nearbyint(std::ldexp(a, 10 - e)));
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>((e + 15) << 10) + m - 1024u));
}

inline double bf16ToDouble(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
// bfloat16 bits of fround(x), ties to even on the float32 bits (runtime.ts f32ToBF16).
inline uint16_t doubleToBF16(double x) {
  const float f = static_cast<float>(x);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);
  return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
inline double roundF16(double x) { return f16ToDouble(doubleToF16(x)); }
inline double roundBF16(double x) { return bf16ToDouble(doubleToBF16(x)); }

// special.ts
double erf(double x);
double erfc(double x);
inline double sign(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? 0.0 : x; }
inline double gelu(double x) {
  constexpr double kSqrt1_2 = 0.70710678118654757;  // Math.SQRT1_2
  if (x == -HUGE_VAL) return -0.0;                   // the limit (the formula: −∞·0 = NaN); special.ts
  if (x < 0) return 0.5 * x * erfc(-(x * kSqrt1_2));
  return 0.5 * x * (1 + erf(x * kSqrt1_2));
}
inline double sigmoid(double x) {
  if (x >= 0) return 1 / (1 + expJs(-x));
  const double e = expJs(x);
  return e / (1 + e);
}
inline double softplus(double x) {
  const double m = x > 0 ? x : (x == x ? 0.0 : x);  // Math.max(x, 0)
  return std::log1p(expJs(-std::fabs(x))) + m;  // log1p: glibc's, not V8's (a few ulps)
}
// runtime.ts pow: C99 semantics (1**y = 1, (-1)**±inf = 1), which C's pow has.
inline double powf64(double a, double b) {
  if (a == 1 || b == 0) return 1;
  return std::pow(a, b);
}
// runtime.ts ipow: int32 wrap-around; negative exponents give 0 except for ±1.
inline double ipow(double a, double b) {
  const int32_t x0 = jsToInt32(a), e0 = jsToInt32(b);
  if (e0 < 0) return x0 == 1 ? 1.0 : x0 == -1 ? (e0 % 2 == 0 ? 1.0 : -1.0) : 0.0;
  uint32_t r = 1, x = static_cast<uint32_t>(x0);
  uint32_t e = static_cast<uint32_t>(e0);
  while (e > 0) {
    if (e & 1u) r *= x;
    x *= x;
    e >>= 1;
  }
  return static_cast<int32_t>(r);
}
// V8's Math.hypot for two arguments (normalised, Kahan-summed), which the js
// backend's complex abs calls.
inline double jsHypot(double x, double y) {
  const bool nan = x != x || y != y;
  const double ax = std::fabs(x), ay = std::fabs(y);
  double mx = 0;
  if (x == x && ax > mx) mx = ax;
  if (y == y && ay > mx) mx = ay;
  if (mx == INFINITY) return INFINITY;
  if (nan) return NAN;
  if (mx == 0) return 0;
  double sum = 0, comp = 0;
  const double n0 = ax / mx, s0 = n0 * n0 - comp, p0 = sum + s0;
  comp = (p0 - sum) - s0;
  sum = p0;
  const double n1 = ay / mx, s1 = n1 * n1 - comp, p1 = sum + s1;
  sum = p1;
  return std::sqrt(sum) * mx;
}

}  // namespace rlx::interp
