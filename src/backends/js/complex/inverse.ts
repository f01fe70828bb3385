// Complex inverse trigonometric and hyperbolic functions: asinh, asin, acos,
// acosh, atanh, atan.
//
// Why this file exists: these need more than a formula to be accurate next to
// their branch cuts and branch points. They use the algorithm of Hull,
// Fairgrieve and Tang (ACM TOMS 23(3), 1997) with the refinements of FreeBSD
// msun's catrig.c, which brings its own constants, crossover points and
// scratch state (hullCore, clogLarge); keeping them together keeps that state
// private. Results go to the shared register CX (core.ts).

import { CX, DBL_MAX, EPS, LN2, hypot } from './core.js';
import { copysign, isInf, signbit } from './elementary.js';

const PIO2 = Math.PI / 2; // 1.5707963267948966, pi/2 rounded
const PIO2_LO = 6.123233995736766e-17; // pi/2 - PIO2
const E = Math.E;
const RECIP_EPS = 4503599627370496; // 2^52
const SQRT_MIN = 1.4916681462400413e-154; // 2^-511
const FOUR_SQRT_MIN = 5.966672584960166e-154; // 2^-509
const QUARTER_SQRT_MAX = 1.6759759912428246e153; // 2^509
const SQRT_3_EPS = 2.5809568279517849e-8;
const SQRT_6_EPS = 3.6500241499888571e-8;
const A_CROSSOVER = 10;
const B_CROSSOVER = 0.6417;

// Results of hullCore(); module state instead of an allocated record.
let hcRe = 0; // Re(asinh(x + iy)) for x, y >= 0
let hcB = 0; // B = y / A, usable for asin(B) when hcBUsable
let hcBUsable = false;
let hcSqrtA2my2 = 0; // sqrt(A^2 - y^2) (possibly scaled along with hcNewY)
let hcNewY = 0;

/** (hypot(a, b) - b) / 2 without cancellation; h = hypot(a, b). */
function halfHypotMinus(a: number, b: number, h: number): number {
  if (b < 0) return (h - b) / 2;
  if (b === 0) return a / 2;
  return (a * a) / (h + b) / 2;
}

/**
 * The shared core of asinh/asin/acos/acosh for 0 <= x, y < 2^52.
 * With R = |z + i|, S = |z - i|, A = (R + S)/2 and B = y/A:
 *   Re asinh(z) = log(A + sqrt(A^2 - 1)),  Im asinh(z) = asin(B) = atan2(y, sqrt(A^2 - y^2)),
 * where A - 1 and A - y are formed from differences that do not cancel.
 */
function hullCore(x: number, y: number): void {
  const R = hypot(x, y + 1);
  const S = hypot(x, y - 1);
  let A = (R + S) / 2;
  if (A < 1) A = 1;

  if (A < A_CROSSOVER) {
    if (y === 1 && x < (EPS * EPS) / 128) {
      hcRe = Math.sqrt(x);
    } else if (x >= EPS * Math.abs(y - 1)) {
      const am1 = halfHypotMinus(x, 1 + y, R) + halfHypotMinus(x, 1 - y, S);
      hcRe = Math.log1p(am1 + Math.sqrt(am1 * (A + 1)));
    } else if (y < 1) {
      hcRe = x / Math.sqrt((1 - y) * (1 + y));
    } else {
      hcRe = Math.log1p(y - 1 + Math.sqrt((y - 1) * (y + 1)));
    }
  } else {
    hcRe = Math.log(A + Math.sqrt(A * A - 1));
  }

  hcNewY = y;
  if (y < FOUR_SQRT_MIN) {
    // y/A could underflow; scale y and sqrt(A^2 - y^2) ~ A together for atan2
    hcBUsable = false;
    hcSqrtA2my2 = A * (2 / EPS);
    hcNewY = y * (2 / EPS);
    return;
  }
  hcB = y / A;
  hcBUsable = true;
  if (hcB > B_CROSSOVER) {
    // asin(B) is ill-conditioned near B = 1; use atan2(y, sqrt(A^2 - y^2)) instead
    hcBUsable = false;
    if (y === 1 && x < EPS / 128) {
      hcSqrtA2my2 = Math.sqrt(x) * Math.sqrt((A + y) / 2);
    } else if (x >= EPS * Math.abs(y - 1)) {
      const amy = halfHypotMinus(x, y + 1, R) + halfHypotMinus(x, y - 1, S);
      hcSqrtA2my2 = Math.sqrt(amy * (A + y));
    } else if (y > 1) {
      const k = 4 / EPS / EPS;
      hcSqrtA2my2 = (x * k * y) / Math.sqrt((y + 1) * (y - 1));
      hcNewY = y * k;
    } else {
      hcSqrtA2my2 = Math.sqrt((1 - y) * (1 + y));
    }
  }
}

