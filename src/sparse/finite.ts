// Finite values before a sparse factorization: a leaf module (the native
// backend's graph kernels use it too, and must not import the format classes).

import type { CompressedArrays } from './contract.js';
import { NonFiniteError } from '../tensor/errors-linalg.js';

/**
 * NaN/±Inf in the values is a NonFiniteError at its [row, col] before any
 * factorization: UMFPACK reports such a matrix as singular, and KLU and CHOLMOD
 * return NaN or a wrong solution without a word.
 */
export function checkFiniteCsr(op: string, a: CompressedArrays): void {
  let s = 0;
  for (let k = 0; k < a.data.length; k++) s += a.data[k]! - a.data[k]!; // 0 unless a value is NaN/±Inf
  if (s === 0) return;
  // Cholesky reads only the lower triangle (as the js one does): a value above it is never used.
  const lower = op === 'cholesky';
  const L = a.dtype === 'complex64' || a.dtype === 'complex128' ? 2 : 1;
  for (let i = 0; i + 1 < a.indptr.length; i++)
    for (let p = a.indptr[i]!; p < a.indptr[i + 1]!; p++) {
      const j = a.indices[p]!;
      if (lower && j > i) continue;
      for (let l = 0; l < L; l++) if (!Number.isFinite(a.data[p * L + l]!)) throw new NonFiniteError(op, [i, j], a.data[p * L + l]!);
    }
}
