// Matrix functions and products: trace, diagonal, matrixPower, expm, kron, cross.

import type { Tensor } from '../tensor/tensor.js';
import { ShapeError, ValueError } from '../tensor/errors.js';
import { realDType, DTYPE_INFO } from '../tensor/dtype.js';
import { ax as axAll, rg, s as sl } from '../tensor/slicing.js';
import { broadcastShapes, fmtShape } from '../tensor/shape.js';
import { stack } from '../tensor/ops/movement.js';
import { type CheckOptions, type MatrixLike, asTensor, matrixArg } from './input.js';
import { diagonalOf, identity } from './matrix.js';
import { solveRaw } from './ops/solve.js';
import { inv } from './solvers.js';
import { square } from './ops/common.js';

/** The offset-th diagonal over the last two axes (NumPy 2's linalg.diagonal). */
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

/** Sum of the offset-th diagonal over the last two axes (NumPy 2's linalg.trace). */
export function trace(x: MatrixLike, opts: { offset?: number } = {}): Tensor {
  return diagonal(x, opts).sum(-1);
}

/** a^n for integer n by repeated squaring (n < 0: the power of the inverse; n = 0: identity). */
export function matrixPower(aIn: MatrixLike, n: number): Tensor {
  if (!Number.isInteger(n)) throw new ValueError(`linalg.matrixPower: exponent must be an integer, got ${n}`);
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
  while (k > 0) {
    if (k & 1) result = result ? result.matmul(p) : p;
    k >>= 1;
    if (k) p = p.matmul(p);
  }
  return result!;
}

// Padé coefficients and thresholds θ_m from Higham (2005), "The scaling and
// squaring method for the matrix exponential revisited": degree 13 for double
// precision, degree 7 for single (θ7 = 3.93 for unit roundoff 2^-24).
const PADE13 = [64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800, 129060195264000, 10559470521600, 670442572800, 33522128640, 1323241920, 40840800, 960960, 16380, 182, 1];
const PADE7 = [17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1];
const THETA13 = 5.371920351148152;
const THETA7 = 3.925724783138660;

/**
 * The matrix exponential by scaling and squaring with a Padé approximant.
 * The number of squarings depends on ‖a‖₁ and is read from the values (so a
 * batched call uses the largest over the batch); the rest is ordinary ops, so
 * derivatives flow through matmul and solve.
 */
export function expm(aIn: MatrixLike, opts: CheckOptions = {}): Tensor {
  const a = matrixArg('expm', aIn, opts);
  const n = square('expm', { shape: a.shape.slice(-2) as number[], dtype: a.dtype });
  // Nothing to exponentiate in an empty matrix or batch (SciPy returns it as is); the ‖a‖₁
  // read below would be a max over nothing.
  if (a.size === 0) return a;
  const single = DTYPE_INFO[realDType(a.dtype)].itemsize === 4;
  const norm1 = (a.abs().sum(-2).max(-1).max().toArray() as ArrayLike<number>)[0]!;
  const theta = single ? THETA7 : THETA13;
  const s = norm1 > theta ? Math.max(0, Math.ceil(Math.log2(norm1 / theta))) : 0;
  const x = s > 0 ? a.mul(2 ** -s) : a;
  const I = identity(n, a.dtype);
  const x2 = x.matmul(x),
    x4 = x2.matmul(x2),
    x6 = x4.matmul(x2);
  let u: Tensor, v: Tensor;
  if (single) {
    const b = PADE7;
    u = x.matmul(x6.mul(b[7]!).add(x4.mul(b[5]!)).add(x2.mul(b[3]!)).add(I.mul(b[1]!)));
    v = x6.mul(b[6]!).add(x4.mul(b[4]!)).add(x2.mul(b[2]!)).add(I.mul(b[0]!));
  } else {
    const b = PADE13;
    u = x.matmul(x6.matmul(x6.mul(b[13]!).add(x4.mul(b[11]!)).add(x2.mul(b[9]!))).add(x6.mul(b[7]!)).add(x4.mul(b[5]!)).add(x2.mul(b[3]!)).add(I.mul(b[1]!)));
    v = x6.matmul(x6.mul(b[12]!).add(x4.mul(b[10]!)).add(x2.mul(b[8]!))).add(x6.mul(b[6]!)).add(x4.mul(b[4]!)).add(x2.mul(b[2]!)).add(I.mul(b[0]!));
  }
  let r = solveRaw(v.sub(u), v.add(u));
  for (let i = 0; i < s; i++) r = r.matmul(r);
  return r;
}

/** Kronecker product (NumPy's kron: the smaller rank padded with leading unit dims). */
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

/** Cross product of 3-vectors along axis (default −1), with broadcasting. */
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
