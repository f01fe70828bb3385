// Raw vector kernels shared by the Krylov solvers and Lanczos.
//
// One code path serves real and complex problems: a real vector of length n is a
// Float64Array of n values, a complex one holds 2n interleaved (re, im) values.
// Scalars are {re, im}; for real problems im stays 0 and the kernels ignore it, so
// a solver is written once in complex arithmetic and costs nothing extra when real.
// Inner products conjugate their FIRST argument (xᴴy), as BLAS zdotc and NumPy vdot.

/** A complex scalar; real problems keep im = 0. */
export interface C {
  re: number;
  im: number;
}

export const c = (re: number, im = 0): C => ({ re, im });
export const cmul = (a: C, b: C): C => ({ re: a.re * b.re - a.im * b.im, im: a.re * b.im + a.im * b.re });
export const cabs = (a: C): number => Math.hypot(a.re, a.im);
export const cneg = (a: C): C => ({ re: -a.re, im: -a.im });
export const cconj = (a: C): C => ({ re: a.re, im: -a.im });
/** a / b, scaled (Smith's algorithm) so that huge or tiny b does not overflow. */
export function cdiv(a: C, b: C): C {
  if (b.im === 0) return { re: a.re / b.re, im: a.im / b.re };
  if (Math.abs(b.re) >= Math.abs(b.im)) {
    const r = b.im / b.re,
      d = b.re + b.im * r;
    return { re: (a.re + a.im * r) / d, im: (a.im - a.re * r) / d };
  }
  const r = b.re / b.im,
    d = b.re * r + b.im;
  return { re: (a.re * r + a.im) / d, im: (a.im * r - a.re) / d };
}

/** xᴴ y (conjugating x). */
export function dot(cplx: boolean, x: Float64Array, y: Float64Array): C {
  const n = x.length;
  if (!cplx) {
    let s = 0;
    for (let i = 0; i < n; i++) s += x[i]! * y[i]!;
    return { re: s, im: 0 };
  }
  let re = 0,
    im = 0;
  for (let i = 0; i < n; i += 2) {
    const xr = x[i]!,
      xi = x[i + 1]!,
      yr = y[i]!,
      yi = y[i + 1]!;
    re += xr * yr + xi * yi;
    im += xr * yi - xi * yr;
  }
  return { re, im };
}

/** ‖x‖₂; the same loop is right for interleaved complex (|z|² = re² + im²). */
export function nrm2(x: Float64Array): number {
  // Two-pass scaling would cost a second sweep; plain sums are fine for the
  // magnitudes iterative solvers see, and Infinity/NaN propagate (caught as breakdown).
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]! * x[i]!;
  return Math.sqrt(s);
}

/** y ← y + a·x. */
export function axpy(cplx: boolean, a: C, x: Float64Array, y: Float64Array): void {
  const n = x.length;
  if (!cplx || a.im === 0) {
    const ar = a.re;
    for (let i = 0; i < n; i++) y[i]! += ar * x[i]!;
    return;
  }
  const ar = a.re,
    ai = a.im;
  for (let i = 0; i < n; i += 2) {
    const xr = x[i]!,
      xi = x[i + 1]!;
    y[i]! += ar * xr - ai * xi;
    y[i + 1]! += ar * xi + ai * xr;
  }
}

/** y ← x + b·y (the CG direction update p = z + βp). */
export function xpby(cplx: boolean, x: Float64Array, b: C, y: Float64Array): void {
  const n = x.length;
  if (!cplx || b.im === 0) {
    const br = b.re;
    for (let i = 0; i < n; i++) y[i] = x[i]! + br * y[i]!;
    return;
  }
  const br = b.re,
    bi = b.im;
  for (let i = 0; i < n; i += 2) {
    const yr = y[i]!,
      yi = y[i + 1]!;
    y[i] = x[i]! + br * yr - bi * yi;
    y[i + 1] = x[i + 1]! + br * yi + bi * yr;
  }
}

/** x ← a·x. */
export function scal(cplx: boolean, a: C, x: Float64Array): void {
  const n = x.length;
  if (!cplx || a.im === 0) {
    for (let i = 0; i < n; i++) x[i]! *= a.re;
    return;
  }
  for (let i = 0; i < n; i += 2) {
    const xr = x[i]!,
      xi = x[i + 1]!;
    x[i] = a.re * xr - a.im * xi;
    x[i + 1] = a.re * xi + a.im * xr;
  }
}

/** out ← b − y. */
export function sub(b: Float64Array, y: Float64Array, out: Float64Array): Float64Array {
  for (let i = 0; i < b.length; i++) out[i] = b[i]! - y[i]!;
  return out;
}

/** A unit vector with a fixed pseudo-random start (reproducible runs; no Math.random). */
export function seededVector(len: number, seed = 1): Float64Array {
  const v = new Float64Array(len);
  let s = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < len; i++) {
    // xorshift32: cheap, deterministic, good enough to avoid special directions.
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    v[i] = s / 4294967296 - 0.5;
  }
  const nr = nrm2(v);
  for (let i = 0; i < len; i++) v[i]! /= nr;
  return v;
}
