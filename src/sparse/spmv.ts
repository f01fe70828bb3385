// Sparse × vector and sparse × dense products on raw Float64Array vectors: the
// js reference kernels, and the slot where a native SpMV plugs in.
//
// Vectors follow RawOperator (contract.ts): Float64Array, interleaved (re, im) for
// complex dtypes; float32 matrices are applied in float64 (values are widened as
// they are read, accumulation is in double).
//
// Two loop shapes cover CSR and CSC in both directions:
//   gather:  y[i] = Σ_p op(data[p]) · x[indices[p]]   (CSR A·x, CSC Aᴴ·x)
//   scatter: y[indices[p]] += op(data[p]) · x[i]      (CSR Aᴴ·x, CSC A·x)
// where op is the identity or the complex conjugate. Each dtype gets its own
// function so V8 sees one typed-array type per loop (monomorphic, no allocation
// per row): that is what keeps the TS kernel within a small factor of C.
// Every entry point with an output refuses one that overlaps x or the matrix's
// arrays (checkProductOutput: byte ranges, O(1)).

import { kernelFamily, kernelsOn } from '../compiler/kernel-registry.js';
import type { CompressedArrays, ValueArray } from './contract.js';
import { ValueError } from '../tensor/errors.js';

// ---- output aliasing ------------------------------------------------------------

/** True when the two views share bytes of one buffer (identity alone misses subarray views). */
function overlaps(a: ArrayBufferView, b: ArrayBufferView): boolean {
  if (a.buffer !== b.buffer || a.byteLength === 0 || b.byteLength === 0) return false;
  return a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}

/**
 * Throws ValueError when `out` shares memory with x or with the matrix's arrays:
 * the kernels read x and A while they write out (gather overwrites y[i] after
 * reading part of x; scatter zeroes y first), so an overlapping out gives wrong
 * values or destroys the matrix. O(1): byte ranges of the underlying buffers,
 * as the native products check (kernels/native-products.ts).
 */
export function checkProductOutput(op: string, a: { indptr: Int32Array; indices: Int32Array; data: ValueArray }, x: ArrayBufferView, out: ArrayBufferView): void {
  const inputs: [string, ArrayBufferView][] = [['x', x], ['the matrix data', a.data], ['the matrix indices', a.indices], ['the matrix indptr', a.indptr]];
  for (const [name, arr] of inputs) {
    if (overlaps(out, arr)) throw new ValueError(`${op}: the output overlaps ${name} (bytes [${out.byteOffset}, ${out.byteOffset + out.byteLength}) and [${arr.byteOffset}, ${arr.byteOffset + arr.byteLength}) of one buffer); pass a separate out array`);
  }
}

// ---- native hook --------------------------------------------------------------

/**
 * A pluggable SpMV (e.g. the native multithreaded kernel of kernels/native.ts).
 * `csrMatvec` computes y = A·x for CSR arrays with raw vectors as above and returns
 * true, or returns false to decline (dtype or size it does not handle), in which
 * case the js kernel below runs. It must not keep references to x or y.
 * `scratch`: y is a fresh array or the caller's workspace, so when the kernel
 * throws (a bad index it checks) y may be left partly written; otherwise (a
 * user's output array) y must be untouched when it throws.
 */
export interface SpmvKernel {
  readonly name: string;
  csrMatvec(a: CompressedArrays, x: Float64Array, y: Float64Array, scratch?: boolean): boolean;
  /** Optional y = Aᴴ·x for CSR arrays; same decline protocol. */
  csrRmatvec?(a: CompressedArrays, x: Float64Array, y: Float64Array): boolean;
  /**
   * Optional y = A·x returning xᵀy, for square float64 CSR A and scratch y (CG's
   * q = A p with pᵀq in one pass); null declines. Must agree with csrMatvec + a
   * dot product up to rounding.
   */
  csrMatvecDot?(a: CompressedArrays, x: Float64Array, y: Float64Array): number | null;
}

// The SpMV kernels of the raw products are a kernel family: the native sparse
// glue registers its threaded SpMV as the 'native' device's (kernels/native.ts).
// These raw products work on host arrays, so the js loops below serve when no
// native kernel is registered (or it declines).
export const SPMV_KERNELS = kernelFamily<SpmvKernel>('sparse.spmv');
/** The native SpMV kernel, or null when only the js loops run. */
export function getSpmvKernel(): SpmvKernel | null {
  return kernelsOn('native', SPMV_KERNELS) ?? null;
}

