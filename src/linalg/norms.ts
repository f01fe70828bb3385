// norm (NumPy's vector and matrix norms), cond, matrixRank.

import type { Tensor } from '../tensor/tensor.js';
import { ShapeError, ValueError } from '../tensor/errors.js';
import { DTYPE_INFO, isComplex, realDType } from '../tensor/dtype.js';
import { fmtShape } from '../tensor/shape.js';
import { full } from '../tensor/create.js';
import { type MatrixLike, asTensor, linalgDTypeOf } from './input.js';
import { svdRaw } from './ops/svd.js';
import { inv } from './solvers.js';
import { where } from '../tensor/ops/elementwise.js';
import { diagonalOf, identity } from './matrix.js';
import { luRaw } from './ops/lu.js';
import { square } from './ops/common.js';
import { stopGradient } from '../tensor/ops/custom-call.js';
import { NRM2_MAX_CORE, nrm2Raw } from './ops/nrm2.js';

export type NormOrder = number | 'fro' | 'nuc' | null;

export interface NormOptions {
  ord?: NormOrder;
  /** One axis (vector norm) or two (matrix norm); default: all of a 1-D or 2-D input. */
  axis?: number | [number, number] | null;
  keepdims?: boolean;
}

const normAxis = (a: number, r: number, op: string) => {
  const k = a < 0 ? a + r : a;
  if (k < 0 || k >= r) throw new ShapeError(`linalg.${op}: axis ${a} is out of range for ${r} dims`);
  return k;
};

function vectorNorm(x: Tensor, ord: number, axis: number, keepdims: boolean): Tensor {
  const a = x.abs();
  if (ord === Infinity) return a.max(axis, keepdims);
  if (ord === -Infinity) return a.min(axis, keepdims);
  if (ord === 0) return a.ne(0).cast(a.dtype).sum(axis, keepdims);
  if (ord === 1) return a.sum(axis, keepdims);
  if (ord === 2) return twoNorm(x, [axis], keepdims);
  if (ord > 0) return scaledPowerNorm(x, ord, [axis], keepdims);
  return a.pow(ord).sum(axis, keepdims).pow(1 / ord);
}

/**
 * The 2-norm over `axes`. Double precision: the nrm2 op (one kernel pass, safe
 * from overflow and underflow) on x with those axes moved last (no movement
 * when they already are, as for the default norm); the op takes up to
 * NRM2_MAX_CORE trailing axes as they are, more are flattened. Single
 * precision keeps its one fused pass summing in float64.
 */
function twoNorm(x: Tensor, axes: number[], keepdims: boolean): Tensor {
  const core = axes.map((a) => x.shape[a]);
  if ((x.dtype !== 'float64' && x.dtype !== 'complex128') || !core.every((d): d is number => typeof d === 'number')) return scaledPowerNorm(x, 2, axes, keepdims);
  const rest = [...Array(x.ndim).keys()].filter((i) => !axes.includes(i));
  const perm = [...rest, ...axes];
  let moved = perm.every((p, i) => p === i) ? x : x.transpose(perm);
  let rank = axes.length;
  if (rank === 0 || rank > NRM2_MAX_CORE) {
    moved = moved.reshape([...rest.map((i) => x.shape[i]!), core.reduce((p, d) => p * d, 1)]);
    rank = 1;
  }
  const out = nrm2Raw(moved, rank);
  return keepdims ? out.reshape(x.shape.map((d, i) => (axes.includes(i) ? 1 : d))) : out;
}

/**
 * (Σ |x|^p)^(1/p) over `axes`, p > 0, without the overflow and underflow of
 * the plain sum (squares overflow above ~1e154 in float64, ~1e19 in float32,
 * and flush to 0 below ~1e-154 / ~1e-19). Single precision sums in float64,
 * whose range holds every float32 square: one fused pass, as fast as the plain
 * sum. Double precision (p ≠ 2 here: twoNorm takes p = 2 to the nrm2 op, and
 * comes here only for symbolic dims) scales by the max m = max |x|, but
 * with a power of two s ≈ 1/(2m) instead of a division by m: x·s is exact (no
 * rounding added), a multiply instead of a divide, and |x s| ≤ 1 so no power
 * overflows for any p. That is a max pass and a fused scaled sum; |x| is not
 * shared between them (a shared |x| is materialized: a third pass and a
 * buffer of x's size). Above p = 64, (1/4)^p could underflow: there x is
 * divided by m itself. s is a constant to differentiation (the result is
 * homogeneous in s); its exponent is clipped so that s stays finite and
 * nonzero for an all-zero (m = 0), subnormal or infinite slice.
 */
