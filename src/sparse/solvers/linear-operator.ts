// LinearOperator and aslinearoperator: everything the solvers accept as A (and M)
// is turned into one RawOperator here, so the solvers see a single contract.
//
// Accepted: a LinearOperator or any RawOperator (an object with shape, dtype and
// matvec, e.g. the CsrMatrix class); CSR arrays {indptr, indices, data, shape,
// dtype?, format?: 'csr' | 'csc'}; a dense 2-D rlx Tensor (or nested number
// arrays), applied as a dense row-major matvec. Vectors are Float64Array, complex
// interleaved (length 2n), per src/sparse/contract.ts.

import type { CompressedArrays, RawOperator, RawPreconditioner, SparseDType } from '../contract.js';
import { Tensor } from '../../tensor/tensor.js';
import { ShapeError, ValueError, DTypeError } from '../../tensor/errors.js';
import { checkCompressed, csrMatvec, csrRmatvec, isComplexDType } from './csr-kernels.js';

export type MatvecFn = (x: Float64Array) => Float64Array;

export interface LinearOperatorSpec {
  shape: readonly [number, number] | readonly number[];
  /** default 'float64'; complex dtypes take and return interleaved vectors of length 2n. */
  dtype?: SparseDType;
  matvec: MatvecFn;
  /** Aᴴ x; optional (needed only by solvers/tools that use the adjoint). */
  rmatvec?: MatvecFn;
}

/**
 * A user-defined linear map given by its action (SciPy's LinearOperator).
 * @example
 * ```ts
 * // x ↦ 2x without storing a matrix
 * const op = new sparse.LinearOperator({ shape: [3, 3], matvec: (x) => x.map((v) => 2 * v) });
 * sparse.cg(op, [2, 4, 6]).x.tolist();   // [1, 2, 3]
 * ```
 */
export class LinearOperator implements RawOperator {
  readonly shape: [number, number];
  readonly dtype: SparseDType;
  readonly rmatvec?: (x: Float64Array, out?: Float64Array) => Float64Array;
  private readonly mv: MatvecFn;

  constructor(spec: LinearOperatorSpec) {
    const s = spec.shape;
    if (s.length !== 2 || !s.every((d) => Number.isInteger(d) && d >= 0)) throw new ShapeError(`LinearOperator: shape must be two non-negative integers, got [${s.join(', ')}]`);
    if (typeof spec.matvec !== 'function') throw new ValueError('LinearOperator: matvec must be a function (x: Float64Array) => Float64Array');
    this.shape = [s[0]!, s[1]!];
    this.dtype = spec.dtype ?? 'float64';
    if (!['float32', 'float64', 'complex64', 'complex128'].includes(this.dtype)) throw new DTypeError(`LinearOperator: dtype ${this.dtype} is not one of float32, float64, complex64, complex128`);
    this.mv = spec.matvec;
    const rmv = spec.rmatvec;
    if (rmv) this.rmatvec = (x, out) => this.check('rmatvec', rmv(x), this.shape[1], out);
  }

  matvec(x: Float64Array, out?: Float64Array): Float64Array {
    return this.check('matvec', this.mv(x), this.shape[0], out);
  }

  private check(who: string, y: Float64Array, rows: number, out?: Float64Array): Float64Array {
    const len = (isComplexDType(this.dtype) ? 2 : 1) * rows;
    if (!y || y.length !== len) throw new ShapeError(`LinearOperator.${who}: returned ${y?.length} values, expected ${len} (${this.dtype}, ${rows} rows)`);
    if (out && out !== y) {
      out.set(y);
      return out;
    }
    return y;
  }
}

/** CSR (or CSC) arrays as the solvers accept them; dtype is inferred from data when absent. */
export interface CsrLike {
  shape: readonly number[];
  indptr: Int32Array;
  indices: Int32Array;
  data: Float32Array | Float64Array;
  dtype?: SparseDType;
  format?: 'csr' | 'csc';
}

export type OperatorLike = RawOperator | CsrLike | Tensor | readonly (readonly number[])[];

interface SparseMatrixLike {
  format: 'csr' | 'csc' | 'coo';
  shape: [number, number];
  dtype: SparseDType;
  indptr?: Int32Array;
  indices?: Int32Array;
  data: Float32Array | Float64Array;
  tocsr(): SparseMatrixLike;
}
/** The matrices of rlx.sparse (recognized by shape, not imported: the formats sit above the solvers). */
const isSparseMatrix = (a: unknown): a is SparseMatrixLike => typeof a === 'object' && a !== null && ['csr', 'csc', 'coo'].includes((a as SparseMatrixLike).format) && typeof (a as SparseMatrixLike).tocsr === 'function';
const isRawOperator = (a: unknown): a is RawOperator => typeof a === 'object' && a !== null && typeof (a as RawOperator).matvec === 'function' && Array.isArray((a as RawOperator).shape);
const isCsrLike = (a: unknown): a is CsrLike => typeof a === 'object' && a !== null && (a as CsrLike).indptr instanceof Int32Array && (a as CsrLike).indices instanceof Int32Array;