/** y = A·x for CSR arrays (tries the installed kernel first); `scratch` as in SpmvKernel. */
export function csrMatvecRaw(a: CompressedArrays, x: Float64Array, y: Float64Array, scratch = false): Float64Array {
  checkProductOutput('csrMatvecRaw', a, x, y);
  const spmvKernel = getSpmvKernel();
  if (spmvKernel !== null && spmvKernel.csrMatvec(a, x, y, scratch)) return y;
  gather(a.shape[0], a.indptr, a.indices, a.data, a.dtype === 'complex64' || a.dtype === 'complex128', false, x, y);
  return y;
}

/** y = A·x (y scratch) and xᵀy for square float64 CSR A when the installed kernel offers the fused pass; null otherwise. */
export function csrMatvecDotRaw(a: CompressedArrays, x: Float64Array, y: Float64Array): number | null {
  checkProductOutput('csrMatvecDotRaw', a, x, y);
  const spmvKernel = getSpmvKernel();
  return spmvKernel?.csrMatvecDot ? spmvKernel.csrMatvecDot(a, x, y) : null;
}

/** y = Aᴴ·x for CSR arrays. */
export function csrRmatvecRaw(a: CompressedArrays, x: Float64Array, y: Float64Array): Float64Array {
  checkProductOutput('csrRmatvecRaw', a, x, y);
  const spmvKernel = getSpmvKernel();
  if (spmvKernel?.csrRmatvec && spmvKernel.csrRmatvec(a, x, y)) return y;
  y.fill(0);
  scatter(a.shape[0], a.indptr, a.indices, a.data, a.dtype === 'complex64' || a.dtype === 'complex128', true, x, y);
  return y;
}

/** y = A·x for CSC arrays (scatter by columns). */
export function cscMatvecRaw(a: CompressedArrays, x: Float64Array, y: Float64Array): Float64Array {
  checkProductOutput('cscMatvecRaw', a, x, y);
  y.fill(0);
  scatter(a.shape[1], a.indptr, a.indices, a.data, a.dtype === 'complex64' || a.dtype === 'complex128', false, x, y);
  return y;
}

/** y = Aᴴ·x for CSC arrays (gather by columns). */
export function cscRmatvecRaw(a: CompressedArrays, x: Float64Array, y: Float64Array): Float64Array {
  checkProductOutput('cscRmatvecRaw', a, x, y);
  gather(a.shape[1], a.indptr, a.indices, a.data, a.dtype === 'complex64' || a.dtype === 'complex128', true, x, y);
  return y;
}

// ---- dispatch to monomorphic loops -----------------------------------------------

export function gather(major: number, ip: Int32Array, ix: Int32Array, d: ValueArray, cplx: boolean, conj: boolean, x: Float64Array, y: Float64Array): void {
  if (!cplx) {
    if (d instanceof Float64Array) gatherF64(major, ip, ix, d, x, y);
    else gatherF32(major, ip, ix, d, x, y);
  } else {
    const s = conj ? -1 : 1;
    if (d instanceof Float64Array) gatherC128(major, ip, ix, d, s, x, y);
    else gatherC64(major, ip, ix, d, s, x, y);
  }
}

export function scatter(major: number, ip: Int32Array, ix: Int32Array, d: ValueArray, cplx: boolean, conj: boolean, x: Float64Array, y: Float64Array): void {
  if (!cplx) {
    if (d instanceof Float64Array) scatterF64(major, ip, ix, d, x, y);
    else scatterF32(major, ip, ix, d, x, y);
  } else {
    const s = conj ? -1 : 1;
    if (d instanceof Float64Array) scatterC128(major, ip, ix, d, s, x, y);
    else scatterC64(major, ip, ix, d, s, x, y);
  }
}

