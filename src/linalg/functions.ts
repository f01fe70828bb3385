// Matrix functions and products: trace, diagonal, matrixPower, expm, kron, cross.

import type { Tensor } from '../tensor/tensor.js';
import { ShapeError, ValueError } from '../tensor/errors.js';
import { ax as axAll, rg, s as sl } from '../tensor/slicing.js';
import { broadcastShapes, fmtShape } from '../tensor/shape.js';
import { stack } from '../tensor/ops/movement.js';
import { type CheckOptions, type MatrixLike, asTensor, matrixArg } from './input.js';
import { diagonalOf, identity } from './matrix.js';
import { expmRaw } from './ops/expm.js';
import { inv } from './solvers.js';
import { square } from './ops/common.js';

/**
 * The offset-th diagonal over the last two axes (NumPy 2's linalg.diagonal).
 * @example
 * ```ts
 * const a = tensor([[1, 2, 3], [4, 5, 6]]);
 * linalg.diagonal(a).tolist();                 // [1, 5]
 * linalg.diagonal(a, { offset: 1 }).tolist();  // [2, 6]
 * ```
 */
export function diagonal(xIn: MatrixLike, opts: { offset?: number } = {}): Tensor {
  const x = asTensor(xIn);
  if (x.ndim < 2) throw new ShapeError(`linalg.diagonal: expected at least 2 dims, got ${fmtShape(x.shape)}`);
  const k = opts.offset ?? 0;
  if (k === 0) return diagonalOf(x);
  const [m, n] = x.shape.slice(-2) as [number, number];
  const lead = x.shape.slice(0, -2).map(() => axAll());
  const sub = k > 0 ? x.slice(sl(...lead, rg(0, m), rg(Math.min(k, n), n))) : x.slice(sl(...lead, rg(Math.min(-k, m), m), rg(0, n)));
  return diagonalOf(sub);
}

/**
 * Sum of the offset-th diagonal over the last two axes (NumPy 2's linalg.trace).
 * @example
 * ```ts
 * linalg.trace(tensor([[1, 2], [3, 4]])).item();   // 5  (1 + 4)
 * ```
 */
export function trace(x: MatrixLike, opts: { offset?: number } = {}): Tensor {
  return diagonal(x, opts).sum(-1);
}

/**
 * a^n for integer n by repeated squaring (n < 0: the power of the inverse; n = 0: identity; numpy.linalg.matrix_power).
 * @example
 * ```ts
 * // [[1, 1], [1, 0]]^n = [[F(n+1), F(n)], [F(n), F(n-1)]] (Fibonacci numbers)
 * linalg.matrixPower(tensor([[1, 1], [1, 0]]), 10).tolist();   // [[89, 55], [55, 34]]
 * ```
 */
export function matrixPower(aIn: MatrixLike, n: number): Tensor {
  if (!Number.isSafeInteger(n)) throw new ValueError(`linalg.matrixPower: exponent must be a safe integer (|n| <= 2^53 - 1), got ${n}`);
  let a = asTensor(aIn);
  const m = a.shape[a.ndim - 1]!;
  square('matrixPower', { shape: a.shape.slice(-2) as number[], dtype: a.dtype });
  if (n === 0) {
    // The identity is built from scratch, not from a: pin it to a's device, or a^0 would
    // silently leave the device the caller chose (every other power stays on it).
    const id = identity(m, a.dtype).broadcastTo(a.shape);
    return a.device !== undefined ? id.on(a.device) : id;
  }
  if (n < 0) a = inv(a);
  let k = Math.abs(n);
  let result: Tensor | null = null;
  let p = a;
  // Arithmetic, not bit operations: `&` and `>>` truncate to 32 bits, which
  // broke every exponent >= 2^31.
  while (k > 0) {
    if (k % 2 === 1) result = result ? result.matmul(p) : p;
    k = Math.floor(k / 2);
    if (k) p = p.matmul(p);
  }
  return result!;
}

/**
 * The matrix exponential by Al-Mohy and Higham's 2009 scaling and squaring
 * (SciPy's expm: Padé degree and squarings per matrix of a batch, exact
 * diagonal and first off-diagonal for triangular input); works under jit/vmap
 * and is differentiable (ops/expm.ts, ops/expm-pade.ts).
 * @example
 * ```ts
 * // a nilpotent a (a² = 0): expm(a) = I + a exactly
 * linalg.expm(tensor([[0, 1], [0, 0]])).tolist();   // [[1, 1], [0, 1]]  (scipy.linalg.expm)
 * ```
 */
export function expm(aIn: MatrixLike, opts: CheckOptions = {}): Tensor {
  const a = matrixArg('expm', aIn, opts);
  square('expm', { shape: a.shape.slice(-2) as number[], dtype: a.dtype });
  return expmRaw(a);
}

/**
 * Kronecker product (NumPy's kron: the smaller rank padded with leading unit dims).
 * @example
 * ```ts
 * linalg.kron(tensor([1, 2]), tensor([1, 10])).tolist();   // [1, 10, 2, 20]  (numpy.kron)
 * linalg.kron(eye(2), tensor([[1, 2], [3, 4]])).shape;     // [4, 4]  (block diagonal)
 * ```
 */
export function kron(aIn: MatrixLike, bIn: MatrixLike): Tensor {
  let a = asTensor(aIn),
    b = asTensor(bIn);
  const r = Math.max(a.ndim, b.ndim);
  a = a.reshape([...Array(r - a.ndim).fill(1), ...a.shape]);
  b = b.reshape([...Array(r - b.ndim).fill(1), ...b.shape]);
  const ai = a.reshape(a.shape.flatMap((d) => [d, 1]));
  const bi = b.reshape(b.shape.flatMap((d) => [1, d]));
  return ai.mul(bi).reshape(a.shape.map((d, i) => d * b.shape[i]!));
}

/**
 * Cross product of 3-vectors along axis (default −1), with broadcasting (numpy.cross).
 * @example
 * ```ts
 * linalg.cross(tensor([1, 0, 0]), tensor([0, 1, 0])).tolist();   // [0, 0, 1]  (x × y = z)
 * ```
 */
export function cross(aIn: MatrixLike, bIn: MatrixLike, opts: { axis?: number } = {}): Tensor {
  const a0 = asTensor(aIn),
    b0 = asTensor(bIn);
  const ax = opts.axis ?? -1;
  const norm = (t: Tensor) => (ax < 0 ? ax + t.ndim : ax);
  if (a0.shape[norm(a0)] !== 3 || b0.shape[norm(b0)] !== 3) throw new ShapeError(`linalg.cross: both inputs need size 3 along axis ${ax}, got ${fmtShape(a0.shape)} and ${fmtShape(b0.shape)}`);
  const move = (t: Tensor) => t.swapaxes(norm(t), t.ndim - 1);
  const a = move(a0),
    b = move(b0);
  broadcastShapes('linalg.cross', a.shape, b.shape);
  const c = (t: Tensor, i: number) => t.select(-1, i);
  const out = stack([c(a, 1).mul(c(b, 2)).sub(c(a, 2).mul(c(b, 1))), c(a, 2).mul(c(b, 0)).sub(c(a, 0).mul(c(b, 2))), c(a, 0).mul(c(b, 1)).sub(c(a, 1).mul(c(b, 0)))], -1);
  return out.swapaxes(norm(out), out.ndim - 1);
}
