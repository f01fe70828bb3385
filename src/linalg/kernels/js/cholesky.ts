// Cholesky factorization a = l lᴴ (or uᴴ u), computed as l by rows
// (Cholesky-Crout): each entry is one contiguous dot product of two rows of l,
// which suits row-major storage. The upper factor is lᴴ of the same Hermitian
// matrix read from the upper triangle, so both variants share one loop.

import type { FloatArray, LinalgDType } from '../contract.js';
import { checkArgs, checkLength, hermitianFrom, load, slots, store, zeros, type CMat } from './io.js';

/** Factors the Hermitian n x n matrix h in place of a fresh l; returns LAPACK's info. */
export function choleskyLower(h: CMat, n: number): { l: CMat; info: number } {
  const l = zeros(n * n);
  const { re, im } = l;
  for (let j = 0; j < n; j++) {
    const rj = j * n;
    let d = h.re[rj + j]!;
    for (let k = 0; k < j; k++) d -= re[rj + k]! * re[rj + k]! + im[rj + k]! * im[rj + k]!;
    // !(d > 0) also catches NaN, as potrf does.
    if (!(d > 0)) return { l, info: j + 1 };
    const ljj = Math.sqrt(d);
    re[rj + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      const ri = i * n;
      let sr = h.re[ri + j]!,
        si = h.im[ri + j]!;
      // s -= l[i, k] conj(l[j, k])
      for (let k = 0; k < j; k++) {
        const ar = re[ri + k]!,
          ai = im[ri + k]!,
          br = re[rj + k]!,
          bi = im[rj + k]!;
        sr -= ar * br + ai * bi;
        si -= ai * br - ar * bi;
      }
      re[ri + j] = sr / ljj;
      im[ri + j] = si / ljj;
    }
  }
  return { l, info: 0 };
}

export function cholesky(dtype: LinalgDType, b: number, n: number, a: FloatArray, out: FloatArray, lower: boolean): Int32Array {
  checkArgs('cholesky', dtype, { b, n });
  const len = b * n * n * slots(dtype);
  const sizes = `b=${b}, n=${n}, dtype ${dtype}`;
  checkLength('cholesky', 'a', a, len, sizes);
  checkLength('cholesky', 'out', out, len, sizes);
  const info = new Int32Array(b);
  for (let e = 0; e < b; e++) {
    const h = hermitianFrom(load(dtype, a, e, n * n), n, lower);
    const { l, info: inf } = choleskyLower(h, n);
    info[e] = inf;
    store(dtype, out, e, n * n, lower ? l : upperOf(l, n));
  }
  return info;
}

function upperOf(l: CMat, n: number): CMat {
  const u = zeros(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      u.re[i * n + j] = l.re[j * n + i]!;
      u.im[i * n + j] = -l.im[j * n + i]!;
    }
  }
  return u;
}
