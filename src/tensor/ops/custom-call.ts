// Nodes with rules of their own: stopGradient, and 'custom' nodes over
// (inputs..., value) whose value is the last input (the ordinary computation,
// which the compiler keeps) and whose derivatives the transforms take from
// the rules given here instead of differentiating the inside. relu is one.
// Part of the Tensor API, below the transforms (which read the rules through
// customRules): compiler/transforms/custom.ts builds customJvp, customVjp and
// checkpoint on customCall.

import { Tensor } from '../tensor.js';
import { TransformError } from '../errors.js';
import { bind } from '../../compiler/primitives.js';
import { registerDecomposition } from '../../compiler/decompose.js';
import type { Attrs } from '../../compiler/ir.js';

/**
 * Identity whose derivative is zero.
 * @example
 * ```ts
 * // x · c with c = x held constant: the derivative is c, not 2x
 * const f = (x: Tensor) => x.mul(stopGradient(x)).sum();
 * grad(f)(tensor([1, 2, 3])).tolist();   // [1, 2, 3]
 * ```
 */
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

// Its value is its last input: a backend without a 'custom' kernel runs that (legalize.ts).
registerDecomposition('custom', (xs) => xs[xs.length - 1]!);

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

