// Port of src/backends/js/complex/core.ts and elementary.ts: hypot, log|z|,
// exp, log, sqrt, log1p, expm1, sinh, cosh, tanh, sin, cos, tan. Line for
// line the same algorithms; see those files for the reasoning.

#include "fp.h"
#include <cmath>
#include "complex.h"

namespace rlx::interp {
namespace {

constexpr double LN2 = 0.6931471805599453;
constexpr double TWO_M600 = 2.409919865102884e-181;
constexpr double TWO_P600 = 4.149515568880993e180;
constexpr double TWO_P1000 = 1.0715086071862673e301;
constexpr double TWO_P500 = 3.273390607896142e150;
constexpr double TWO_M500 = 3.054936363499605e-151;
constexpr double TWO_M1000 = 9.332636185032189e-302;
constexpr double TWO_M300 = 4.909093465297727e-91;
constexpr double SPLITTER = 134217729.0;

// hi = fl(a*a), lo such that hi + lo = a*a exactly.
inline double square(double a, double& lo) {
  const double p = a * a;
  const double t = SPLITTER * a;
  const double ah = t - (t - a);
  const double al = a - ah;
  lo = ah * ah - p + 2 * ah * al + al * al;
  return p;
}

double sumTerms(double* t) {
  for (int i = 1; i < 5; i++) {
    const double v = t[i];
    const double av = std::fabs(v);
    int j = i - 1;
    while (j >= 0 && std::fabs(t[j]) < av) {
      t[j + 1] = t[j];
      j--;
    }
    t[j + 1] = v;
  }
  double s = t[0], c = 0;
  for (int k = 1; k < 5; k++) {
    const double xk = t[k];
    const double y = c + xk;
    const double u = xk - (y - c);
    const double tt = y + s;
    const double v = y - (tt - s);
    const double z = u + v;
    s = tt + z;
    c = z - (s - tt);
  }
  return s;
}

}  // namespace

bool jsSignbit(double x) { return x < 0 || (x == 0 && std::signbit(x)); }
double jsCopysign(double a, double b) {
  const double m = std::fabs(a);
  return jsSignbit(b) ? -m : m;
}

double chypot(double x, double y) {
  double a = std::fabs(x), b = std::fabs(y);
  if (isInf(a) || isInf(b)) return INFINITY;
  if (a != a || b != b) return NAN;
  if (a < b) {
    const double t = a;
    a = b;
    b = t;
  }
  if (b == 0) return a;
  if (b * 134217728.0 < a) return a;
  if (a > TWO_P500) {
    a *= TWO_M600;
    b *= TWO_M600;
    return std::sqrt(a * a + b * b) * TWO_P600;
  }
  if (a < TWO_M500) {
    a *= TWO_P600;
    b *= TWO_P600;
    return std::sqrt(a * a + b * b) * TWO_M600;
  }
  return std::sqrt(a * a + b * b);
}

double halfLog1pSquares(double a, double b, double c) {
  double t[5];
  t[0] = square(a, t[1]);
  t[2] = square(b, t[3]);
  t[4] = c;
  return 0.5 * std::log1p(sumTerms(t));
}

double logAbs(double x, double y) {
  double a = std::fabs(x), b = std::fabs(y);
  if (a < b) {
    const double t = a;
    a = b;
    b = t;
  }
  if (a > TWO_P1000) return std::log(chypot(a * 0.25, b * 0.25)) + 2 * LN2;
  if (a < TWO_M1000) return std::log(chypot(a * TWO_P600, b * TWO_P600)) - 600 * LN2;
  if (a >= 0.5 && a <= 1.5) {
    const double h2 = a * a + b * b;
    if (h2 >= 0.5 && h2 <= 2) return halfLog1pSquares(a, b, -1);
  }
  return std::log(chypot(a, b));
}

Cx cexp(double x, double y) {
  if (y == 0) return {std::exp(x), y};
  if (y != y || isInf(y)) {
    if (x == INFINITY) return {INFINITY, NAN};
    if (x == -INFINITY) return {0, jsCopysign(0, y)};
    return {NAN, NAN};
  }
  if (x != x) return {NAN, NAN};
  const double c = std::cos(y), s = std::sin(y);
  if (x > 700 || x < -700) {
    if (isInf(x)) {
      const double e = x > 0 ? INFINITY : 0;
      return {e * c, e * s};
    }
    const double h = std::exp(x * 0.5);
    return {c * h * h, s * h * h};
  }
  const double e = std::exp(x);
  return {e * c, e * s};
}

Cx clog(double x, double y) {
  if (x != x || y != y) return {isInf(x) || isInf(y) ? INFINITY : NAN, NAN};
  const double im = std::atan2(y, x);
  if (isInf(x) || isInf(y)) return {INFINITY, im};
  if (x == 0 && y == 0) return {-INFINITY, im};
  return {logAbs(x, y), im};
}

Cx csqrt(double x, double y) {
  if (isInf(y)) return {INFINITY, y};
  if (x != x) return {NAN, NAN};
  if (x == INFINITY) return {INFINITY, y != y ? y : jsCopysign(0, y)};
  if (x == -INFINITY) {
    if (y != y) return {NAN, INFINITY};
    return {0, jsCopysign(INFINITY, y)};
  }
  if (y != y) return {NAN, NAN};
  if (x == 0 && y == 0) return {0, y};
  double a = x, b = y, scale = 1;
  const double ax = std::fabs(a), ay = std::fabs(b);
  if (ax > 1e300 || ay > 1e300) {
    a *= 0.25;
    b *= 0.25;
    scale = 2;
  } else if (ax < TWO_M1000 && ay < TWO_M1000) {
    a *= TWO_P600;
    b *= TWO_P600;
    scale = TWO_M300;
  }
  const double t = std::sqrt((std::fabs(a) + chypot(a, b)) * 0.5);
  if (a >= 0) return {t * scale, (b / (2 * t)) * scale};
  return {(std::fabs(b) / (2 * t)) * scale, jsCopysign(t, b) * scale};
}

Cx clog1p(double x, double y) {
  if (x != x || y != y) return {NAN, NAN};
  const double u = x + 1;
  const double im = std::atan2(y, u);
  if (isInf(x) || isInf(y)) return {INFINITY, im};
  if (x > -2.2 && x < 0.2 && y > -1.2 && y < 1.2) {
    const double t = x * (2 + x) + y * y;
    if (t > -0.4 && t < 0.4) return {halfLog1pSquares(x, y, 2 * x), im};
  }
  return {u == 0 && y == 0 ? -INFINITY : logAbs(u, y), im};
}

Cx cexpm1(double x, double y) {
  if (y == 0) return {std::expm1(x), y};
  if ((x > 700 || x < -700) && !isInf(x)) {
    const double h = std::exp(x * 0.5);
    return {std::cos(y) * h * h - 1, std::sin(y) * h * h};
  }
  const double a = std::sin(y / 2);
  return {std::expm1(x) * std::cos(y) - 2 * a * a, std::exp(x) * std::sin(y)};
}

Cx csinh(double x, double y) {
  if (x == x && !isInf(x) && y == y && !isInf(y)) {
    if (y == 0) return {std::sinh(x), y};
    const double c = std::cos(y), s = std::sin(y), ax = std::fabs(x);
    if (ax < 22) return {std::sinh(x) * c, std::cosh(x) * s};
    if (ax < 700) {
      const double h = 0.5 * std::exp(ax);
      return {jsCopysign(h, x) * c, h * s};
    }
    const double h = std::exp(ax * 0.5), hh = 0.5 * h;
    return {jsCopysign(hh, x) * c * h, hh * s * h};
  }
  if (x != x) return {NAN, y == 0 ? y : NAN};
  if (isInf(x)) {
    if (y == 0) return {x, y};
    if (y != y || isInf(y)) return {INFINITY, NAN};
    return {x * std::cos(y), INFINITY * std::sin(y)};
  }
  return {x == 0 ? x : NAN, NAN};
}

Cx ccosh(double x, double y) {
  if (x == x && !isInf(x) && y == y && !isInf(y)) {
    const double ax = std::fabs(x);
    if (y == 0) return {std::cosh(x), jsSignbit(x) ? -y : y};
    const double c = std::cos(y), s = std::sin(y);
    if (ax < 22) return {std::cosh(x) * c, std::sinh(x) * s};
    if (ax < 700) {
      const double h = 0.5 * std::exp(ax);
      return {h * c, jsCopysign(h, x) * s};
    }
    const double h = std::exp(ax * 0.5), hh = 0.5 * h;
    return {hh * c * h, jsCopysign(hh, x) * s * h};
  }
  if (x != x) return {NAN, y == 0 ? y : NAN};
  if (isInf(x)) {
    if (y == 0) return {INFINITY, jsSignbit(x) ? -y : y};
    if (y != y || isInf(y)) return {INFINITY, NAN};
    return {INFINITY * std::cos(y), x * std::sin(y)};
  }
  return {NAN, x == 0 ? 0.0 : NAN};
}

Cx ctanh(double x, double y) {
  if (x != x) return {NAN, y == 0 ? y : NAN};
  if (isInf(x)) return {x > 0 ? 1.0 : -1.0, y == y && !isInf(y) ? jsCopysign(0, std::sin(y) * std::cos(y)) : jsCopysign(0, y)};
  if (y != y || isInf(y)) return {x == 0 ? x : NAN, NAN};
  if (y == 0) return {std::tanh(x), y};
  const double ax = std::fabs(x);
  if (ax >= 22) {
    const double e = std::exp(-ax);
    return {x > 0 ? 1.0 : -1.0, 4 * std::sin(y) * std::cos(y) * e * e};
  }
  const double t = std::tan(y);
  const double beta = 1 + t * t;
  const double s = std::sinh(x);
  const double rho = std::sqrt(1 + s * s);
  const double den = 1 + beta * s * s;
  return {(beta * rho * s) / den, t / den};
}

Cx csin(double x, double y) {
  const Cx r = csinh(y, x);
  return {r.im, r.re};
}
Cx ccos(double x, double y) { return ccosh(-y, x); }
Cx ctan(double x, double y) {
  const Cx r = ctanh(y, x);
  return {r.im, r.re};
}

}  // namespace rlx::interp
