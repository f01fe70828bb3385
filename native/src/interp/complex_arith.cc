// Port of src/backends/js/complex/arith.ts: division (Smith with Baudin &
// Smith's scaling; NumPy's Smith for non-finite operands and zero divisors),
// NumPy's power, sign, rsqrt and the logistic.

#include "fp.h"
#include <cmath>
#include "complex.h"

namespace rlx::interp {
namespace {

constexpr double EPS = 2.220446049250313e-16;
constexpr double DBL_MAXV = 1.7976931348623157e308;
constexpr double TWO_M1000 = 9.332636185032189e-302;
constexpr double TWO_P600 = 4.149515568880993e180;
constexpr double DIV_OV = DBL_MAXV / 2;
constexpr double DIV_UN = (2.2250738585072014e-308 * 2) / EPS;
constexpr double DIV_BE = 2 / (EPS * EPS);

Cx cdivNumpy(double ar, double ai, double br, double bi) {
  const double abr = std::fabs(br), abi = std::fabs(bi);
  if (abr >= abi) {
    if (abr == 0 && abi == 0) return {ar / abr, ai / abi};
    const double rat = bi / br;
    const double scl = 1 / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const double rat = br / bi;
  const double scl = 1 / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}

Cx robustSmith(double a, double b, double c, double d) {
  const double r = d / c;
  const double t = 1 / (c + d * r);
  if (r != 0) {
    const double br = b * r;
    const double e = br != 0 ? (a + br) * t : a * t + b * t * r;
    const double ar = a * r;
    const double f = ar != 0 ? (b - ar) * t : b * t - a * t * r;
    return {e, f};
  }
  return {(a + d * (b / c)) * t, (b - d * (a / c)) * t};
}

inline Cx cmulPlain(double ar, double ai, double br, double bi) { return {ar * br - ai * bi, ar * bi + ai * br}; }

Cx cmulAnnexG(double a, double b, double c, double d) {
  const double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  double x = ac - bd, y = ad + bc;
  if (x != x && y != y) {
    bool recalc = false;
    if (isInf(a) || isInf(b)) {
      a = jsCopysign(isInf(a) ? 1 : 0, a);
      b = jsCopysign(isInf(b) ? 1 : 0, b);
      if (c != c) c = 0;
      if (d != d) d = 0;
      recalc = true;
    }
    if (isInf(c) || isInf(d)) {
      c = jsCopysign(isInf(c) ? 1 : 0, c);
      d = jsCopysign(isInf(d) ? 1 : 0, d);
      if (a != a) a = 0;
      if (b != b) b = 0;
      recalc = true;
    }
    if (!recalc && (isInf(ac) || isInf(bd) || isInf(ad) || isInf(bc))) {
      if (a != a) a = 0;
      if (b != b) b = 0;
      if (c != c) c = 0;
      if (d != d) d = 0;
      recalc = true;
    }
    if (recalc) {
      x = INFINITY * (a * c - b * d);
      y = INFINITY * (a * d + b * c);
    }
  }
  return {x, y};
}

inline bool finite(double v) { return std::isfinite(v); }

}  // namespace

Cx cdiv(double ar, double ai, double br, double bi) {
  if (!(finite(ar) && finite(ai) && finite(br) && finite(bi)) || (br == 0 && bi == 0)) return cdivNumpy(ar, ai, br, bi);
  double a = ar, b = ai, c = br, d = bi;
  const double ab = std::fmax(std::fabs(a), std::fabs(b));
  const double cd = std::fmax(std::fabs(c), std::fabs(d));
  double s = 1;
  if (ab >= DIV_OV) {
    a *= 0.5;
    b *= 0.5;
    s *= 2;
  }
  if (cd >= DIV_OV) {
    c *= 0.5;
    d *= 0.5;
    s *= 0.5;
  }
  if (ab <= DIV_UN) {
    a *= DIV_BE;
    b *= DIV_BE;
    s /= DIV_BE;
  }
  if (cd <= DIV_UN) {
    c *= DIV_BE;
    d *= DIV_BE;
    s *= DIV_BE;
  }
  if (std::fabs(d) <= std::fabs(c)) {
    const Cx r = robustSmith(a, b, c, d);
    return {r.re * s, r.im * s};
  }
  const Cx r = robustSmith(b, a, d, c);
  return {r.re * s, -r.im * s};
}

Cx cpow(double ar, double ai, double br, double bi) {
  if (br == 0 && bi == 0) return {1, 0};
  if (ar == 0 && ai == 0) {
    if (br > 0 && bi == 0) return {0, 0};
    return {NAN, NAN};
  }
  if (bi == 0 && br == std::trunc(br) && br > -100 && br < 100) {
    const int n = static_cast<int>(br);
    if (n == 1) return {ar, ai};
    if (n == 2) return cmulPlain(ar, ai, ar, ai);
    if (n == 3) {
      const Cx sq = cmulPlain(ar, ai, ar, ai);
      return cmulPlain(ar, ai, sq.re, sq.im);
    }
    int m = n < 0 ? -n : n;
    Cx acc{1, 0}, p{ar, ai};
    for (;;) {
      if (m & 1) acc = cmulPlain(acc.re, acc.im, p.re, p.im);
      m >>= 1;
      if (m == 0) break;
      p = cmulPlain(p.re, p.im, p.re, p.im);
    }
    if (n < 0) return cdivNumpy(1, 0, acc.re, acc.im);
    return acc;
  }
  const Cx l = clog(ar, ai);
  const Cx m = cmulAnnexG(br, bi, l.re, l.im);
  return cexp(m.re, m.im);
}

Cx csign(double x, double y) {
  const bool xinf = isInf(x), yinf = isInf(y);
  if (xinf || yinf) {
    if (xinf && yinf) return {NAN, NAN};
    if (xinf) return {x > 0 ? 1.0 : -1.0, 0};
    return {0, y > 0 ? 1.0 : -1.0};
  }
  if (x != x || y != y) return {NAN, NAN};
  if (x == 0 && y == 0) return {0, 0};
  double a = x, b = y;
  double h = chypot(a, b);
  if (h == INFINITY) {
    a *= 0.25;
    b *= 0.25;
    h = chypot(a, b);
  } else if (h < TWO_M1000) {
    a *= TWO_P600;
    b *= TWO_P600;
    h = chypot(a, b);
  }
  return {a / h, b / h};
}

Cx crsqrt(double x, double y) {
  const Cx s = csqrt(x, y);
  return cdiv(1, 0, s.re, s.im);
}

Cx csigmoid(double x, double y) {
  if (x < 0) {
    const Cx e = cexp(x, y);
    return cdiv(e.re, e.im, 1 + e.re, e.im);
  }
  const Cx e = cexp(-x, -y);
  return cdiv(1, 0, 1 + e.re, e.im);
}

}  // namespace rlx::interp
