// Port of src/backends/js/complex/inverse.ts: asinh, asin, acos, atanh, atan
// (Hull, Fairgrieve and Tang with FreeBSD msun catrig.c's refinements).

#include "fp.h"
#include <cmath>
#include "complex.h"

namespace rlx::interp {
namespace {

constexpr double PIO2 = 1.5707963267948966;
constexpr double PIO2_LO = 6.123233995736766e-17;
constexpr double E = 2.718281828459045;
constexpr double LN2 = 0.6931471805599453;
constexpr double EPS = 2.220446049250313e-16;
constexpr double DBL_MAXV = 1.7976931348623157e308;
constexpr double RECIP_EPS = 4503599627370496.0;
constexpr double SQRT_MIN = 1.4916681462400413e-154;
constexpr double FOUR_SQRT_MIN = 5.966672584960166e-154;
constexpr double QUARTER_SQRT_MAX = 1.6759759912428246e153;
constexpr double SQRT_3_EPS = 2.5809568279517849e-8;
constexpr double SQRT_6_EPS = 3.6500241499888571e-8;
constexpr double A_CROSSOVER = 10;
constexpr double B_CROSSOVER = 0.6417;

struct Hull {
  double re, b, sqrtA2my2, newY;
  bool bUsable;
};

double halfHypotMinus(double a, double b, double h) {
  if (b < 0) return (h - b) / 2;
  if (b == 0) return a / 2;
  return (a * a) / (h + b) / 2;
}

Hull hullCore(double x, double y) {
  Hull o{0, 0, 0, 0, false};
  const double R = chypot(x, y + 1);
  const double S = chypot(x, y - 1);
  double A = (R + S) / 2;
  if (A < 1) A = 1;
  if (A < A_CROSSOVER) {
    if (y == 1 && x < (EPS * EPS) / 128) {
      o.re = std::sqrt(x);
    } else if (x >= EPS * std::fabs(y - 1)) {
      const double am1 = halfHypotMinus(x, 1 + y, R) + halfHypotMinus(x, 1 - y, S);
      o.re = std::log1p(am1 + std::sqrt(am1 * (A + 1)));
    } else if (y < 1) {
      o.re = x / std::sqrt((1 - y) * (1 + y));
    } else {
      o.re = std::log1p(y - 1 + std::sqrt((y - 1) * (y + 1)));
    }
  } else {
    o.re = std::log(A + std::sqrt(A * A - 1));
  }
  o.newY = y;
  if (y < FOUR_SQRT_MIN) {
    o.bUsable = false;
    o.sqrtA2my2 = A * (2 / EPS);
    o.newY = y * (2 / EPS);
    return o;
  }
  o.b = y / A;
  o.bUsable = true;
  if (o.b > B_CROSSOVER) {
    o.bUsable = false;
    if (y == 1 && x < EPS / 128) {
      o.sqrtA2my2 = std::sqrt(x) * std::sqrt((A + y) / 2);
    } else if (x >= EPS * std::fabs(y - 1)) {
      const double amy = halfHypotMinus(x, y + 1, R) + halfHypotMinus(x, y - 1, S);
      o.sqrtA2my2 = std::sqrt(amy * (A + y));
    } else if (y > 1) {
      const double k = 4 / EPS / EPS;
      o.sqrtA2my2 = (x * k * y) / std::sqrt((y + 1) * (y - 1));
      o.newY = y * k;
    } else {
      o.sqrtA2my2 = std::sqrt((1 - y) * (1 + y));
    }
  }
  return o;
}

Cx clogLarge(double x, double y) {
  double a = std::fabs(x), b = std::fabs(y);
  if (a < b) {
    const double t = a;
    a = b;
    b = t;
  }
  double re;
  if (a > DBL_MAXV / 2) re = std::log(chypot(x / E, y / E)) + 1;
  else if (a > QUARTER_SQRT_MAX || b < SQRT_MIN) re = std::log(chypot(x, y));
  else re = std::log(a * a + b * b) / 2;
  return {re, std::atan2(y, x)};
}

double realPartReciprocal(double x, double y) {
  if (isInf(x)) return 1 / x;
  if (isInf(y)) return x / y / y;
  double a = x, b = y, k = 1;
  if (std::fabs(a) > 4.49423283715579e307 || std::fabs(b) > 4.49423283715579e307) {
    a *= 0.25;
    b *= 0.25;
    k = 0.25;
  }
  if (std::fabs(a) >= std::fabs(b)) {
    const double r = b / a;
    return k / (a + b * r);
  }
  const double r = a / b;
  return (r / (b + a * r)) * k;
}

}  // namespace

Cx casinh(double x, double y) {
  if (x != x || y != y) {
    if (isInf(x)) return {x, NAN};
    if (isInf(y)) return {INFINITY, NAN};
    if (y == 0) return {NAN, y};
    return {NAN, NAN};
  }
  const double ax = std::fabs(x), ay = std::fabs(y);
  if (ax > RECIP_EPS || ay > RECIP_EPS) {
    const Cx l = jsSignbit(x) ? clogLarge(-x, -y) : clogLarge(x, y);
    return {jsCopysign(l.re + LN2, x), jsCopysign(l.im, y)};
  }
  if ((x == 0 && y == 0) || (ax < SQRT_6_EPS / 4 && ay < SQRT_6_EPS / 4)) return {x, y};
  const Hull h = hullCore(ax, ay);
  const double ry = h.bUsable ? std::asin(h.b) : std::atan2(h.newY, h.sqrtA2my2);
  return {jsCopysign(h.re, x), jsCopysign(ry, y)};
}

Cx casin(double x, double y) {
  const Cx r = casinh(y, x);
  return {r.im, r.re};
}

Cx cacos(double x, double y) {
  const bool sx = jsSignbit(x), sy = jsSignbit(y);
  if (x != x || y != y) {
    if (isInf(x)) return {NAN, -INFINITY};
    if (isInf(y)) return {NAN, -y};
    if (x == 0) return {PIO2, NAN};
    return {NAN, NAN};
  }
  const double ax = std::fabs(x), ay = std::fabs(y);
  if (ax > RECIP_EPS || ay > RECIP_EPS) {
    const Cx l = clogLarge(x, y);
    return {std::fabs(l.im), sy ? l.re + LN2 : -(l.re + LN2)};
  }
  if (x == 1 && y == 0) return {0, -y};
  if (ax < SQRT_6_EPS / 4 && ay < SQRT_6_EPS / 4) return {PIO2 - (x - PIO2_LO), -y};
  const Hull h = hullCore(ay, ax);
  double rx;
  if (h.bUsable) rx = sx ? std::acos(-h.b) : std::acos(h.b);
  else rx = sx ? std::atan2(h.sqrtA2my2, -h.newY) : std::atan2(h.sqrtA2my2, h.newY);
  return {rx, sy ? h.re : -h.re};
}

Cx catanh(double x, double y) {
  const double ax = std::fabs(x), ay = std::fabs(y);
  if (y == 0 && ax <= 1) return {std::atanh(x), y};
  if (x == 0) return {x, std::atan(y)};
  if (x != x || y != y) {
    if (isInf(x)) return {jsCopysign(0, x), NAN};
    if (isInf(y)) return {0, jsCopysign(PIO2, y)};
    return {NAN, NAN};
  }
  if (ax > RECIP_EPS || ay > RECIP_EPS) return {realPartReciprocal(x, y), jsCopysign(PIO2, y)};
  if (ax < SQRT_3_EPS / 2 && ay < SQRT_3_EPS / 2) return {x, y};
  double rx;
  if (ax == 1 && ay < EPS) {
    rx = (LN2 - std::log(ay)) / 2;
  } else {
    const double d = ax - 1;
    rx = std::log1p((4 * ax) / (ay < SQRT_MIN ? d * d : d * d + ay * ay)) / 4;
  }
  double ry;
  if (ax == 1) ry = std::atan2(2, -ay) / 2;
  else if (ay < EPS) ry = std::atan2(2 * ay, (1 - ax) * (1 + ax)) / 2;
  else ry = std::atan2(2 * ay, (1 - ax) * (1 + ax) - ay * ay) / 2;
  return {jsCopysign(rx, x), jsCopysign(ry, y)};
}

Cx catan(double x, double y) {
  const Cx r = catanh(y, x);
  return {r.im, r.re};
}

}  // namespace rlx::interp
