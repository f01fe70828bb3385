// The linalg namespace: dense linear algebra on LAPACK (native) or the
// TypeScript reference kernels (js), NumPy/SciPy names and conventions.
// Importing it registers the 'linalg' ops and the js kernels.

import './ops/cholesky.js';
import './ops/triangular.js';
import './ops/solve.js';
import './ops/lu.js';
import './ops/inv.js';
import './ops/det.js';
import './ops/qr.js';
import './ops/eigh.js';
import './ops/svd.js';
import './ops/eig.js';
import './ops/lstsq.js';
import './ops/expm.js';
import './kernels/register.js';

export { lu, luFactor, qr, cholesky, svd, eigh, eigvalsh, eig, eigvals } from './decompositions.js';
export type { QrOptions, CholeskyOptions, SvdOptions, EighOptions } from './decompositions.js';
export { solve, lstsq, inv, pinv, solveTriangular, choSolve, luSolve } from './solvers.js';
export type { LstsqOptions, LstsqResult, PinvOptions, TriangularSolveOptions, Trans } from './solvers.js';
export { det, slogdet } from './determinants.js';
export { norm, cond, matrixRank } from './norms.js';
export type { NormOptions, NormOrder } from './norms.js';
export { trace, diagonal, matrixPower, expm, kron, cross } from './functions.js';
export { LinAlgError, SingularMatrixError, NotPositiveDefiniteError, ConvergenceError, NonFiniteError } from '../tensor/errors-linalg.js';
export type { CheckOptions, MatrixLike } from './input.js';
