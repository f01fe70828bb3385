// integrate.crankNicolson: the trapezoidal rule for a linear system u' = A u,
//   (I − dt/2·A) u_{n+1} = (I + dt/2·A) u_n,
// second order, A-stable, and unitary when A is anti-Hermitian (a Schrödinger
// equation, A = −iH, keeps ‖u‖ to rounding). The left matrix is factored ONCE:
//
// - A sparse (rlx.sparse, any format): M = I − dt/2·A is factored by
//   sparse.splu, and each step is one product with N = I + dt/2·A and one
//   solve with that factor, bound as the sparseSolve op with the factor's id
//   (sparse/graph/factors.ts): lazy, inside the scan body, differentiable in u0
//   (the adjoint solve reuses the same factor). Factors are cached on A per
//   (dt, dtype), so integrating the same system in several calls factors once.
// - A a dense Tensor [n, n]: the step matrix P = M⁻¹N is formed with one LU
//   solve (linalg.solve, differentiable in A too), and each step is u ← P u.
//
// Factor lifetime: the sparse factor registry holds factors weakly (a pending
// solve of a collected factor is a typed error, never a wrong answer). Here a
// factor is kept alive by A (the cache) and by every tensor this call returns,
// so results can be read after A is dropped; under jit, the compiled function
// refers to the factor of the A it closed over.

import { Tensor } from '../tensor/tensor.js';
import { eye as denseEye, tensor, type TensorData } from '../tensor/create.js';
import { DTypeError, ShapeError, ValueError } from '../tensor/errors.js';
import { isInexact, promoteTypes, type DType } from '../tensor/dtype.js';
import { fmtShape } from '../tensor/shape.js';
import { isSparse, type SparseMatrix } from '../sparse/base.js';
import { eye as sparseEye } from '../sparse/construct.js';
import { add, scale, sub } from '../sparse/functions.js';
import type { CsrMatrix } from '../sparse/csr.js';
import { splu, type SparseFactorization } from '../sparse/factor.js';
import { checkFiniteCsr } from '../sparse/finite.js';
import { solve } from '../linalg/solvers.js';
import { SingularMatrixError } from '../tensor/errors-linalg.js';
import type { Node } from '../compiler/ir.js';
import { checkFiniteState, march, schedule, stateArg, type FixedStepOptions } from './march.js';

const OP = 'integrate.crankNicolson';

/** crankNicolson's result: the saved states and the final one. */
export interface CrankNicolsonResult {
  /** Times of the saved states, float64 [k]. */
  t: Tensor;
  /** Saved states [k, ...u0.shape]: u0 first, then every saveEvery steps. */
  u: Tensor;
  /** The state after all steps. */
  uFinal: Tensor;
}

/** The sparse step's parts for one (A, dt, dtype): N = I + dt/2·A and the factor of I − dt/2·A. */
interface SparseStep {
  N: CsrMatrix;
  factor: SparseFactorization;
}

// Per matrix, the last few (dt, dtype) steps: a loop over chunks of one integration factors once.
const CACHE = new WeakMap<SparseMatrix, Map<string, SparseStep>>();
const CACHE_PER_MATRIX = 4;
// Returned tensors' nodes → the factor their pending solves use (see the header).
const KEEP = new WeakMap<Node, SparseFactorization>();

const SOLVE_DTYPES: readonly DType[] = ['float32', 'float64', 'complex64', 'complex128'];

function computeDType(aDType: DType, uDType: DType): DType {
  let d = promoteTypes(aDType, uDType);
  if (!isInexact(d)) d = 'float64';
  if (!SOLVE_DTYPES.includes(d)) throw new DTypeError(`${OP}: cannot integrate A of dtype ${aDType} with u0 of dtype ${uDType} (supported: ${SOLVE_DTYPES.join(', ')})`);
  return d;
}

