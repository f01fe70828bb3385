// eigsh with shift-invert through the sparse direct solver: given sigma and a
// sparse matrix, (A − σI) is factored once (UMFPACK on native, the js sparse LU
// otherwise) and every Lanczos step solves with it, as SciPy's ARPACK mode 3
// does with SuperLU. Other operators keep the solvers' MINRES inner solve.

import { eigsh as lanczosEigsh, type EigshOptions, type EigshResult } from './solvers/eigsh.js';
import type { OperatorLike } from './solvers/linear-operator.js';
import { isSparse, type SparseMatrix } from './base.js';
import { eye } from './construct.js';
import { splu } from './factor.js';

/** The k eigenpairs of a symmetric/Hermitian A picked by `which` (or nearest sigma), eigenvalues ascending. */
export function eigsh(A: OperatorLike | SparseMatrix, k: number, opts: EigshOptions = {}): EigshResult {
  if (opts.sigma === undefined || opts.solve || !isSparse(A)) return lanczosEigsh(A as OperatorLike, k, opts);
  const M = (A as SparseMatrix).tocsr();
  const shifted = M.sub(eye(M.shape[0], { dtype: M.dtype }).scale(opts.sigma));
  const F = splu(shifted);
  try {
    return lanczosEigsh(M, k, { ...opts, solve: (b) => F.solveRaw(b) });
  } finally {
    F.dispose();
  }
}
