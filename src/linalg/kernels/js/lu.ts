// LU with partial pivoting (getf2, right-looking) and the gesv solve built on
// it. The loop order is row-major friendly: after the pivot row swap, each
// row below the pivot gets one contiguous axpy with the pivot row. Pivots are
// chosen by |re| + |im| like izamax, so the pivot sequence (and hence piv and
// perm) matches LAPACK's for complex input too.

import type { FloatArray, LinalgDType } from '../contract.js';
import { cabs1 } from './complex.js';
import { checkArgs, checkLength, load, slots, store, type CMat } from './io.js';
import { substitute } from './triangular.js';

/** Factors the m x n matrix a in place; piv gets the 0-based interchanges. Returns info. */
export function luInPlace(a: CMat, m: number, n: number, piv: Int32Array): number {
  const { re, im } = a;
  const kk = Math.min(m, n);
  let info = 0;
  for (let k = 0; k < kk; k++) {
    // i?amax: start from the first candidate and take only strictly larger ones. A NaN there
    // stays the pivot (NaN never loses or wins a comparison), so NaN propagates as with LAPACK;
    // starting from -1 instead picked a later exact 0 over a leading NaN and reported a
    // "singular" matrix for [[NaN, 0], [0, 1]].
    let p = k,
      best = cabs1(re[k * n + k]!, im[k * n + k]!);
    for (let i = k + 1; i < m; i++) {
      const v = cabs1(re[i * n + k]!, im[i * n + k]!);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[k] = p;
    const rk = k * n;
    if (re[p * n + k] === 0 && im[p * n + k] === 0) {
      // Exactly singular column: record it, keep factoring (getrf's behaviour).
      if (info === 0) info = k + 1;
      continue;
    }
    if (p !== k) {
      const rp = p * n;
      for (let j = 0; j < n; j++) {
        let t = re[rk + j]!;
        re[rk + j] = re[rp + j]!;
        re[rp + j] = t;
        t = im[rk + j]!;
        im[rk + j] = im[rp + j]!;
        im[rp + j] = t;
      }
    }
    const dr = re[rk + k]!,
      di = im[rk + k]!;
    // 1 / pivot without forming |pivot|² (which over/underflows beyond 1e±154: a
    // 1e-200 pivot gave 0 · inf = NaN multipliers); when even the reciprocal is
    // not representable, divide each entry instead (dgetf2's sfmin rule).
    const [sr, si] = reciprocal(dr, di);
    const viaRecip = Number.isFinite(sr) && Number.isFinite(si) && (sr !== 0 || si !== 0);
    for (let i = k + 1; i < m; i++) {
      const ri = i * n;
      const xr = re[ri + k]!,
        xi = im[ri + k]!;
      let lr: number, li: number;
      if (viaRecip) (lr = xr * sr - xi * si), (li = xr * si + xi * sr);
      else [lr, li] = divide(xr, xi, dr, di);
      re[ri + k] = lr;
      im[ri + k] = li;
      if (lr === 0 && li === 0) continue;
      for (let j = k + 1; j < n; j++) {
        const ur = re[rk + j]!,
          ui = im[rk + j]!;
        re[ri + j] -= lr * ur - li * ui;
        im[ri + j] -= lr * ui + li * ur;
      }
    }
  }
  return info;
}

/** 1 / (dr + i di) by Smith's scaling (exact 1 / dr for real pivots). */
function reciprocal(dr: number, di: number): [number, number] {
  if (di === 0) return [1 / dr, 0];
  if (Math.abs(dr) >= Math.abs(di)) {
    const r = di / dr,
      t = 1 / (dr + di * r);
    return [t, -r * t];
  }
  const r = dr / di,
    t = 1 / (di + dr * r);
  return [r * t, -t];
}

/** (xr + i xi) / (dr + i di) by Smith's scaling. */
function divide(xr: number, xi: number, dr: number, di: number): [number, number] {
  if (di === 0) return [xr / dr, xi / dr];
  if (Math.abs(dr) >= Math.abs(di)) {
    const r = di / dr,
      t = dr + di * r;
    return [(xr + xi * r) / t, (xi - xr * r) / t];
  }
  const r = dr / di,
    t = di + dr * r;
  return [(xr * r + xi) / t, (xi * r - xr) / t];
}

/** The row permutation the interchanges make: a[perm[i], :] = (l u)[i, :]. */
export function permFromPiv(piv: Int32Array, m: number, out: Int32Array, off: number): void {
  for (let i = 0; i < m; i++) out[off + i] = i;
  for (let i = 0; i < piv.length; i++) {
    const p = piv[i]!;
    const t = out[off + i]!;
    out[off + i] = out[off + p]!;
    out[off + p] = t;
  }
}

export function lu(dtype: LinalgDType, b: number, m: number, n: number, a: FloatArray, luOut: FloatArray, piv: Int32Array, perm: Int32Array): Int32Array {
  checkArgs('lu', dtype, { b, m, n });
  const kk = Math.min(m, n);
  const sizes = `b=${b}, m=${m}, n=${n}, dtype ${dtype}`;
  checkLength('lu', 'a', a, b * m * n * slots(dtype), sizes);
  checkLength('lu', 'lu', luOut, b * m * n * slots(dtype), sizes);
  checkLength('lu', 'piv', piv, b * kk, sizes);
  checkLength('lu', 'perm', perm, b * m, sizes);
  const info = new Int32Array(b);
  const p = new Int32Array(kk);
  for (let e = 0; e < b; e++) {
    const w = load(dtype, a, e, m * n);
    info[e] = luInPlace(w, m, n, p);
    piv.set(p, e * kk);
    permFromPiv(p, m, perm, e * m);
    store(dtype, luOut, e, m * n, w);
  }
  return info;
}

export function solve(dtype: LinalgDType, b: number, n: number, k: number, a: FloatArray, rhs: FloatArray, out: FloatArray): Int32Array {
  checkArgs('solve', dtype, { b, n, k });
  const sizes = `b=${b}, n=${n}, k=${k}, dtype ${dtype}`;
  checkLength('solve', 'a', a, b * n * n * slots(dtype), sizes);
  checkLength('solve', 'rhs', rhs, b * n * k * slots(dtype), sizes);
  checkLength('solve', 'out', out, b * n * k * slots(dtype), sizes);
  const info = new Int32Array(b);
  const p = new Int32Array(n);
  for (let e = 0; e < b; e++) {
    const w = load(dtype, a, e, n * n);
    const inf = luInPlace(w, n, n, p);
    info[e] = inf;
    // gesv leaves x unwritten when u is singular.
    if (inf > 0) continue;
    const x = load(dtype, rhs, e, n * k);
    for (let i = 0; i < n; i++) {
      const q = p[i]!;
      if (q === i) continue;
      for (let c = 0; c < k; c++) {
        let t = x.re[i * k + c]!;
        x.re[i * k + c] = x.re[q * k + c]!;
        x.re[q * k + c] = t;
        t = x.im[i * k + c]!;
        x.im[i * k + c] = x.im[q * k + c]!;
        x.im[q * k + c] = t;
      }
    }
    substitute(w, n, x, k, true, true);
    substitute(w, n, x, k, false, false);
    store(dtype, out, e, n * k, x);
  }
  return info;
}