/**
 * Turns A into a RawOperator (LinearOperator instances and RawOperators come back as they are).
 * @example
 * ```ts
 * const op = sparse.aslinearoperator(tensor([[1, 2], [3, 4]]));
 * op.shape;                              // [2, 2]
 * op.matvec(new Float64Array([1, 1]));   // Float64Array [3, 7]
 * ```
 */
export function aslinearoperator(A: OperatorLike): RawOperator {
  if (A instanceof LinearOperator) return A;
  if (A instanceof Tensor) return denseOperator(A);
  // A sparse matrix (whose matvec takes and returns Tensors): its arrays, values read as numbers.
  if (isSparseMatrix(A)) {
    const M = A.format === 'coo' ? A.tocsr() : A;
    return csrOperator({ shape: M.shape, dtype: M.dtype, indptr: M.indptr!, indices: M.indices!, data: M.data, format: M.format as 'csr' | 'csc' });
  }
  if (isRawOperator(A)) {
    if (A.shape.length !== 2) throw new ShapeError(`aslinearoperator: operator shape must have 2 dims, got [${A.shape.join(', ')}]`);
    return A;
  }
  if (isCsrLike(A)) return csrOperator(A);
  if (Array.isArray(A)) return denseOperator(A as readonly (readonly number[])[]);
  throw new ValueError('aslinearoperator: expected a LinearOperator/RawOperator, CSR arrays {indptr, indices, data, shape}, a 2-D Tensor or nested number arrays');
}

/** The CSR arrays behind the operators csrOperator made (checked there). */
const csrOperators = new WeakMap<RawOperator, CompressedArrays>();
/** The CSC arrays behind csc-format operators (stored as the CSR arrays of Aᵀ), for storedValuesOf. */
const cscOperators = new WeakMap<RawOperator, CompressedArrays>();
/** The row-major values behind the dense operators (copies made here), for storedValuesOf. */
const denseOperators = new WeakMap<RawOperator, { vals: Float64Array; cols: number; cplx: boolean }>();

/**
 * The stored values of an operator, when they are known, for the solvers'
 * finiteness check: `at(k)` turns the k-th stored value (complex: the k-th
 * pair) into its [row, col] in A. null for an operator known only by its
 * action (a user LinearOperator or RawOperator).
 */
export function storedValuesOf(op: RawOperator): { data: ArrayLike<number>; count: number; cplx: boolean; at(k: number): [number, number] } | null {
  const cplx = isComplexDType(op.dtype);
  const dense = denseOperators.get(op);
  if (dense) return { data: dense.vals, count: dense.vals.length / (dense.cplx ? 2 : 1), cplx: dense.cplx, at: (k) => [Math.floor(k / dense.cols), k % dense.cols] };
  const m = op as RawOperator & Partial<CompressedArrays> & { format?: unknown };
  let arrays = csrOperators.get(op) ?? null,
    transposed = false;
  if (!arrays && cscOperators.has(op)) [arrays, transposed] = [cscOperators.get(op)!, true];
  if (!arrays && (m.format === 'csr' || m.format === 'csc') && m.indptr instanceof Int32Array && m.indices instanceof Int32Array && m.data) {
    arrays = m as CompressedArrays;
    transposed = m.format === 'csc';
  }
  if (!arrays) return null;
  const { indptr, indices } = arrays;
  const count = indptr[indptr.length - 1]!;
  return {
    data: arrays.data,
    count,
    cplx,
    at(k) {
      // the major index: the last row (column) whose range starts at or before k
      let lo = 0,
        hi = indptr.length - 2;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (indptr[mid]! <= k) lo = mid;
        else hi = mid - 1;
      }
      return transposed ? [indices[k]!, lo] : [lo, indices[k]!];
    },
  };
}

/**
 * The CSR arrays whose product `op.matvec` is, when the solvers may call the
 * raw CSR kernels directly (scratch outputs, the fused CG pass): an operator
 * made here from CSR arrays, or a CsrMatrix (format 'csr', it routes matvec
 * through the same kernel); null for anything else.
 */
export function csrArraysOf(op: RawOperator): CompressedArrays | null {
  const known = csrOperators.get(op);
  if (known) return known;
  const m = op as RawOperator & Partial<CompressedArrays> & { format?: unknown };
  if (m.format === 'csr' && m.indptr instanceof Int32Array && m.indices instanceof Int32Array) return m as CompressedArrays;
  return null;
}

