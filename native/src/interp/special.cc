// erf/erfc (a port of src/backends/js/special.ts, itself an implementation of
// the rational-approximation scheme of Sun's fdlibm s_erf.c, whose
// coefficients these are), the float16 decode table, and the names used in
// error messages.
//
// fdlibm's notice, which its licence asks us to keep with the coefficients:
//
//   Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//   Developed at SunPro, a Sun Microsystems, Inc. business.
//   Permission to use, copy, modify, and distribute this
//   software is freely granted, provided that this notice
//   is preserved.

#include "fp.h"
#include "program.h"
#include "scalar.h"

namespace rlx::interp {
namespace {

#include "erf_coeffs.h"  // EFX, PP*, QQ*, ERX, PA*, QA*, RA*, SA*, RB*, SB*

double erfSmallR(double x) {
  const double z = x * x;
  const double r = PP0 + z * (PP1 + z * (PP2 + z * (PP3 + z * PP4)));
  const double s = 1 + z * (QQ1 + z * (QQ2 + z * (QQ3 + z * (QQ4 + z * QQ5))));
  return r / s;
}
double erfNearOne(double ax) {
  const double s = ax - 1;
  const double p = PA0 + s * (PA1 + s * (PA2 + s * (PA3 + s * (PA4 + s * (PA5 + s * PA6)))));
  const double q = 1 + s * (QA1 + s * (QA2 + s * (QA3 + s * (QA4 + s * (QA5 + s * QA6)))));
  return p / q;
}
double erfcTail(double ax) {
  const double s = 1 / (ax * ax);
  double r, q;
  if (ax < 2.857142857142857) {
    r = RA0 + s * (RA1 + s * (RA2 + s * (RA3 + s * (RA4 + s * (RA5 + s * (RA6 + s * RA7))))));
    q = 1 + s * (SA1 + s * (SA2 + s * (SA3 + s * (SA4 + s * (SA5 + s * (SA6 + s * (SA7 + s * SA8)))))));
  } else {
    r = RB0 + s * (RB1 + s * (RB2 + s * (RB3 + s * (RB4 + s * (RB5 + s * RB6)))));
    q = 1 + s * (SB1 + s * (SB2 + s * (SB3 + s * (SB4 + s * (SB5 + s * (SB6 + s * SB7))))));
  }
  uint64_t bits;
  std::memcpy(&bits, &ax, 8);
  bits &= 0xffffffff00000000ull;  // z = ax with the low word cleared: z*z is exact
  double z;
  std::memcpy(&z, &bits, 8);
  return (expJs(-z * z - 0.5625) * expJs((z - ax) * (z + ax) + r / q)) / ax;
}

}  // namespace

double erf(double x) {
  if (x != x) return x;
  const double ax = std::fabs(x);
  if (ax < 0.84375) {
    if (ax < 3.725290298461914e-9) return x + EFX * x;
    return x + x * erfSmallR(x);
  }
  if (ax < 1.25) {
    const double v = ERX + erfNearOne(ax);
    return x < 0 ? -v : v;
  }
  if (ax >= 6) return x < 0 ? -1 : 1;
  const double v = 1 - erfcTail(ax);
  return x < 0 ? -v : v;
}

double erfc(double x) {
  if (x != x) return x;
  const double ax = std::fabs(x);
  if (ax < 0.84375) {
    if (ax < 1.3877787807814457e-17) return 1 - x;
    const double y = erfSmallR(x);
    if (x < 0.25) return 1 - (x + x * y);
    return 0.5 - (x * y + (x - 0.5));
  }
  if (ax < 1.25) {
    const double pq = erfNearOne(ax);
    return x > 0 ? 1 - ERX - pq : 1 + (ERX + pq);
  }
  if (ax < 28) {
    if (x < -6) return 2;
    const double r = erfcTail(ax);
    return x > 0 ? r : 2 - r;
  }
  return x > 0 ? 0 : 2;
}

const float* f16Table() {
  static const float* table = [] {
    static float t[65536];
    for (uint32_t h = 0; h < 65536; h++) {
      const uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
      double v;
      if (exp == 0) v = man * 5.9604644775390625e-8;
      else if (exp == 31) v = man == 0 ? INFINITY : NAN;
      else v = std::ldexp(1024.0 + man, static_cast<int>(exp) - 25);
      t[h] = static_cast<float>((h & 0x8000) ? -v : v);
    }
    return t;
  }();
  return table;
}

const char* opName(int op) {
  static const char* const names[kNumOpcodes] = {
      "load", "const", "acc", "cast", "where", "complex", "neg", "abs", "sign", "exp", "log", "log1p", "expm1", "sqrt",
      "rsqrt", "sin", "cos", "tan", "tanh", "sinh", "cosh", "asin", "acos", "atan", "floor", "ceil", "round", "erf",
      "sigmoid", "softplus", "gelu", "real", "imag", "conj", "angle", "logicalNot", "stopGradient", "add", "sub", "mul",
      "div", "pow", "maximum", "minimum", "atan2", "eq", "ne", "lt", "le", "gt", "ge", "logicalAnd", "logicalOr"};
  return op >= 0 && op < kNumOpcodes ? names[op] : "?";
}

const char* dtypeName(int d) {
  static const char* const names[kNumDTypes] = {"bool", "int8", "uint8", "int32", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"};
  return d >= 0 && d < kNumDTypes ? names[d] : "?";
}

Storage storageOf(int d) {
  switch (d) {
    case kBool:
    case kUInt8: return kU8;
    case kInt8: return kI8;
    case kInt32: return kI32;
    case kFloat16:
    case kBFloat16: return kU16;
    case kFloat32:
    case kComplex64: return kF32;
    default: return kF64;
  }
}

}  // namespace rlx::interp
