// Factorizations, NumPy/SciPy-shaped: lu (SciPy: a = p l u), luFactor, qr,
// cholesky, svd, eigh / eigvalsh, eig / eigvals. All batched over leading dims.

import type { Tensor } from '../tensor/tensor.js';
import { ValueError } from '../tensor/errors.js';
import { ax, rg, s } from '../tensor/slicing.js';
import { identity, mT, tril, triu } from './matrix.js';
import { type CheckOptions, type MatrixLike, matrixArg } from './input.js';
import { luRaw, permutationMatrix } from './ops/lu.js';
import { qrRaw, type QrMode } from './ops/qr.js';
import { choleskyRaw } from './ops/cholesky.js';
import { svdRaw } from './ops/svd.js';
import { eighRaw } from './ops/eigh.js';
import { eigRaw } from './ops/eig.js';

const lastCols = (x: Tensor, a: number, b: number) => x.slice(s(...x.shape.slice(0, -1).map(() => ax()), rg(a, b)));
const lastRows = (x: Tensor, a: number, b: number) => x.slice(s(...x.shape.slice(0, -2).map(() => ax()), rg(a, b)));

/**
 * SciPy's lu: a = p @ l @ u with l [m, k] unit lower, u [k, n] upper, p [m, m] a permutation (k = min(m, n)).
 * @example
 * ```ts
 * const { p, l, u } = linalg.lu(tensor([[2, 1], [4, 3]]));
 * p.tolist();   // [[0, 1], [1, 0]]  (rows swapped: pivot 4; scipy.linalg.lu)
 * l.tolist();   // [[1, 0], [0.5, 1]]
 * u.tolist();   // [[4, 3], [0, -0.5]]
 * ```
 */
export function lu(a: MatrixLike, opts: CheckOptions = {}): { p: Tensor; l: Tensor; u: Tensor } {
  const x = matrixArg('lu', a, opts);
  const [m, n] = x.shape.slice(-2) as [number, number];
  const k = Math.min(m, n);
  const [f, , perm] = luRaw(x);
  const l = tril(lastCols(f, 0, k), -1).add(identity(Math.max(m, k), x.dtype).slice(s(rg(0, m), rg(0, k))));
  const u = triu(lastRows(f, 0, k));
  // rows of a permuted by perm give l u, so a = pᵀ-of-perm (l u): p[perm[i], i] = 1
  return { p: mT(permutationMatrix(perm, x.dtype)), l, u };
}

/**
 * SciPy's lu_factor: the packed factors, the 0-based row interchanges and the permutation they make (for luSolve).
 * @example
 * ```ts
 * const { lu, piv } = linalg.luFactor(tensor([[2, 1], [4, 3]]));
 * lu.tolist();    // [[4, 3], [0.5, -0.5]]  (u above the diagonal, l's multipliers below; scipy.linalg.lu_factor)
 * piv.tolist();   // [1, 1]
 * ```
 */
export function luFactor(a: MatrixLike, opts: CheckOptions = {}): { lu: Tensor; piv: Tensor; perm: Tensor } {
  const [f, piv, perm] = luRaw(matrixArg('luFactor', a, opts));
  return { lu: f!, piv: piv!, perm: perm! };
}

export interface QrOptions extends CheckOptions {
  mode?: QrMode;
}

/**
 * NumPy's qr: {q, r} (mode 'reduced' default, 'complete') or {r} (mode 'r').
 * @example
 * ```ts
 * const { q, r } = linalg.qr(tensor([[3, 0], [4, 5]]));
 * // q = [[-0.6, -0.8], [-0.8, 0.6]], r = [[-5, -4], [0, 3]]; q.matmul(r) ≈ a
 * ```
 */
export function qr(a: MatrixLike, opts: QrOptions = {}): { q?: Tensor; r: Tensor } {
  const mode = opts.mode ?? 'reduced';
  const parts = qrRaw(matrixArg('qr', a, opts), mode);
  return mode === 'r' ? { r: parts[0]! } : { q: parts[0]!, r: parts[1]! };
}

export interface CholeskyOptions extends CheckOptions {
  /** Lower factor l with a = l lᴴ (default, NumPy) or upper u with a = uᴴ u (SciPy's default is upper). */
  lower?: boolean;
}

/**
 * The Cholesky factor of a Hermitian positive-definite matrix (numpy.linalg.cholesky); only the factor's triangle of a is read.
 * @example
 * ```ts
 * linalg.cholesky(tensor([[4, 2], [2, 3]])).tolist();   // [[2, 0], [1, √2]]  (l with a = l lᵀ)
 * ```
 */