function csrOperator(A: CsrLike): RawOperator {
  if (A.shape.length !== 2) throw new ShapeError(`aslinearoperator: CSR shape must have 2 dims, got [${A.shape.join(', ')}]`);
  const nnz = A.indices.length;
  const dtype: SparseDType = A.dtype ?? (A.data.length === 2 * nnz && nnz > 0 ? (A.data instanceof Float32Array ? 'complex64' : 'complex128') : A.data instanceof Float32Array ? 'float32' : 'float64');
  const [r, c] = [A.shape[0]!, A.shape[1]!];
  // CSC arrays of A are the CSR arrays of Aᵀ: swap the kernels (conjugating twice for complex).
  const csc = A.format === 'csc';
  const arrays: CompressedArrays = { shape: csc ? [c, r] : [r, c], dtype, indptr: A.indptr, indices: A.indices, data: A.data };
  checkCompressed(arrays, 'aslinearoperator');
  const cplx = isComplexDType(dtype);
  if (!csc) {
    const op: RawOperator = { shape: [r, c], dtype, matvec: (x, out) => csrMatvec(arrays, x, out), rmatvec: (x, out) => csrRmatvec(arrays, x, out) };
    csrOperators.set(op, arrays);
    return op;
  }
  // A x = (Aᵀ)ᵀ x = conj((Aᵀ)ᴴ conj(x)).
  const conjv = (x: Float64Array): Float64Array => {
    if (!cplx) return x;
    const y = x.slice();
    for (let i = 1; i < y.length; i += 2) y[i] = -y[i]!;
    return y;
  };
  const op: RawOperator = {
    shape: [r, c],
    dtype,
    matvec: (x, out) => {
      const y = csrRmatvec(arrays, conjv(x), out);
      if (cplx) for (let i = 1; i < y.length; i += 2) y[i] = -y[i]!;
      return y;
    },
    rmatvec: (x, out) => {
      const y = csrMatvec(arrays, conjv(x), out);
      if (cplx) for (let i = 1; i < y.length; i += 2) y[i] = -y[i]!;
      return y;
    },
  };
  cscOperators.set(op, arrays);
  return op;
}

function denseOperator(A: Tensor | readonly (readonly number[])[]): RawOperator {
  let m: number, n: number, vals: Float64Array, dtype: SparseDType;
  if (A instanceof Tensor) {
    if (A.ndim !== 2) throw new ShapeError(`aslinearoperator: a dense Tensor must be 2-D, got shape [${A.shape.join(', ')}]`);
    [m, n] = A.shape as [number, number];
    const d = A.dtype;
    dtype = d === 'complex64' || d === 'complex128' ? 'complex128' : 'float64';
    vals = Float64Array.from(A.toArray() as ArrayLike<number>); // copy, float64 (f32/ints widened)
  } else {
    m = A.length;
    n = m ? A[0]!.length : 0;
    if (!A.every((row) => row.length === n)) throw new ShapeError('aslinearoperator: nested arrays are ragged');
    dtype = 'float64';
    vals = Float64Array.from(A.flat());
  }
  const cplx = dtype === 'complex128';
  const rowmajor = (x: Float64Array, out?: Float64Array): Float64Array => {
    const y = out ?? new Float64Array((cplx ? 2 : 1) * m);
    for (let i = 0; i < m; i++) {
      let sr = 0,
        si = 0;
      if (!cplx) {
        for (let j = 0; j < n; j++) sr += vals[i * n + j]! * x[j]!;
        y[i] = sr;
      } else {
        for (let j = 0; j < n; j++) {
          const ar = vals[2 * (i * n + j)]!,
            ai = vals[2 * (i * n + j) + 1]!;
          sr += ar * x[2 * j]! - ai * x[2 * j + 1]!;
          si += ar * x[2 * j + 1]! + ai * x[2 * j]!;
        }
        y[2 * i] = sr;
        y[2 * i + 1] = si;
      }
    }
    return y;
  };
  const adjoint = (x: Float64Array, out?: Float64Array): Float64Array => {
    const y = out ?? new Float64Array((cplx ? 2 : 1) * n);
    y.fill(0);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        if (!cplx) y[j]! += vals[i * n + j]! * x[i]!;
        else {
          const ar = vals[2 * (i * n + j)]!,
            ai = -vals[2 * (i * n + j) + 1]!;
          y[2 * j]! += ar * x[2 * i]! - ai * x[2 * i + 1]!;
          y[2 * j + 1]! += ar * x[2 * i + 1]! + ai * x[2 * i]!;
        }
      }
    }
    return y;
  };
  const op: RawOperator = { shape: [m, n], dtype, matvec: rowmajor, rmatvec: adjoint };
  denseOperators.set(op, { vals, cols: n, cplx });
  return op;
}

/** What solvers accept as M: a RawPreconditioner ({shape, apply}) or anything aslinearoperator takes (applied as M⁻¹ ≈ A⁻¹). */
export type PreconditionerLike = RawPreconditioner | OperatorLike;

/** A RawPreconditioner with an optional dtype: the ones built here say whether they are real. */
export interface TypedPreconditioner extends RawPreconditioner {
  dtype?: SparseDType;
}

export const isPreconditioner = (m: unknown): m is RawPreconditioner => typeof m === 'object' && m !== null && typeof (m as RawPreconditioner).apply === 'function';