function sparseStep(A: SparseMatrix, dt: number, d: DType): SparseStep {
  const key = `${dt}|${d}`;
  let perA = CACHE.get(A);
  const hit = perA?.get(key);
  if (hit && !hit.factor.disposed) return hit;
  const n = A.shape[0];
  const half = scale(A.tocsr(), dt / 2);
  const I = sparseEye(n, { dtype: d });
  let factor: SparseFactorization;
  try {
    factor = splu(sub(I, half));
  } catch (e) {
    // Name the integrator and the matrix it factored (the factorization names only itself).
    if (e instanceof SingularMatrixError) throw new SingularMatrixError(`${OP}: I − dt/2·A (dt = ${dt})`, e.index, undefined, `from ${e.op}`);
    throw e;
  }
  const step = { N: add(I, half), factor };
  if (perA === undefined) CACHE.set(A, (perA = new Map()));
  perA.set(key, step);
  if (perA.size > CACHE_PER_MATRIX) perA.delete(perA.keys().next().value!);
  return step;
}

/**
 * Integrates the linear system u' = A u from u(t0) = u0 with `steps`
 * Crank–Nicolson steps of dt, factoring I − dt/2·A once (see the file header).
 * A is a square sparse matrix (rlx.sparse) or a dense Tensor [n, n]; u0 is [n]
 * or [n, k] (k systems at once). Real A with complex u0 (or the reverse)
 * integrates in the complex dtype. Non-finite values in u0 or A are a
 * NonFiniteError (a ValueError); checking reads them once (unless they are
 * jit/vmap inputs). A singular I − dt/2·A is linalg's SingularMatrixError.
 * @example
 * ```ts
 * // u' = A u with A = diag(-1, -2), u(0) = [1, 1]: u(1) = [e^-1, e^-2]
 * const { uFinal } = integrate.crankNicolson(tensor([[-1, 0], [0, -2]]), tensor([1, 1]), { dt: 0.01, steps: 100 });
 * uFinal.tolist();   // ≈ [0.36788, 0.13533]  (e^-1 = 0.367879, e^-2 = 0.135335; O(dt²) error)
 * ```
 */
export function crankNicolson(A: SparseMatrix | Tensor | TensorData, u0: Tensor | TensorData, opts: FixedStepOptions): CrankNicolsonResult {
  const s = schedule(OP, opts);
  let u = stateArg(OP, 'u0', u0);
  const sparse = isSparse(A);
  let dense: Tensor | undefined;
  if (!sparse) {
    try {
      dense = A instanceof Tensor ? A : tensor(A as TensorData);
    } catch {
      throw new ValueError(`${OP}: A must be a sparse matrix (rlx.sparse) or a dense [n, n] Tensor, got ${A === null ? 'null' : typeof A}`);
    }
  }
  const shape = sparse ? A.shape : (dense!.node.shape as readonly number[]);
  if (shape.length !== 2 || shape[0] !== shape[1] || typeof shape[0] !== 'number')
    throw new ShapeError(`${OP}: A must be a square matrix [n, n], got ${fmtShape(shape)}`);
  const n = shape[0];
  if ((u.ndim !== 1 && u.ndim !== 2) || u.node.shape[0] !== n) throw new ShapeError(`${OP}: u0 must be [${n}] or [${n}, k] for A of shape [${n}, ${n}], got ${fmtShape(u.node.shape)}`);
  const d = computeDType(sparse ? A.dtype : dense!.dtype, u.dtype);
  if (u.dtype !== d) u = u.cast(d);
  checkFiniteState(OP, 'u0', u);

  let step: (n: Tensor, state: Tensor[]) => Tensor[];
  let factor: SparseFactorization | undefined;
  if (sparse) {
    const c = A.tocsr();
    if (!c.tensorValued) {
      checkFiniteCsr(`${OP}: A`, { shape: c.shape, dtype: c.dtype, indptr: c.indptr, indices: c.indices, data: c.data });
    }
    const parts = sparseStep(A, s.dt, d);
    factor = parts.factor;
    const { N, factor: F } = parts;
    step = (_n, [x]) => [F.solve(x!.ndim === 1 ? N.matvec(x!) : N.matmul(x!))];
  } else {
    let a = dense!;
    if (a.dtype !== d) a = a.cast(d);
    checkFiniteState(OP, 'A', a);
    const I = denseEye(n, n, { dtype: d });
    const half = a.mul(s.dt / 2);
    const P = solve(I.sub(half), I.add(half));
    step = (_n, [x]) => [P.matmul(x!)];
  }
  const r = march(step, [u], 1, s);
  const out = { t: r.t, u: r.saved[0]!, uFinal: r.final[0]! };
  if (factor) for (const t of [out.u, out.uFinal]) KEEP.set(t.node, factor);
  return out;
}
