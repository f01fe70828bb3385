// eigsh: k eigenpairs of a symmetric/Hermitian operator, as Tensors (the raw
// Float64Array form is sparse.raw.eigsh). With sigma and a sparse matrix,
// (A − σI) is factored once (UMFPACK on native, the js sparse LU otherwise)
// and every Lanczos step solves with it, as SciPy's ARPACK mode 3 does with
// SuperLU. Other operators keep the solvers' MINRES inner solve.

import { Tensor } from '../tensor/tensor.js';
import { fromStorage } from '../tensor/create.js';
import { TransformError } from '../tensor/errors.js';
import { eigsh as lanczosEigsh, type EigshOptions, type EigshResult } from './solvers/eigsh.js';
import type { OperatorLike } from './solvers/linear-operator.js';
import { CompressedMatrix, isSparse, type SparseMatrix } from './base.js';
import { eye } from './construct.js';
import { splu } from './factor.js';
import { toRawOperand } from './raw.js';

/** The eigenpairs as Tensors: eigenvalues [k] float64 ascending, eigenvectors [n, k] (column j for eigenvalue j). */
export interface EigshTensors {
  eigenvalues: Tensor;
  eigenvectors: Tensor;
  /** Restart cycles run. */
  iterations: number;
  /** Applications of OP (A or the shift-invert solve). */
  matvecs: number;
}

/** The raw eigenpairs (Float64Array), with shift-invert through splu for a sparse A and sigma. */
export function eigshArrays(A: OperatorLike | SparseMatrix, k: number, opts: EigshOptions = {}): EigshResult {
  if (opts.sigma === undefined || opts.solve || !isSparse(A)) return lanczosEigsh(toRawOperand(A) as OperatorLike, k, opts);
  const M = (A as SparseMatrix).tocsr();
  const shifted = M.sub(eye(M.shape[0], { dtype: M.dtype }).scale(opts.sigma));
  const F = splu(shifted);
  try {
    return lanczosEigsh(toRawOperand(M) as OperatorLike, k, { ...opts, solve: (b) => F.solveRaw(b) });
  } finally {
    F.dispose();
  }
}

/**
 * The k eigenpairs of a symmetric/Hermitian A picked by `which` (or nearest
 * sigma), eigenvalues ascending, as Tensors. Not differentiable: a traced A is
 * a TransformError (linalg.eigh differentiates dense matrices).
 * @example
 * ```ts
 * // the two smallest eigenvalues of the 1-D Laplacian: 2 − 2cos(kπ/11), k = 1, 2
 * const { eigenvalues } = sparse.eigsh(sparse.poisson1d(10), 2, { which: 'SA' });
 * eigenvalues.tolist();   // ≈ [0.08101, 0.31749]
 * ```
 */
export function eigsh(A: OperatorLike | SparseMatrix, k: number, opts: EigshOptions = {}): EigshTensors {
  const traced = (A instanceof CompressedMatrix && A.tensorValued) || (isSparse(A) && (A as { tensorValued?: boolean }).tensorValued) || (A instanceof Tensor && (A.node.tracked || A.node.symbolic));
  if (traced) throw new TransformError('sparse.eigsh: derivatives are not offered (Lanczos on values read as numbers); use linalg.eigh on a dense matrix to differentiate eigenpairs');
  const r = eigshArrays(A, k, opts);
  const n = r.eigenvectors.length / (k * (r.dtype === 'complex128' ? 2 : 1));
  return {
    eigenvalues: fromStorage(r.eigenvalues, [r.eigenvalues.length], 'float64'),
    eigenvectors: fromStorage(r.eigenvectors, [n, r.eigenvalues.length], r.dtype),
    iterations: r.iterations,
    matvecs: r.matvecs,
  };
}
