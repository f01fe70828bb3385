// rlx.sparse: sparse matrix formats, constructors, builders, Matrix Market I/O and
// the Harwell–Boeing / Rutherford–Boeing reader.
// This file only re-exports.

export type { SparseDType, ValueArray, CompressedArrays, RawOperator, RawPreconditioner } from './contract.js';
export { SparseFormatError, MatrixMarketError, HarwellBoeingError } from './errors.js';
export { CompressedMatrix, isSparse } from './base.js';
export type { SparseMatrix, DenseOperand } from './base.js';
export { CsrMatrix, csr } from './csr.js';
export type { CompressedInit } from './csr.js';
export { CscMatrix, csc } from './csc.js';
export { CooMatrix, coo } from './coo.js';
export type { CooInit } from './coo.js';
export { add, sub, multiply, scale } from './functions.js';
export { fromTriplets, fromDense, eye, identity, zeros, diags, kron, kronsum } from './construct.js';
export { poisson1d, poisson2d, poisson3d, diffusion2d, convectionDiffusion2d, helmholtz2d } from './builders.js';
export type { BoundaryCondition, PoissonOptions } from './builders.js';
export type { Scalar, ValuesInput } from './dtypes.js';
export { readMatrixMarket, readMatrixMarketHeader } from './mm-read.js';
export type { MMHeader, MMFormat, MMField, MMSymmetry, ReadOptions } from './mm-read.js';
export { writeMatrixMarket } from './mm-write.js';
export type { WriteOptions } from './mm-write.js';
export { readHarwellBoeing, readHarwellBoeingHeader } from './hb-read.js';
export type { HBHeader, HBValueType, HBStructure, HBReadOptions } from './hb-read.js';

// Products and solves with tensors go through IR ops (lazy, differentiable).
import './graph/register.js';
export { spsolve } from './solve.js';
export type { SpsolveOptions } from './solve.js';
export { cg, bicgstab, gmres, minres } from './krylov.js';
export type { KrylovOperator, KrylovOptions, KrylovResult } from './krylov.js';
export { LinearOperator, aslinearoperator, jacobi, ssor, ilu0, ic0, NoConvergenceError } from './solvers/index.js';
export { eigsh } from './eigsh.js';
export type { EigshTensors } from './eigsh.js';
/** Float64Array fast paths (products, Krylov solvers, eigsh on raw vectors): no Tensor, nothing differentiable. */
export * as raw from './raw.js';
export { splu, klu, cholesky, SparseFactorization } from './factor.js';
export type { FactorOptions, LogDet, SpluOptions, Trans } from './factor.js';
export type { LinearOperatorSpec, OperatorLike, PreconditionerLike, SolveOptions, SolveResult, VectorLike, GmresOptions, EigshOptions, EigshResult, Which } from './solvers/index.js';
export { SingularMatrixError, NotPositiveDefiniteError, ConvergenceError } from '../tensor/errors-linalg.js';
