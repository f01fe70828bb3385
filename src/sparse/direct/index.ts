// Pure-TypeScript sparse direct solvers (the js backend, used when the native
// SuiteSparse binding is absent): jsSplu (LU with threshold partial pivoting)
// and jsCholesky (SPD/HPD), both on raw CompressedArrays.
//
// Input layout: `format` says how to read indptr/indices — 'csr' (default,
// rows compressed) or 'csc'. It may be given in the options or as a field of
// the arrays object; the options win. Either way the matrix is copied into
// float64/complex128 CSC first (csc.ts), so float32/complex64 inputs are
// promoted and the caller's arrays are never retained.

import { ValueError } from '../../tensor/errors.js';
import type { CompressedArrays } from '../contract.js';
import { choleskyFactor, JsSparseCholesky } from './cholesky.js';
import { checkFiniteCsc, toCsc, type CompressedFormat } from './csc.js';
import { JsSparseLu } from './lu.js';
import { luFactor } from './lu-factor.js';
import { fillReducingOrder, type OrderingName } from './ordering.js';

export { JsSparseCholesky } from './cholesky.js';
export type { CompressedFormat } from './csc.js';
export { JsSparseLu, type SolveOptions } from './lu.js';
export { amdOrder } from './amd.js';
export { rcmOrder, symmetricGraph, type OrderingName } from './ordering.js';
export type { LogDet, Trans } from './rhs.js';

export type DirectInput = CompressedArrays & { format?: CompressedFormat };

export interface SpluOptions {
  /** Column pre-ordering, computed on the pattern of A + Aᵀ. Default 'amd'. */
  ordering?: OrderingName;
  /** Diagonal-preference threshold in [0, 1]; default 0.1. 1 = strict partial pivoting. */
  pivotTolerance?: number;
  /** How to read the arrays; default: arrays.format, else 'csr'. */
  format?: CompressedFormat;
}

export interface CholeskyOptions {
  /** Symmetric permutation, on the pattern of A + Aᵀ. Default 'amd'. */
  ordering?: OrderingName;
  format?: CompressedFormat;
}

const formatOf = (a: DirectInput, f: CompressedFormat | undefined): CompressedFormat => f ?? a.format ?? 'csr';

/**
 * Sparse LU of a square matrix: P A Q = L U. Throws SingularMatrixError('splu',
 * column) when a column has no nonzero pivot candidate (structurally or
 * numerically singular); `column` is the index of that column of A.
 * NaN/±Inf in A throws NonFiniteError('splu', [row, col], value).
 */
export function jsSplu(arrays: DirectInput, opts: SpluOptions = {}): JsSparseLu {
  const op = 'splu';
  const tol = opts.pivotTolerance ?? 0.1;
  if (!(tol >= 0 && tol <= 1)) throw new ValueError(`${op}: pivotTolerance must be in [0, 1], got ${tol}`);
  const A = toCsc(arrays, formatOf(arrays, opts.format), op);
  checkFiniteCsc(A, op);
  const q = fillReducingOrder(A, opts.ordering ?? 'amd', op);
  return new JsSparseLu(luFactor(A, q, tol, op));
}

/**
 * Sparse Cholesky of a symmetric/Hermitian positive definite matrix (only the
 * lower triangle is read): P A Pᵀ = L Lᴴ. Throws
 * NotPositiveDefiniteError('cholesky', m) where m is the 1-based order of the
 * failing leading minor of the PERMUTED matrix P A Pᵀ (not of A itself; pass
 * ordering 'natural' to get the minor of A). NaN/±Inf in the lower triangle
 * throws NonFiniteError('cholesky', [row, col], value).
 */
export function jsCholesky(arrays: DirectInput, opts: CholeskyOptions = {}): JsSparseCholesky {
  const op = 'cholesky';
  const A = toCsc(arrays, formatOf(arrays, opts.format), op);
  checkFiniteCsc(A, op, true);
  const perm = fillReducingOrder(A, opts.ordering ?? 'amd', op);
  return new JsSparseCholesky(choleskyFactor(A, perm, op));
}
