// The shared ground of the complex scalar functions in this folder.
//
// Why this file exists: every complex function of the pure-JS backend writes its
// result to one output register, CX, which generated kernels read right after
// each call; there must be exactly one such register, so it is defined here and
// imported by elementary.ts, inverse.ts and arith.ts. The same goes for hypot
// and the exact log|z| near |z| = 1 that more than one of those files needs.
// See ../complex-math.ts for the conventions (results in CX, NumPy / C99
// Annex G semantics).

/** Output slot for complex results: CX[0] = real part, CX[1] = imaginary part. */
export const CX = new Float64Array(2);

export const LN2 = Math.LN2;
export const EPS = 2.220446049250313e-16; // 2^-52
export const DBL_MAX = Number.MAX_VALUE;
const TWO_M600 = 2.409919865102884e-181; // 2^-600
export const TWO_P600 = 4.149515568880993e180; // 2^600
const TWO_P1000 = 1.0715086071862673e301; // 2^1000
const TWO_P500 = 3.273390607896142e150; // 2^500
const TWO_M500 = 3.054936363499605e-151; // 2^-500
export const TWO_M1000 = 9.332636185032189e-302; // 2^-1000
const SPLITTER = 134217729; // 2^27 + 1, Veltkamp split constant

/** sqrt(x^2 + y^2) without spurious overflow/underflow; hypot(±inf, NaN) = inf. */
export function hypot(x: number, y: number): number {
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

/** log1p(a^2 + b^2 + c) / 2 with the argument summed exactly-ish (squares split, compensated sum). */
export function halfLog1pSquares(a: number, b: number, c: number): number {
  TERMS[0] = square(a);
  TERMS[1] = sqLo;
  TERMS[2] = square(b);
  TERMS[3] = sqLo;
  TERMS[4] = c;
  return 0.5 * Math.log1p(sumTerms());
}

/** log|x + iy| for finite x, y, not both zero; accurate also where |z| is close to 1. */
export function logAbs(x: number, y: number): number {
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
      return halfLog1pSquares(a, b, -1);
    }
  }
  return Math.log(hypot(a, b));
}
