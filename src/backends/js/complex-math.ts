// Complex scalar functions for the pure-JS backend's generated kernels.
//
// A kernel computing a complex op on interleaved (re, im) storage calls one of
// these per element. To keep that loop free of allocation, closures and boxed
// results, every function that yields a complex number writes it to the
// module-level CX (CX[0] = re, CX[1] = im) and returns nothing; the kernel reads
// CX immediately after the call (any later call into this module, including
// the ones these functions make internally, overwrites it). Real-valued results
// (cabs, cangle) are returned directly.
//
// Results follow NumPy, which calls the C99 Annex G functions of the platform
// libm: the same branch cuts, the same signed zeros on the cuts, the same
// special values for infinities and NaNs (checked against NumPy in
// tests/scalar-math.test.ts). Where Annex G leaves a sign unspecified we return
// what glibc returns. Accuracy is a few ulps away from the unavoidable
// cancellation points; the inverse trig/hyperbolic functions use the algorithm
// of Hull, Fairgrieve and Tang (ACM TOMS 23(3), 1997) with the refinements
// described in FreeBSD msun's catrig.c, so they stay accurate next to their
// branch cuts and branch points.

/** Output slot for complex results: CX[0] = real part, CX[1] = imaginary part. */
export const CX = new Float64Array(2);

const PIO2 = Math.PI / 2; // 1.5707963267948966, pi/2 rounded
const PIO2_LO = 6.123233995736766e-17; // pi/2 - PIO2
const LN2 = Math.LN2;
const E = Math.E;
const EPS = 2.220446049250313e-16; // 2^-52
const RECIP_EPS = 4503599627370496; // 2^52
const DBL_MAX = Number.MAX_VALUE;
const SQRT_MIN = 1.4916681462400413e-154; // 2^-511
const FOUR_SQRT_MIN = 5.966672584960166e-154; // 2^-509
const QUARTER_SQRT_MAX = 1.6759759912428246e153; // 2^509
const SQRT_3_EPS = 2.5809568279517849e-8;
const SQRT_6_EPS = 3.6500241499888571e-8;
const A_CROSSOVER = 10;
const B_CROSSOVER = 0.6417;
const TWO_M600 = 2.409919865102884e-181; // 2^-600
const TWO_P600 = 4.149515568880993e180; // 2^600
const TWO_M300 = 4.909093465297727e-91; // 2^-300
const TWO_P1000 = 1.0715086071862673e301; // 2^1000
const TWO_P500 = 3.273390607896142e150; // 2^500
const TWO_M500 = 3.054936363499605e-151; // 2^-500
const TWO_M1000 = 9.332636185032189e-302; // 2^-1000
const SPLITTER = 134217729; // 2^27 + 1, Veltkamp split constant

/** True for -0 and for negative numbers (NaN counts as positive). */
function signbit(x: number): boolean {
  return x < 0 || (x === 0 && 1 / x < 0);
}

/** |a| with the sign of b (b = ±0 honoured; NaN b counts as positive). */
function copysign(a: number, b: number): number {
  const m = Math.abs(a);
  return signbit(b) ? -m : m;
}

function isInf(x: number): boolean {
  return x === Infinity || x === -Infinity;
}

/** sqrt(x^2 + y^2) without spurious overflow/underflow; hypot(±inf, NaN) = inf. */
function hypot(x: number, y: number): number {
  let a = Math.abs(x);
  let b = Math.abs(y);
  if (a === Infinity || b === Infinity) return Infinity;
  if (a !== a || b !== b) return NaN;
  if (a < b) {
    const t = a;
    a = b;
    b = t;
  }
  if (b === 0) return a;
  if (b * 134217728 < a) return a; // b/a < 2^-27: b^2 is below half an ulp of a^2
  // b/a >= 2^-27 from here on, so unscaled squares stay normal and finite for
  // 2^-500 <= a <= 2^500; outside that range scale both by a power of two.
  if (a > TWO_P500) {
    a *= TWO_M600;
    b *= TWO_M600;
    return Math.sqrt(a * a + b * b) * TWO_P600;
  }
  if (a < TWO_M500) {
    a *= TWO_P600;
    b *= TWO_P600;
    return Math.sqrt(a * a + b * b) * TWO_M600;
  }
  return Math.sqrt(a * a + b * b);
}

