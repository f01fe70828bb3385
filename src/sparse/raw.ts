// sparse.raw: the Float64Array fast paths, holding no Tensor at all. Products
// and Krylov solves on raw vectors (float64, complex interleaved re, im), for
// code that manages its own buffers (a time-stepping loop reusing `out`).
// Everything here reads a matrix's values as numbers: nothing is
// differentiable; the Tensor API (A.matvec, sparse.cg, ...) is.

import type { RawOperator } from './contract.js';
import { CompressedMatrix, isSparse, type SparseMatrix } from './base.js';
import { cg as cgRaw, bicgstab as bicgstabRaw, gmres as gmresRaw, minres as minresRaw } from './solvers/index.js';
import { eigshArrays } from './eigsh.js';
import type { OperatorLike, SolveOptions, SolveResult, GmresOptions, EigshOptions, EigshResult, PreconditionerLike } from './solvers/index.js';
import { ValueError } from '../tensor/errors.js';

/**
 * A sparse matrix as the arrays the raw solvers take (CSR or CSC, values as numbers); anything else as it is.
 * @example
 * ```ts
 * const arrays = sparse.raw.toRawOperand(sparse.eye(2).tocsc()) as { format: string; indptr: Int32Array };
 * arrays.format;                    // 'csc'
 * Array.from(arrays.indptr);        // [0, 1, 2]
 * ```
 */
export function toRawOperand(A: unknown): unknown {
  if (!isSparse(A)) return A;
  const M = (A instanceof CompressedMatrix ? A : (A as SparseMatrix).tocsr()) as CompressedMatrix;
  return { shape: M.shape, dtype: M.dtype, indptr: M.indptr, indices: M.indices, data: M.data, format: M.format };
}

function compressed(op: string, A: SparseMatrix): CompressedMatrix {
  if (!isSparse(A)) throw new ValueError(`sparse.raw.${op}: A must be a sparse matrix`);
  return (A instanceof CompressedMatrix ? A : A.tocsr()) as CompressedMatrix;
}

/**
 * y = A·x on raw vectors (length n, 2n interleaved for complex); `out` is reused when given.
 * @example
 * ```ts
 * sparse.raw.matvec(sparse.fromDense([[1, 2], [3, 4]]), new Float64Array([1, 1]));   // Float64Array [3, 7]
 * ```
 */
export function matvec(A: SparseMatrix, x: Float64Array, out?: Float64Array): Float64Array {
  return compressed('matvec', A).matvecRaw(x, out);
}
/**
 * y = Aᴴ·x on raw vectors.
 * @example
 * ```ts
 * sparse.raw.rmatvec(sparse.fromDense([[1, 2], [3, 4]]), new Float64Array([1, 1]));   // Float64Array [4, 6]  (Aᵀx)
 * ```
 */
export function rmatvec(A: SparseMatrix, x: Float64Array, out?: Float64Array): Float64Array {
  return compressed('rmatvec', A).rmatvecRaw(x, out);
}

type RawA = OperatorLike | SparseMatrix;
type RawOpts = Omit<SolveOptions, 'M'> & { M?: PreconditionerLike | SparseMatrix };
const opts = <T extends RawOpts>(o: T): SolveOptions => (o.M === undefined ? (o as SolveOptions) : { ...o, M: toRawOperand(o.M) as PreconditionerLike });

/**
 * CG on raw vectors: SciPy's result with x a Float64Array.
 * @example
 * ```ts
 * const r = sparse.raw.cg(sparse.fromDense([[4, 1], [1, 3]]), new Float64Array([1, 2]));
 * r.converged;     // true
 * Array.from(r.x);   // ≈ [0.0909, 0.6364]  ([1/11, 7/11])
 * ```
 */
export const cg = (A: RawA, b: Float64Array | readonly number[], o: RawOpts = {}): SolveResult => cgRaw(toRawOperand(A) as OperatorLike, b as Float64Array, opts(o));
/**
 * BiCGSTAB on raw vectors: SciPy's result with x a Float64Array.
 * @example
 * ```ts
 * const r = sparse.raw.bicgstab(sparse.fromDense([[4, 1], [2, 3]]), new Float64Array([5, 5]));
 * Array.from(r.x);   // ≈ [1, 1]
 * ```
 */
export const bicgstab = (A: RawA, b: Float64Array | readonly number[], o: RawOpts = {}): SolveResult => bicgstabRaw(toRawOperand(A) as OperatorLike, b as Float64Array, opts(o));
/**
 * Restarted GMRES on raw vectors (`restart`: Krylov subspace size per cycle): SciPy's result with x a Float64Array.
 * @example
 * ```ts
 * const r = sparse.raw.gmres(sparse.fromDense([[4, 1], [2, 3]]), new Float64Array([5, 5]), { restart: 2 });
 * Array.from(r.x);   // ≈ [1, 1]
 * ```
 */
export const gmres = (A: RawA, b: Float64Array | readonly number[], o: RawOpts & Pick<GmresOptions, 'restart'> = {}): SolveResult => gmresRaw(toRawOperand(A) as OperatorLike, b as Float64Array, opts(o) as GmresOptions);
/**
 * MINRES (Hermitian, possibly indefinite A) on raw vectors: SciPy's result with x a Float64Array.
 * @example
 * ```ts
 * // symmetric indefinite (eigenvalues 3 and −1)
 * const r = sparse.raw.minres(sparse.fromDense([[1, 2], [2, 1]]), new Float64Array([3, 3]));
 * Array.from(r.x);   // ≈ [1, 1]
 * ```
 */
export const minres = (A: RawA, b: Float64Array | readonly number[], o: RawOpts = {}): SolveResult => minresRaw(toRawOperand(A) as OperatorLike, b as Float64Array, opts(o));
/**
 * Lanczos eigensolver on raw vectors (eigenvalues and row-major eigenvectors as Float64Array).
 * @example
 * ```ts
 * const r = sparse.raw.eigsh(sparse.poisson1d(10), 1, { which: 'LA' });
 * r.eigenvalues[0];   // ≈ 3.9190 (2 − 2cos(10π/11))
 * ```
 */
export const eigsh = (A: RawA, k: number, o: EigshOptions = {}): EigshResult => eigshArrays(A as OperatorLike, k, o);

export type { RawOperator, SolveResult, EigshResult };
