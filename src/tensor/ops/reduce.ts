// Reductions over axes (NumPy names and keepdims), mean/var/std, logsumexp, cumsum.

import { bind, type ReduceOp } from '../../compiler/primitives.js';
import { type DType, isComplex, isInexact } from '../dtype.js';
import { DTypeError, ShapeError } from '../errors.js';
import { normAxes, normAxis, fmtShape } from '../shape.js';
import { Tensor, type Axis } from '../tensor.js';
import { castNode, unary, where } from './elementwise.js';
import { registerDecomposition } from '../../compiler/decompose.js';

// sum/prod/cumsum of bool and the small ints accumulate in int32 (NumPy: the
// platform int, int64, or uint64 for uint8; rlx has neither, int32 is its widest).
const accumDType = (d: DType): DType => (d === 'bool' || d === 'int8' || d === 'uint8' ? 'int32' : d);

function keep(t: Tensor, axes: number[], rank: number): Tensor {
  const shape = t.node.shape.slice();
  const out = [];
  let k = 0;
  for (let i = 0; i < rank; i++) out.push(axes.includes(i) ? 1 : shape[k++]!);
  return new Tensor(bind('reshape', [t.node], { shape: out }));
}

function checkNonEmpty(op: string, x: Tensor, axes: number[]): void {
  for (const a of axes) {
    if (x.node.shape[a] === 0) throw new ShapeError(`${op}: zero-size reduction over axis ${a} of shape ${fmtShape(x.node.shape)} has no identity`);
  }
}

/** sum/prod/max/min over `axis` (all axes by default). */
export function reduce(op: Exclude<ReduceOp, 'argmax' | 'argmin'>, x: Tensor, axis: Axis, keepdims: boolean): Tensor {
  const rank = x.ndim;
  const axes = normAxes(op, axis, rank);
  if (op === 'max' || op === 'min') {
    if (isComplex(x.dtype)) throw new DTypeError(`${op}: complex values have no order (got ${x.dtype})`);
    checkNonEmpty(op, x, axes);
  }
  const input = op === 'sum' || op === 'prod' ? castNode(x.node, accumDType(x.dtype)) : x.node;
  const r = new Tensor(axes.length === 0 ? input : bind(op, [input], { axes }));
  return keepdims ? keep(r, axes, rank) : r;
}

/** argmax/argmin along one axis, or over the flattened tensor when axis is undefined. */
export function argReduce(op: 'argmax' | 'argmin', x: Tensor, axis: number | undefined, keepdims: boolean): Tensor {
  if (isComplex(x.dtype)) throw new DTypeError(`${op}: complex values have no order (got ${x.dtype})`);
  if (axis === undefined) {
    const flat = new Tensor(bind('reshape', [x.node], { shape: [x.size] }));
    checkNonEmpty(op, flat, [0]);
    const r = new Tensor(bind(op, [flat.node], { axes: [0] }));
    return keepdims ? new Tensor(bind('reshape', [r.node], { shape: x.shape.map(() => 1) })) : r;
  }
  const a = normAxis(op, axis, x.ndim);
  checkNonEmpty(op, x, [a]);
  const r = new Tensor(bind(op, [x.node], { axes: [a] }));
  return keepdims ? keep(r, [a], x.ndim) : r;
}

function countOf(x: Tensor, axes: number[]): number {
  let n = 1;
  for (const a of axes) {
    const d = x.node.shape[a]!;
    if (typeof d !== 'number') throw new ShapeError(`mean: reducing over dynamic dim '${d}' needs its size; not supported yet`);
    n *= d;
  }
  return n;
}

/** Arithmetic mean; integer inputs give float64. */
export function mean(x: Tensor, axis: Axis, keepdims: boolean): Tensor {
  const axes = normAxes('mean', axis, x.ndim);
  const xf = isInexact(x.dtype) ? x : x.cast('float64');
  return reduce('sum', xf, axes, keepdims).div(countOf(x, axes));
}

/** Variance with `ddof` (NumPy): mean(|x - mean(x)|²) · n / (n - ddof); real for complex input. */
export function variance(x: Tensor, axis: Axis, keepdims: boolean, ddof: number): Tensor {
  const axes = normAxes('var', axis, x.ndim);
  const xf = isInexact(x.dtype) ? x : x.cast('float64');
  const dev = xf.sub(mean(xf, axes, true));
  const sq = isComplex(xf.dtype) ? dev.mul(dev.conj()).real() : dev.mul(dev);
  const n = countOf(x, axes);
  return reduce('sum', sq, axes, keepdims).div(Math.max(n - ddof, 0));
}

/** log(sum(exp(x))) computed stably; kept whole in the graph as a composite op. */
export function logsumexp(x: Tensor, axis: Axis, keepdims: boolean): Tensor {
  if (isComplex(x.dtype)) throw new DTypeError(`logsumexp: complex input is not supported (got ${x.dtype})`);
  const axes = normAxes('logsumexp', axis, x.ndim);
  checkNonEmpty('logsumexp', x, axes);
  const xf = isInexact(x.dtype) ? x : x.cast('float64');
  const r = new Tensor(axes.length === 0 ? xf.node : bind('logsumexp', [xf.node], { axes }));
  return keepdims ? keep(r, axes, x.ndim) : r;
}

/** The decomposition of logsumexp into primitives (used by backends without a kernel). */
export function logsumexpDecomposed(x: Tensor, axes: number[]): Tensor {
  const m = reduce('max', x, axes, true);
  // A non-finite max (all -inf, or +inf) must not poison x - m with NaN: shift by 0 there.
  const shift = where(unary('abs', m).lt(Infinity), m, 0);
  const s = reduce('sum', x.sub(shift).exp(), axes, false);
  return s.log().add(reduce('sum', shift, axes, false));
}

// For a backend without a logsumexp kernel (legalize.ts).
registerDecomposition('logsumexp', ([x], a) => logsumexpDecomposed(new Tensor(x!), a['axes'] as number[]).node);

/** Cumulative sum along `axis` (flattened when undefined, like NumPy). */
export function cumsum(x: Tensor, axis: number | undefined): Tensor {
  let t = x;
  let a: number;
  if (axis === undefined) {
    t = new Tensor(bind('reshape', [x.node], { shape: [x.size] }));
    a = 0;
  } else a = normAxis('cumsum', axis, x.ndim);
  return new Tensor(bind('cumsum', [castNode(t.node, accumDType(t.dtype))], { axis: a }));
}

