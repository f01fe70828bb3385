// The sparse direct solvers' failures are the linear-algebra module's typed
// errors (one class each for dense and sparse): SingularMatrixError.index is
// the row of A of the first zero pivot (UMFPACK/KLU on CSR input), and
// NotPositiveDefiniteError.row the column where CHOLMOD stopped.

export { SingularMatrixError, NotPositiveDefiniteError } from '../linalg/errors.js';
