// Least squares by SVD (the gelsd contract, computed with our Jacobi SVD):
// x = v diag(1/s_i) uᴴ rhs over the singular values above rcond · s_max, the
// minimum-norm solution, which is also right for rank-deficient a.

import type { FloatArray, LinalgDType } from '../contract.js';
import { allFinite, checkArgs, checkLength, dtypeEps, fillNaN, isComplexDType, load, slots, store, storeReal, zeros } from './io.js';
import { svdOne } from './svd.js';

export function lstsq(
  dtype: LinalgDType,
  b: number,
  m: number,
  n: number,
  k: number,
  a: FloatArray,
  rhs: FloatArray,
  x: FloatArray,
  s: FloatArray,
  rank: Int32Array,
  rcond: number,
): Int32Array {
  checkArgs('lstsq', dtype, { b, m, n, k });
  const kk = Math.min(m, n);
  const sz = slots(dtype);
  const sizes = `b=${b}, m=${m}, n=${n}, k=${k}, dtype ${dtype}`;
  checkLength('lstsq', 'a', a, b * m * n * sz, sizes);
  checkLength('lstsq', 'rhs', rhs, b * m * k * sz, sizes);
  checkLength('lstsq', 'x', x, b * n * k * sz, sizes);
  checkLength('lstsq', 's', s, b * kk, sizes);
  checkLength('lstsq', 'rank', rank, b, sizes);
  // rcond < 0 (or NaN): machine epsilon of the dtype times max(m, n), NumPy's default.
  const rc = rcond >= 0 ? rcond : dtypeEps(dtype) * Math.max(m, n);
  const cplx = isComplexDType(dtype);
  const info = new Int32Array(b);
  for (let e = 0; e < b; e++) {
    const am = load(dtype, a, e, m * n);
    const bm = load(dtype, rhs, e, m * k);
    if (!allFinite(am) || !allFinite(bm)) {
      info[e] = 1;
      fillNaN(x, e, n * k * sz);
      fillNaN(s, e, kk);
      rank[e] = 0;
      continue;
    }
    const r = svdOne(am, m, n, cplx, true, false);
    info[e] = r.info;
    storeReal(s, e, r.s);
    const u = r.u!,
      vh = r.vh!;
    const thr = rc * (kk > 0 ? r.s[0]! : 0);
    let rk = 0;
    while (rk < kk && r.s[rk]! > thr) rk++;
    rank[e] = rk;
    // c = diag(1/s) uᴴ rhs over the kept rank (rk x k), accumulated by rows of rhs.
    const c = zeros(rk * k);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < rk; j++) {
        const ur = u.re[i * kk + j]!,
          ui = -u.im[i * kk + j]!;
        for (let q = 0; q < k; q++) {
          const br = bm.re[i * k + q]!,
            bi = bm.im[i * k + q]!;
          c.re[j * k + q] += ur * br - ui * bi;
          c.im[j * k + q] += ur * bi + ui * br;
        }
      }
    }
    for (let j = 0; j < rk; j++) {
      const inv = 1 / r.s[j]!;
      for (let q = 0; q < k; q++) {
        c.re[j * k + q] *= inv;
        c.im[j * k + q] *= inv;
      }
    }
    // x = vhᴴ c
    const xm = zeros(n * k);
    for (let j = 0; j < rk; j++) {
      for (let i = 0; i < n; i++) {
        const vr = vh.re[j * n + i]!,
          vi = -vh.im[j * n + i]!;
        for (let q = 0; q < k; q++) {
          const cr = c.re[j * k + q]!,
            ci = c.im[j * k + q]!;
          xm.re[i * k + q] += vr * cr - vi * ci;
          xm.im[i * k + q] += vr * ci + vi * cr;
        }
      }
    }
    store(dtype, x, e, n * k, xm);
  }
  return info;
}
