// Storage <-> working-matrix conversion for the js linalg kernels.
//
// Every kernel computes in float64 on split (re, im) Float64Arrays, whatever the
// dtype: float32 inputs are widened on load and rounded once on store, so one
// algorithm serves all four dtypes and single precision results are as accurate
// as the float32 format allows. Real inputs get an all-zero imaginary part; the
// complex algorithms then keep it exactly zero (0 * finite = 0), so their results
// are real without a separate code path.

import type { FloatArray, LinalgDType } from '../contract.js';

export interface CMat {
  re: Float64Array;
  im: Float64Array;
}

export const isComplexDType = (d: LinalgDType): boolean => d === 'complex64' || d === 'complex128';
export const isSingleDType = (d: LinalgDType): boolean => d === 'float32' || d === 'complex64';

/** Storage slots per element: 2 for interleaved complex. */
export const slots = (d: LinalgDType): number => (isComplexDType(d) ? 2 : 1);

/** Machine epsilon (NumPy's finfo(dtype).eps) of the dtype's precision. */
export const dtypeEps = (d: LinalgDType): number => (isSingleDType(d) ? 2 ** -23 : 2 ** -52);

const DTYPES: readonly string[] = ['float32', 'float64', 'complex64', 'complex128'];

/** Contract checks shared by all kernels: a known dtype, integral sizes, right array lengths. */
export function checkArgs(kernel: string, dtype: LinalgDType, sizes: Record<string, number>): void {
  if (!DTYPES.includes(dtype)) throw new Error(`linalg ${kernel}: unknown dtype '${String(dtype)}'`);
  for (const [name, v] of Object.entries(sizes)) {
    if (!Number.isInteger(v) || v < 0) throw new Error(`linalg ${kernel}: size ${name}=${v} must be a non-negative integer`);
  }
}

export function checkLength(kernel: string, name: string, arr: ArrayLike<number> | null, expected: number, sizes: string): void {
  if (arr === null) return;
  if (arr.length !== expected) {
    throw new Error(`linalg ${kernel}: ${name} has length ${arr.length}, expected ${expected} for ${sizes}`);
  }
}

/** Loads matrix `index` of `count` elements from the storage array. */
export function load(dtype: LinalgDType, src: FloatArray, index: number, count: number): CMat {
  const re = new Float64Array(count),
    im = new Float64Array(count);
  if (isComplexDType(dtype)) {
    const off = 2 * count * index;
    for (let i = 0; i < count; i++) {
      re[i] = src[off + 2 * i]!;
      im[i] = src[off + 2 * i + 1]!;
    }
  } else {
    const off = count * index;
    for (let i = 0; i < count; i++) re[i] = src[off + i]!;
  }
  return { re, im };
}

/** Stores `count` elements as matrix `index`; the imaginary part is dropped for real dtypes. */
export function store(dtype: LinalgDType, dst: FloatArray, index: number, count: number, m: CMat): void {
  storeComplexOrReal(isComplexDType(dtype), dst, index, count, m.re, m.im);
}

export function storeComplexOrReal(complex: boolean, dst: FloatArray, index: number, count: number, re: Float64Array, im: Float64Array): void {
  if (complex) {
    const off = 2 * count * index;
    for (let i = 0; i < count; i++) {
      dst[off + 2 * i] = re[i]!;
      dst[off + 2 * i + 1] = im[i]!;
    }
  } else {
    const off = count * index;
    for (let i = 0; i < count; i++) dst[off + i] = re[i]!;
  }
}

/** Stores a real vector (eigenvalues, singular values) as entry `index`. */
export function storeReal(dst: FloatArray, index: number, values: Float64Array): void {
  dst.set(values, values.length * index);
}

export function allFinite(m: CMat): boolean {
  const { re, im } = m;
  for (let i = 0; i < re.length; i++) if (!Number.isFinite(re[i]!) || !Number.isFinite(im[i]!)) return false;
  return true;
}

/** Fills the storage of entry `index` (`len` slots) with NaN. */
export function fillNaN(dst: FloatArray | null, index: number, len: number): void {
  if (dst) dst.fill(NaN, index * len, (index + 1) * len);
}

export const zeros = (count: number): CMat => ({ re: new Float64Array(count), im: new Float64Array(count) });

export function identity(n: number, cols = n): CMat {
  const m = zeros(n * cols);
  for (let i = 0; i < Math.min(n, cols); i++) m.re[i * cols + i] = 1;
  return m;
}

/** Conjugate transpose of the r x c matrix m (c x r result). */
export function adjoint(m: CMat, r: number, c: number): CMat {
  const t = zeros(r * c);
  for (let i = 0; i < r; i++) {
    for (let j = 0; j < c; j++) {
      t.re[j * r + i] = m.re[i * c + j]!;
      t.im[j * r + i] = -m.im[i * c + j]!;
    }
  }
  return t;
}

/** The full Hermitian matrix whose `lower` (else upper) triangle is that of a; the diagonal is taken real. */
export function hermitianFrom(a: CMat, n: number, lower: boolean): CMat {
  const h = zeros(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      // (i, j) is in the lower triangle; its source is a[i, j] (lower) or conj(a[j, i]) (upper).
      const src = lower ? i * n + j : j * n + i;
      const re = a.re[src]!,
        im = lower ? a.im[src]! : -a.im[src]!;
      h.re[i * n + j] = re;
      h.im[i * n + j] = i === j ? 0 : im;
      h.re[j * n + i] = re;
      h.im[j * n + i] = i === j ? 0 : -im;
    }
  }
  return h;
}
