// Raw vector kernels shared by the Krylov solvers and Lanczos.
//
// One code path serves real and complex problems: a real vector of length n is a
// Float64Array of n values, a complex one holds 2n interleaved (re, im) values.
// Scalars are {re, im}; for real problems im stays 0 and the kernels ignore it, so
// a solver is written once in complex arithmetic and costs nothing extra when real.
// Inner products conjugate their FIRST argument (xᴴy), as BLAS zdotc and NumPy vdot.
//
// A native backend may install SIMD/threaded versions of the real kernels
// (the VEC_KERNELS family; the native one is native/src/sparse/vec.cc: BLAS-1 on its own
// loops and thread pool, with reductions that give the same bits on any thread
// count; gemv/gemmTN on BLAS). They take over for
// vectors of at least VEC_KERNEL_MIN values: real data, or interleaved complex
// data when the scalar is real (then the operation is the same on the 2n values).
// Below that, or without a kernel, the js loops run.

import { kernelFamily, kernelsOn } from '../../compiler/kernel-registry.js';

/** Real float64 kernels a backend can install (all arguments Float64Array; lengths already match). */
export interface VecKernel {
  readonly name: string;
  /** xᵀy. */
  dot(x: Float64Array, y: Float64Array): number;
  /** y += a·x. */
  axpy(a: number, x: Float64Array, y: Float64Array): void;
  /** y = x + b·y. */
  xpby(x: Float64Array, b: number, y: Float64Array): void;
  /** x += a·p, r −= a·q in one pass; returns ‖r‖². */
  cgStep(a: number, p: Float64Array, q: Float64Array, x: Float64Array, r: Float64Array): number;
  /** y = α·op(A)·x + β·y, A row-major rows×cols (its first rows·cols values), op(A) = Aᵀ when trans. */
  gemv(trans: boolean, rows: number, cols: number, A: Float64Array, x: Float64Array, y: Float64Array, alpha: number, beta: number): void;
  /** C = α·Sᵀ·A + β·C with S rows×p, A rows×cols, C p×cols, all row-major. */
  gemmTN(rows: number, p: number, cols: number, S: Float64Array, A: Float64Array, C: Float64Array, alpha: number, beta: number): void;
}

/** Vectors shorter than this stay in js (a native call costs about a microsecond). */
export const VEC_KERNEL_MIN = 1024;
/** The vector kernels as a kernel family; the native sparse glue (../kernels/native.ts) registers the 'native' device's. */
export const VEC_KERNELS = kernelFamily<VecKernel>('sparse.vec');
/** The native vector kernels, or null (the js loops run). */
export function getVecKernel(): VecKernel | null {
  return kernelsOn('native', VEC_KERNELS) ?? null;
}
/** The native vector kernels for work of n values: null below VEC_KERNEL_MIN (looked up only then). */
const forSize = (n: number): VecKernel | null => (n >= VEC_KERNEL_MIN ? getVecKernel() : null);

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
  if (!cplx) return { re: rdot(x, y), im: 0 };
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

/**
 * Smallest sum of squares taken as it is: below it, squares of the entries may
 * have underflowed (lost digits, or all of them). 2^-900 leaves the subnormal
 * range (2^-1022) far enough away that what was lost is below rounding.
 */
const SSQ_MIN = 2 ** -900;

/**
 * ‖x‖₂, overflow- and underflow-safe (as LAPACK's dnrm2); the same loop is right
 * for interleaved complex (|z|² = re² + im²). Fast path: the plain sum of
 * squares (one sweep, the installed kernel's dot), taken when it is finite and
 * not tiny. Otherwise (an entry ≳ 1e154 or every entry ≲ 1e-154, Inf, NaN) a
 * second, scaled pass: max|xᵢ| · ‖x / max|xᵢ|‖. NaN in x gives NaN; ±Inf gives Inf.
 */
export function nrm2(x: Float64Array): number {
  const ss = rdot(x, x);
  if (ss < Infinity && ss >= SSQ_MIN) return Math.sqrt(ss);
  return scaledNrm2(x);
}

/** Two-pass ‖x‖₂: the largest magnitude first, then the sum of squares of x scaled by it (each term ≤ 1). */
function scaledNrm2(x: Float64Array): number {
  let big = 0;
  for (let i = 0; i < x.length; i++) {
    const a = Math.abs(x[i]!);
    if (!(a <= big)) {
      if (a !== a) return NaN;
      big = a;
    }
  }
  if (big === 0 || big === Infinity) return big;
  let s = 0;
  for (let i = 0; i < x.length; i++) {
    const t = x[i]! / big;
    s += t * t;
  }
  return big * Math.sqrt(s);
}

