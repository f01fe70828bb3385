// The native sparse products (native/src/sparse): threaded CSR products on
// the addon, checked at the boundary (native-checks.ts) and again in C++.
//
// Products. spmv(A, x, y?, alpha?, beta?) computes y = alpha·A x + beta·y,
// spmm(A, X, k, ...) the same for X [cols, k] row-major, spmvH(A, x, ...)
// y = alpha·Aᴴ x + beta·y (Aᵀ for real dtypes). Vectors use A's storage
// (Float32Array for float32/complex64, Float64Array otherwise; complex
// interleaved); y is written in place and returned (a new zero array when
// omitted). alpha and beta are numbers or [re, im] for complex dtypes.
// Column indices are range-checked in C++ on every call (O(nnz)), `validated:
// true` or not (the addon does not trust it: JS may have written the array
// since it was checked). spmv checks them inside its own loop (about 15%
// faster than a separate scan) when y is fresh (omitted) or `outputScratch` says
// the caller does not need y intact when it throws; a user's y is otherwise
// untouched by a failed call. spmvDot(A, x, y) is y = A x with xᵀy returned,
// for square float64 A and scratch y (CG's q = A p and pᵀq in one pass).
//
// Async twins: spmvAsync, spmmAsync, spmvHAsync and spmvDotAsync take the same
// arguments and give the same result and typed errors as a Promise; the
// product runs on a libuv worker (native/src/binding/kernel.h) on private
// copies of the arrays, so the event loop keeps turning.

import type { CompressedArrays, ValueArray } from '../contract.js';
import { DTypeError, DeviceError, ShapeError, ValueError } from '../../tensor/errors.js';
import { MAX_I32, checkCompressed, isComplex, perOf, sparseAddon, storageOf, typeName, typedRejection, vector } from './native-checks.js';

export type Scalar = number | readonly [number, number];

function scalar(op: string, name: string, v: Scalar | undefined, dflt: number, complex: boolean): [number, number] {
  if (v === undefined) return [dflt, 0];
  if (typeof v === 'number') return [v, 0];
  if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number') {
    const [re, im] = v as readonly [number, number];
    if (!complex && im !== 0) throw new DTypeError(`${op}: ${name} must be real for a real dtype, got [${re}, ${im}]`);
    return [re, im];
  }
  throw new ValueError(`${op}: ${name} must be a number or [re, im], got ${typeName(v)}`);
}

function overlapsBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  if (a.buffer !== b.buffer) return false;
  return a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength && a.byteLength > 0 && b.byteLength > 0;
}

export interface ProductOptions {
  /** The matrix's indices were checked when it was built and have not changed: skip the O(nnz) check. */
  validated?: boolean;
  /** spmv: y is the caller's scratch, so it may be left partly written when a bad index throws (the check then runs inside the product). */
  outputScratch?: boolean;
}

type ProductOp = 'spmv' | 'spmvH' | 'spmm';
function product(op: ProductOp, a: CompressedArrays, x: ValueArray, k: number, y: ValueArray | undefined, alpha: Scalar | undefined,
  beta: Scalar | undefined, opts: ProductOptions | undefined): ValueArray;
function product(op: ProductOp, a: CompressedArrays, x: ValueArray, k: number, y: ValueArray | undefined, alpha: Scalar | undefined,
  beta: Scalar | undefined, opts: ProductOptions | undefined, async: true): Promise<ValueArray>;
function product(op: ProductOp, a: CompressedArrays, x: ValueArray, k: number, y: ValueArray | undefined, alpha: Scalar | undefined,
  beta: Scalar | undefined, opts: ProductOptions | undefined, async = false): ValueArray | Promise<ValueArray> {
  const native = sparseAddon(op);
  checkCompressed(op, a);
  const { dtype } = a;
  const [rows, cols] = a.shape;
  const per = perOf(dtype);
  const cplx = isComplex(dtype);
  const [inLen, outLen] = op === 'spmvH' ? [rows, cols] : [cols, rows];
  const X = vector(op, op === 'spmm' ? 'X' : 'x', x, dtype, inLen * k * per);
  const Y = y === undefined ? new (storageOf(dtype))(outLen * k * per) : vector(op, op === 'spmm' ? 'Y' : 'y', y, dtype, outLen * k * per);
  for (const arr of [X, a.data, a.indices, a.indptr]) if (overlapsBytes(Y, arr)) throw new ValueError(`${op}: the output overlaps an input`);
  const [ar, ai] = scalar(op, 'alpha', alpha, 1, cplx);
  const [br, bi] = scalar(op, 'beta', beta, 0, cplx);
  const validated = opts?.validated === true;
  if (op === 'spmm') {
    if (async) return typedRejection(native.sparseSpmmAsync(dtype, rows, cols, a.indptr, a.indices, a.data, validated, X, k, Y, ar, ai, br, bi));
    return native.sparseSpmm(dtype, rows, cols, a.indptr, a.indices, a.data, validated, X, k, Y, ar, ai, br, bi);
  }
  if (op === 'spmvH') {
    if (async) return typedRejection(native.sparseSpmvHAsync(dtype, rows, cols, a.indptr, a.indices, a.data, validated, X, Y, ar, ai, br, bi));
    return native.sparseSpmvH(dtype, rows, cols, a.indptr, a.indices, a.data, validated, X, Y, ar, ai, br, bi);
  }
  const check = validated ? 1 : y === undefined || opts?.outputScratch === true ? 2 : 0;
  if (async) return typedRejection(native.sparseSpmvAsync(dtype, rows, cols, a.indptr, a.indices, a.data, check, X, Y, ar, ai, br, bi));
  return native.sparseSpmv(dtype, rows, cols, a.indptr, a.indices, a.data, check, X, Y, ar, ai, br, bi);
}

