// Complex exp, log, sqrt, log1p, expm1 and the direct hyperbolic and
// trigonometric functions (sinh, cosh, tanh, sin, cos, tan).
//
// Why this file exists: these are the elementary functions whose special values
// and overflow handling follow C99 Annex G / glibc directly, without the
// Hull-Fairgrieve-Tang machinery of the inverse functions (inverse.ts) or the
// scaled division of arith.ts. Results go to the shared register CX (core.ts).

import { CX, TWO_P600, TWO_M1000, halfLog1pSquares, hypot, logAbs } from './core.js';

const TWO_M300 = 4.909093465297727e-91; // 2^-300

// The IEEE helpers below are used by every file of this folder but defined here,
// where the small hot functions are: V8 inlines a function into its caller only
// up to 460 bytes of bytecode, cexp sits just under that, and each call of an
// imported function costs 3 more bytes than a call of a local one (measured:
// cexp ~15% slower in a kernel when these lived in core.ts).

/** True for -0 and for negative numbers (NaN counts as positive). */
export function signbit(x: number): boolean {
  return x < 0 || (x === 0 && 1 / x < 0);
}

/** |a| with the sign of b (b = ±0 honoured; NaN b counts as positive). */
export function copysign(a: number, b: number): number {
  const m = Math.abs(a);
  return signbit(b) ? -m : m;
}

export function isInf(x: number): boolean {
  return x === Infinity || x === -Infinity;
}

// ---------------------------------------------------------------------------
// exp / log / sqrt / log1p / expm1
// ---------------------------------------------------------------------------

/** exp(x + iy) -> CX. */
export function cexp(x: number, y: number): void {
  if (y === 0) {
    CX[0] = Math.exp(x); // exp(x + i0) = exp(x) + i0, also for x = ±inf or NaN
    CX[1] = y;
    return;
  }
  if (y !== y || isInf(y)) {
    if (x === Infinity) {
      CX[0] = Infinity;
      CX[1] = NaN;
    } else if (x === -Infinity) {
      CX[0] = 0;
      CX[1] = copysign(0, y); // Annex G leaves the signs open; glibc copies y's
    } else {
      CX[0] = NaN;
      CX[1] = NaN;
    }
    return;
  }
  if (x !== x) {
    CX[0] = NaN;
    CX[1] = NaN;
    return;
  }
  const c = Math.cos(y);
  const s = Math.sin(y);
  if (x > 700 || x < -700) {
    if (isInf(x)) {
      const e = x > 0 ? Infinity : 0;
      CX[0] = e * c;
      CX[1] = e * s;
      return;
    }
    // exp(x) alone may overflow (or go subnormal) while exp(x)*cos(y) does not
    const h = Math.exp(x * 0.5);
    CX[0] = c * h * h;
    CX[1] = s * h * h;
    return;
  }
  const e = Math.exp(x);
  CX[0] = e * c;
  CX[1] = e * s;
}

/** Principal log(x + iy) -> CX; cut along the negative real axis, Im in [-pi, pi]. */
export function clog(x: number, y: number): void {
  if (x !== x || y !== y) {
    CX[0] = isInf(x) || isInf(y) ? Infinity : NaN;
    CX[1] = NaN;
    return;
  }
  CX[1] = Math.atan2(y, x);
  if (isInf(x) || isInf(y)) CX[0] = Infinity;
  else if (x === 0 && y === 0) CX[0] = -Infinity;
  else CX[0] = logAbs(x, y);
}

