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

constexpr double EFX = 1.28379167095512586316e-1;
constexpr double PP0 = 1.28379167095512558561e-1, PP1 = -3.25042107247001499370e-1, PP2 = -2.84817495755985104766e-2,
                 PP3 = -5.77027029648944159157e-3, PP4 = -2.37630166566501626084e-5;
constexpr double QQ1 = 3.97917223959155352819e-1, QQ2 = 6.50222499887672944485e-2, QQ3 = 5.08130628187576562776e-3,
                 QQ4 = 1.32494738004321644526e-4, QQ5 = -3.96022827877536812320e-6;
constexpr double ERX = 8.45062911510467529297e-1;
constexpr double PA0 = -2.36211856075265944077e-3, PA1 = 4.14856118683748331666e-1, PA2 = -3.72207876035701323847e-1,
                 PA3 = 3.18346619901161753674e-1, PA4 = -1.10894694282396677476e-1, PA5 = 3.54783043256182359371e-2,
                 PA6 = -2.16637559486879084300e-3;
constexpr double QA1 = 1.06420880400844228286e-1, QA2 = 5.40397917702171048937e-1, QA3 = 7.18286544141962662868e-2,
                 QA4 = 1.26171219808761642112e-1, QA5 = 1.36370839120290507362e-2, QA6 = 1.19844998467991074170e-2;
constexpr double RA0 = -9.86494403484714822705e-3, RA1 = -6.93858572707181764372e-1, RA2 = -1.05586262253232909814e1,
                 RA3 = -6.23753324503260060396e1, RA4 = -1.62396669462573470355e2, RA5 = -1.84605092906711035994e2,
                 RA6 = -8.12874355063065934246e1, RA7 = -9.81432934416914548592;
constexpr double SA1 = 1.96512716674392571292e1, SA2 = 1.37657754143519042600e2, SA3 = 4.34565877475229228821e2,
                 SA4 = 6.45387271733267880336e2, SA5 = 4.29008140027567833386e2, SA6 = 1.08635005541779435134e2,
                 SA7 = 6.57024977031928170135, SA8 = -6.04244152148580987438e-2;
constexpr double RB0 = -9.86494292470009928597e-3, RB1 = -7.99283237680523006574e-1, RB2 = -1.77579549177547519889e1,
                 RB3 = -1.60636384855821916062e2, RB4 = -6.37566443368389627722e2, RB5 = -1.02509513161107724954e3,
                 RB6 = -4.83519191608651397019e2;
constexpr double SB1 = 3.03380607434824582924e1, SB2 = 3.25792512996573918826e2, SB3 = 1.53672958608443695994e3,
                 SB4 = 3.19985821950859553908e3, SB5 = 2.55305040643316442583e3, SB6 = 4.74528541206955367215e2,
                 SB7 = -2.24409524465858183362e1;

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
