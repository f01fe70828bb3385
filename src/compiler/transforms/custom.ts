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

/**
 * f with a user-given JVP: jvp(primals, tangents) → output tangent.
 * @example
 * ```ts
 * // softplus log(1 + e^x) with its derivative given as sigmoid(x)
 * const softplus = customJvp((x: Tensor) => x.exp().add(1).log(), (p, t) => t[0].mul(p[0].sigmoid()));
 * jvp(softplus, [tensor(0)], [tensor(1)])[1].item();   // 0.5  (sigmoid(0))
 * ```
 */
export function customJvp(f: (...xs: Tensor[]) => Tensor, jvp: NonNullable<CustomRules['jvp']>) {
  return customCall(f, { jvp });
}

/**
 * f with a user-given VJP: vjp(primals, out, ct) → input cotangents.
 * @example
 * ```ts
 * // the identity, with a backward pass that halves the cotangent
 * const halfGrad = customVjp((x: Tensor) => x.mul(1), (_p, _out, ct) => [ct.mul(0.5)]);
 * grad((x: Tensor) => halfGrad(x).sum())(tensor([1, 2])).tolist();   // [0.5, 0.5]
 * ```
 */
export function customVjp(f: (...xs: Tensor[]) => Tensor, vjp: NonNullable<CustomRules['vjp']>) {
  return customCall(f, { vjp });
}

/**
 * checkpoint(f): the backward pass recomputes f's inside from its inputs instead of keeping it.
 * @example
 * ```ts
 * const f = checkpoint((x: Tensor) => x.sin().mul(x));
 * grad((x: Tensor) => f(x).sum())(tensor([0, 1])).tolist();   // ≈ [0, 1.3818]  (sin x + x cos x)
 * ```
 */
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
