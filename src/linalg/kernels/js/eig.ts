// General eigendecomposition: Householder reduction to upper Hessenberg form,
// then the complex Schur form by single-shift implicit QR with Givens
// rotations (the scheme of LAPACK's zlahqr: Wilkinson shift, exceptional
// shifts every 10 iterations, 30 max(10, n) iterations per eigenvalue), then
// eigenvectors of the triangular factor by back substitution (ztrevc's
// perturbed-divisor rule for repeated eigenvalues) mapped back by the Schur
// vectors. Real input runs through the same complex path: one algorithm, and
// a defective or complex-spectrum real matrix needs no special 2x2 blocks.

import type { FloatArray, LinalgDType } from '../contract.js';
import { applyLeft, applyRight, cabs1, cdiv, csqrt, makeReflector } from './complex.js';
import { realEigenStructure } from './eig-real.js';
import { allFinite, checkArgs, checkLength, fillNaN, identity, isComplexDType, load, slots, zeros, type CMat } from './io.js';

const EPS = 2 ** -52;
const SAFE_MIN = 2 ** -1022;

/** Reduces a (n x n, in place) to upper Hessenberg h = qᴴ a q; returns q. */
export function hessenberg(a: CMat, n: number): CMat {
  const work = zeros(n);
  const hs = [];
  for (let k = 0; k + 1 < n; k++) {
    const o = k + 1;
    const h = makeReflector(a.re, a.im, o * n + k, n - o, n);
    hs.push(h);
    applyLeft(a, n, o, o, n, h, h.tauRe, -h.tauIm, work);
    applyRight(a, n, 0, n, o, h, h.tauRe, h.tauIm);
    a.re[o * n + k] = h.beta;
    a.im[o * n + k] = 0;
    for (let r = o + 1; r < n; r++) {
      a.re[r * n + k] = 0;
      a.im[r * n + k] = 0;
    }
  }
  const q = identity(n);
  for (let k = hs.length - 1; k >= 0; k--) {
    const h = hs[k]!;
    applyLeft(q, n, k + 1, k + 1, n, h, h.tauRe, h.tauIm, work);
  }
  return q;
}

/**
 * Complex Schur form in place: h (upper Hessenberg) becomes upper triangular t
 * with z := z Gᴴ for every rotation G, so a = z t zᴴ. z is held transposed (zt,
 * rows = Schur vectors) so each rotation updates two contiguous rows. Returns
 * info (> 0: the eigenvalues 1..info (1-based) did not converge).
 */
export function schur(h: CMat, zt: CMat | null, n: number): number {
  const { re, im } = h;
  const at = (i: number, j: number): number => i * n + j;
  const itmax = 30 * Math.max(10, n);
  let ihi = n - 1,
    its = 0;
  while (ihi > 0) {
    let l = ihi;
    for (; l > 0; l--) {
      const sub = cabs1(re[at(l, l - 1)]!, im[at(l, l - 1)]!);
      if (sub <= SAFE_MIN) break;
      let tst = cabs1(re[at(l - 1, l - 1)]!, im[at(l - 1, l - 1)]!) + cabs1(re[at(l, l)]!, im[at(l, l)]!);
      if (tst === 0) {
        if (l >= 2) tst += Math.abs(re[at(l - 1, l - 2)]!);
        if (l + 1 <= ihi) tst += Math.abs(re[at(l + 1, l)]!);
      }
      if (sub <= EPS * tst) break;
    }
    if (l > 0) {
      re[at(l, l - 1)] = 0;
      im[at(l, l - 1)] = 0;
    }
    if (l === ihi) {
      ihi--;
      its = 0;
      continue;
    }
    if (++its > itmax) return ihi + 1;
    let mr: number, mi: number;
    if (its % 10 === 0) {
      // Exceptional shift breaks the cycles the standard shift can fall into.
      mr = re[at(ihi, ihi)]! + 0.75 * Math.abs(re[at(ihi, ihi - 1)]!);
      mi = im[at(ihi, ihi)]!;
    } else {
      [mr, mi] = wilkinson(re, im, n, ihi);
    }
    let xr = re[at(l, l)]! - mr,
      xi = im[at(l, l)]! - mi,
      yr = re[at(l + 1, l)]!,
      yi = im[at(l + 1, l)]!;
    for (let k = l; k < ihi; k++) {
      if (k > l) {
        xr = re[at(k, k - 1)]!;
        xi = im[at(k, k - 1)]!;
        yr = re[at(k + 1, k - 1)]!;
        yi = im[at(k + 1, k - 1)]!;
      }
      const ax = Math.hypot(xr, xi),
        nn = Math.hypot(ax, Math.hypot(yr, yi));
      if (nn === 0) continue;
      let c: number, sr: number, si: number, rr: number, ri: number;
      if (ax === 0) {
        c = 0;
        sr = yr / nn;
        si = -yi / nn;
        rr = nn;
        ri = 0;
      } else {
        c = ax / nn;
        const pr = xr / ax,
          pi = xi / ax;
        // s = phase(x) conj(y) / N, r = phase(x) N
        sr = (pr * yr + pi * yi) / nn;
        si = (pi * yr - pr * yi) / nn;
        rr = pr * nn;
        ri = pi * nn;
      }
      if (k > l) {
        re[at(k, k - 1)] = rr;
        im[at(k, k - 1)] = ri;
        re[at(k + 1, k - 1)] = 0;
        im[at(k + 1, k - 1)] = 0;
      }
      // Rows k, k+1 := G [rows]; the full row so t is the complete Schur factor.
      for (let p = k * n + k, q = p + n, end = (k + 1) * n; p < end; p++, q++) {
        const ar = re[p]!,
          ai = im[p]!,
          br = re[q]!,
          bi = im[q]!;
        re[p] = c * ar + sr * br - si * bi;
        im[p] = c * ai + sr * bi + si * br;
        re[q] = -(sr * ar + si * ai) + c * br;
        im[q] = -(sr * ai - si * ar) + c * bi;
      }
      rotateColumns(re, im, n, 0, Math.min(k + 2, ihi) + 1, k, c, sr, si);
      if (zt) rotateRows(zt.re, zt.im, n, k, c, sr, si);
    }
  }
  return 0;
}

