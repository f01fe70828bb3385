// The iterative solvers, preconditioners and Lanczos eigensolver of rlx.sparse.
// They work on raw operators (src/sparse/contract.ts), so they accept the format
// classes, plain CSR arrays, dense Tensors and user LinearOperators alike.

export { LinearOperator, aslinearoperator } from './linear-operator.js';
export type { LinearOperatorSpec, OperatorLike, CsrLike, PreconditionerLike, TypedPreconditioner, MatvecFn } from './linear-operator.js';
export type { SolveOptions, SolveResult, VectorLike } from './common.js';
export { cg } from './cg.js';
export { bicgstab } from './bicgstab.js';
export { gmres } from './gmres.js';
export type { GmresOptions } from './gmres.js';
export { minres } from './minres.js';
export { jacobi, ssor, ilu0, ic0 } from './preconditioners.js';
export { NotPositiveDefiniteError, NoConvergenceError } from './errors.js';
export { csrMatvec, csrRmatvec } from './csr-kernels.js';
export { eigsh } from './eigsh.js';
export type { EigshOptions, EigshResult, Which } from './eigsh.js';
export { symEig } from './symeig.js';
