// The one matrix form the js direct solvers work on: square, compressed sparse
// column, values promoted to float64 (complex128 interleaved), duplicates summed.
//
// Why always CSC: the left-looking LU (Gilbert–Peierls) and the up-looking
// Cholesky both walk A one column at a time. A CSR input is the CSC arrays of
// Aᵀ; rather than threading "this factor is of Aᵀ, flip trans and conjugate"
// through every solve, we pay one O(nnz) counting-sort transpose up front,
// which is negligible next to the factorization.

import { DTypeError, ShapeError, ValueError } from '../../tensor/errors.js';
import { NonFiniteError } from '../../tensor/errors-linalg.js';
import type { CompressedArrays } from '../contract.js';

export type CompressedFormat = 'csr' | 'csc';

export interface CscMatrix {
  n: number;
  complex: boolean;
  /** length n + 1 */
  colptr: Int32Array;
  /** row indices, unsorted within a column, no duplicates */
  rowind: Int32Array;
  /** length nnz (2·nnz interleaved when complex) */
  values: Float64Array;
}

export const isComplexDType = (d: string): boolean => d === 'complex64' || d === 'complex128';

/** Validate the raw arrays and return A in canonical CSC. `op` names the caller in errors. */
export function toCsc(a: CompressedArrays, format: CompressedFormat, op: string): CscMatrix {
  const { shape, dtype, indptr, indices, data } = a;
  if (dtype !== 'float32' && dtype !== 'float64' && dtype !== 'complex64' && dtype !== 'complex128')
    throw new DTypeError(`${op}: unsupported dtype ${String(dtype)}, expected float32, float64, complex64 or complex128`);
  if (format !== 'csr' && format !== 'csc') throw new ValueError(`${op}: format must be 'csr' or 'csc', got ${String(format)}`);
  if (!Array.isArray(shape) || shape.length !== 2 || shape[0] !== shape[1])
    throw new ShapeError(`${op}: expected a square matrix, got shape [${String(shape)}]`);
  const n = shape[0];
  if (!Number.isInteger(n) || n < 0) throw new ShapeError(`${op}: invalid shape [${String(shape)}]`);
  const cplx = isComplexDType(dtype);
  if (indptr.length !== n + 1) throw new ShapeError(`${op}: indptr has length ${indptr.length}, expected ${n + 1}`);
  const nnz = indices.length;
  if (indptr[0] !== 0 || indptr[n] !== nnz)
    throw new ValueError(`${op}: indptr must start at 0 and end at nnz = ${nnz}, got ${indptr[0]} .. ${indptr[n]}`);
  if (data.length !== (cplx ? 2 * nnz : nnz))
    throw new ShapeError(`${op}: data has length ${data.length}, expected ${cplx ? 2 * nnz : nnz} for ${nnz} ${dtype} entries`);
  for (let j = 0; j < n; j++)
    if (indptr[j + 1] < indptr[j]) throw new ValueError(`${op}: indptr must be non-decreasing (at ${j})`);
  for (let p = 0; p < nnz; p++) {
    const i = indices[p];
    if (!(i >= 0 && i < n)) throw new ValueError(`${op}: index ${i} at position ${p} out of range [0, ${n})`);
  }

  // Counting-sort transpose when the input is CSR; for CSC the arrays are used as they are.
  const vw = cplx ? 2 : 1;
  let cp: Int32Array, ri: Int32Array, vals: Float64Array;
  if (format === 'csr') {
    cp = new Int32Array(n + 1);
    for (let p = 0; p < nnz; p++) cp[indices[p] + 1]++;
    for (let j = 0; j < n; j++) cp[j + 1] += cp[j];
    const next = cp.slice(0, n);
    ri = new Int32Array(nnz);
    vals = new Float64Array(vw * nnz);
    for (let i = 0; i < n; i++)
      for (let p = indptr[i]; p < indptr[i + 1]; p++) {
        const q = next[indices[p]]++;
        ri[q] = i;
        if (cplx) {
          vals[2 * q] = data[2 * p];
          vals[2 * q + 1] = data[2 * p + 1];
        } else vals[q] = data[p];
      }
  } else {
    cp = indptr;
    ri = indices;
    vals = data instanceof Float64Array ? data : Float64Array.from(data);
  }

  // Sum duplicates per column (first occurrence keeps its slot). Always copies,
  // so the factorization never aliases the caller's arrays.
  const colptr = new Int32Array(n + 1);
  const rowind = new Int32Array(nnz);
  const values = new Float64Array(vw * nnz);
  const slot = new Int32Array(n).fill(-1);
  let w = 0;
  for (let j = 0; j < n; j++) {
    const start = w;
    for (let p = cp[j]; p < cp[j + 1]; p++) {
      const i = ri[p];
      let s = slot[i];
      if (s < start) {
        s = w++;
        slot[i] = s;
        rowind[s] = i;
      }
      if (cplx) {
        values[2 * s] += vals[2 * p];
        values[2 * s + 1] += vals[2 * p + 1];
      } else values[s] += vals[p];
    }
    colptr[j + 1] = w;
  }
  return { n, complex: cplx, colptr, rowind: rowind.slice(0, w), values: values.slice(0, vw * w) };
}

/**
 * Throws NonFiniteError(op, [row, col], value) at the first NaN/±Inf entry of A
 * (after duplicates are summed, so a sum that overflows counts). Without it a
 * non-finite value flows through the elimination into a NaN or a silently wrong
 * solution (an Inf pivot divides its column to zeros). `lowerOnly`: check only
 * i ≥ j, the part Cholesky reads. O(nnz), far below the factorization's cost.
 */
export function checkFiniteCsc(A: CscMatrix, op: string, lowerOnly = false): void {
  const { n, colptr, rowind, values } = A;
  const lanes = A.complex ? 2 : 1;
  for (let j = 0; j < n; j++) {
    for (let p = colptr[j]; p < colptr[j + 1]; p++) {
      const i = rowind[p];
      if (lowerOnly && i < j) continue;
      for (let l = 0; l < lanes; l++) {
        const v = values[lanes * p + l];
        if (!Number.isFinite(v)) throw new NonFiniteError(op, [i, j], v);
      }
    }
  }
}
