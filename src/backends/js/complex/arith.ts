// Complex division, power, modulus, argument and sign, plus rsqrt and sigmoid
// (which are a division away from elementary.ts).
//
// Why this file exists: division and power have their own numerical problems
// (Smith's algorithm with Baudin & Smith's scaling against spurious overflow,
// NumPy's repeated squaring for small integer powers, Annex G's recovery of
// infinities in products) and their own scratch state (rdE/rdF, mulRe/mulIm),
// which stays private here. Results go to the shared register CX (core.ts).

import { CX, DBL_MAX, EPS, TWO_M1000, TWO_P600, hypot } from './core.js';
import { cexp, clog, copysign, csqrt, isInf } from './elementary.js';

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

