// Determinant and inverse kernels (the js side of the contract's det / inv),
// on the LU of lu.ts.
//
// det factors aᵀ (det(aᵀ) = det(a)) as the native kernel does (the row-major
// buffer read column-major, as SciPy's det), so exactly singular inputs give
// an exact 0 on both. inv factors a itself, so its zero pivot is the one solve
// reports. The pivots' product is kept as m · 2^e with m rescaled by powers of
// two (exact), so no intermediate product overflows or underflows.

import type { FloatArray, LinalgDType } from '../contract.js';
import { luInPlace } from './lu.js';
import { checkArgs, checkLength, identity, isComplexDType, load, slots, store, type CMat } from './io.js';
import { substitute } from './triangular.js';

/** x · 2^e for any integer e, without overflowing or underflowing an intermediate power of two. */
export function ldexp(x: number, e: number): number {
  while (e > 1000 && Number.isFinite(x) && x !== 0) (x *= 2 ** 1000), (e -= 1000);
  while (e < -1000 && Number.isFinite(x) && x !== 0) (x *= 2 ** -1000), (e += 1000);
  return x * 2 ** e;
}

/** The product of the diagonal of the n×n factor u times ±1: re, im scaled by 2^e. */
export function scaledDiagonalProduct(u: CMat, n: number, negate: boolean): { re: number; im: number; e: number } {
  let re = 1,
    im = 0,
    e = 0;
  for (let r = 0; r < n; r++) {
    const dr = u.re[r * n + r]!,
      di = u.im[r * n + r]!;
    const t = re * dr - im * di;
    im = re * di + im * dr;
    re = t;
    // Keep |m| near 1 after every factor so that m · d cannot overflow or underflow
    // for any representable pivot d (scaling by powers of two is exact).
    const big = Math.max(Math.abs(re), Math.abs(im));
    if (big > 0 && Number.isFinite(big) && (big >= 2 || big < 0.5)) {
      const k = Math.floor(Math.log2(big)) + 1;
      (re = ldexp(re, -k)), (im = ldexp(im, -k)), (e += k);
    }
  }
  return negate ? { re: -re, im: -im, e } : { re, im, e };
}

/** The transpose of the n×n matrix m. */
function transposed(m: CMat, n: number): CMat {
  const t = { re: new Float64Array(n * n), im: new Float64Array(n * n) };
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) (t.re[j * n + i] = m.re[i * n + j]!), (t.im[j * n + i] = m.im[i * n + j]!);
  return t;
}

export function det(dtype: LinalgDType, b: number, n: number, a: FloatArray, out: FloatArray, logabs: FloatArray | null): Int32Array {
  checkArgs('det', dtype, { b, n });
  const sizes = `b=${b}, n=${n}, dtype ${dtype}`;
  checkLength('det', 'a', a, b * n * n * slots(dtype), sizes);
  checkLength('det', 'out', out, b * slots(dtype), sizes);
  checkLength('det', 'logabs', logabs, b, sizes);
  const cplx = isComplexDType(dtype);
  const info = new Int32Array(b);
  const piv = new Int32Array(n);
  for (let e = 0; e < b; e++) {
    const w = transposed(load(dtype, a, e, n * n), n);
    info[e] = luInPlace(w, n, n, piv);
    let odd = false;
    for (let r = 0; r < n; r++) if (piv[r] !== r) odd = !odd;
    const p = scaledDiagonalProduct(w, n, odd);
    let re: number, im: number;
    if (!logabs) {
      (re = ldexp(p.re, p.e)), (im = ldexp(p.im, p.e));
    } else {
      const mag = Math.hypot(p.re, p.im);
      if (mag === 0) (re = 0), (im = 0), (logabs[e] = -Infinity);
      else (re = p.re / mag), (im = p.im / mag), (logabs[e] = Math.log(mag) + p.e * Math.LN2);
    }
    if (cplx) (out[2 * e] = re), (out[2 * e + 1] = im);
    else out[e] = re;
  }
  return info;
}

export function inv(dtype: LinalgDType, b: number, n: number, a: FloatArray, out: FloatArray): Int32Array {
  checkArgs('inv', dtype, { b, n });
  const sizes = `b=${b}, n=${n}, dtype ${dtype}`;
  checkLength('inv', 'a', a, b * n * n * slots(dtype), sizes);
  checkLength('inv', 'out', out, b * n * n * slots(dtype), sizes);
  const info = new Int32Array(b);
  const piv = new Int32Array(n);
  for (let e = 0; e < b; e++) {
    const w = load(dtype, a, e, n * n);
    info[e] = luInPlace(w, n, n, piv);
    if (info[e]! > 0) continue; // singular: out undefined (the op raises)
    // a⁻¹ = u⁻¹ l⁻¹ p: permute the identity's rows, then the two substitutions.
    const x = identity(n);
    for (let i = 0; i < n; i++) {
      const q = piv[i]!;
      if (q === i) continue;
      for (let c = 0; c < n; c++) {
        const t = x.re[i * n + c]!;
        x.re[i * n + c] = x.re[q * n + c]!;
        x.re[q * n + c] = t;
      }
    }
    substitute(w, n, x, n, true, true);
    substitute(w, n, x, n, false, false);
    store(dtype, out, e, n * n, x);
  }
  return info;
}
