// The Krylov solvers as users call them: sparse.cg / bicgstab / gmres / minres
// take and return Tensors. x has b's dtype (float32 stays float32; complex when
// A or b is), the rest of the result is SciPy's (info, iterations, residual).
//
// The solve itself runs at once on the raw solvers (solvers/, float64 inside:
// the result object reports info and iterations, which a lazy node could not).
// When b or A's values are being differentiated, x is the *realized* node of
// the differentiable sparseSolve op with the same method and tolerances (its
// value is the solve just done, its history the op), so grad/jvp go through
// that op's rules: the adjoint solve with the same method. Under vmap/jit the
// inputs have no values yet: use the lazy sparse.spsolve(A, b, {method}) there.
//
// The raw solvers (Float64Array in and out, no Tensor) are sparse.raw.*.

import { Tensor } from '../tensor/tensor.js';
import { tensor, fromStorage, type TensorData } from '../tensor/create.js';
import { TransformError, ValueError } from '../tensor/errors.js';
import { isComplex, type DType } from '../tensor/dtype.js';
import type { SparseMatrix } from './base.js';
import { CompressedMatrix, isSparse } from './base.js';
import type { SparseDType } from './contract.js';
import { seededSolve } from './graph/api.js';
import { isTraced } from './tensor-values.js';
import { cg as rawCg, bicgstab as rawBicgstab, gmres as rawGmres, minres as rawMinres } from './solvers/index.js';
import type { OperatorLike, PreconditionerLike, SolveOptions, SolveResult, GmresOptions } from './solvers/index.js';
import { toRawOperand } from './raw.js';
import type { ProgressOption } from '../progress.js';

/** What the Tensor solvers accept as A: a sparse matrix, or what the raw solvers take (LinearOperator, CSR arrays, a dense Tensor). */
export type KrylovOperator = SparseMatrix | OperatorLike;

export interface KrylovOptions {
  /** Start vector (default zero). */
  x0?: Tensor | TensorData;
  /** ‖b − A x‖ ≤ max(rtol‖b‖, atol); rtol default 1e-5. */
  rtol?: number;
  atol?: number;
  /** Iteration limit, default 10·n (GMRES: inner steps). */
  maxiter?: number;
  /** Preconditioner M ≈ A⁻¹: jacobi(A), ssor, ilu0, ic0, a LinearOperator or sparse matrix. (The derivative's adjoint solve runs without it.) */
  M?: PreconditionerLike | SparseMatrix;
  /** Called after every iteration with the iteration number and the solver's residual estimate. */
  callback?: (iteration: number, residualNorm: number) => void;
  /**
   * A progress bar on stderr while the solve iterates (default off): true, or {label, stream, enabled,
   * intervalMs}. Drawn only on a TTY; shows the way to the tolerance and the residual, then the outcome.
   */
  progress?: ProgressOption;
}

/** The raw solvers' result (info, iterations, residualNorm, converged, breakdown, message) with x a Tensor. */
export interface KrylovResult extends Omit<SolveResult, 'x' | 'dtype' | 'toTensor'> {
  /** The solution, a Tensor of b's dtype (complex when A is). */
  x: Tensor;
}

type RawSolver = (A: OperatorLike, b: Float64Array, o: SolveOptions) => SolveResult;

/** The dtype x gets: b's precision, complex when A or b is (integer b: float64). */
function resultDType(A: KrylovOperator, b: Tensor): SparseDType {
  const a: DType = isSparse(A) ? A.dtype : A instanceof Tensor ? A.dtype : ((A as { dtype?: DType }).dtype ?? 'float64');
  const single = b.dtype === 'float32' || b.dtype === 'complex64';
  if (isComplex(a) || isComplex(b.dtype)) return single ? 'complex64' : 'complex128';
  return single ? 'float32' : 'float64';
}

const asTensor = (v: Tensor | TensorData): Tensor => (v instanceof Tensor ? v : tensor(v));