/** y = alpha·A x + beta·y for CSR A (written into y, which is returned; a new array when omitted). */
export function spmv(a: CompressedArrays, x: ValueArray, y?: ValueArray, alpha?: Scalar, beta?: Scalar, opts?: ProductOptions): ValueArray {
  return product('spmv', a, x, 1, y, alpha, beta, opts);
}

/** spmv on a libuv worker: the same arguments, checks and typed errors; a Promise of y. */
export async function spmvAsync(a: CompressedArrays, x: ValueArray, y?: ValueArray, alpha?: Scalar, beta?: Scalar, opts?: ProductOptions): Promise<ValueArray> {
  return product('spmv', a, x, 1, y, alpha, beta, opts, true);
}

/** y = A x for square float64 CSR A, returning xᵀy in the same pass; y is scratch (partly written when a bad index throws). Needs a build with sparseSpmvDot. */
export function spmvDot(a: CompressedArrays, x: Float64Array, y: Float64Array): number {
  const [native, X, Y, rows, cols] = spmvDotArgs(a, x, y);
  return native.sparseSpmvDot!('float64', rows, cols, a.indptr, a.indices, a.data as Float64Array, X, Y);
}

/** spmvDot on a libuv worker: the same arguments, checks and typed errors; a Promise of xᵀy (y written when it settles). */
export async function spmvDotAsync(a: CompressedArrays, x: Float64Array, y: Float64Array): Promise<number> {
  const [native, X, Y, rows, cols] = spmvDotArgs(a, x, y);
  if (typeof native.sparseSpmvDotAsync !== 'function') throw new DeviceError('spmvDot: the native addon has no sparseSpmvDotAsync (stale build? run npm run build:native)');
  return typedRejection(native.sparseSpmvDotAsync('float64', rows, cols, a.indptr, a.indices, a.data as Float64Array, X, Y));
}

/** spmvDot's checked arguments. */
function spmvDotArgs(a: CompressedArrays, x: Float64Array, y: Float64Array): [ReturnType<typeof sparseAddon>, Float64Array, Float64Array, number, number] {
  const op = 'spmvDot';
  const native = sparseAddon(op);
  if (typeof native.sparseSpmvDot !== 'function') throw new DeviceError(`${op}: the native addon has no sparseSpmvDot (stale build? run npm run build:native)`);
  checkCompressed(op, a);
  if (a.dtype !== 'float64') throw new DTypeError(`${op}: dtype must be float64, got ${a.dtype}`);
  const [rows, cols] = a.shape;
  if (rows !== cols) throw new ShapeError(`${op}: A must be square, got ${rows}x${cols}`);
  const X = vector(op, 'x', x, 'float64', cols) as Float64Array;
  const Y = vector(op, 'y', y, 'float64', rows) as Float64Array;
  for (const arr of [X, a.data, a.indices, a.indptr]) if (overlapsBytes(Y, arr)) throw new ValueError(`${op}: the output overlaps an input`);
  return [native, X, Y, rows, cols];
}

/** Y = alpha·A X + beta·Y for CSR A, X [cols, k] and Y [rows, k] row-major. */
export function spmm(a: CompressedArrays, X: ValueArray, k: number, Y?: ValueArray, alpha?: Scalar, beta?: Scalar, opts?: ProductOptions): ValueArray {
  if (!Number.isInteger(k) || k < 0 || k > MAX_I32) throw new ShapeError(`spmm: k must be a non-negative integer, got ${String(k)}`);
  return product('spmm', a, X, k, Y, alpha, beta, opts);
}

/** spmm on a libuv worker: the same arguments, checks and typed errors; a Promise of Y. */
export async function spmmAsync(a: CompressedArrays, X: ValueArray, k: number, Y?: ValueArray, alpha?: Scalar, beta?: Scalar, opts?: ProductOptions): Promise<ValueArray> {
  if (!Number.isInteger(k) || k < 0 || k > MAX_I32) throw new ShapeError(`spmm: k must be a non-negative integer, got ${String(k)}`);
  return product('spmm', a, X, k, Y, alpha, beta, opts, true);
}

/** y = alpha·Aᴴ x + beta·y for CSR A (Aᵀ for real dtypes); x has length rows, y cols. */
export function spmvH(a: CompressedArrays, x: ValueArray, y?: ValueArray, alpha?: Scalar, beta?: Scalar, opts?: ProductOptions): ValueArray {
  return product('spmvH', a, x, 1, y, alpha, beta, opts);
}

/** spmvH on a libuv worker: the same arguments, checks and typed errors; a Promise of y. */
export async function spmvHAsync(a: CompressedArrays, x: ValueArray, y?: ValueArray, alpha?: Scalar, beta?: Scalar, opts?: ProductOptions): Promise<ValueArray> {
  return product('spmvH', a, x, 1, y, alpha, beta, opts, true);
}
