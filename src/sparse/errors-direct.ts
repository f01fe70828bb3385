// Typed errors of the sparse direct solvers (src/backends/native/sparse.ts).

import { RlxError } from '../tensor/errors.js';

/**
 * The matrix is singular (a zero pivot), numerically or structurally.
 * `index`: where the solver found it, as documented by the op (UMFPACK and KLU
 * on CSR input: the row of A of the first zero pivot), or -1 when unknown.
 */
export class SingularMatrixError extends RlxError {
  constructor(
    readonly op: string,
    readonly index: number,
    detail = '',
  ) {
    super(`${op}: the matrix is singular${index >= 0 ? ` (zero pivot at row ${index})` : ''}${detail ? `: ${detail}` : ''}`);
  }
}

/** A Cholesky factorization met a non-positive pivot: `index` is the column where it stopped. */
export class NotPositiveDefiniteError extends RlxError {
  constructor(
    readonly op: string,
    readonly index: number,
    detail = '',
  ) {
    super(`${op}: the matrix is not positive definite (the factorization stopped at column ${index})${detail ? `: ${detail}` : ''}`);
  }
}