let clRe = 0;
let clIm = 0;

/** log(x + iy) for |z| beyond ~2^52 (or infinite), into clRe/clIm; no overflow in |z|. */
function clogLarge(x: number, y: number): void {
  let a = Math.abs(x);
  let b = Math.abs(y);
  if (a < b) {
    const t = a;
    a = b;
    b = t;
  }
  if (a > DBL_MAX / 2) clRe = Math.log(hypot(x / E, y / E)) + 1;
  else if (a > QUARTER_SQRT_MAX || b < SQRT_MIN) clRe = Math.log(hypot(x, y));
  else clRe = Math.log(a * a + b * b) / 2;
  clIm = Math.atan2(y, x);
}

/** asinh(x + iy) -> CX; cuts along the imaginary axis beyond ±i. */
export function casinh(x: number, y: number): void {
  if (x !== x || y !== y) {
    if (isInf(x)) {
      CX[0] = x;
      CX[1] = NaN;
    } else if (isInf(y)) {
      CX[0] = Infinity; // asinh(NaN ± i inf): sign unspecified, glibc returns +inf
      CX[1] = NaN;
    } else if (y === 0) {
      CX[0] = NaN;
      CX[1] = y;
    } else {
      CX[0] = NaN;
      CX[1] = NaN;
    }
    return;
  }
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  if (ax > RECIP_EPS || ay > RECIP_EPS) {
    // asinh(z) = sign(x) log(2 sign(x) z) + O(1/z^2)
    if (signbit(x)) clogLarge(-x, -y);
    else clogLarge(x, y);
    CX[0] = copysign(clRe + LN2, x);
    CX[1] = copysign(clIm, y);
    return;
  }
  if ((x === 0 && y === 0) || (ax < SQRT_6_EPS / 4 && ay < SQRT_6_EPS / 4)) {
    CX[0] = x; // asinh(z) = z + O(z^3)
    CX[1] = y;
    return;
  }
  hullCore(ax, ay);
  const ry = hcBUsable ? Math.asin(hcB) : Math.atan2(hcNewY, hcSqrtA2my2);
  CX[0] = copysign(hcRe, x);
  CX[1] = copysign(ry, y);
}

/** asin(x + iy) -> CX; cuts along the real axis beyond ±1. */
export function casin(x: number, y: number): void {
  casinh(y, x); // asin(z) = reverse(asinh(reverse(z))), reverse(x + iy) = y + ix
  const re = CX[0]!;
  CX[0] = CX[1]!;
  CX[1] = re;
}

/** acos(x + iy) -> CX; cuts along the real axis beyond ±1, Re in [0, pi]. */
export function cacos(x: number, y: number): void {
  const sx = signbit(x);
  const sy = signbit(y);
  if (x !== x || y !== y) {
    if (isInf(x)) {
      CX[0] = NaN;
      CX[1] = -Infinity;
    } else if (isInf(y)) {
      CX[0] = NaN;
      CX[1] = -y;
    } else if (x === 0) {
      CX[0] = PIO2;
      CX[1] = NaN;
    } else {
      CX[0] = NaN;
      CX[1] = NaN;
    }
    return;
  }
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  if (ax > RECIP_EPS || ay > RECIP_EPS) {
    // acos(z) = -sign(y) i log(2z) + O(1/z^2), Re = atan2(|y|, x)
    clogLarge(x, y);
    CX[0] = Math.abs(clIm);
    CX[1] = sy ? clRe + LN2 : -(clRe + LN2);
    return;
  }
  if (x === 1 && y === 0) {
    CX[0] = 0;
    CX[1] = -y;
    return;
  }
  if (ax < SQRT_6_EPS / 4 && ay < SQRT_6_EPS / 4) {
    CX[0] = PIO2 - (x - PIO2_LO); // pi/2 - z + O(z^3)
    CX[1] = -y;
    return;
  }
  hullCore(ay, ax); // Im acos(z) = -Re asinh(y + ix) up to sign
  let rx: number;
  if (hcBUsable) rx = sx ? Math.acos(-hcB) : Math.acos(hcB);
  else rx = sx ? Math.atan2(hcSqrtA2my2, -hcNewY) : Math.atan2(hcSqrtA2my2, hcNewY);
  CX[0] = rx;
  CX[1] = sy ? hcRe : -hcRe;
}