function krylov(name: 'cg' | 'bicgstab' | 'gmres' | 'minres', raw: RawSolver, A: KrylovOperator, bIn: Tensor | TensorData, opts: KrylovOptions & { restart?: number }): KrylovResult {
  const b = asTensor(bIn);
  const sparseA = isSparse(A) ? ((A instanceof CompressedMatrix ? A : A.tocsr()) as CompressedMatrix) : null;
  const tracedA = sparseA?.tensorValued ?? (A instanceof Tensor && isTraced(A));
  const traced = isTraced(b) || tracedA;
  if (b.node.symbolic || (sparseA?.tensorValued && sparseA.valuesTensor().node.symbolic))
    throw new TransformError(`sparse.${name}: solves at once (it reports info and iterations), so it cannot run inside vmap/jit; use the lazy sparse.spsolve(A, b, {method: '${name}'}) there`);
  if (traced && !sparseA) throw new TransformError(`sparse.${name}: derivatives need A as a sparse matrix (got ${A instanceof Tensor ? 'a dense Tensor: use linalg.solve' : 'a LinearOperator'})`);
  const d = resultDType(A, b);
  const wide = isComplex(d) ? 'complex128' : 'float64';
  const bRaw = b.cast(wide).toArray() as Float64Array;
  const o: SolveOptions & { restart?: number } = {};
  if (opts.rtol !== undefined) o.rtol = opts.rtol;
  if (opts.atol !== undefined) o.atol = opts.atol;
  if (opts.maxiter !== undefined) o.maxiter = opts.maxiter;
  if (opts.restart !== undefined) o.restart = opts.restart;
  if (opts.progress !== undefined) o.progress = opts.progress;
  if (opts.x0 !== undefined) o.x0 = asTensor(opts.x0).cast(wide).toArray() as Float64Array;
  if (opts.M !== undefined) o.M = toRawOperand(opts.M) as PreconditionerLike;
  if (opts.callback !== undefined) {
    const cb = opts.callback;
    if (typeof cb !== 'function') throw new ValueError(`sparse.${name}: callback must be a function (iteration, residualNorm) => void`);
    o.callback = (_x, it, rn) => cb(it, rn);
  }
  const r = raw(toRawOperand(A) as OperatorLike, bRaw, o);
  const n = b.shape[0]!;
  let x: Tensor;
  if (traced && sparseA) x = seededSolve(sparseA, b, d, { method: name, trans: 0, rtol: opts.rtol ?? 1e-5, atol: opts.atol ?? 0, maxiter: opts.maxiter ?? 0 }, r.x);
  else {
    const out = fromStorage(r.x, [n], r.dtype);
    x = out.dtype === d ? out : out.cast(d);
  }
  const res: KrylovResult = { x, info: r.info, iterations: r.iterations, residualNorm: r.residualNorm, converged: r.converged };
  if (r.breakdown !== undefined) res.breakdown = r.breakdown;
  if (r.message !== undefined) res.message = r.message;
  return res;
}

/**
 * Preconditioned conjugate gradients (A Hermitian positive definite). SciPy's signature; x is a Tensor.
 * @example
 * ```ts
 * const r = sparse.cg(sparse.fromDense([[4, 1], [1, 3]]), tensor([1, 2]));   // scipy.sparse.linalg.cg
 * r.converged;       // true
 * r.x.tolist();      // ≈ [0.0909, 0.6364]  ([1/11, 7/11])
 * ```
 */
export function cg(A: KrylovOperator, b: Tensor | TensorData, opts: KrylovOptions = {}): KrylovResult {
  return krylov('cg', rawCg, A, b, opts);
}
/**
 * BiCGSTAB for general square A.
 * @example
 * ```ts
 * const r = sparse.bicgstab(sparse.fromDense([[4, 1], [2, 3]]), tensor([5, 5]));
 * r.x.tolist();   // ≈ [1, 1]
 * ```
 */
export function bicgstab(A: KrylovOperator, b: Tensor | TensorData, opts: KrylovOptions = {}): KrylovResult {
  return krylov('bicgstab', rawBicgstab, A, b, opts);
}
/**
 * Restarted GMRES (right preconditioning); `restart`: Krylov subspace size per cycle.
 * @example
 * ```ts
 * const r = sparse.gmres(sparse.fromDense([[4, 1], [2, 3]]), tensor([5, 5]), { restart: 2 });
 * r.x.tolist();   // ≈ [1, 1]
 * ```
 */
export function gmres(A: KrylovOperator, b: Tensor | TensorData, opts: KrylovOptions & Pick<GmresOptions, 'restart'> = {}): KrylovResult {
  return krylov('gmres', rawGmres as RawSolver, A, b, opts);
}
/**
 * MINRES for Hermitian (possibly indefinite) A.
 * @example
 * ```ts
 * // symmetric indefinite (eigenvalues 3 and −1)
 * const r = sparse.minres(sparse.fromDense([[1, 2], [2, 1]]), tensor([3, 3]));
 * r.x.tolist();   // ≈ [1, 1]
 * ```
 */
export function minres(A: KrylovOperator, b: Tensor | TensorData, opts: KrylovOptions = {}): KrylovResult {
  return krylov('minres', rawMinres, A, b, opts);
}