/** Principal sqrt(x + iy) -> CX (Re >= 0; sqrt(-4 - 0i) = 0 - 2i). */
export function csqrt(x: number, y: number): void {
  if (isInf(y)) {
    CX[0] = Infinity;
    CX[1] = y;
    return;
  }
  if (x !== x) {
    CX[0] = NaN;
    CX[1] = NaN;
    return;
  }
  if (x === Infinity) {
    CX[0] = Infinity;
    CX[1] = y !== y ? y : copysign(0, y);
    return;
  }
  if (x === -Infinity) {
    if (y !== y) {
      CX[0] = NaN;
      CX[1] = Infinity;
    } else {
      CX[0] = 0;
      CX[1] = copysign(Infinity, y);
    }
    return;
  }
  if (y !== y) {
    CX[0] = NaN;
    CX[1] = NaN;
    return;
  }
  if (x === 0 && y === 0) {
    CX[0] = 0;
    CX[1] = y;
    return;
  }
  let a = x;
  let b = y;
  let scale = 1;
  const ax = Math.abs(a);
  const ay = Math.abs(b);
  if (ax > 1e300 || ay > 1e300) {
    a *= 0.25;
    b *= 0.25;
    scale = 2;
  } else if (ax < TWO_M1000 && ay < TWO_M1000) {
    a *= TWO_P600;
    b *= TWO_P600;
    scale = TWO_M300;
  }
  // Kahan: t = sqrt((|a| + |z|)/2) has no cancellation; the other part is b/(2t).
  const t = Math.sqrt((Math.abs(a) + hypot(a, b)) * 0.5);
  if (a >= 0) {
    CX[0] = t * scale;
    CX[1] = (b / (2 * t)) * scale;
  } else {
    CX[0] = (Math.abs(b) / (2 * t)) * scale;
    CX[1] = copysign(t, b) * scale;
  }
}

/** log(1 + z) -> CX, accurate for small |z| and near |1 + z| = 1 (NumPy 2's log1p; NaN in -> NaN + NaN i). */
export function clog1p(x: number, y: number): void {
  if (x !== x || y !== y) {
    CX[0] = NaN;
    CX[1] = NaN;
    return;
  }
  const u = x + 1;
  CX[1] = Math.atan2(y, u);
  if (isInf(x) || isInf(y)) {
    CX[0] = Infinity;
    return;
  }
  if (x > -2.2 && x < 0.2 && y > -1.2 && y < 1.2) {
    const t = x * (2 + x) + y * y;
    if (t > -0.4 && t < 0.4) {
      // log|1 + z| = log1p(x^2 + 2x + y^2)/2, the argument summed without cancellation
      CX[0] = halfLog1pSquares(x, y, 2 * x);
      return;
    }
  }
  CX[0] = u === 0 && y === 0 ? -Infinity : logAbs(u, y);
}

/** exp(z) - 1 -> CX, accurate for small |z| (NumPy's formula; expm1(x + 0i) = expm1(x) + 0i). */
export function cexpm1(x: number, y: number): void {
  if (y === 0) {
    CX[0] = Math.expm1(x);
    CX[1] = y;
    return;
  }
  if ((x > 700 || x < -700) && !isInf(x)) {
    const h = Math.exp(x * 0.5);
    CX[0] = Math.cos(y) * h * h - 1;
    CX[1] = Math.sin(y) * h * h;
    return;
  }
  // Re = expm1(x) cos(y) - 2 sin^2(y/2) = exp(x) cos(y) - 1, without the cancellation near z = 0
  const a = Math.sin(y / 2);
  CX[0] = Math.expm1(x) * Math.cos(y) - 2 * a * a;
  CX[1] = Math.exp(x) * Math.sin(y);
}

// ---------------------------------------------------------------------------
// Hyperbolic and trigonometric functions
// ---------------------------------------------------------------------------

/** sinh(x + iy) -> CX. */
export function csinh(x: number, y: number): void {
  if (x === x && !isInf(x) && y === y && !isInf(y)) {
    if (y === 0) {
      CX[0] = Math.sinh(x);
      CX[1] = y;
      return;
    }
    const c = Math.cos(y);
    const s = Math.sin(y);
    const ax = Math.abs(x);
    if (ax < 22) {
      CX[0] = Math.sinh(x) * c;
      CX[1] = Math.cosh(x) * s;
    } else if (ax < 700) {
      // sinh(x) = ±cosh(x) = ±exp(|x|)/2 to double precision
      const h = 0.5 * Math.exp(ax);
      CX[0] = copysign(h, x) * c;
      CX[1] = h * s;
    } else {
      const h = Math.exp(ax * 0.5);
      const hh = 0.5 * h;
      CX[0] = copysign(hh, x) * c * h;
      CX[1] = hh * s * h;
    }
    return;
  }
  if (x !== x) {
    CX[0] = NaN;
    CX[1] = y === 0 ? y : NaN;
    return;
  }
  if (isInf(x)) {
    if (y === 0) {
      CX[0] = x;
      CX[1] = y;
    } else if (y !== y || isInf(y)) {
      CX[0] = Infinity; // sign unspecified by Annex G; glibc returns +inf
      CX[1] = NaN;
    } else {
      CX[0] = x * Math.cos(y);
      CX[1] = Infinity * Math.sin(y);
    }
    return;
  }
  // x finite, y infinite or NaN
  CX[0] = x === 0 ? x : NaN;
  CX[1] = NaN;
}