function scaledPowerNorm(x: Tensor, p: number, axes: number[], keepdims: boolean): Tensor {
  const root = (t: Tensor) => (p === 2 ? t.sqrt() : t.pow(1 / p));
  // |y|^p summed; a real y squares without the abs.
  const powSum = (y: Tensor, kd: boolean) => {
    const real = !isComplex(y.dtype);
    const t = p === 2 ? (real ? y : y.abs()).square() : y.abs().pow(p);
    return t.sum(axes, kd);
  };
  if (DTYPE_INFO[x.dtype].itemsize === 4 || (isComplex(x.dtype) && DTYPE_INFO[x.dtype].itemsize === 8)) {
    const wide = x.cast(isComplex(x.dtype) ? 'complex128' : 'float64');
    return root(powSum(wide, keepdims)).cast(isComplex(x.dtype) ? 'float32' : x.dtype);
  }
  if (axes.some((ax) => x.shape[ax] === 0)) return root(powSum(x, keepdims)); // no max of nothing; the sum is 0
  const m = stopGradient(x.abs().max(axes, true));
  let out: Tensor;
  if (p <= 64) {
    // e ≥ log2(m) + 1 even when the log is off by an ulp: 1/4 ≤ max |x s| < 1, whose p-th power
    // neither overflows nor underflows for p ≤ 64. The clip keeps 2^-e finite and nonzero.
    const e = m.log().div(Math.LN2).floor().add(2).clip(-1020, 1026);
    const scale = full([], 2, { dtype: m.dtype }).pow(e.neg());
    out = root(powSum(x.mul(scale), true)).div(scale);
  } else {
    // Larger p: (1/4)^p would underflow; divide by m itself (the largest term is exactly 1).
    const mm = m.clip(2 ** -1022, Number.MAX_VALUE);
    out = root(powSum(x.div(mm), true)).mul(mm);
  }
  return keepdims ? out : out.squeeze(axes);
}

/** Singular values of x over axes [r, c] moved last. */
function singularValues(x: Tensor, r: number, c: number): Tensor {
  const perm = [...Array(x.ndim).keys()].filter((i) => i !== r && i !== c);
  return svdRaw(x.transpose([...perm, r, c]), false, false)[0]!;
}

function matrixNorm(x: Tensor, ord: NormOrder, r: number, c: number, keepdims: boolean): Tensor {
  const a = x.abs();
  let out: Tensor;
  const rowAxisAfter = (ax: number, removed: number) => (ax > removed ? ax - 1 : ax);
  if (ord === null || ord === 'fro') out = twoNorm(x, [r, c], false);
  else if (ord === 'nuc') out = singularValues(x, r, c).sum(-1);
  else if (ord === 2) out = singularValues(x, r, c).max(-1);
  else if (ord === -2) out = singularValues(x, r, c).min(-1);
  else if (ord === 1) out = a.sum(r).max(rowAxisAfter(c, r));
  else if (ord === -1) out = a.sum(r).min(rowAxisAfter(c, r));
  else if (ord === Infinity) out = a.sum(c).max(rowAxisAfter(r, c));
  else if (ord === -Infinity) out = a.sum(c).min(rowAxisAfter(r, c));
  else throw new ValueError(`linalg.norm: invalid matrix norm order ${String(ord)} (expected 'fro', 'nuc', ±1, ±2, ±inf)`);
  if (keepdims) {
    const shape = x.shape.map((d, i) => (i === r || i === c ? 1 : d));
    out = out.reshape(shape);
  }
  return out;
}

/**
 * NumPy's linalg.norm: the 2-norm of all entries by default; a vector norm along one axis or a matrix norm over two.
 * @example
 * ```ts
 * linalg.norm(tensor([3, 4])).item();                            // 5
 * linalg.norm(tensor([[1, 2], [3, 4]]), { ord: 1 }).item();      // 6  (largest column sum of |a|)
 * linalg.norm(tensor([[1, 2], [3, 4]]), { ord: 'fro' }).item();  // ≈ 5.4772  (√30)
 * ```
 */