// ---------------------------------------------------------------------------
// Exact arithmetic helpers for log|z| near |z| = 1.
// ---------------------------------------------------------------------------

const TERMS = new Float64Array(5);
let sqLo = 0; // low part of the last square()

/** Returns hi = fl(a*a) and sets sqLo so that hi + sqLo = a*a exactly (|a| < 2^995). */
function square(a: number): number {
  const p = a * a;
  const t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  sqLo = ah * ah - p + 2 * ah * al + al * al;
  return p;
}

/**
 * Sum of TERMS[0..4] with relative error of about 2 ulps however much the terms
 * cancel: sort by decreasing magnitude, then Priest's doubly compensated
 * summation.
 */
function sumTerms(): number {
  const t = TERMS;
  for (let i = 1; i < 5; i++) {
    const v = t[i]!;
    const av = Math.abs(v);
    let j = i - 1;
    while (j >= 0 && Math.abs(t[j]!) < av) {
      t[j + 1] = t[j]!;
      j--;
    }
    t[j + 1] = v;
  }
  let s = t[0]!;
  let c = 0;
  for (let k = 1; k < 5; k++) {
    const xk = t[k]!;
    const y = c + xk;
    const u = xk - (y - c);
    const tt = y + s;
    const v = y - (tt - s);
    const z = u + v;
    s = tt + z;
    c = z - (s - tt);
  }
  return s;
}

/** log|x + iy| for finite x, y, not both zero; accurate also where |z| is close to 1. */
function logAbs(x: number, y: number): number {
  let a = Math.abs(x);
  let b = Math.abs(y);
  if (a < b) {
    const t = a;
    a = b;
    b = t;
  }
  if (a > TWO_P1000) return Math.log(hypot(a * 0.25, b * 0.25)) + 2 * LN2;
  if (a < TWO_M1000) return Math.log(hypot(a * TWO_P600, b * TWO_P600)) - 600 * LN2; // |z| may be subnormal
  if (a >= 0.5 && a <= 1.5) {
    const h2 = a * a + b * b;
    if (h2 >= 0.5 && h2 <= 2) {
      // log|z| = log1p(a^2 + b^2 - 1)/2 with a^2 + b^2 - 1 computed exactly-ish
      TERMS[0] = square(a);
      TERMS[1] = sqLo;
      TERMS[2] = square(b);
      TERMS[3] = sqLo;
      TERMS[4] = -1;
      return 0.5 * Math.log1p(sumTerms());
    }
  }
  return Math.log(hypot(a, b));
}

// ---------------------------------------------------------------------------
// exp / log / sqrt
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

// ---------------------------------------------------------------------------
// Inverse hyperbolic and trigonometric functions (Hull, Fairgrieve & Tang)
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Division, power and friends
// ---------------------------------------------------------------------------

/** NumPy's own Smith division (used for non-finite operands and zero divisors, where its special values are the reference). */
function cdivNumpy(ar: number, ai: number, br: number, bi: number): void {
  const abr = Math.abs(br);
  const abi = Math.abs(bi);
  if (abr >= abi) {
    if (abr === 0 && abi === 0) {
      CX[0] = ar / abr;
      CX[1] = ai / abi;
    } else {
      const rat = bi / br;
      const scl = 1 / (br + bi * rat);
      CX[0] = (ar + ai * rat) * scl;
      CX[1] = (ai - ar * rat) * scl;
    }
  } else {
    const rat = br / bi;
    const scl = 1 / (bi + br * rat);
    CX[0] = (ar * rat + ai) * scl;
    CX[1] = (ai * rat - ar) * scl;
  }
}

let rdE = 0;
let rdF = 0;

