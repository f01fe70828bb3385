// Batching rules, one per primitive (vmap). See rule-types.ts.

import type { BatchRule, RulePrimitive } from '../rule-types.js';
import { elementwiseBatch } from './batch-helpers.js';

/** vmap rules; a primitive missing here cannot be batched (yet). */
export const BATCH_RULES: Partial<Record<RulePrimitive, BatchRule>> & Record<string, BatchRule> = {
  add: elementwiseBatch,
  sub: elementwiseBatch,
  mul: elementwiseBatch,
  neg: elementwiseBatch,
  exp: elementwiseBatch,
  stopGradient: elementwiseBatch,
};
