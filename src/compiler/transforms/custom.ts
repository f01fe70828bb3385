// customJvp, customVjp and checkpoint: user rules on custom nodes
// (tensor/ops/custom-call.ts; stopGradient and relu live there too).
//
// A custom rule is a 'custom' node over (inputs..., value): its value is the
// last input (the ordinary computation, which the compiler keeps), and the
// transforms call the user's rule instead of differentiating the inside.

import { Tensor } from '../../tensor/tensor.js';
import { bind } from '../primitives.js';
import { customCall, type CustomRules } from '../../tensor/ops/custom-call.js';
import { flatten, unflatten, type PyTree } from './pytree.js';
import { vjp as vjpFn } from './grad.js';

/** f with a user-given JVP: jvp(primals, tangents) → output tangent. */
export function customJvp(f: (...xs: Tensor[]) => Tensor, jvp: NonNullable<CustomRules['jvp']>) {
  return customCall(f, { jvp });
}

/** f with a user-given VJP: vjp(primals, out, ct) → input cotangents. */
export function customVjp(f: (...xs: Tensor[]) => Tensor, vjp: NonNullable<CustomRules['vjp']>) {
  return customCall(f, { vjp });
}

/** checkpoint(f): the backward pass recomputes f's inside from its inputs instead of keeping it. */
export function checkpoint(f: (...xs: Tensor[]) => Tensor) {
  return customCall(f, {
    vjp: (xs, _out, ct) => {
      // Re-trace f on fresh copies of the inputs: the backward graph gets its own forward nodes.
      const fresh = xs.map((x) => new Tensor(bind('reshape', [x.node], { shape: [...x.node.shape], remat: true })));
      const [, back] = vjpFn((...ys: Tensor[]) => f(...ys), ...fresh);
      return back(ct) as Tensor[];
    },
  });
}

export { flatten, unflatten };
export type { PyTree };