/** Smith's division step with Baudin & Smith's (2012) refinement for an underflowing ratio; |d| <= |c|. */
function robustSmith(a: number, b: number, c: number, d: number): void {
  const r = d / c;
  const t = 1 / (c + d * r);
  if (r !== 0) {
    const br = b * r;
    rdE = br !== 0 ? (a + br) * t : a * t + b * t * r;
    const ar = a * r;
    rdF = ar !== 0 ? (b - ar) * t : b * t - a * t * r;
  } else {
    rdE = (a + d * (b / c)) * t;
    rdF = (b - d * (a / c)) * t;
  }
}

const DIV_OV = DBL_MAX / 2;
const DIV_UN = (2.2250738585072014e-308 * 2) / EPS; // 2^-969
const DIV_BE = 2 / (EPS * EPS); // 2^105

/** (ar + i ai) / (br + i bi) -> CX: Smith's algorithm with Baudin & Smith's scaling (no spurious overflow/underflow). */
export function cdiv(ar: number, ai: number, br: number, bi: number): void {
  if (!(Number.isFinite(ar) && Number.isFinite(ai) && Number.isFinite(br) && Number.isFinite(bi)) || (br === 0 && bi === 0)) {
    cdivNumpy(ar, ai, br, bi);
    return;
  }
  let a = ar;
  let b = ai;
  let c = br;
  let d = bi;
  const ab = Math.max(Math.abs(a), Math.abs(b));
  const cd = Math.max(Math.abs(c), Math.abs(d));
  let s = 1;
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
  if (Math.abs(d) <= Math.abs(c)) {
    robustSmith(a, b, c, d);
    CX[0] = rdE * s;
    CX[1] = rdF * s;
  } else {
    robustSmith(b, a, d, c);
    CX[0] = rdE * s;
    CX[1] = -rdF * s;
  }
}

/** NumPy's complex multiply (no Annex G recovery): writes the product to mulRe/mulIm. */
let mulRe = 0;
let mulIm = 0;
function cmulPlain(ar: number, ai: number, br: number, bi: number): void {
  mulRe = ar * br - ai * bi;
  mulIm = ar * bi + ai * br;
}

/** C99 Annex G multiply (gcc's __muldc3): like cmulPlain, but recovers infinities from NaN + NaN i. */
function cmulAnnexG(a: number, b: number, c: number, d: number): void {
  const ac = a * c;
  const bd = b * d;
  const ad = a * d;
  const bc = b * c;
  let x = ac - bd;
  let y = ad + bc;
  if (x !== x && y !== y) {
    let recalc = false;
    if (isInf(a) || isInf(b)) {
      a = copysign(isInf(a) ? 1 : 0, a);
      b = copysign(isInf(b) ? 1 : 0, b);
      if (c !== c) c = 0;
      if (d !== d) d = 0;
      recalc = true;
    }
    if (isInf(c) || isInf(d)) {
      c = copysign(isInf(c) ? 1 : 0, c);
      d = copysign(isInf(d) ? 1 : 0, d);
      if (a !== a) a = 0;
      if (b !== b) b = 0;
      recalc = true;
    }
    if (!recalc && (isInf(ac) || isInf(bd) || isInf(ad) || isInf(bc))) {
      if (a !== a) a = 0;
      if (b !== b) b = 0;
      if (c !== c) c = 0;
      if (d !== d) d = 0;
      recalc = true;
    }
    if (recalc) {
      x = Infinity * (a * c - b * d);
      y = Infinity * (a * d + b * c);
    }
  }
  mulRe = x;
  mulIm = y;
}

/**
 * a ** b -> CX with NumPy's semantics: x ** 0 = 1 + 0i for every x (also 0 and
 * NaN); 0 ** b = 0 for real b > 0 and NaN + NaN i otherwise; integer b with
 * |b| < 100 by repeated squaring (b < 0: reciprocal of the result); otherwise
 * exp(b * log(a)).
 */
