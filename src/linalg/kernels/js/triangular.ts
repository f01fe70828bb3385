// Triangular solve op(a) x = rhs by substitution. op(a) is materialized as a
// dense triangle first (transpose / conjugate applied once), so the solve is a
// single forward or backward sweep of row operations on x, whose rows are
// contiguous in row-major storage whatever k is.

import type { FloatArray, LinalgDType } from '../contract.js';
import { checkArgs, checkLength, load, slots, store, zeros, type CMat } from './io.js';

/**
 * Solves t x = x in place for the n x n triangular t (lower or upper; unit: the
 * diagonal is 1 and not read); x is n x k.
 */
export function substitute(t: CMat, n: number, x: CMat, k: number, lower: boolean, unit: boolean): void {
  const { re: xr, im: xi } = x;
  const step = lower ? 1 : -1;
  for (let s = 0, i = lower ? 0 : n - 1; s < n; s++, i += step) {
    const ri = i * k;
    // x[i, :] -= t[i, j] x[j, :] for the already solved rows j.
    for (let j = lower ? 0 : i + 1; lower ? j < i : j < n; j++) {
      const ar = t.re[i * n + j]!,
        ai = t.im[i * n + j]!;
      if (ar === 0 && ai === 0) continue;
      const rj = j * k;
      for (let c = 0; c < k; c++) {
        const br = xr[rj + c]!,
          bi = xi[rj + c]!;
        xr[ri + c] -= ar * br - ai * bi;
        xi[ri + c] -= ar * bi + ai * br;
      }
    }
    if (!unit) {
      const dr = t.re[i * n + i]!,
        di = t.im[i * n + i]!;
      // 1 / d, once per row.
      const den = dr * dr + di * di;
      const sr = dr / den,
        si = -di / den;
      if (di === 0) {
        for (let c = 0; c < k; c++) {
          xr[ri + c] /= dr;
          xi[ri + c] /= dr;
        }
      } else {
        for (let c = 0; c < k; c++) {
          const br = xr[ri + c]!,
            bi = xi[ri + c]!;
          xr[ri + c] = br * sr - bi * si;
          xi[ri + c] = br * si + bi * sr;
        }
      }
    }
  }
}

export function triangularSolve(
  dtype: LinalgDType,
  b: number,
  n: number,
  k: number,
  a: FloatArray,
  rhs: FloatArray,
  out: FloatArray,
  lower: boolean,
  trans: 0 | 1 | 2,
  unitDiagonal: boolean,
): Int32Array {
  checkArgs('triangularSolve', dtype, { b, n, k });
  if (trans !== 0 && trans !== 1 && trans !== 2) throw new Error(`linalg triangularSolve: trans must be 0, 1 or 2, got ${String(trans)}`);
  const sz = slots(dtype);
  const sizes = `b=${b}, n=${n}, k=${k}, dtype ${dtype}`;
  checkLength('triangularSolve', 'a', a, b * n * n * sz, sizes);
  checkLength('triangularSolve', 'rhs', rhs, b * n * k * sz, sizes);
  checkLength('triangularSolve', 'out', out, b * n * k * sz, sizes);
  const info = new Int32Array(b);
  for (let e = 0; e < b; e++) {
    const am = load(dtype, a, e, n * n);
    if (!unitDiagonal) {
      // trtrs checks for an exactly zero diagonal before solving and leaves x unwritten.
      let bad = 0;
      for (let i = 0; i < n && !bad; i++) if (am.re[i * n + i] === 0 && am.im[i * n + i] === 0) bad = i + 1;
      if (bad) {
        info[e] = bad;
        continue;
      }
    }
    const t = zeros(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (lower ? j > i : j < i) continue;
        const dst = trans === 0 ? i * n + j : j * n + i;
        t.re[dst] = am.re[i * n + j]!;
        t.im[dst] = trans === 2 ? -am.im[i * n + j]! : am.im[i * n + j]!;
      }
    }
    const x = load(dtype, rhs, e, n * k);
    substitute(t, n, x, k, trans === 0 ? lower : !lower, unitDiagonal);
    store(dtype, out, e, n * k, x);
  }
  return info;
}
