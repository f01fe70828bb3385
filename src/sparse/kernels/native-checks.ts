// The sparse module's boundary with the native addon (native/src/sparse): the
// addon with its sparse functions, and the argument checks shared by the
// products (native-products.ts) and the direct solvers (native-direct.ts).
// The TS half of the boundary: every argument is checked here (shapes, dtypes,
// lengths, indptr) and again in C++, so a bad call throws a typed error and
// never reaches memory it should not.

import type { CompressedArrays, SparseDType, ValueArray } from '../contract.js';
import { DTypeError, DeviceError, ShapeError, ValueError } from '../../tensor/errors.js';
import { requireNativeAddon, type NativeAddon } from '../../backends/native/addon.js';
import { nativeError, typedAddon } from '../../backends/native/errors.js';

const DTYPES: readonly SparseDType[] = ['float32', 'float64', 'complex64', 'complex128'];
export const isComplex = (d: SparseDType) => d === 'complex64' || d === 'complex128';
export const storageOf = (d: SparseDType) => (d === 'float32' || d === 'complex64' ? Float32Array : Float64Array);
export const perOf = (d: SparseDType) => (isComplex(d) ? 2 : 1);
export const MAX_I32 = 2 ** 31 - 1;

/** The loaded addon, typed (its throws become typed errors); a DeviceError naming `op` when it has no sparse kernels. */
export function sparseAddon(op: string): NativeAddon {
  const a = requireNativeAddon();
  // kluFactor, not umfpackFactor: an addon may be built without UMFPACK (GPL; native-direct.ts).
  if (typeof a.sparseSpmv !== 'function' || typeof a.kluFactor !== 'function') {
    throw new DeviceError(`${op}: the native addon has no sparse kernels (stale build? run npm run build:native)`);
  }
  return typedAddon(a); // whatever the addon still throws becomes a typed error (errors.ts)
}

/** `p` with its rejection (an addon error) as a typed error, as typedAddon does for a throw. */
export function typedRejection<T>(p: Promise<T>): Promise<T> {
  return p.catch((e: unknown) => {
    throw nativeError('', e);
  });
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (ArrayBuffer.isView(v)) return v.constructor.name;
  return Array.isArray(v) ? 'Array' : typeof v;
}

/**
 * Checks the compressed arrays' shape, dtype, array types and lengths, indptr's
 * ends (indptr[0] = 0, indptr[rows] = indices.length) in O(1); with `full` also
 * that indptr is non-decreasing and every index is in range (O(rows + nnz)).
 * The products pass full = false: the addon checks indptr in O(rows) on every
 * call, and the indices unless `validated`. Returns nnz.
 */
export function checkCompressed(op: string, a: CompressedArrays, full = false): number {
  if (typeof a !== 'object' || a === null) throw new ValueError(`${op}: the matrix must be CompressedArrays, got ${typeName(a)}`);
  const { shape, dtype, indptr, indices, data } = a;
  if (!Array.isArray(shape) || shape.length !== 2 || !shape.every((d) => Number.isInteger(d) && d >= 0 && d <= MAX_I32)) {
    throw new ShapeError(`${op}: shape must be [rows, cols] of integers in [0, 2^31 - 1], got ${JSON.stringify(shape)}`);
  }
  if (!DTYPES.includes(dtype)) throw new DTypeError(`${op}: dtype must be one of ${DTYPES.join(', ')}, got ${String(dtype)}`);
  const [rows, cols] = shape;
  if (rows >= MAX_I32) throw new ShapeError(`${op}: too many rows (${rows})`);
  if (!(indptr instanceof Int32Array)) throw new DTypeError(`${op}: indptr must be an Int32Array, got ${typeName(indptr)}`);
  if (!(indices instanceof Int32Array)) throw new DTypeError(`${op}: indices must be an Int32Array, got ${typeName(indices)}`);
  const Storage = storageOf(dtype);
  if (!(data instanceof Storage)) throw new DTypeError(`${op}: data must be a ${Storage.name} for dtype ${dtype}, got ${typeName(data)}`);
  if (indptr.length !== rows + 1) throw new ShapeError(`${op}: indptr must have length rows + 1 = ${rows + 1}, got ${indptr.length}`);
  if (indptr[0] !== 0) throw new ValueError(`${op}: indptr[0] must be 0, got ${indptr[0]}`);
  const nnz = indptr[rows]!;
  if (indices.length !== nnz) throw new ShapeError(`${op}: indices must have length nnz = indptr[rows] = ${nnz}, got ${indices.length}`);
  if (data.length !== nnz * perOf(dtype)) throw new ShapeError(`${op}: data must have length ${nnz * perOf(dtype)} (nnz${isComplex(dtype) ? ' · 2' : ''}), got ${data.length}`);
  if (full) {
    for (let r = 0; r < rows; r++) {
      if (indptr[r + 1]! < indptr[r]!) throw new ValueError(`${op}: indptr must be non-decreasing: indptr[${r + 1}] = ${indptr[r + 1]} < indptr[${r}] = ${indptr[r]}`);
    }
    for (let k = 0; k < nnz; k++) {
      const j = indices[k]!;
      if (j < 0 || j >= cols) throw new ValueError(`${op}: indices[${k}] = ${j} is outside [0, cols = ${cols})`);
    }
  }
  return nnz;
}

/** `v` as a vector of `length` values in the dtype's storage; a typed error naming `name` otherwise. */
export function vector(op: string, name: string, v: unknown, dtype: SparseDType, length: number): ValueArray {
  const Storage = storageOf(dtype);
  if (!(v instanceof Storage)) throw new DTypeError(`${op}: ${name} must be a ${Storage.name} for dtype ${dtype}, got ${typeName(v)}`);
  if (v.length !== length) throw new ShapeError(`${op}: ${name} must have length ${length}, got ${v.length}`);
  return v;
}
