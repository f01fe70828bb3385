// Linear solves: solve, lstsq, inv, pinv, solveTriangular, choSolve, luSolve.
// NumPy/SciPy names and conventions; batched over broadcast leading dims; a
// 1-D b is one right-hand side (NumPy 2's rule) and gives a 1-D x.

import type { Tensor } from '../tensor/tensor.js';
import { ValueError } from '../tensor/errors.js';
import { DTYPE_INFO, realDType } from '../tensor/dtype.js';
import { mH } from './matrix.js';
import { type CheckOptions, type MatrixLike, matrixArg, solveArgs, unvector, asTensor } from './input.js';
import { solveRaw } from './ops/solve.js';
import { invRaw } from './ops/inv.js';
import { triangularSolveRaw } from './ops/triangular.js';
import { lstsqRaw, pinvFromSvd } from './ops/lstsq.js';
import { svdRaw } from './ops/svd.js';
import { permutationMatrix } from './ops/lu.js';
import { ax, rg, s as sl } from '../tensor/slicing.js';

/**
 * x with a x = b (numpy.linalg.solve); a SingularMatrixError names the zero pivot.
 * @example
 * ```ts
 * linalg.solve(tensor([[3, 1], [1, 2]]), tensor([9, 8])).tolist();   // [2, 3]  (numpy.linalg.solve)
 * ```
 */
export function solve(a: MatrixLike, b: MatrixLike, opts: CheckOptions = {}): Tensor {
  const { a: A, b: B, vector } = solveArgs('solve', a, b, opts);
  return unvector(solveRaw(A, B), vector);
}

/**
 * a⁻¹ (getrf + getri; numpy.linalg.inv); a SingularMatrixError names the zero pivot, as solve's.
 * @example
 * ```ts
 * linalg.inv(tensor([[4, 7], [2, 6]])).tolist();   // ≈ [[0.6, -0.7], [-0.2, 0.4]]  (det 10)
 * ```
 */
export function inv(a: MatrixLike, opts: CheckOptions = {}): Tensor {
  return invRaw(matrixArg('inv', a, opts));
}

export interface LstsqOptions extends CheckOptions {
  /** Singular values at or below rcond · s_max count as zero; default (or < 0) eps · max(m, n) (NumPy 2). */
  rcond?: number;
}

export interface LstsqResult {
  x: Tensor;
  /** NumPy's: squared 2-norms of the residual columns when m > n and rank = n, else an empty [0] tensor (reads the rank). */
  readonly residuals: Tensor;
  rank: Tensor;
  s: Tensor;
}

/**
 * Minimum-norm least squares (gelsd, numpy.linalg.lstsq): {x, residuals, rank, s}.
 * @example
 * ```ts
 * // fit y = c0 + c1 t through (0, 1), (1, 2), (2, 3)
 * const { x, rank } = linalg.lstsq(tensor([[1, 0], [1, 1], [1, 2]]), tensor([1, 2, 3]));
 * x.tolist();   // ≈ [1, 1]; rank.item() = 2
 * ```
 */
export function lstsq(a: MatrixLike, b: MatrixLike, opts: LstsqOptions = {}): LstsqResult {
  const A = matrixArg('lstsq', a, opts);
  let B = asTensor(b);
  const vector = B.ndim === 1;
  const { a: A2, b: B2 } = solveArgs('lstsq', A, vector ? B.reshape([B.shape[0]!, 1]) : B, opts);
  const rcond = opts.rcond ?? -1;
  if (typeof rcond !== 'number' || Number.isNaN(rcond)) throw new ValueError(`linalg.lstsq: rcond must be a number, got ${rcond}`);
  const [x, sv, rank] = lstsqRaw(A2, B2, rcond);
  B = B2;
  const [m, n] = A2.shape.slice(-2) as [number, number];
  let res: Tensor | undefined;
  return {
    x: unvector(x!, vector),
    rank: rank!,
    s: sv!,
    get residuals(): Tensor {
      if (res) return res;
      const full = m > n && (rank!.toArray() as Int32Array).every((r) => r === n);
      const r = B.sub(A2.matmul(x!)).abs().square().sum(-2);
      res = full ? r : r.slice(sl(...r.shape.slice(0, -1).map(() => ax()), rg(0, 0)));
      return res;
    },
  };
}

export interface PinvOptions extends CheckOptions {
  /** Relative cutoff for small singular values; default max(m, n) · eps (NumPy 2's rtol). */
  rtol?: number;
}

/**
 * The Moore–Penrose pseudo-inverse by SVD (numpy.linalg.pinv).
 * @example
 * ```ts
 * linalg.pinv(tensor([[1], [2]])).tolist();   // ≈ [[0.2, 0.4]]  (aᵀ / (aᵀa) for a full-rank column)
 * ```
 */
export function pinv(a: MatrixLike, opts: PinvOptions = {}): Tensor {
  const A = matrixArg('pinv', a, opts);
  const [m, n] = A.shape.slice(-2) as [number, number];
  const eps = DTYPE_INFO[realDType(A.dtype)].itemsize === 4 ? 2 ** -23 : 2 ** -52;
  const [u, sv, vh] = svdRaw(A, false, true);
  return pinvFromSvd(u!, sv!, vh!, opts.rtol ?? Math.max(m, n) * eps);
}