export function cholesky(a: MatrixLike, opts: CholeskyOptions = {}): Tensor {
  return choleskyRaw(matrixArg('cholesky', a, opts), opts.lower ?? true);
}

export interface SvdOptions extends CheckOptions {
  fullMatrices?: boolean;
  computeUv?: boolean;
}

/**
 * The singular value decomposition a = u diag(s) vh, s descending (numpy.linalg.svd); {s} only when computeUv is false.
 * @example
 * ```ts
 * const { u, s: sv, vh } = linalg.svd(tensor([[3, 0], [0, 4]]));   // (s is a root export: renamed)
 * sv.tolist();   // [4, 3]  (numpy.linalg.svd)
 * u!.mul(sv).matmul(vh!).tolist();   // ≈ [[3, 0], [0, 4]]  (u diag(s) vh = a; u·s scales u's columns)
 * ```
 */
export function svd(a: MatrixLike, opts: SvdOptions = {}): { u?: Tensor; s: Tensor; vh?: Tensor } {
  const computeUv = opts.computeUv ?? true;
  const parts = svdRaw(matrixArg('svd', a, opts), opts.fullMatrices ?? false, computeUv);
  return computeUv ? { u: parts[0]!, s: parts[1]!, vh: parts[2]! } : { s: parts[0]! };
}

export interface EighOptions extends CheckOptions {
  /** Which triangle is read: 'L' (default) or 'U'. */
  uplo?: 'L' | 'U';
}

const lowerOf = (op: string, uplo: string | undefined) => {
  if (uplo !== undefined && uplo !== 'L' && uplo !== 'U') throw new ValueError(`linalg.${op}: uplo must be 'L' or 'U', got '${String(uplo)}'`);
  return (uplo ?? 'L') === 'L';
};

/**
 * Eigenvalues (ascending, real) and eigenvectors (columns) of a Hermitian matrix (numpy.linalg.eigh).
 * @example
 * ```ts
 * const { eigenvalues, eigenvectors } = linalg.eigh(tensor([[2, 1], [1, 2]]));
 * eigenvalues.tolist();   // [1, 3]  (numpy.linalg.eigh)
 * ```
 */
export function eigh(a: MatrixLike, opts: EighOptions = {}): { eigenvalues: Tensor; eigenvectors: Tensor } {
  const [w, v] = eighRaw(matrixArg('eigh', a, opts), lowerOf('eigh', opts.uplo), true);
  return { eigenvalues: w!, eigenvectors: v! };
}

/**
 * Eigenvalues (ascending, real) of a Hermitian matrix (numpy.linalg.eigvalsh).
 * @example
 * ```ts
 * linalg.eigvalsh(tensor([[2, 1], [1, 2]])).tolist();   // [1, 3]  (numpy.linalg.eigvalsh)
 * ```
 */
export function eigvalsh(a: MatrixLike, opts: EighOptions = {}): Tensor {
  return eighRaw(matrixArg('eigvalsh', a, opts), lowerOf('eigvalsh', opts.uplo), false)[0]!;
}

/**
 * Complex eigenvalues and unit-norm right eigenvectors (columns) of a general square matrix (numpy.linalg.eig).
 * @example
 * ```ts
 * const { eigenvalues, eigenvectors } = linalg.eig(tensor([[2, 0], [0, 3]]));
 * eigenvalues.real().tolist();    // [2, 3]  (complex128; imaginary parts 0)
 * eigenvectors.real().tolist();   // [[1, 0], [0, 1]]  (numpy.linalg.eig)
 * ```
 */
export function eig(a: MatrixLike, opts: CheckOptions = {}): { eigenvalues: Tensor; eigenvectors: Tensor } {
  const [w, v] = eigRaw(matrixArg('eig', a, opts), true);
  return { eigenvalues: w!, eigenvectors: v! };
}

/**
 * Complex eigenvalues of a general square matrix (numpy.linalg.eigvals).
 * @example
 * ```ts
 * // a rotation by 90°: eigenvalues ±i
 * linalg.eigvals(tensor([[0, -1], [1, 0]])).tolist();   // [[0, 1], [0, -1]]  ([re, im] pairs: i, -i)
 * ```
 */
export function eigvals(a: MatrixLike, opts: CheckOptions = {}): Tensor {
  return eigRaw(matrixArg('eigvals', a, opts), false)[0]!;
}
