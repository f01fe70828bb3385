// Small lazy building blocks shared by the JVP and VJP rules (rules/jvp.ts,
// rules/vjp.ts). Everything here binds graph nodes; nothing is computed.
//
// Primitives need equal shapes and dtypes, so helpers that build nodes directly
// with `bind` take care to pass operands of the node's own shape and dtype.

import { Tensor } from '../../../tensor/tensor.js';
import { bind, constNode } from '../../primitives.js';
import type { Attrs } from '../../ir.js';
import type { DType } from '../../../tensor/dtype.js';
import type { Dim } from '../../../tensor/shape.js';
import { binary } from '../../../tensor/ops/elementwise.js';

/** A new tensor for primitive `op` on the given tensors (no promotion, no broadcasting). */
export const prim = (op: Parameters<typeof bind>[0], xs: readonly Tensor[], attrs: Attrs = {}): Tensor =>
  new Tensor(bind(op, xs.map((x) => x.node), attrs));

/** A literal of x's dtype and shape ([re, im] for a complex literal). */
export const litLike = (x: Tensor, v: number | readonly [number, number]): Tensor => {
  const n = constNode(v, x.dtype, x.node.shape);
  n.device = x.node.device;
  return new Tensor(n);
};

/** A literal of the given dtype and shape. */
export const lit = (v: number | readonly [number, number], dtype: DType, shape: readonly Dim[]): Tensor => new Tensor(constNode(v, dtype, shape));

/** Zeros of the given dtype and shape (a literal: no storage). */
export const zerosOf = (dtype: DType, shape: readonly Dim[]): Tensor => lit(0, dtype, shape);

/** v - x with a weak scalar v (keeps x's dtype). */
export const rsub = (v: number, x: Tensor): Tensor => binary('sub', v, x);

/** where(c, x, y) for operands of one shape and dtype; numbers become literals of the other operand's dtype. */
export function select(c: Tensor, x: Tensor | number, y: Tensor | number): Tensor {
  const like = x instanceof Tensor ? x : y instanceof Tensor ? y : undefined;
  if (!like) throw new Error('internal: select needs at least one tensor branch');
  const xt = x instanceof Tensor ? x : litLike(like, x);
  const yt = y instanceof Tensor ? y : litLike(like, y);
  return prim('where', [c, xt, yt]);
}

/** 1/x where x != 0, and 0 where x == 0 (no inf/NaN is ever built, so derivatives of this stay finite too). */
export function recipOrZero(x: Tensor): Tensor {
  const z = x.eq(0);
  return select(z, 0, litLike(x, 1).div(select(z, 1, x)));
}

/** i * x for a complex x. */
export const mulI = (x: Tensor): Tensor => x.mul(litLike(x, [0, 1]));

/** Keep-dims shape of a reduction of `inShape` over `axes`. */
export const keptShape = (inShape: readonly Dim[], axes: readonly number[]): Dim[] => inShape.map((d, i) => (axes.includes(i) ? 1 : d));

/** sum over axes (the primitive; axes non-empty, or returns x). */
export const sumAxes = (x: Tensor, axes: readonly number[]): Tensor => (axes.length === 0 ? x : prim('sum', [x], { axes: [...axes] }));

/** Broadcasts a reduction's output back over the reduced axes of `inShape`. */
export function unreduce(g: Tensor, axes: readonly number[], inShape: readonly Dim[]): Tensor {
  if (axes.length === 0) return g;
  const kept = prim('reshape', [g], { shape: keptShape(inShape, axes) });
  return prim('expand', [kept], { shape: [...inShape] });
}

/** reshape to `shape` unless it already has it. */
export const reshapeTo = (x: Tensor, shape: readonly Dim[]): Tensor =>
  x.node.shape.length === shape.length && x.node.shape.every((d, i) => d === shape[i]) ? x : prim('reshape', [x], { shape: [...shape] });

/** Swaps the last two axes (matrix transpose of a batch; no conjugation). */
export function mT(x: Tensor): Tensor {
  const r = x.node.shape.length;
  const perm = [...Array(r).keys()];
  [perm[r - 2], perm[r - 1]] = [perm[r - 1]!, perm[r - 2]!];
  return prim('permute', [x], { perm });
}

/** Reverses x along `axis` (a negative-step slice view; the axis must be static). */
export function flipAxis(x: Tensor, axis: number): Tensor {
  const shape = x.node.shape;
  const n = shape[axis] as number;
  return prim('slice', [x], {
    start: shape.map((_, i) => (i === axis ? Math.max(n - 1, 0) : 0)),
    step: shape.map((_, i) => (i === axis ? -1 : 1)),
    size: [...shape],
  });
}