/** acosh(x + iy) -> CX; cut along the real axis below 1, Re >= 0. */
export function cacosh(x: number, y: number): void {
  cacos(x, y);
  const rx = CX[0]!;
  const ry = CX[1]!;
  if (rx !== rx && ry !== ry) {
    CX[0] = ry;
    CX[1] = rx;
  } else if (rx !== rx) {
    CX[0] = Math.abs(ry);
    CX[1] = rx;
  } else if (ry !== ry) {
    CX[0] = ry; // acosh(±0 + i NaN) = NaN + i pi/2, as glibc
    CX[1] = rx;
  } else {
    CX[0] = Math.abs(ry);
    CX[1] = copysign(rx, y);
  }
}

/** Re(1/(x + iy)) = x/(x^2 + y^2) without spurious overflow or underflow. */
function realPartReciprocal(x: number, y: number): number {
  if (isInf(x)) return 1 / x;
  if (isInf(y)) return x / y / y;
  let a = x;
  let b = y;
  let k = 1;
  if (Math.abs(a) > 4.49423283715579e307 || Math.abs(b) > 4.49423283715579e307) {
    a *= 0.25;
    b *= 0.25;
    k = 0.25;
  }
  if (Math.abs(a) >= Math.abs(b)) {
    const r = b / a;
    return k / (a + b * r);
  }
  const r = a / b;
  return (r / (b + a * r)) * k;
}

/** atanh(x + iy) -> CX; cuts along the real axis beyond ±1. */
export function catanh(x: number, y: number): void {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  if (y === 0 && ax <= 1) {
    CX[0] = Math.atanh(x);
    CX[1] = y;
    return;
  }
  if (x === 0) {
    CX[0] = x;
    CX[1] = Math.atan(y);
    return;
  }
  if (x !== x || y !== y) {
    if (isInf(x)) {
      CX[0] = copysign(0, x);
      CX[1] = NaN;
    } else if (isInf(y)) {
      CX[0] = 0;
      CX[1] = copysign(PIO2, y);
    } else {
      CX[0] = NaN;
      CX[1] = NaN;
    }
    return;
  }
  if (ax > RECIP_EPS || ay > RECIP_EPS) {
    // atanh(z) = 1/z + sign(y) i pi/2 + O(1/z^3)
    CX[0] = realPartReciprocal(x, y);
    CX[1] = copysign(PIO2, y);
    return;
  }
  if (ax < SQRT_3_EPS / 2 && ay < SQRT_3_EPS / 2) {
    CX[0] = x; // atanh(z) = z + O(z^3)
    CX[1] = y;
    return;
  }
  // Re = log1p(4|x| / |z - 1|^2)/4, Im = atan2(2y, (1 - x)(1 + x) - y^2)/2
  let rx: number;
  if (ax === 1 && ay < EPS) rx = (LN2 - Math.log(ay)) / 2;
  else {
    const d = ax - 1;
    rx = Math.log1p((4 * ax) / (ay < SQRT_MIN ? d * d : d * d + ay * ay)) / 4;
  }
  let ry: number;
  if (ax === 1) ry = Math.atan2(2, -ay) / 2;
  else if (ay < EPS) ry = Math.atan2(2 * ay, (1 - ax) * (1 + ax)) / 2;
  else ry = Math.atan2(2 * ay, (1 - ax) * (1 + ax) - ay * ay) / 2;
  CX[0] = copysign(rx, x);
  CX[1] = copysign(ry, y);
}

/** atan(x + iy) -> CX; cuts along the imaginary axis beyond ±i. */
export function catan(x: number, y: number): void {
  catanh(y, x);
  const re = CX[0]!;
  CX[0] = CX[1]!;
  CX[1] = re;
}