/** Columns k, k+1 of rows r0..r1-1 := [x y] Gᴴ = [c x + conj(s) y, -s x + c y]. */
function rotateColumns(re: Float64Array, im: Float64Array, n: number, r0: number, r1: number, k: number, c: number, sr: number, si: number): void {
  for (let i = r0; i < r1; i++) {
    const p = i * n + k;
    const xr = re[p]!,
      xi = im[p]!,
      yr = re[p + 1]!,
      yi = im[p + 1]!;
    re[p] = c * xr + sr * yr + si * yi;
    im[p] = c * xi + sr * yi - si * yr;
    re[p + 1] = -(sr * xr - si * xi) + c * yr;
    im[p + 1] = -(sr * xi + si * xr) + c * yi;
  }
}

/** Rows k, k+1 of zt := the same map as rotateColumns, for z held transposed. */
function rotateRows(re: Float64Array, im: Float64Array, n: number, k: number, c: number, sr: number, si: number): void {
  for (let p = k * n, q = p + n, end = (k + 1) * n; p < end; p++, q++) {
    const xr = re[p]!,
      xi = im[p]!,
      yr = re[q]!,
      yi = im[q]!;
    re[p] = c * xr + sr * yr + si * yi;
    im[p] = c * xi + sr * yi - si * yr;
    re[q] = -(sr * xr - si * xi) + c * yr;
    im[q] = -(sr * xi + si * xr) + c * yi;
  }
}

/** The eigenvalue of the trailing 2x2 block closer to its last diagonal entry, d - bc / (h ± √(h² + bc)). */
function wilkinson(re: Float64Array, im: Float64Array, n: number, i: number): [number, number] {
  const a = (i - 1) * n + i - 1;
  const ar = re[a]!,
    ai = im[a]!,
    br = re[a + 1]!,
    bi = im[a + 1]!,
    cr = re[a + n]!,
    ci = im[a + n]!,
    dr = re[a + n + 1]!,
    di = im[a + n + 1]!;
  const hr = 0.5 * (ar - dr),
    hi = 0.5 * (ai - di);
  const bcr = br * cr - bi * ci,
    bci = br * ci + bi * cr;
  const [sr, si] = csqrt(hr * hr - hi * hi + bcr, 2 * hr * hi + bci);
  // Pick the sign that makes the denominator large (no cancellation).
  const sign = hr * sr + hi * si >= 0 ? 1 : -1;
  const denr = hr + sign * sr,
    deni = hi + sign * si;
  if (denr === 0 && deni === 0) return [dr, di];
  const [qr, qi] = cdiv(bcr, bci, denr, deni);
  return [dr - qr, di - qi];
}

/**
 * Right eigenvectors of the upper triangular t as rows of xt (row k has
 * nonzeros in 0..k). A divisor t_jj - λ_k smaller than smin is replaced by
 * smin (ztrevc), which yields a finite, nearly parallel vector for repeated
 * or defective eigenvalues instead of a division by zero.
 */
export function triangularEigenvectors(t: CMat, n: number): CMat {
  const xt = zeros(n * n);
  const { re, im } = t;
  const BIG = 1e200;
  for (let k = 0; k < n; k++) {
    const lr = re[k * n + k]!,
      li = im[k * n + k]!;
    const smin = Math.max(EPS * cabs1(lr, li), SAFE_MIN);
    const o = k * n;
    xt.re[o + k] = 1;
    for (let j = k - 1; j >= 0; j--) {
      let sr = 0,
        si = 0;
      for (let i = j + 1; i <= k; i++) {
        const ar = re[j * n + i]!,
          ai = im[j * n + i]!,
          xr = xt.re[o + i]!,
          xi = xt.im[o + i]!;
        sr += ar * xr - ai * xi;
        si += ar * xi + ai * xr;
      }
      let dr = re[j * n + j]! - lr,
        di = im[j * n + j]! - li;
      if (cabs1(dr, di) < smin) {
        dr = smin;
        di = 0;
      }
      const [qr, qi] = cdiv(-sr, -si, dr, di);
      xt.re[o + j] = qr;
      xt.im[o + j] = qi;
      const mag = cabs1(qr, qi);
      if (mag > BIG) {
        // Rescale the partial vector; only its direction matters.
        for (let i = j; i <= k; i++) {
          xt.re[o + i] /= mag;
          xt.im[o + i] /= mag;
        }
      }
    }
  }
  return xt;
}

