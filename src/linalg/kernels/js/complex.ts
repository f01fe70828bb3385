// Complex helpers shared by the js kernels: a scaled 2-norm, LAPACK's reflector
// generator (zlarfg) and the application of a reflector to a block of a split
// (re, im) row-major matrix. Reflector loops run row by row so the innermost
// loop walks contiguous memory.

import type { CMat } from './io.js';

/** LAPACK's dcabs1: |re| + |im|, the cheap magnitude izamax pivots on. */
export const cabs1 = (re: number, im: number): number => Math.abs(re) + Math.abs(im);

/**
 * 2-norm of x[start + i*stride], i < len, with scaling so that entries near
 * the overflow or underflow threshold do not spoil it (dznrm2's purpose).
 */
export function norm2(re: Float64Array, im: Float64Array, start: number, len: number, stride: number): number {
  let big = 0;
  for (let i = 0, p = start; i < len; i++, p += stride) big = Math.max(big, Math.abs(re[p]!), Math.abs(im[p]!));
  if (big === 0 || !Number.isFinite(big)) return big;
  const safe = big > 1e-150 && big < 1e150;
  const sc = safe ? 1 : 1 / big;
  let sum = 0;
  for (let i = 0, p = start; i < len; i++, p += stride) {
    const a = re[p]! * sc,
      b = im[p]! * sc;
    sum += a * a + b * b;
  }
  return safe ? Math.sqrt(sum) : big * Math.sqrt(sum);
}

/** A Householder reflector H = I - tau v vᴴ with v[0] = 1 (v stored split, length len). */
export interface Reflector {
  vr: Float64Array;
  vi: Float64Array;
  tauRe: number;
  tauIm: number;
  /** The real value Hᴴ maps the generating vector's first entry to. */
  beta: number;
}

/**
 * zlarfg on the vector x[start + i*stride], i < len: Hᴴ x = (beta, 0, ..., 0)
 * with beta real and beta = -sign(Re x0) ‖x‖, the sign choice that avoids
 * cancellation in x0 - beta and gives LAPACK's (and NumPy's) signs of r in QR.
 * tau = 0 (H = I) when x[1:] = 0 and x0 is real, as LAPACK does.
 */
export function makeReflector(re: Float64Array, im: Float64Array, start: number, len: number, stride: number): Reflector {
  const vr = new Float64Array(len),
    vi = new Float64Array(len);
  vr[0] = 1;
  const ar = re[start]!,
    ai = im[start]!;
  const xnorm = len > 1 ? norm2(re, im, start + stride, len - 1, stride) : 0;
  if (xnorm === 0 && ai === 0) return { vr, vi, tauRe: 0, tauIm: 0, beta: ar };
  const mag = Math.hypot(ar, ai, xnorm);
  const beta = ar >= 0 ? -mag : mag;
  const tauRe = (beta - ar) / beta,
    tauIm = -ai / beta;
  // v[1:] = x[1:] / (alpha - beta), by complex division.
  const dr = ar - beta,
    di = ai;
  const den = dr * dr + di * di;
  const sr = dr / den,
    si = -di / den;
  for (let i = 1, p = start + stride; i < len; i++, p += stride) {
    const xr = re[p]!,
      xi = im[p]!;
    vr[i] = xr * sr - xi * si;
    vi[i] = xr * si + xi * sr;
  }
  return { vr, vi, tauRe, tauIm, beta };
}

/**
 * a[r0 + i, c] := ((I - t v vᴴ) a)[...] for i < v.length, c0 <= c < c1, a with
 * `cols` columns. Pass t = conj(tau) to apply Hᴴ, t = tau to apply H.
 */
export function applyLeft(a: CMat, cols: number, r0: number, c0: number, c1: number, h: Reflector, tRe: number, tIm: number, work: CMat): void {
  if (tRe === 0 && tIm === 0) return;
  const { re, im } = a;
  const { vr, vi } = h;
  const wr = work.re,
    wi = work.im;
  for (let c = c0; c < c1; c++) {
    wr[c] = 0;
    wi[c] = 0;
  }
  // w = vᴴ a, accumulated a row at a time.
  for (let i = 0; i < vr.length; i++) {
    const pr = vr[i]!,
      pi = -vi[i]!;
    if (pr === 0 && pi === 0) continue;
    const row = (r0 + i) * cols;
    for (let c = c0; c < c1; c++) {
      const xr = re[row + c]!,
        xi = im[row + c]!;
      wr[c] += pr * xr - pi * xi;
      wi[c] += pr * xi + pi * xr;
    }
  }
  // a -= (t v) w
  for (let i = 0; i < vr.length; i++) {
    const sr = tRe * vr[i]! - tIm * vi[i]!,
      si = tRe * vi[i]! + tIm * vr[i]!;
    if (sr === 0 && si === 0) continue;
    const row = (r0 + i) * cols;
    for (let c = c0; c < c1; c++) {
      const xr = wr[c]!,
        xi = wi[c]!;
      re[row + c] -= sr * xr - si * xi;
      im[row + c] -= sr * xi + si * xr;
    }
  }
}

/** a[r, c0 + j] := (a (I - t v vᴴ))[...] for r0 <= r < r1, j < v.length. */
export function applyRight(a: CMat, cols: number, r0: number, r1: number, c0: number, h: Reflector, tRe: number, tIm: number): void {
  if (tRe === 0 && tIm === 0) return;
  const { re, im } = a;
  const { vr, vi } = h;
  const len = vr.length;
  for (let r = r0; r < r1; r++) {
    const row = r * cols + c0;
    let sr = 0,
      si = 0;
    for (let j = 0; j < len; j++) {
      const xr = re[row + j]!,
        xi = im[row + j]!;
      sr += xr * vr[j]! - xi * vi[j]!;
      si += xr * vi[j]! + xi * vr[j]!;
    }
    // s := t (a v); a -= s vᴴ
    const qr = tRe * sr - tIm * si,
      qi = tRe * si + tIm * sr;
    for (let j = 0; j < len; j++) {
      const pr = vr[j]!,
        pi = -vi[j]!;
      re[row + j] -= qr * pr - qi * pi;
      im[row + j] -= qr * pi + qi * pr;
    }
  }
}

/** Principal complex square root. */
export function csqrt(re: number, im: number): [number, number] {
  if (re === 0 && im === 0) return [0, im];
  const m = Math.hypot(re, im);
  if (re >= 0) {
    const t = Math.sqrt(0.5 * (m + re));
    return [t, im / (2 * t)];
  }
  const t = Math.sqrt(0.5 * (m - re));
  return [Math.abs(im) / (2 * t), im >= 0 ? t : -t];
}

/** Complex division (Smith's algorithm, avoiding needless overflow). */
export function cdiv(ar: number, ai: number, br: number, bi: number): [number, number] {
  if (Math.abs(br) >= Math.abs(bi)) {
    const r = bi / br,
      d = br + bi * r;
    return [(ar + ai * r) / d, (ai - ar * r) / d];
  }
  const r = br / bi,
    d = bi + br * r;
  return [(ar * r + ai) / d, (ai * r - ar) / d];
}
