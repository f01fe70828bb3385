// Householder QR (geqr2 + ung2r). Column i is reduced by the zlarfg reflector
// Hᴴ (beta real, beta = -sign(Re a_ii) ‖a[i:, i]‖), so r's diagonal carries
// LAPACK's signs rather than being normalized positive, exactly as NumPy
// returns it. q = H_0 H_1 ... H_{kk-1} applied to the first columns of the
// identity, accumulated backwards so each reflector only touches the trailing
// block it acts on.

import type { FloatArray, LinalgDType } from '../contract.js';
import { applyLeft, makeReflector, type Reflector } from './complex.js';
import { checkArgs, checkLength, identity, load, slots, storeComplexOrReal, zeros, isComplexDType, type CMat } from './io.js';

/** Reduces the m x n matrix a in place to r (upper part); returns the reflectors. */
export function householderQr(a: CMat, m: number, n: number): Reflector[] {
  const kk = Math.min(m, n);
  const work = zeros(n);
  const hs: Reflector[] = [];
  for (let i = 0; i < kk; i++) {
    const h = makeReflector(a.re, a.im, i * n + i, m - i, n);
    hs.push(h);
    applyLeft(a, n, i, i + 1, n, h, h.tauRe, -h.tauIm, work);
    a.re[i * n + i] = h.beta;
    a.im[i * n + i] = 0;
    for (let r = i + 1; r < m; r++) {
      a.re[r * n + i] = 0;
      a.im[r * n + i] = 0;
    }
  }
  return hs;
}

/** The first `cols` columns of H_0 ... H_{k-1} (m x cols). */
export function formQ(hs: Reflector[], m: number, cols: number): CMat {
  const q = identity(m, cols);
  const work = zeros(cols);
  for (let i = hs.length - 1; i >= 0; i--) {
    const h = hs[i]!;
    // Columns j < i are still e_j here, zero in the rows H_i touches.
    applyLeft(q, cols, i, i, cols, h, h.tauRe, h.tauIm, work);
  }
  return q;
}

export function qr(dtype: LinalgDType, b: number, m: number, n: number, a: FloatArray, q: FloatArray | null, r: FloatArray, complete: boolean): Int32Array {
  checkArgs('qr', dtype, { b, m, n });
  const kk = Math.min(m, n);
  const sz = slots(dtype);
  const qCols = complete ? m : kk;
  const rRows = complete ? m : kk;
  const sizes = `b=${b}, m=${m}, n=${n}, complete=${complete}, dtype ${dtype}`;
  checkLength('qr', 'a', a, b * m * n * sz, sizes);
  checkLength('qr', 'q', q, b * m * qCols * sz, sizes);
  checkLength('qr', 'r', r, b * rRows * n * sz, sizes);
  const cplx = isComplexDType(dtype);
  for (let e = 0; e < b; e++) {
    const w = load(dtype, a, e, m * n);
    const hs = householderQr(w, m, n);
    // r = the first rRows rows of the reduced a (rows >= kk are zero already).
    const rr = w.re.subarray(0, rRows * n),
      ri = w.im.subarray(0, rRows * n);
    storeComplexOrReal(cplx, r, e, rRows * n, rr, ri);
    if (q) {
      const qm = formQ(hs, m, qCols);
      storeComplexOrReal(cplx, q, e, m * qCols, qm.re, qm.im);
    }
  }
  return new Int32Array(b);
}
