// The JVP, VJP and batching rules of registered ops (compiler/op-registry.ts):
// the generic part around each op's own per-output rules. A registered call
// has several outputs (the call and its 'part' nodes), so autodiff.ts hands
// these rules the tangents or cotangents of all of them at once. An op
// registered without a rule is a TransformError naming it when a transform
// needs that rule.

import { Tensor } from '../../../tensor/tensor.js';
import { opDef, missingRule, type OpRuleCtx } from '../../op-registry.js';
import { callOutputs, partOf } from '../../primitives.js';
import { TransformError } from '../../../tensor/errors.js';
import type { BatchRule, RuleCtx } from '../rule-types.js';
import { batchDim, batchFirst, bindT } from './batch-helpers.js';

function opCtx(c: RuleCtx): OpRuleCtx {
  return { ...c, outs: callOutputs(c.node).map((n) => (n === c.node ? c.out : new Tensor(n))) };
}

/** Tangents of every output of registered call c (null = zero) from its inputs' tangents. */
export function opJvp(c: RuleCtx, tangents: (Tensor | null)[]): (Tensor | null)[] {
  const name = c.attrs['op'] as string;
  const def = opDef(name);
  if (!def.jvp) throw new TransformError(missingRule('jvp', name));
  return def.jvp(opCtx(c), tangents);
}

/** Cotangents of registered call c's inputs from those of its outputs (null = zero). */
export function opVjp(c: RuleCtx, cts: (Tensor | null)[]): (Tensor | null)[] {
  const name = c.attrs['op'] as string;
  const def = opDef(name);
  if (!def.vjp) throw new TransformError(missingRule('vjp', name));
  return def.vjp(opCtx(c), cts);
}

/** A registered op maps over leading batch dims (unless it says 'none'): the vmapped axis becomes the first batch dim of every input. */
export const opBatch: BatchRule = ({ inputs, attrs }, dims) => {
  const name = attrs['op'] as string;
  if (opDef(name).batching === 'none') throw new TransformError(missingRule('vmap', name));
  const b = batchDim(inputs, dims);
  const xs = inputs.map((x, i) => batchFirst(x, dims[i]!, b));
  return { out: bindT('registered', xs, attrs), dim: 0 };
};

/** Output i of a batched call is output i of the call that opBatch bound (batched along axis 0 too). */
export const partBatch: BatchRule = ({ inputs: [call], attrs }, [d]) => {
  if (d !== 0 || call!.node.op !== 'registered') throw new Error('internal: a part is batched only over the call opBatch made');
  return { out: new Tensor(partOf(call!.node, attrs['index'] as number)), dim: 0 };
};
