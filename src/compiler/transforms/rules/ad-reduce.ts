// Shared pieces of the reduction rules: the elementwise weights that the JVP
// sums over the reduced axes and the VJP multiplies the broadcast cotangent by.

import type { Tensor } from '../../../tensor/tensor.js';
import type { RuleCtx } from '../rule-types.js';
import { prim, select, sumAxes, unreduce } from './ad-helpers.js';

const axesOf = (c: RuleCtx): number[] => c.attrs['axes'] as number[];

/**
 * ∂ prod(x) / ∂ x_i = prod_{j≠i} x_j, exact with zeros (no division by zero):
 * with P' the product of the nonzero entries and k the number of zeros in the
 * reduced group, the partial is P'/x_i when k = 0, P' at the zero when k = 1,
 * and 0 otherwise. Full input shape; complex-safe (holomorphic).
 */
export function prodPartials(c: RuleCtx): Tensor {
  const x = c.inputs[0]!;
  const axes = axesOf(c),
    shape = x.node.shape;
  const z = x.eq(0);
  const safe = select(z, 1, x);
  const p = unreduce(prim('prod', [safe], { axes }), axes, shape);
  const k = unreduce(sumAxes(z.cast('int32'), axes), axes, shape);
  return select(k.eq(0), p.div(safe), select(k.eq(1).logicalAnd(z), p, 0));
}

/**
 * Where max/min is attained: mask (x's dtype, full shape) = [x == out], and count
 * (reduced shape) = the number of tied positions. The derivative is split
 * equally among ties (JAX's reduce_max rule): tangent = sum(t·mask)/count.
 */
export function maxMinWeights(c: RuleCtx): { mask: Tensor; count: Tensor } {
  const x = c.inputs[0]!;
  const axes = axesOf(c);
  const mask = x.eq(unreduce(c.out, axes, x.node.shape)).cast(x.dtype);
  return { mask, count: sumAxes(mask, axes) };
}

/** softmax(x) over the reduced axes: exp(x - logsumexp(x)) (full shape); a non-finite lse shifts by 0. */
export function logsumexpWeights(c: RuleCtx): Tensor {
  const x = c.inputs[0]!;
  const axes = axesOf(c);
  const out = c.out;
  const shift = select(out.abs().lt(Infinity), out, 0);
  return x.sub(unreduce(shift, axes, x.node.shape)).exp();
}