export function cpow(ar: number, ai: number, br: number, bi: number): void {
  if (br === 0 && bi === 0) {
    CX[0] = 1;
    CX[1] = 0;
    return;
  }
  if (ar === 0 && ai === 0) {
    if (br > 0 && bi === 0) {
      CX[0] = 0;
      CX[1] = 0;
    } else {
      CX[0] = NaN;
      CX[1] = NaN;
    }
    return;
  }
  if (bi === 0 && br === Math.trunc(br) && br > -100 && br < 100) {
    const n = br;
    if (n === 1) {
      CX[0] = ar;
      CX[1] = ai;
      return;
    }
    if (n === 2) {
      cmulPlain(ar, ai, ar, ai);
      CX[0] = mulRe;
      CX[1] = mulIm;
      return;
    }
    if (n === 3) {
      cmulPlain(ar, ai, ar, ai);
      cmulPlain(ar, ai, mulRe, mulIm);
      CX[0] = mulRe;
      CX[1] = mulIm;
      return;
    }
    let m = n < 0 ? -n : n;
    let accRe = 1;
    let accIm = 0;
    let pRe = ar;
    let pIm = ai;
    for (;;) {
      if (m & 1) {
        cmulPlain(accRe, accIm, pRe, pIm);
        accRe = mulRe;
        accIm = mulIm;
      }
      m >>= 1;
      if (m === 0) break;
      cmulPlain(pRe, pIm, pRe, pIm);
      pRe = mulRe;
      pIm = mulIm;
    }
    if (n < 0) cdivNumpy(1, 0, accRe, accIm);
    else {
      CX[0] = accRe;
      CX[1] = accIm;
    }
    return;
  }
  clog(ar, ai);
  cmulAnnexG(br, bi, CX[0]!, CX[1]!);
  cexp(mulRe, mulIm);
}

/** |x + iy| (hypot; no spurious overflow, |±inf + i NaN| = inf). */
export function cabs(x: number, y: number): number {
  return hypot(x, y);
}

/** arg(x + iy) = atan2(y, x), in [-pi, pi]. */
export function cangle(x: number, y: number): number {
  return Math.atan2(y, x);
}

/**
 * NumPy 2's complex sign z/|z| -> CX: 0 -> 0; an infinite part gives its unit
 * direction (inf + inf i -> NaN); finite z whose |z| overflows is scaled first.
 */
export function csign(x: number, y: number): void {
  const xinf = isInf(x);
  const yinf = isInf(y);
  if (xinf || yinf) {
    if (xinf && yinf) {
      CX[0] = NaN;
      CX[1] = NaN;
    } else if (xinf) {
      CX[0] = x > 0 ? 1 : -1;
      CX[1] = 0;
    } else {
      CX[0] = 0;
      CX[1] = y > 0 ? 1 : -1;
    }
    return;
  }
  if (x !== x || y !== y) {
    CX[0] = NaN;
    CX[1] = NaN;
    return;
  }
  if (x === 0 && y === 0) {
    CX[0] = 0;
    CX[1] = 0;
    return;
  }
  let a = x;
  let b = y;
  let h = hypot(a, b);
  if (h === Infinity) {
    a *= 0.25;
    b *= 0.25;
    h = hypot(a, b);
  } else if (h < TWO_M1000) {
    a *= TWO_P600; // keep |z| out of the subnormals
    b *= TWO_P600;
    h = hypot(a, b);
  }
  CX[0] = a / h;
  CX[1] = b / h;
}

/** 1/sqrt(z) -> CX (NumPy's 1/np.sqrt(z); rsqrt(0) = inf + NaN i). */
export function crsqrt(x: number, y: number): void {
  csqrt(x, y);
  cdiv(1, 0, CX[0]!, CX[1]!);
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
      TERMS[0] = square(x);
      TERMS[1] = sqLo;
      TERMS[2] = square(y);
      TERMS[3] = sqLo;
      TERMS[4] = 2 * x;
      CX[0] = 0.5 * Math.log1p(sumTerms());
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

/** Logistic sigmoid 1/(1 + exp(-z)) -> CX, in the form that cannot overflow for large |Re z|. */
export function csigmoid(x: number, y: number): void {
  if (x < 0) {
    // e^z / (1 + e^z)
    cexp(x, y);
    const er = CX[0]!;
    const ei = CX[1]!;
    cdiv(er, ei, 1 + er, ei);
  } else {
    cexp(-x, -y);
    cdiv(1, 0, 1 + CX[0]!, CX[1]!);
  }
}