/** cosh(x + iy) -> CX. */
export function ccosh(x: number, y: number): void {
  if (x === x && !isInf(x) && y === y && !isInf(y)) {
    const ax = Math.abs(x);
    if (y === 0) {
      CX[0] = Math.cosh(x);
      CX[1] = signbit(x) ? -y : y; // sinh(x) * (±0)
      return;
    }
    const c = Math.cos(y);
    const s = Math.sin(y);
    if (ax < 22) {
      CX[0] = Math.cosh(x) * c;
      CX[1] = Math.sinh(x) * s;
    } else if (ax < 700) {
      const h = 0.5 * Math.exp(ax);
      CX[0] = h * c;
      CX[1] = copysign(h, x) * s;
    } else {
      const h = Math.exp(ax * 0.5);
      const hh = 0.5 * h;
      CX[0] = hh * c * h;
      CX[1] = copysign(hh, x) * s * h;
    }
    return;
  }
  if (x !== x) {
    CX[0] = NaN;
    CX[1] = y === 0 ? y : NaN; // cosh(NaN ± i0) = NaN ± i0 (glibc keeps y's sign)
    return;
  }
  if (isInf(x)) {
    if (y === 0) {
      CX[0] = Infinity;
      CX[1] = signbit(x) ? -y : y;
    } else if (y !== y || isInf(y)) {
      CX[0] = Infinity;
      CX[1] = NaN;
    } else {
      CX[0] = Infinity * Math.cos(y);
      CX[1] = x * Math.sin(y);
    }
    return;
  }
  // x finite, y infinite or NaN
  CX[0] = NaN;
  CX[1] = x === 0 ? 0 : NaN;
}

/** tanh(x + iy) -> CX. */
export function ctanh(x: number, y: number): void {
  if (x !== x) {
    CX[0] = NaN;
    CX[1] = y === 0 ? y : NaN;
    return;
  }
  if (isInf(x)) {
    CX[0] = x > 0 ? 1 : -1;
    CX[1] = y === y && !isInf(y) ? copysign(0, Math.sin(y) * Math.cos(y)) : copysign(0, y);
    return;
  }
  if (y !== y || isInf(y)) {
    CX[0] = x === 0 ? x : NaN;
    CX[1] = NaN;
    return;
  }
  if (y === 0) {
    CX[0] = Math.tanh(x);
    CX[1] = y;
    return;
  }
  const ax = Math.abs(x);
  if (ax >= 22) {
    // tanh(x) rounds to ±1; Im = 4 sin(y) cos(y) exp(-2|x|), underflowing gracefully
    const e = Math.exp(-ax);
    CX[0] = x > 0 ? 1 : -1;
    CX[1] = 4 * Math.sin(y) * Math.cos(y) * e * e;
    return;
  }
  // Kahan's formulation: with t = tan(y), beta = 1 + t^2, s = sinh(x), rho = sqrt(1 + s^2),
  // tanh(z) = (beta*rho*s + i t) / (1 + beta*s^2).
  const t = Math.tan(y);
  const beta = 1 + t * t;
  const s = Math.sinh(x);
  const rho = Math.sqrt(1 + s * s);
  const den = 1 + beta * s * s;
  CX[0] = (beta * rho * s) / den;
  CX[1] = t / den;
}

/** sin(x + iy) -> CX; sin(z) = -i sinh(iz). */
export function csin(x: number, y: number): void {
  csinh(y, x); // with the swap below this is i*conj(sinh(i*conj(z)))
  const re = CX[0]!;
  CX[0] = CX[1]!;
  CX[1] = re;
}

/** cos(x + iy) -> CX; cos(z) = cosh(iz). */
export function ccos(x: number, y: number): void {
  ccosh(-y, x);
}

/** tan(x + iy) -> CX; tan(z) = -i tanh(iz). */
export function ctan(x: number, y: number): void {
  ctanh(y, x);
  const re = CX[0]!;
  CX[0] = CX[1]!;
  CX[1] = re;
}