export function norm(xIn: MatrixLike, opts: NormOptions = {}): Tensor {
  let x = asTensor(xIn);
  const d = linalgDTypeOf('norm', x.dtype);
  if (d !== x.dtype) x = x.cast(d);
  const ord = opts.ord ?? null;
  const keepdims = opts.keepdims ?? false;
  let axis = opts.axis ?? null;
  if (axis === null) {
    if (ord === null) {
      // All entries: the axes as they are (no reshape) unless there are none or too many.
      if (x.ndim >= 1 && x.ndim <= NRM2_MAX_CORE) return twoNorm(x, [...Array(x.ndim).keys()], keepdims);
      const v = twoNorm(x.reshape([-1]), [0], false);
      return keepdims ? v.reshape(x.shape.map(() => 1)) : v;
    }
    if (x.ndim === 1) axis = 0;
    else if (x.ndim === 2) axis = [0, 1];
    else throw new ShapeError(`linalg.norm: an order needs axis for ${x.ndim}-D input ${fmtShape(x.shape)}`);
  }
  if (typeof axis === 'number') {
    if (typeof ord === 'string') throw new ValueError(`linalg.norm: '${ord}' is a matrix norm; a vector norm needs a numeric order`);
    return vectorNorm(x, ord ?? 2, normAxis(axis, x.ndim, 'norm'), keepdims);
  }
  const [r, c] = [normAxis(axis[0], x.ndim, 'norm'), normAxis(axis[1], x.ndim, 'norm')];
  if (r === c) throw new ValueError('linalg.norm: the two axes of a matrix norm must differ');
  return matrixNorm(x, ord, r, c, keepdims);
}

/**
 * The condition number in norm p (default 2: s_max / s_min; numpy.linalg.cond).
 * @example
 * ```ts
 * linalg.cond(tensor([[1, 0], [0, 2]])).item();   // 2  (singular values 2 and 1)
 * ```
 */
export function cond(xIn: MatrixLike, p: NormOrder = null): Tensor {
  const x = asTensor(xIn);
  const r = x.ndim - 2,
    c = x.ndim - 1;
  if (p === null || p === 2 || p === -2) {
    const s = singularValues(linalgCast(x), r, c);
    const q = s.max(-1).div(s.min(-1));
    return p === -2 ? s.min(-1).div(s.max(-1)) : q;
  }
  // NumPy returns inf for a singular matrix (its inverse is NaN there); inv would throw
  // SingularMatrixError when realized. Exactly-zero LU pivots (the criterion inv uses) mark
  // the singular batch entries: those get inf, and the identity in place of a so that inv
  // runs on the others.
  const xc = linalgCast(x);
  const n = square('cond', { shape: xc.shape.slice(-2) as number[], dtype: xc.dtype });
  if (n === 0) return matrixNorm(xc, p, r, c, false).mul(matrixNorm(inv(xc), p, r, c, false));
  const singular = diagonalOf(luRaw(xc)[0]).abs().min(-1).eq(0);
  const safe = where(singular.expandDims([-1, -2]), identity(n, xc.dtype), xc).cast(xc.dtype);
  const out = matrixNorm(xc, p, r, c, false).mul(matrixNorm(inv(safe), p, r, c, false));
  return where(singular, Infinity, out).cast(out.dtype);
}

const linalgCast = (x: Tensor) => {
  const d = linalgDTypeOf('cond', x.dtype);
  return d === x.dtype ? x : x.cast(d);
};

/**
 * Number of singular values above tol (default s_max · max(m, n) · eps, NumPy's matrix_rank).
 * @example
 * ```ts
 * linalg.matrixRank(tensor([[1, 2], [2, 4]])).item();   // 1  (second row = 2 × first)
 * ```
 */
export function matrixRank(xIn: MatrixLike, opts: { tol?: number } = {}): Tensor {
  const x = linalgCast(asTensor(xIn));
  if (x.ndim < 2) return x.ne(0).cast('int32').max(); // NumPy: rank of a vector is 1 unless all zero
  const s = svdRaw(x, false, false)[0]!;
  const [m, n] = x.shape.slice(-2) as [number, number];
  const eps = DTYPE_INFO[realDType(x.dtype)].itemsize === 4 ? 2 ** -23 : 2 ** -52;
  const tol = opts.tol !== undefined ? s.max(-1, true).mul(0).add(opts.tol) : s.max(-1, true).mul(Math.max(m, n) * eps);
  return s.gt(tol).cast('int32').sum(-1);
}
