// stopGradient, customJvp, customVjp and checkpoint.
//
// A custom rule is a 'custom' node over (inputs..., value): its value is the
// last input (the ordinary computation, which the compiler keeps), and the
// transforms call the user's rule instead of differentiating the inside.

import { Tensor } from '../../tensor/tensor.js';
import { TransformError } from '../../tensor/errors.js';
import { bind } from '../primitives.js';
import type { Attrs } from '../ir.js';
import { flatten, unflatten, type PyTree } from './pytree.js';
import { vjp as vjpFn } from './grad.js';

/** Identity whose derivative is zero. */
export function stopGradient(x: Tensor): Tensor {
  return new Tensor(bind('stopGradient', [x.node]));
}

export interface CustomRules {
  jvp?: (primals: Tensor[], tangents: Tensor[]) => Tensor;
  vjp?: (primals: Tensor[], out: Tensor, ct: Tensor) => (Tensor | null)[];
}

// Each customCall's rules, keyed by the one attrs object its nodes share: the
// rules live exactly as long as the customCall or a node made by it (a
// checkpoint(f) built per call leaves nothing behind), so the registry needs
// no bound of its own. The id spells the rule in the compile-cache key.
const RULES = new WeakMap<Attrs, CustomRules>();
let nextRule = 1;

/** The rules of a custom node, from its attrs (used by the JVP/VJP/batch rules of 'custom'). */
export function customRules(attrs: Attrs): CustomRules {
  const r = RULES.get(attrs);
  if (!r) throw new Error(`internal: custom rule ${String(attrs['rule'])} is not registered for these attrs`);
  return r;
}

export function customCall(f: (...xs: Tensor[]) => Tensor, rules: CustomRules) {
  const attrs: Attrs = Object.freeze({ rule: nextRule++ });
  RULES.set(attrs, rules);
  return (...xs: Tensor[]): Tensor => {
    const y = f(...xs);
    if (!(y instanceof Tensor)) throw new TransformError('customJvp/customVjp: f must return one tensor');
    return new Tensor(bind('custom', [...xs.map((x) => x.node), y.node], attrs));
  };
}

/**
 * relu = maximum(x, 0) with derivative 0 at x = 0 (as PyTorch and jax.nn.relu;
 * maximum's own rule splits ties 0.5/0.5). NaN passes through.
 */
export const relu = customCall((x) => x.maximum(0), {
  jvp: ([x], [t]) => t!.mul(x!.gt(0)),
  vjp: ([x], _out, ct) => [ct.mul(x!.gt(0))],
});

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
