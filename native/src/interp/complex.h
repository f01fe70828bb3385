// Complex scalar functions: a C++ port of src/backends/js/complex/*.ts (NumPy's
// C99 Annex G semantics, Hull-Fairgrieve-Tang inverse functions, Smith /
// Baudin-Smith division, NumPy's integer powers), so that the interpreter
// takes the same branches and special values as the js reference and differs
// from it only where the platform libm (exp, sin, atan2, ...) differs from V8's.
//
// Why a port rather than std::complex / glibc's csqrt, clog, ...: several of
// the js functions make deliberate choices glibc does not (NumPy's own Smith
// division for non-finite operands, cpow's repeated squaring for |n| < 100,
// NumPy 2's csign, clog1p's accurate log|1 + z|, the logistic in a form that
// cannot overflow), and matching one algorithm is what makes the parity suite
// meaningful.
#pragma once

namespace rlx::interp {

struct Cx {
  double re, im;
};

// helpers shared by the files (core.ts / elementary.ts)
bool jsSignbit(double x);
double jsCopysign(double a, double b);
inline bool isInf(double x) { return x == __builtin_inf() || x == -__builtin_inf(); }
double chypot(double x, double y);
double halfLog1pSquares(double a, double b, double c);
double logAbs(double x, double y);

Cx cexp(double x, double y);
Cx clog(double x, double y);
Cx csqrt(double x, double y);
Cx clog1p(double x, double y);
Cx cexpm1(double x, double y);
Cx csinh(double x, double y);
Cx ccosh(double x, double y);
Cx ctanh(double x, double y);
Cx csin(double x, double y);
Cx ccos(double x, double y);
Cx ctan(double x, double y);
Cx casinh(double x, double y);
Cx casin(double x, double y);
Cx cacos(double x, double y);
Cx catanh(double x, double y);
Cx catan(double x, double y);
Cx cdiv(double ar, double ai, double br, double bi);
Cx cpow(double ar, double ai, double br, double bi);
Cx csign(double x, double y);
Cx crsqrt(double x, double y);
Cx csigmoid(double x, double y);

}  // namespace rlx::interp
