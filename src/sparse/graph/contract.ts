// The kernels behind the sparse IR ops (csrMatmul, csrSddmm, sparseSolve),
// implemented by the js reference (js-kernels.ts) and the native backend
// (src/backends/native/sparse-graph.ts). A CSR matrix arrives as its three
// arrays; dense operands are row-major [rows, k], complex interleaved, in the
// matrix's dtype (float32 | float64 | complex64 | complex128).

import type { SparseDType, ValueArray } from '../contract.js';

/** One CSR matrix of the batch. */
export interface CsrView {
  rows: number;
  cols: number;
  indptr: Int32Array;
  indices: Int32Array;
  data: ValueArray;
}

export interface SparseSolveOptions {
  method: 'lu' | 'cholesky' | 'cg' | 'bicgstab' | 'gmres' | 'minres';
  /** Solve op(A) x = b: 0 = A, 1 = Aᵀ, 2 = Aᴴ. */
  trans: 0 | 1 | 2;
  rtol: number;
  atol: number;
  /** Iteration limit of the iterative methods (0: the method's default). */
  maxiter: number;
  /** Solve with this registered factorization (graph/factors.ts) instead of factoring A. */
  factor?: number;
  /** Iterative methods: a registered preconditioner / start vector (graph/solve-hints.ts). */
  hints?: number;
}

export interface SparseGraphKernels {
  /** out [·, k] = op(A) x, op = A (0), Aᵀ (1), Aᴴ (2). */
  csrMatmul(dtype: SparseDType, a: CsrView, x: ValueArray, k: number, out: ValueArray, trans: 0 | 1 | 2): void;
  /** out[e] = Σ_j g[row(e), j] · x[col(e), j] over the stored entries e (no conjugation). */
  csrSddmm(dtype: SparseDType, a: Omit<CsrView, 'data'>, g: ValueArray, x: ValueArray, k: number, out: ValueArray): void;
  /** out = op(A)⁻¹ b for b [n, k]; throws the typed errors (singular, not positive definite, no convergence). */
  solve(dtype: SparseDType, a: CsrView, b: ValueArray, k: number, out: ValueArray, opts: SparseSolveOptions): void;
}
