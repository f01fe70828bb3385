// Typed errors of linear algebra (dense and sparse). LAPACK and SuiteSparse
// status codes never reach the user as raw numbers: each becomes one of these,
// naming the op, the batch entry and the position. Vocabulary, like errors.ts:
// the backends that run those kernels raise them too. rlx.linalg exports them.

import { ValueError } from './errors.js';

/** Base class of numerical linear-algebra failures (NumPy's LinAlgError, a ValueError there too). */
export class LinAlgError extends ValueError {}

const where = (batch: number | undefined) => (batch !== undefined && batch >= 0 ? ` (batch entry ${batch})` : '');

/** A zero pivot: the matrix is (numerically or structurally) singular. `index` is the 0-based pivot. */
export class SingularMatrixError extends LinAlgError {
  constructor(
    readonly op: string,
    readonly index: number,
    readonly batch?: number,
    detail = '',
  ) {
    super(`${op}: matrix is singular: pivot ${index} is exactly zero${where(batch)}${detail ? `; ${detail}` : ''}`);
  }
}

/**
 * A Cholesky-type factorization failed: the leading minor of order `minor`
 * (1-based, LAPACK's; row `minor - 1` of the factor) is not positive definite.
 */
export class NotPositiveDefiniteError extends LinAlgError {
  /** The non-positive pivot met, when the factorization reports it. */
  readonly pivot: number | undefined;
  constructor(
    readonly op: string,
    readonly minor: number,
    readonly batch?: number,
    extra: { pivot?: number; detail?: string } = {},
  ) {
    super(`${op}: matrix is not positive definite: the leading minor of order ${minor} (row ${minor - 1}) is not positive${extra.pivot !== undefined ? ` (pivot ${extra.pivot})` : ''}${where(batch)}${extra.detail ? `; ${extra.detail}` : ''}`);
    this.pivot = extra.pivot;
  }
  /** 0-based row of the failing pivot. */
  get row(): number {
    return this.minor - 1;
  }
}

/** An iterative decomposition (SVD, eigensolver) did not converge. */
export class ConvergenceError extends LinAlgError {
  constructor(
    readonly op: string,
    readonly batch?: number,
    detail = '',
  ) {
    super(`${op}: did not converge${where(batch)}${detail ? ` (${detail})` : ''}`);
  }
}

/** checkFinite: the input holds NaN or ±Inf at `position` (a multi-index). */
export class NonFiniteError extends ValueError {
  constructor(
    readonly op: string,
    readonly position: number[],
    readonly value: number,
  ) {
    super(`${op}: input must be finite, found ${value} at [${position.join(', ')}]`);
  }
}
