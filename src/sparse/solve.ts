// spsolve: x = A⁻¹ b for a sparse A, as a lazy tensor that is differentiable
// in b and in A's values (dA_ij = −λ_i x_j on the pattern, λ = A⁻ᵀ x̄).

import { Tensor } from '../tensor/tensor.js';
import { tensor, type TensorData } from '../tensor/create.js';
import type { SparseMatrix } from './base.js';
import { CompressedMatrix } from './base.js';
import { solveTensor, type SpsolveOptions } from './graph/api.js';

/**
 * Solves A x = b (b [n] or [n, k]). `method`: 'lu' (default: UMFPACK on the
 * native backend, or KLU where the addon was built without UMFPACK, which is
 * GPL; the js sparse LU otherwise), 'cholesky' for symmetric/Hermitian
 * positive-definite A (only its lower triangle is read, as by sparse.cholesky),
 * or 'cg' | 'bicgstab' | 'gmres' | 'minres' (then rtol,
 * atol, maxiter apply and non-convergence is a ConvergenceError).
 * @example
 * ```ts
 * const A = sparse.poisson1d(3);                   // [[2, -1, 0], [-1, 2, -1], [0, -1, 2]]
 * sparse.spsolve(A, tensor([1, 0, 1])).tolist();   // [1, 1, 1]  (scipy.sparse.linalg.spsolve)
 * sparse.spsolve(A, tensor([1, 0, 1]), { method: 'cholesky' });
 * ```
 */
export function spsolve(A: SparseMatrix, b: Tensor | TensorData, opts: SpsolveOptions = {}): Tensor {
  const M = A instanceof CompressedMatrix ? A : A.tocsr();
  return solveTensor(M as CompressedMatrix & { format: 'csr' | 'csc' }, b instanceof Tensor ? b : tensor(b), opts);
}

export type { SpsolveOptions };