/** 2^k as the product of two finite factors (2^k itself over- or underflows for |k| > 1022; k ∈ [-2100, 2100]). */
function pow2Pair(k: number): [number, number] {
  const h = Math.trunc(k / 2);
  return [2 ** h, 2 ** (k - h)];
}

/** a · 2^k for any integer k the exponent range needs (exact unless the result leaves the normal range). */
export function ldexp(a: number, k: number): number {
  const [f, g] = pow2Pair(k);
  return a * f * g;
}

/** x ← x · 2^k (exact unless an entry leaves the normal range). */
export function ldexpInPlace(x: Float64Array, k: number): Float64Array {
  if (k === 0) return x;
  const [f, g] = pow2Pair(k);
  for (let i = 0; i < x.length; i++) x[i] = x[i]! * f * g;
  return x;
}

/** Real xᵀy (also Re(xᴴy) of interleaved complex vectors). */
export function rdot(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  const vk = forSize(n);
  if (vk !== null) return vk.dot(x, y);
  // Four partial sums: the loop is bound by the add latency otherwise.
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0,
    i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += x[i]! * y[i]!;
    s1 += x[i + 1]! * y[i + 1]!;
    s2 += x[i + 2]! * y[i + 2]!;
    s3 += x[i + 3]! * y[i + 3]!;
  }
  for (; i < n; i++) s0 += x[i]! * y[i]!;
  return s0 + s1 + (s2 + s3);
}

/** x += a·p, r −= a·q (real a; real or interleaved complex vectors) in one pass; returns ‖r‖². */
export function cgStep(a: number, p: Float64Array, q: Float64Array, x: Float64Array, r: Float64Array): number {
  const n = x.length;
  const vk = forSize(n);
  if (vk !== null && x.buffer !== r.buffer && x.buffer !== p.buffer && x.buffer !== q.buffer && r.buffer !== p.buffer && r.buffer !== q.buffer) return vk.cgStep(a, p, q, x, r);
  let rr = 0;
  for (let i = 0; i < n; i++) {
    x[i]! += a * p[i]!;
    const ri = r[i]! - a * q[i]!;
    r[i] = ri;
    rr += ri * ri;
  }
  return rr;
}

/** y = α·op(A)·x + β·y for a row-major rows×cols A (real; see VecKernel.gemv). */
export function gemv(trans: boolean, rows: number, cols: number, A: Float64Array, x: Float64Array, y: Float64Array, alpha: number, beta: number): void {
  const vk = forSize(rows * cols);
  if (vk !== null) {
    vk.gemv(trans, rows, cols, A, x, y, alpha, beta);
    return;
  }
  if (!trans) {
    for (let i = 0; i < rows; i++) {
      const o = i * cols;
      let s0 = 0,
        s1 = 0,
        j = 0;
      for (; j + 2 <= cols; j += 2) {
        s0 += A[o + j]! * x[j]!;
        s1 += A[o + j + 1]! * x[j + 1]!;
      }
      if (j < cols) s0 += A[o + j]! * x[j]!;
      y[i] = alpha * (s0 + s1) + (beta === 0 ? 0 : beta * y[i]!);
    }
    return;
  }
  if (beta !== 1) for (let j = 0; j < cols; j++) y[j] = beta === 0 ? 0 : beta * y[j]!;
  for (let i = 0; i < rows; i++) {
    const a = alpha * x[i]!,
      o = i * cols;
    if (a === 0) continue;
    for (let j = 0; j < cols; j++) y[j]! += a * A[o + j]!;
  }
}

/** C = α·Sᵀ·A + β·C (see VecKernel.gemmTN). */
export function gemmTN(rows: number, p: number, cols: number, S: Float64Array, A: Float64Array, C: Float64Array, alpha: number, beta: number): void {
  const vk = forSize(rows * cols);
  if (vk !== null) {
    vk.gemmTN(rows, p, cols, S, A, C, alpha, beta);
    return;
  }
  const s = new Float64Array(rows);
  for (let l = 0; l < p; l++) {
    for (let i = 0; i < rows; i++) s[i] = S[i * p + l]!;
    gemv(true, rows, cols, A, s, C.subarray(l * cols, (l + 1) * cols), alpha, beta);
  }
}

/** y ← y + a·x. */
export function axpy(cplx: boolean, a: C, x: Float64Array, y: Float64Array): void {
  const n = x.length;
  if (!cplx || a.im === 0) {
    const ar = a.re;
    const vk = forSize(n);
    if (vk !== null && x.buffer !== y.buffer) {
      if (ar !== 0) vk.axpy(ar, x, y);
      return;
    }
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
    const vk = forSize(n);
    if (vk !== null && x.buffer !== y.buffer) {
      vk.xpby(x, br, y);
      return;
    }
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
