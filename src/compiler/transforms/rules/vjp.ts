// VJP rules, one per primitive (reverse mode). See rule-types.ts.

import type { RulePrimitive, VjpRule } from '../rule-types.js';

/** Reverse-mode rules; a primitive missing here cannot be differentiated (yet). */
export const VJP_RULES: Partial<Record<RulePrimitive, VjpRule>> & Record<string, VjpRule> = {
  add: (_c, g) => [g, g],
  sub: (_c, g) => [g, g.neg()],
  mul: ({ inputs: [a, b] }, g) => [g.mul(b!), g.mul(a!)],
  neg: (_c, g) => [g.neg()],
  exp: ({ out }, g) => [g.mul(out)],
  stopGradient: () => [null],
};
