// Typed errors of the sparse solvers. src/linalg has no NotPositiveDefiniteError
// yet (it is a placeholder), so the one the incomplete Cholesky needs lives here;
// it extends ValueError because a non-SPD input is a value out of the domain.

import { RlxError, ValueError } from '../../tensor/errors.js';

/** A factorization that needs a positive definite matrix met a non-positive pivot. */
export class NotPositiveDefiniteError extends ValueError {
  constructor(
    message: string,
    /** 0-based row whose pivot was not positive. */
    readonly row: number,
    /** The pivot value found there (a_ii minus the row's update). */
    readonly pivot: number,
  ) {
    super(message);
  }
}

/**
 * eigsh did not converge within maxiter restarts (SciPy's ArpackNoConvergence).
 * Carries the Ritz pairs that did converge, ascending, so the caller can keep them.
 */
export class NoConvergenceError extends RlxError {
  constructor(
    message: string,
    readonly eigenvalues: Float64Array,
    /** row-major [n, eigenvalues.length], columns are the vectors (interleaved for complex). */
    readonly eigenvectors: Float64Array,
  ) {
    super(message);
  }
}
