// whileLoop and cond: control flow whose trip count or branch depends on data.
//
// whileLoop(cond, body, init) runs body while cond(carry) is true (forward and
// batched; not reverse-differentiable: use scan / forLoop for a fixed count).
// cond(pred, t, f, ...operands) runs one branch; its derivatives and its
// batching with a batched predicate select between both branches.

import { Tensor } from '../../tensor/tensor.js';
import { TransformError } from '../../tensor/errors.js';
import { fmtShape, shapesEqual } from '../../tensor/shape.js';
import { bind } from '../primitives.js';
import { flatten, unflatten, type PyTree, type TreeDef, type TensorTree, type TensorTreeLike } from '../transforms/pytree.js';
import { traceBody, deviceOfOperands } from './body.js';
import type { Aval } from '../bodies.js';
import { commonDType, layout, unpack } from './pack.js';
import type { CarryOf, NotInferred, Tree } from './types.js';

const avalOf = (t: Tensor): Aval => ({ shape: t.node.shape, dtype: t.dtype });

function scalarBool(what: string, t: Tensor): Tensor {
  if (t.node.shape.length !== 0 || t.dtype !== 'bool') throw new TransformError(`${what}: the predicate must be a bool scalar, got ${fmtShape(t.node.shape)} ${t.dtype}`);
  return t;
}

/**
 * whileLoop(cond, body, init): repeats carry = body(carry) while cond(carry); typed from init like scan.
 * @example
 * ```ts
 * // doubles 1 until it reaches 100: the first power of 2 >= 100
 * whileLoop((x) => x.lt(100), (x) => x.mul(2), tensor(1)).item();   // 128
 * ```
 */
export function whileLoop<C extends Tree>(cond: (carry: CarryOf<C>) => Tensor, body: (carry: CarryOf<C>) => CarryOf<C>, init: C): CarryOf<C>;
export function whileLoop(cond: (carry: PyTree) => Tensor, body: (carry: PyTree) => PyTree, init: PyTree): PyTree;
// `any` carries in the implementation, as in scan: it accepts both signatures' bodies.
export function whileLoop(cond: (carry: any) => Tensor, body: (carry: any) => PyTree, init: PyTree): PyTree {
  const { leaves, def } = flatten(init);
  const avals = leaves.map(avalOf);
  const dtype = commonDType(avals);
  const inAvals = avals.map((a) => ({ shape: a.shape, dtype }));
  const back = (ps: Tensor[]) => unflatten(def, ps.map((p, i) => (p.dtype === avals[i]!.dtype ? p : p.cast(avals[i]!.dtype))));
  const dev = deviceOfOperands(leaves);
  const c = traceBody((...ps) => [scalarBool('whileLoop', cond(back(ps)))], inAvals, dev);
  const b = traceBody((...ps) => {
    const out = flatten(body(back(ps))).leaves;
    if (out.length !== leaves.length) throw new TransformError(`whileLoop: the body returned ${out.length} leaves, expected ${leaves.length}`);
    return out.map((t, i) => {
      if (!shapesEqual(t.node.shape, avals[i]!.shape) || t.dtype !== avals[i]!.dtype) throw new TransformError(`whileLoop: carry leaf ${i} changed from ${fmtShape(avals[i]!.shape)} ${avals[i]!.dtype} to ${fmtShape(t.node.shape)} ${t.dtype}`);
      return t.cast(dtype);
    });
  }, inAvals, dev);
  const { total } = layout(avals);
  const node = bind('while', [...c.consts, ...b.consts, ...leaves.map((t) => t.cast(dtype).node)], {
    cond: c.body.id,
    body: b.body.id,
    nCondConst: c.consts.length,
    nBodyConst: b.consts.length,
    nCarry: leaves.length,
    total,
    dtype,
  });
  return unflatten(def, unpack(node, avals));
}

/**
 * cond(pred, onTrue, onFalse, ...operands): the chosen branch applied to the
 * operands. Typed: the branches' parameters are the operands (Tensors), the
 * result has onTrue's structure, and onFalse must return the same structure.
 * @example
 * ```ts
 * const x = tensor(-3);
 * cond(x.gt(0), (v) => v.mul(2), (v) => v.neg(), x).item();   // 3  (the false branch: -x)
 * ```
 */
export function cond<Ops extends Tensor[], R extends Tree>(
  pred: Tensor,
  onTrue: (...ops: Ops) => R,
  onFalse: (...ops: Ops) => TensorTreeLike<NotInferred<R>>,
  ...operands: Ops
): TensorTree<NotInferred<R>>;
export function cond(pred: Tensor, onTrue: (...ops: Tensor[]) => PyTree, onFalse: (...ops: Tensor[]) => PyTree, ...operands: Tensor[]): PyTree {
  scalarBool('cond', pred);
  const avals = operands.map(avalOf);
  let outDef: TreeDef | undefined;
  let outAvals: Aval[] | undefined;
  const branch = (name: string, fn: (...ops: Tensor[]) => PyTree) =>
    traceBody((...ps) => {
      const { leaves, def } = flatten(fn(...ps));
      const av = leaves.map(avalOf);
      if (!outAvals) (outAvals = av), (outDef = def);
      else if (av.length !== outAvals.length || av.some((a, i) => !shapesEqual(a.shape, outAvals![i]!.shape) || a.dtype !== outAvals![i]!.dtype)) {
        throw new TransformError(`cond: the ${name} branch returns ${av.map((a) => `${fmtShape(a.shape)} ${a.dtype}`).join(', ')}, the other ${outAvals.map((a) => `${fmtShape(a.shape)} ${a.dtype}`).join(', ')}`);
      }
      const dt = commonDType(av);
      return leaves.map((t) => t.cast(dt));
    }, avals, deviceOfOperands([pred, ...operands]));
  const t = branch('true', onTrue);
  const f = branch('false', onFalse);
  const dtype = commonDType(outAvals!);
  const { total } = layout(outAvals!);
  const node = bind('cond', [pred.node, ...t.consts, ...f.consts, ...operands.map((o) => o.node)], {
    onTrue: t.body.id,
    onFalse: f.body.id,
    nTrueConst: t.consts.length,
    nFalseConst: f.consts.length,
    nOps: operands.length,
    total,
    dtype,
  });
  return unflatten(outDef!, unpack(node, outAvals!));
}
