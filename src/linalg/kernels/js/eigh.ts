// Hermitian eigendecomposition: Householder tridiagonalization (zhetd2) then
// the implicit QL algorithm with Wilkinson-like shifts (EISPACK tql2, as in
// JAMA). zlarfg's beta is real, so the tridiagonal matrix is real symmetric
// even for complex input: QL runs in real arithmetic and only the final back
// transformation by the reflectors is complex. This is O(n^3) with a small
// constant, much faster than cyclic Jacobi for n in the hundreds, and backward
// stable. The QL rotations are applied to the rows of zᵀ (each eigenvector is
// a contiguous row) to keep the inner loops unit-stride.

import type { FloatArray, LinalgDType } from '../contract.js';
import { makeReflector, type Reflector } from './complex.js';
import { allFinite, checkArgs, checkLength, fillNaN, hermitianFrom, isComplexDType, load, slots, storeReal, zeros, type CMat } from './io.js';

/** QL sweeps allowed per eigenvalue before giving up (LAPACK allows 30n in total). */
const MAX_QL_ITER = 60;

/**
 * Reduces the full Hermitian n x n matrix h (destroyed) to tridiagonal form
 * qᴴ h q = T. Returns T's diagonal d, subdiagonal e (e[i] = T[i+1, i], e[n-1] = 0)
 * and the reflectors H_k (acting on rows k+1..n-1) whose product is q.
 */
export function tridiagonalize(h: CMat, n: number): { d: Float64Array; e: Float64Array; hs: Reflector[] } {
  const { re, im } = h;
  const d = new Float64Array(n),
    e = new Float64Array(n);
  const hs: Reflector[] = [];
  const xr = new Float64Array(n),
    xi = new Float64Array(n);
  for (let k = 0; k + 1 < n; k++) {
    const o = k + 1,
      len = n - o;
    const r = makeReflector(re, im, o * n + k, len, n);
    hs.push(r);
    e[k] = r.beta;
    const { vr, vi, tauRe: tr, tauIm: ti } = r;
    if (tr !== 0 || ti !== 0) {
      // x = tau A22 v over the trailing block, a row at a time.
      for (let i = 0; i < len; i++) {
        const row = (o + i) * n + o;
        let sr = 0,
          si = 0;
        for (let j = 0; j < len; j++) {
          const ar = re[row + j]!,
            ai = im[row + j]!;
          sr += ar * vr[j]! - ai * vi[j]!;
          si += ar * vi[j]! + ai * vr[j]!;
        }
        xr[i] = tr * sr - ti * si;
        xi[i] = tr * si + ti * sr;
      }
      // w = x - (1/2) tau (xᴴ v) v; then A22 -= v wᴴ + w vᴴ, i.e. Hᴴ A22 H.
      let dr = 0,
        di = 0;
      for (let i = 0; i < len; i++) {
        dr += xr[i]! * vr[i]! + xi[i]! * vi[i]!;
        di += xr[i]! * vi[i]! - xi[i]! * vr[i]!;
      }
      const ar = -0.5 * (tr * dr - ti * di),
        ai = -0.5 * (tr * di + ti * dr);
      for (let i = 0; i < len; i++) {
        const pr = vr[i]!,
          pi = vi[i]!;
        xr[i] += ar * pr - ai * pi;
        xi[i] += ar * pi + ai * pr;
      }
      for (let i = 0; i < len; i++) {
        const row = (o + i) * n + o;
        const vir = vr[i]!,
          vii = vi[i]!,
          wir = xr[i]!,
          wii = xi[i]!;
        for (let j = 0; j < len; j++) {
          // v_i conj(w_j) + w_i conj(v_j)
          const wjr = xr[j]!,
            wji = xi[j]!,
            vjr = vr[j]!,
            vji = vi[j]!;
          re[row + j] -= vir * wjr + vii * wji + wir * vjr + wii * vji;
          im[row + j] -= vii * wjr - vir * wji + wii * vjr - wir * vji;
        }
      }
    }
  }
  for (let i = 0; i < n; i++) d[i] = re[i * n + i]!;
  return { d, e, hs };
}

/**
 * tql2: eigenvalues of the symmetric tridiagonal (d, e) into d, ascending;
 * with zt (n x n, identity on entry) its eigenvectors as rows. Returns info.
 */
