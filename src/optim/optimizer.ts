// The functional optimizer every rule shares (optax's GradientTransformation,
// with PyTorch's update rules): `state = opt.init(params)`, then
// `{params, state} = opt.step(params, grads, state)`. The state is a pytree of
// tensors only — the step count (an int32 scalar) and one slot tree per
// buffer (momentum, moments) with the params' structure — so a step inside jit
// traces once and every later step reuses the executable.
//
// This file owns what is not the rule: structure and shape checks, optional
// clipping by global norm, evaluating a scheduled lr at the step count,
// advancing the count, and rebuilding trees. A rule (sgd.ts, adam.ts) is a
// per-leaf function of (param, grad, slot values, step context).

import type { PyTreeOrNode } from '../compiler/transforms/pytree.js';
import { Tensor } from '../tensor/tensor.js';
import { zeros, zerosLike } from '../tensor/create.js';
import { DTypeError, ValueError } from '../tensor/errors.js';
import type { LearningRate } from './schedule.js';
import { clipLeaves } from './clip.js';
import { flattenTree, flattenLike, checkFloatLeaves, rebuild } from './tree.js';

/** An optimizer's state: the number of steps taken (int32 scalar tensor) and its buffers, each a tree shaped like the params. */
export interface OptimizerState {
  step: Tensor;
  readonly [slot: string]: PyTreeOrNode;
}

/** A functional optimizer: init makes the state for some params, step returns the updated params and state. */
export interface Optimizer<S extends OptimizerState = OptimizerState> {
  /** Fresh state for `params` (zero buffers, step count 0). */
  init(params: PyTreeOrNode): S;
  /**
   * One update; `grads` must have the structure and shapes of `params`, `state` must come from init(params) or an earlier step.
   * The results are lazy: an eager loop realizes them each step (or jits the step, which compiles it once).
   */
  step<P extends PyTreeOrNode>(params: P, grads: PyTreeOrNode, state: S): { params: P; state: S };
}

/** Options every optimizer takes besides its own. */
export interface CommonOptions {
  /** Clip the gradients to this global norm before the update (optim.clipGradNorm with normType 2). */
  clipNorm?: number;
}

/** What a rule sees at one step: the step count before this step, as a tensor, and the lr for this step. */
export interface StepContext {
  /** Steps taken before this one (int32 scalar): 0 at the first step. */
  count: Tensor;
  /** This step's learning rate: the number, or the schedule's float64 scalar at `count`. */
  lr: number | Tensor;
}

/** A per-leaf update rule: the new param and the new slot values (in `slots` order). */
export interface Rule {
  /** Names of the state's buffers, each a tree like the params, zero-initialised. */
  slots: readonly string[];
  /** Runs once per step (bias corrections): anything shared by the leaves. */
  prepare?(ctx: StepContext): unknown;
  update(p: Tensor, g: Tensor, slots: readonly Tensor[], ctx: StepContext, prepared: unknown): { param: Tensor; slots: Tensor[] };
}

/** A scalar coefficient for a tensor of `dtype`: numbers stay weak scalars, float64 scalar tensors are cast (torch rounds Python-float coefficients to the param's dtype). */
export const coef = (c: number | Tensor, dtype: Tensor['dtype']): number | Tensor => (typeof c === 'number' ? c : c.cast(dtype));

/** Builds an optimizer from a rule; `name` prefixes every error ("optim.adam"). */
export function makeOptimizer(name: string, lr: LearningRate, common: CommonOptions, rule: Rule): Optimizer {
  if (common.clipNorm !== undefined && (typeof common.clipNorm !== 'number' || !(common.clipNorm >= 0) || !Number.isFinite(common.clipNorm))) {
    throw new ValueError(`${name}: clipNorm must be a finite number >= 0, got ${String(common.clipNorm)}`);
  }
  const init = (params: PyTreeOrNode): OptimizerState => {
    const flat = flattenTree(params);
    checkFloatLeaves(`${name}.init`, 'params', flat);
    const state: Record<string, PyTreeOrNode> = { step: zeros([], { dtype: 'int32' }) };
    for (const s of rule.slots) state[s] = rebuild(flat, flat.leaves.map((p) => zerosLike(p)));
    return state as OptimizerState;
  };
  const step = <P extends PyTreeOrNode>(params: P, grads: PyTreeOrNode, state: OptimizerState): { params: P; state: OptimizerState } => {
    const op = `${name}.step`;
    const flat = flattenTree(params);
    checkFloatLeaves(op, 'params', flat);
    let g = flattenLike(op, 'params', flat, 'grads', grads);
    if (state === null || typeof state !== 'object' || !(state.step instanceof Tensor)) {
      throw new ValueError(`${op}: state must be what ${name}.init(params) returned (an object with a step count tensor), got ${state === null ? 'null' : typeof state}`);
    }
    if (state.step.ndim !== 0 || state.step.dtype !== 'int32') throw new DTypeError(`${op}: state.step must be an int32 scalar, got ${state.step.dtype} of shape [${state.step.shape.join(', ')}]`);
    const slots = rule.slots.map((s) => {
      if (!(s in state)) throw new ValueError(`${op}: state has no '${s}' buffer; was it made by ${name}.init with the same options?`);
      return flattenLike(op, 'params', flat, `state.${s}`, state[s]!);
    });
    if (common.clipNorm !== undefined) g = clipLeaves(op, g, common.clipNorm).leaves;
    const count = state.step;
    const ctx: StepContext = { count, lr: typeof lr === 'number' ? lr : lr(count) };
    const prepared = rule.prepare?.(ctx);
    const newParams: Tensor[] = [];
    const newSlots: Tensor[][] = rule.slots.map(() => []);
    flat.leaves.forEach((p, i) => {
      const r = rule.update(p, g[i]!, slots.map((s) => s[i]!), ctx, prepared);
      newParams.push(r.param.dtype === p.dtype ? r.param : r.param.cast(p.dtype));
      r.slots.forEach((v, k) => newSlots[k]!.push(v));
    });
    const out: Record<string, PyTreeOrNode> = { step: count.add(1) };
    rule.slots.forEach((s, k) => (out[s] = rebuild(flat, newSlots[k]!)));
    return { params: rebuild(flat, newParams) as P, state: out as OptimizerState };
  };
  return { init, step };
}