function gatherF64(major: number, ip: Int32Array, ix: Int32Array, d: Float64Array, x: Float64Array, y: Float64Array): void {
  let p = ip[0]!;
  for (let i = 0; i < major; i++) {
    const e = ip[i + 1]!;
    let s = 0;
    for (; p < e; p++) s += d[p]! * x[ix[p]!]!;
    y[i] = s;
  }
}
function gatherF32(major: number, ip: Int32Array, ix: Int32Array, d: Float32Array, x: Float64Array, y: Float64Array): void {
  let p = ip[0]!;
  for (let i = 0; i < major; i++) {
    const e = ip[i + 1]!;
    let s = 0;
    for (; p < e; p++) s += d[p]! * x[ix[p]!]!;
    y[i] = s;
  }
}
// sgn = -1 multiplies by conj(a): (ar - i·ai)(xr + i·xi).
function gatherC128(major: number, ip: Int32Array, ix: Int32Array, d: Float64Array, sgn: number, x: Float64Array, y: Float64Array): void {
  let p = ip[0]!;
  for (let i = 0; i < major; i++) {
    const e = ip[i + 1]!;
    let sr = 0,
      si = 0;
    for (; p < e; p++) {
      const ar = d[2 * p]!,
        ai = sgn * d[2 * p + 1]!,
        j = 2 * ix[p]!;
      const xr = x[j]!,
        xi = x[j + 1]!;
      sr += ar * xr - ai * xi;
      si += ar * xi + ai * xr;
    }
    y[2 * i] = sr;
    y[2 * i + 1] = si;
  }
}
function gatherC64(major: number, ip: Int32Array, ix: Int32Array, d: Float32Array, sgn: number, x: Float64Array, y: Float64Array): void {
  let p = ip[0]!;
  for (let i = 0; i < major; i++) {
    const e = ip[i + 1]!;
    let sr = 0,
      si = 0;
    for (; p < e; p++) {
      const ar = d[2 * p]!,
        ai = sgn * d[2 * p + 1]!,
        j = 2 * ix[p]!;
      const xr = x[j]!,
        xi = x[j + 1]!;
      sr += ar * xr - ai * xi;
      si += ar * xi + ai * xr;
    }
    y[2 * i] = sr;
    y[2 * i + 1] = si;
  }
}
function scatterF64(major: number, ip: Int32Array, ix: Int32Array, d: Float64Array, x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < major; i++) {
    const xi = x[i]!;
    if (xi === 0) continue;
    for (let p = ip[i]!, e = ip[i + 1]!; p < e; p++) y[ix[p]!]! += d[p]! * xi;
  }
}
function scatterF32(major: number, ip: Int32Array, ix: Int32Array, d: Float32Array, x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < major; i++) {
    const xi = x[i]!;
    if (xi === 0) continue;
    for (let p = ip[i]!, e = ip[i + 1]!; p < e; p++) y[ix[p]!]! += d[p]! * xi;
  }
}
function scatterC128(major: number, ip: Int32Array, ix: Int32Array, d: Float64Array, sgn: number, x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < major; i++) {
    const xr = x[2 * i]!,
      xi = x[2 * i + 1]!;
    for (let p = ip[i]!, e = ip[i + 1]!; p < e; p++) {
      const ar = d[2 * p]!,
        ai = sgn * d[2 * p + 1]!,
        j = 2 * ix[p]!;
      y[j]! += ar * xr - ai * xi;
      y[j + 1]! += ar * xi + ai * xr;
    }
  }
}
function scatterC64(major: number, ip: Int32Array, ix: Int32Array, d: Float32Array, sgn: number, x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < major; i++) {
    const xr = x[2 * i]!,
      xi = x[2 * i + 1]!;
    for (let p = ip[i]!, e = ip[i + 1]!; p < e; p++) {
      const ar = d[2 * p]!,
        ai = sgn * d[2 * p + 1]!,
        j = 2 * ix[p]!;
      y[j]! += ar * xr - ai * xi;
      y[j + 1]! += ar * xi + ai * xr;
    }
  }
}

/**
 * Y = A·X for CSR arrays and a row-major dense X of `k` columns (lanes 1 or 2, the
 * same for A's data, X and Y: the caller promotes). Each row of A accumulates
 * a_ij·X[j, :] into Y[i, :], which walks X by rows (cache friendly for row-major).
 */
export function csrMatmulDense(m: number, ip: Int32Array, ix: Int32Array, d: ValueArray, lanes: 1 | 2, X: Float64Array, k: number, Y: Float64Array): void {
  for (let i = 0; i < m; i++) {
    const yo = i * k * lanes;
    for (let p = ip[i]!, e = ip[i + 1]!; p < e; p++) {
      const xo = ix[p]! * k * lanes;
      if (lanes === 1) {
        const a = d[p]!;
        for (let c = 0; c < k; c++) Y[yo + c]! += a * X[xo + c]!;
      } else {
        const ar = d[2 * p]!,
          ai = d[2 * p + 1]!;
        for (let c = 0; c < 2 * k; c += 2) {
          const xr = X[xo + c]!,
            xi = X[xo + c + 1]!;
          Y[yo + c]! += ar * xr - ai * xi;
          Y[yo + c + 1]! += ar * xi + ai * xr;
        }
      }
    }
  }
}