export function eigOne(a: CMat, n: number, wantVectors: boolean): { wr: Float64Array; wi: Float64Array; v: CMat | null; info: number } {
  const q = hessenberg(a, n);
  const zt = wantVectors ? transposed(q, n) : null;
  const info = schur(a, zt, n);
  const wr = new Float64Array(n),
    wi = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    wr[i] = a.re[i * n + i]!;
    wi[i] = a.im[i * n + i]!;
  }
  if (!zt || info > 0) return { wr, wi, v: null, info };
  const xt = triangularEigenvectors(a, n);
  // v[:, k] = z x_k = Σ_i x_k[i] zt[i, :], as contiguous row axpys, then unit
  // 2-norm with the largest component made real positive.
  const v = zeros(n * n);
  const cr = new Float64Array(n),
    ci = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    cr.fill(0);
    ci.fill(0);
    const o = k * n;
    for (let i = 0; i <= k; i++) {
      const xr = xt.re[o + i]!,
        xi = xt.im[o + i]!;
      if (xr === 0 && xi === 0) continue;
      for (let r = 0, p = i * n; r < n; r++, p++) {
        const zr = zt.re[p]!,
          zi = zt.im[p]!;
        cr[r] += zr * xr - zi * xi;
        ci[r] += zr * xi + zi * xr;
      }
    }
    for (let r = 0; r < n; r++) {
      v.re[r * n + k] = cr[r]!;
      v.im[r * n + k] = ci[r]!;
    }
  }
  for (let k = 0; k < n; k++) {
    let big = 0,
      at = 0;
    for (let r = 0; r < n; r++) {
      const m2 = v.re[r * n + k]! ** 2 + v.im[r * n + k]! ** 2;
      if (m2 > big) {
        big = m2;
        at = r;
      }
    }
    let nrm = 0;
    for (let r = 0; r < n; r++) nrm = Math.hypot(nrm, Math.hypot(v.re[r * n + k]!, v.im[r * n + k]!));
    if (nrm === 0) continue;
    const mr = v.re[at * n + k]!,
      mi = v.im[at * n + k]!;
    const mm = Math.hypot(mr, mi);
    // multiply by conj(v_at) / (|v_at| ‖v‖)
    const fr = mr / (mm * nrm),
      fi = -mi / (mm * nrm);
    for (let r = 0; r < n; r++) {
      const p = r * n + k;
      const xr = v.re[p]!,
        xi = v.im[p]!;
      v.re[p] = xr * fr - xi * fi;
      v.im[p] = xr * fi + xi * fr;
    }
    v.im[at * n + k] = 0;
  }
  return { wr, wi, v, info };
}

function frobenius(a: CMat): number {
  let s = 0;
  for (let i = 0; i < a.re.length; i++) s = Math.hypot(s, a.re[i]!, a.im[i]!);
  return s;
}

function transposed(m: CMat, n: number): CMat {
  const t = zeros(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      t.re[j * n + i] = m.re[i * n + j]!;
      t.im[j * n + i] = m.im[i * n + j]!;
    }
  }
  return t;
}

export function eig(dtype: LinalgDType, b: number, n: number, a: FloatArray, w: FloatArray, vr: FloatArray | null): Int32Array {
  checkArgs('eig', dtype, { b, n });
  const sz = slots(dtype);
  const sizes = `b=${b}, n=${n}, dtype ${dtype}`;
  checkLength('eig', 'a', a, b * n * n * sz, sizes);
  checkLength('eig', 'w', w, b * n * 2, sizes);
  checkLength('eig', 'vr', vr, b * n * n * 2, sizes);
  const info = new Int32Array(b);
  for (let e = 0; e < b; e++) {
    const am = load(dtype, a, e, n * n);
    if (!allFinite(am)) {
      info[e] = 1;
      fillNaN(w, e, 2 * n);
      fillNaN(vr, e, 2 * n * n);
      continue;
    }
    const r = eigOne(am, n, vr !== null);
    info[e] = r.info;
    if (!isComplexDType(dtype) && r.info === 0) realEigenStructure(r.wr, r.wi, r.v, n, frobenius(am)); // am now holds t: same Frobenius norm as a
    for (let i = 0; i < n; i++) {
      w[2 * (e * n + i)] = r.wr[i]!;
      w[2 * (e * n + i) + 1] = r.wi[i]!;
    }
    if (vr) {
      const off = 2 * e * n * n;
      if (r.v) {
        for (let i = 0; i < n * n; i++) {
          vr[off + 2 * i] = r.v.re[i]!;
          vr[off + 2 * i + 1] = r.v.im[i]!;
        }
      } else fillNaN(vr, e, 2 * n * n);
    }
  }
  return info;
}