export function tql2(d: Float64Array, e: Float64Array, n: number, zt: Float64Array | null): number {
  let f = 0,
    tst1 = 0;
  const eps = 2 ** -52;
  for (let l = 0; l < n; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l]!) + Math.abs(e[l]!));
    let m = l;
    while (m < n - 1 && !(Math.abs(e[m]!) <= eps * tst1)) m++;
    if (m > l) {
      let iter = 0;
      do {
        if (++iter > MAX_QL_ITER) return l + 1;
        let g = d[l]!;
        let p = (d[l + 1]! - g) / (2 * e[l]!);
        let r = Math.hypot(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l]! / (p + r);
        d[l + 1] = e[l]! * (p + r);
        const dl1 = d[l + 1]!;
        let h = g - d[l]!;
        for (let i = l + 2; i < n; i++) d[i] -= h;
        f += h;
        p = d[m]!;
        let c = 1,
          c2 = 1,
          c3 = 1,
          s = 0,
          s2 = 0;
        const el1 = e[l + 1]!;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i]!;
          h = c * p;
          r = Math.hypot(p, e[i]!);
          e[i + 1] = s * r;
          s = e[i]! / r;
          c = p / r;
          p = c * d[i]! - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]!);
          if (zt) {
            const a = i * n,
              bb = (i + 1) * n;
            for (let k = 0; k < n; k++) {
              const zh = zt[bb + k]!,
                zi = zt[a + k]!;
              zt[bb + k] = s * zi + c * zh;
              zt[a + k] = c * zi - s * zh;
            }
          }
        }
        p = (-s * s2 * c3 * el1 * e[l]!) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l]!) > eps * tst1);
    }
    d[l] = d[l]! + f;
    e[l] = 0;
  }
  // Selection sort: n swaps of whole rows at most.
  for (let i = 0; i < n - 1; i++) {
    let k = i;
    for (let j = i + 1; j < n; j++) if (d[j]! < d[k]!) k = j;
    if (k !== i) {
      const t = d[k]!;
      d[k] = d[i]!;
      d[i] = t;
      if (zt) {
        for (let c = 0; c < n; c++) {
          const u = zt[i * n + c]!;
          zt[i * n + c] = zt[k * n + c]!;
          zt[k * n + c] = u;
        }
      }
    }
  }
  return 0;
}

/** Eigen-decomposes a full Hermitian matrix: ascending w and, if wanted, eigenvectors as rows of vt. */
export function hermitianEigen(h: CMat, n: number, wantVectors: boolean): { w: Float64Array; vt: CMat | null; info: number } {
  const { d, e, hs } = tridiagonalize(h, n);
  let zt: Float64Array | null = null;
  if (wantVectors) {
    zt = new Float64Array(n * n);
    for (let i = 0; i < n; i++) zt[i * n + i] = 1;
  }
  const info = tql2(d, e, n, zt);
  if (!zt) return { w: d, vt: null, info };
  // Row j of vt = q z_j with q = H_0 ... H_{n-2}: apply the reflectors last to first.
  const vt = zeros(n * n);
  vt.re.set(zt);
  const { re, im } = vt;
  for (let j = 0; j < n; j++) {
    const row = j * n;
    for (let k = hs.length - 1; k >= 0; k--) {
      const { vr, vi, tauRe, tauIm } = hs[k]!;
      if (tauRe === 0 && tauIm === 0) continue;
      const o = row + k + 1;
      let sr = 0,
        si = 0;
      for (let i = 0; i < vr.length; i++) {
        const xr = re[o + i]!,
          xi = im[o + i]!;
        sr += vr[i]! * xr + vi[i]! * xi;
        si += vr[i]! * xi - vi[i]! * xr;
      }
      const qr = tauRe * sr - tauIm * si,
        qi = tauRe * si + tauIm * sr;
      for (let i = 0; i < vr.length; i++) {
        re[o + i] -= qr * vr[i]! - qi * vi[i]!;
        im[o + i] -= qr * vi[i]! + qi * vr[i]!;
      }
    }
  }
  return { w: d, vt, info };
}

export function eigh(dtype: LinalgDType, b: number, n: number, a: FloatArray, w: FloatArray, v: FloatArray | null, lower: boolean): Int32Array {
  checkArgs('eigh', dtype, { b, n });
  const sz = slots(dtype);
  const sizes = `b=${b}, n=${n}, dtype ${dtype}`;
  checkLength('eigh', 'a', a, b * n * n * sz, sizes);
  checkLength('eigh', 'w', w, b * n, sizes);
  checkLength('eigh', 'v', v, b * n * n * sz, sizes);
  const info = new Int32Array(b);
  const cplx = isComplexDType(dtype);
  for (let e = 0; e < b; e++) {
    const h = hermitianFrom(load(dtype, a, e, n * n), n, lower);
    if (!allFinite(h)) {
      // Non-finite input: NaN results flagged as not converged, never a hang.
      info[e] = 1;
      fillNaN(w, e, n);
      fillNaN(v, e, n * n * sz);
      continue;
    }
    const res = hermitianEigen(h, n, v !== null);
    info[e] = res.info;
    storeReal(w, e, res.w);
    if (v && res.vt) {
      const off = e * n * n * sz;
      const { re, im } = res.vt;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          // v[i, j] = component i of eigenvector j
          if (cplx) {
            v[off + 2 * (i * n + j)] = re[j * n + i]!;
            v[off + 2 * (i * n + j) + 1] = im[j * n + i]!;
          } else v[off + i * n + j] = re[j * n + i]!;
        }
      }
    }
  }
  return info;
}