export type Trans = 0 | 1 | 2 | 'N' | 'T' | 'C';
const transCode = (op: string, t: Trans | undefined): 0 | 1 | 2 => {
  const c = t === undefined || t === 'N' ? 0 : t === 'T' ? 1 : t === 'C' ? 2 : t;
  if (c !== 0 && c !== 1 && c !== 2) throw new ValueError(`linalg.${op}: trans must be 0, 1, 2, 'N', 'T' or 'C', got ${String(t)}`);
  return c;
};

export interface TriangularSolveOptions extends CheckOptions {
  /** Which triangle of a is used; default false (upper), as SciPy. */
  lower?: boolean;
  trans?: Trans;
  unitDiagonal?: boolean;
}

/**
 * SciPy's solve_triangular: x with op(a) x = b.
 * @example
 * ```ts
 * // upper triangle by default: 2 x0 + x1 = 4, 4 x1 = 8
 * linalg.solveTriangular(tensor([[2, 1], [0, 4]]), tensor([4, 8])).tolist();   // [1, 2]
 * ```
 */
export function solveTriangular(a: MatrixLike, b: MatrixLike, opts: TriangularSolveOptions = {}): Tensor {
  const { a: A, b: B, vector } = solveArgs('solveTriangular', a, b, opts);
  const x = triangularSolveRaw(A, B, { lower: opts.lower ?? false, trans: transCode('solveTriangular', opts.trans), unitDiagonal: opts.unitDiagonal ?? false });
  return unvector(x, vector);
}

/**
 * SciPy's cho_solve: x with a x = b from a's Cholesky factor (lower: a = l lᴴ, else a = uᴴ u).
 * @example
 * ```ts
 * const l = linalg.cholesky(tensor([[4, 2], [2, 3]]));
 * linalg.choSolve(l, tensor([6, 5])).tolist();   // ≈ [1, 1]  (4 + 2 = 6, 2 + 3 = 5)
 * ```
 */
export function choSolve(factor: MatrixLike, b: MatrixLike, opts: CheckOptions & { lower?: boolean } = {}): Tensor {
  const lower = opts.lower ?? true;
  const { a: C, b: B, vector } = solveArgs('choSolve', factor, b, opts);
  const y = triangularSolveRaw(C, B, { lower, trans: lower ? 0 : 2, unitDiagonal: false });
  return unvector(triangularSolveRaw(C, y, { lower, trans: lower ? 2 : 0, unitDiagonal: false }), vector);
}

/**
 * SciPy's lu_solve from luFactor's result: op(a) x = b with trans 0, 1 (transpose) or 2 (conjugate transpose).
 * @example
 * ```ts
 * const f = linalg.luFactor(tensor([[2, 1], [4, 3]]));
 * linalg.luSolve(f, tensor([3, 7])).tolist();                  // [1, 1]  (2 + 1 = 3, 4 + 3 = 7)
 * linalg.luSolve(f, tensor([6, 4]), { trans: 'T' }).tolist();   // [1, 1]  (aᵀ: 2 + 4 = 6, 1 + 3 = 4)
 * ```
 */
export function luSolve(factors: { lu: Tensor; piv: Tensor; perm?: Tensor }, b: MatrixLike, opts: CheckOptions & { trans?: Trans } = {}): Tensor {
  const trans = transCode('luSolve', opts.trans);
  const { a: F, b: B, vector } = solveArgs('luSolve', factors.lu, b, opts);
  const perm = factors.perm ?? permFromPiv(factors.piv, F.shape[F.ndim - 2]!);
  const p = permutationMatrix(perm, F.dtype); // (p y)[i] = y[perm[i]]
  const tri = (x: Tensor, lower: boolean, t: 0 | 1 | 2) => triangularSolveRaw(F, x, { lower, trans: t, unitDiagonal: lower });
  if (trans === 0) return unvector(tri(tri(p.matmul(B), true, 0), false, 0), vector);
  // op(a) = op(u) op(l) p (a = pᵀ l u), so x = pᵀ op(l)⁻¹ op(u)⁻¹ b
  const pt = trans === 2 ? mH(p) : p.swapaxes(-1, -2);
  return unvector(pt.matmul(tri(tri(B, false, trans), true, trans)), vector);
}

/** The permutation made by LAPACK-style row interchanges (read now: pivots are data). */
function permFromPiv(piv: Tensor, m: number): Tensor {
  const k = piv.shape[piv.ndim - 1]!;
  const pv = piv.cast('int32').toArray() as Int32Array;
  const batch = pv.length / Math.max(k, 1);
  const out = new Int32Array(batch * m);
  for (let b = 0; b < batch; b++) {
    const perm = out.subarray(b * m, (b + 1) * m);
    for (let i = 0; i < m; i++) perm[i] = i;
    for (let i = 0; i < k; i++) {
      const j = pv[b * k + i]!;
      const t = perm[i]!;
      perm[i] = perm[j]!;
      perm[j] = t;
    }
  }
  return asTensor(out).reshape([...piv.shape.slice(0, -1), m]);
}
