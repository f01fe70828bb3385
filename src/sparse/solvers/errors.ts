// Typed errors of the sparse solvers. A non-positive pivot of the incomplete
// Cholesky is the linear-algebra module's NotPositiveDefiniteError (one class
// for dense, sparse direct and incomplete factorizations).

import { RlxError } from '../../tensor/errors.js';
export { NotPositiveDefiniteError } from '../../tensor/errors-linalg.js';

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
