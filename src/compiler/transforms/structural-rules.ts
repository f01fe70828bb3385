// Rules of the structural primitives the interpreters handle themselves:
// 'custom' (customJvp / customVjp / checkpoint: call the user's rule, or
// differentiate the inner value when none is given), 'stopGradient', control
// flow, and the batching of a registered op's 'part' (its derivatives come
// with its call's: autodiff.ts).

import type { BatchRule, JvpRule, VjpRule } from './rule-types.js';
import { customRules } from '../../tensor/ops/custom-call.js';
import { Tensor } from '../../tensor/tensor.js';
import { constNode, bind } from '../primitives.js';
import { batchFirst, batchSize } from './rules/batch-helpers.js';
import { scanJvp, scanVjp, scanBatch } from '../control/scan-rules.js';
import { partBatch } from './rules/op-rules.js';
import { condJvp, condVjp, condBatch, whileJvp, whileVjp, whileBatch } from '../control/loop-rules.js';

const zeros = (t: Tensor) => {
  const n = constNode(0, t.dtype, t.node.shape);
  n.device = t.node.device;
  return new Tensor(n);
};

export const customJvpRule: JvpRule = ({ attrs, inputs }, ts) => {
  const r = customRules(attrs);
  const xs = inputs.slice(0, -1);
  if (!r.jvp) return ts[ts.length - 1] ?? null;
  return r.jvp(xs, xs.map((x, i) => ts[i] ?? zeros(x)));
};

export const customVjpRule: VjpRule = ({ attrs, inputs, out }, ct) => {
  const r = customRules(attrs);
  const xs = inputs.slice(0, -1);
  if (!r.vjp) return [...xs.map(() => null), ct];
  return [...r.vjp(xs, out, ct), null];
};

export const customBatchRule: BatchRule = ({ attrs, inputs }, dims) => {
  const b = batchSize(inputs, dims);
  const xs = inputs.map((t, i) => batchFirst(t, dims[i]!, b));
  return { out: new Tensor(bind('custom', xs.map((x) => x.node), attrs)), dim: 0 };
};

const stopJvp: JvpRule = () => null;
const stopVjp: VjpRule = () => [null];
const stopBatch: BatchRule = ({ inputs }, [d]) => ({ out: new Tensor(bind('stopGradient', [inputs[0]!.node])), dim: d ?? null });

// The control-flow rules (control/*-rules.ts) apply the transforms to their bodies, so they and
// the transforms import each other: the tables call them through arrows, which read the imported
// bindings when a rule runs, not when this module loads (either module can then be imported first).
export const STRUCTURAL_JVP: Record<string, JvpRule> = {
  custom: customJvpRule,
  stopGradient: stopJvp,
  scan: (c, t) => scanJvp(c, t),
  cond: (c, t) => condJvp(c, t),
  while: (c, t) => whileJvp(c, t),
};
export const STRUCTURAL_VJP: Record<string, VjpRule> = {
  custom: customVjpRule,
  stopGradient: stopVjp,
  scan: (c, g) => scanVjp(c, g),
  cond: (c, g) => condVjp(c, g),
  while: (c, g) => whileVjp(c, g),
};
export const STRUCTURAL_BATCH: Record<string, BatchRule> = {
  custom: customBatchRule,
  stopGradient: stopBatch,
  scan: (c, d) => scanBatch(c, d),
  cond: (c, d) => condBatch(c, d),
  while: (c, d) => whileBatch(c, d),
  part: partBatch,
};
