// Which sparse direct solver a backend's sparseSolve kernel uses: native
// registers UMFPACK/CHOLMOD, the js reference registers its own sparse LU and
// Cholesky (src/sparse/direct). One factorization per call: a graph op has no
// place to keep a factor between runs (use splu/cholesky objects for reuse).

import type { SparseDType, ValueArray } from '../contract.js';
import type { CsrView, SparseSolveOptions } from './contract.js';

export type DirectSolve = (dtype: SparseDType, a: CsrView, b: ValueArray, k: number, out: ValueArray, o: SparseSolveOptions) => void;

const SOLVERS = new Map<string, DirectSolve>();

export function provideDirectSolver(backend: string, f: DirectSolve): void {
  SOLVERS.set(backend, f);
}

/** The backend's direct solver, else the js one. */
export function directSolver(backend: string): DirectSolve {
  const f = SOLVERS.get(backend) ?? SOLVERS.get('js');
  if (!f) throw new Error('internal: no sparse direct solver registered');
  return f;
}
