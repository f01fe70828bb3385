// Raw CSR kernels for the solvers: y = A x and y = Aᴴ x on CompressedArrays,
// real or complex (interleaved), delegating to the matrix classes' kernel in
// ../spmv.ts (native SpMV when installed); plus the invariant checks and
// diagonal lookups the preconditioners need.

import { csrMatvecRaw, csrRmatvecRaw } from '../spmv.js';
import type { CompressedArrays } from '../contract.js';
import { ShapeError, ValueError } from '../../tensor/errors.js';

export const isComplexDType = (d: string): boolean => d === 'complex64' || d === 'complex128';

/** Checks the invariants the kernels rely on (lengths, monotone indptr, indices in range): O(nnz). */
export function checkCompressed(a: CompressedArrays, who: string): void {
  const [m, n] = a.shape;
  if (!Number.isInteger(m) || !Number.isInteger(n) || m < 0 || n < 0) throw new ShapeError(`${who}: bad shape [${a.shape.join(', ')}]`);
  if (a.indptr.length !== m + 1) throw new ShapeError(`${who}: indptr has length ${a.indptr.length}, expected rows + 1 = ${m + 1}`);
  const nnz = a.indptr[m]!;
  const lanes = isComplexDType(a.dtype) ? 2 : 1;
  if (a.indptr[0] !== 0 || a.indices.length < nnz || a.data.length < lanes * nnz) {
    throw new ShapeError(`${who}: indptr[0] = ${a.indptr[0]}, nnz = ${nnz}, indices ${a.indices.length}, data ${a.data.length} (${a.dtype}) do not agree`);
  }
  for (let i = 0; i < m; i++) if (a.indptr[i + 1]! < a.indptr[i]!) throw new ValueError(`${who}: indptr decreases at row ${i}`);
  for (let k = 0; k < nnz; k++) {
    const j = a.indices[k]!;
    if (j < 0 || j >= n) throw new ValueError(`${who}: column index ${j} at position ${k} is out of range [0, ${n})`);
  }
}

/** out = A x (CSR). x has n (2n complex) values, out m (2m). The matrix classes' kernel (native SpMV when installed). */
export function csrMatvec(a: CompressedArrays, x: Float64Array, out: Float64Array = new Float64Array((isComplexDType(a.dtype) ? 2 : 1) * a.shape[0])): Float64Array {
  return csrMatvecRaw(a, x, out);
}

/** out = Aᴴ x (conjugated for complex). x has m values, out n. */
export function csrRmatvec(a: CompressedArrays, x: Float64Array, out: Float64Array = new Float64Array((isComplexDType(a.dtype) ? 2 : 1) * a.shape[1])): Float64Array {
  return csrRmatvecRaw(a, x, out);
}

/** Position of the diagonal entry in each row (-1 when absent); rows must be sorted for the callers that rely on order. */
export function diagonalPositions(a: CompressedArrays): Int32Array {
  const m = Math.min(a.shape[0], a.shape[1]);
  const pos = new Int32Array(m).fill(-1);
  for (let i = 0; i < m; i++) {
    for (let k = a.indptr[i]!; k < a.indptr[i + 1]!; k++) {
      if (a.indices[k] === i) {
        pos[i] = k;
        break;
      }
    }
  }
  return pos;
}

/** Rows sorted by column with no duplicates, as ilu0/ic0 need (they walk rows in order). */
export function checkCanonical(a: CompressedArrays, who: string): void {
  for (let i = 0; i < a.shape[0]; i++) {
    for (let k = a.indptr[i]! + 1; k < a.indptr[i + 1]!; k++) {
      if (a.indices[k]! <= a.indices[k - 1]!) throw new ValueError(`${who}: row ${i} is not canonical (columns must be sorted without duplicates; sort/sum duplicates first)`);
    }
  }
}
