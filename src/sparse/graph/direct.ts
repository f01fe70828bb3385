// The sparse direct solver a js sparseSolve kernel uses (the SPARSE_DIRECT
// kernel family, family.ts): the js reference registers its own sparse LU and
// Cholesky (src/sparse/direct) in graph/register.ts. One factorization per
// call: a graph op has no place to keep a factor between runs (use
// splu/cholesky objects for reuse). The native kernels call UMFPACK/CHOLMOD
// themselves (sparse/kernels/native-graph.ts).

import type { SparseDType, ValueArray } from '../contract.js';
import type { CsrView, SparseSolveOptions } from './contract.js';

export type DirectSolve = (dtype: SparseDType, a: CsrView, b: ValueArray, k: number, out: ValueArray, o: SparseSolveOptions) => void;
