// Dynamic loss scaling for mixed-precision training: PyTorch's GradScaler
// (torch.cuda.amp.GradScaler, 1.13) as functions of a tensor state, so a
// jitted training step holds it without a host sync or a retrace.
//
// GradScaler's three moves, and torch's code for each:
//   scale(loss)   outputs * self._scale                      (float32 scale)
//   unscale_      inv_scale = self._scale.double().reciprocal().float()
//                 _amp_foreach_non_finite_check_and_unscale_(grads, found_inf, inv_scale):
//                   for each element: if (!isfinite(val)) *found_inf = 1.f;
//                                     val = val * inv_scale   (in float32, the opmath of float)
//                 (the check reads the scaled value, before the multiply)
//   step          optimizer.step() only if found_inf == 0 (_maybe_opt_step)
//   update        _amp_update_scale_(scale, growth_tracker, found_inf, growth_factor,
//                                    backoff_factor, growth_interval)   (AmpKernels.cu):
//                   if (*found_inf) {
//                     *current_scale = (*current_scale)*backoff_factor;   // float × double, stored as float
//                     *growth_tracker = 0;
//                   } else {
//                     auto successful = (*growth_tracker) + 1;
//                     if (successful == growth_interval) {
//                       auto new_scale = static_cast<float>((*current_scale)*growth_factor);
//                       if (isfinite(new_scale)) *current_scale = new_scale;   // never grow to inf
//                       *growth_tracker = 0;
//                     } else {
//                       *growth_tracker = successful;
//                     }
//                   }
// Here the skip is a select (`where(finite, updated, old)`) over the params and
// the optimizer state, and the scale update is the same select arithmetic: no
// branch on a value, so the whole step is one graph. (torch 1.13's CPU build
// has neither kernel — `_amp_update_scale_` and the unscale check are CUDA
// only — so the tests check against a transcription of the rule above.)

import type { PyTreeOrNode } from '../compiler/transforms/pytree.js';
import { flatten, unflatten, defKey } from '../compiler/transforms/pytree.js';
import { Tensor } from '../tensor/tensor.js';
import { full, zeros } from '../tensor/create.js';
import { where } from '../tensor/ops/elementwise.js';
import { promoteTypes } from '../tensor/dtype.js';
import { DTypeError, ValueError } from '../tensor/errors.js';
import type { Optimizer, OptimizerState } from './optimizer.js';
import { flattenTree, checkFloatLeaves, rebuild } from './tree.js';

/** GradScaler's constructor arguments (its defaults). */
export interface LossScalerOptions {
  /** The first scale (default 2¹⁶). */
  initScale?: number;
  /** Multiplies the scale after `growthInterval` finite steps in a row (default 2; must be > 1). */
  growthFactor?: number;
  /** Multiplies the scale after a step with an inf/NaN gradient (default 0.5; must be in (0, 1)). */
  backoffFactor?: number;
  /** Finite steps in a row before the scale grows (default 2000; a positive integer). */
  growthInterval?: number;
}

/** A loss scaler's state: two scalar tensors, so a jitted step carries them without retracing (a type alias, so it is a pytree to jit's types). */
export type LossScaleState = {
  /** The current scale (float32 scalar). */
  scale: Tensor;
  /** Finite steps since the scale last changed (int32 scalar; GradScaler's `_growth_tracker`). */
  growthTracker: Tensor;
};

/** The four moves of dynamic loss scaling, as functions of a {@link LossScaleState}. */
export interface LossScaler {
  /** The options in force (defaults filled in). */
  readonly options: Readonly<Required<LossScalerOptions>>;
  /** The first state: {scale: initScale, growthTracker: 0}. */
  init(): LossScaleState;
  /** loss × scale, in the loss's dtype (computed in float32 or wider, as torch's `outputs * scale`). */
  scale(loss: Tensor, state: LossScaleState): Tensor;
  /** The gradients × float32(1/scale), and whether every element of them was finite before unscaling (a bool scalar). */
  unscale<G extends PyTreeOrNode>(grads: G, state: LossScaleState): { grads: G; finite: Tensor };
  /** The next state after a step whose gradients were `finite` or not (torch's `_amp_update_scale_`). */
  update(state: LossScaleState, finite: Tensor): LossScaleState;
}

const OPTION_KEYS = ['initScale', 'growthFactor', 'backoffFactor', 'growthInterval'];

function checkOptions(op: string, opts: LossScalerOptions): Required<LossScalerOptions> {
  if (opts === null || typeof opts !== 'object') throw new ValueError(`${op}: expects options {initScale, growthFactor, backoffFactor, growthInterval}, got ${opts === null ? 'null' : typeof opts}`);
  const unknown = Object.keys(opts).filter((k) => !OPTION_KEYS.includes(k));
  if (unknown.length) throw new ValueError(`${op}: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (expected ${OPTION_KEYS.join(', ')})`);
  const initScale = opts.initScale ?? 2 ** 16;
  const growthFactor = opts.growthFactor ?? 2;
  const backoffFactor = opts.backoffFactor ?? 0.5;
  const growthInterval = opts.growthInterval ?? 2000;
  const show = (v: unknown) => (typeof v === 'number' ? String(v) : typeof v);
  if (typeof initScale !== 'number' || !(initScale > 0) || !Number.isFinite(Math.fround(initScale)))
    throw new ValueError(`${op}: initScale must be a positive number finite in float32, got ${show(initScale)}`);
  if (typeof growthFactor !== 'number' || !(growthFactor > 1) || !Number.isFinite(growthFactor)) throw new ValueError(`${op}: growthFactor must be a finite number > 1, got ${show(growthFactor)}`);
  if (typeof backoffFactor !== 'number' || !(backoffFactor > 0 && backoffFactor < 1)) throw new ValueError(`${op}: backoffFactor must be a number in (0, 1), got ${show(backoffFactor)}`);
  if (typeof growthInterval !== 'number' || !Number.isInteger(growthInterval) || growthInterval < 1 || growthInterval > 2 ** 31 - 1)
    throw new ValueError(`${op}: growthInterval must be a positive integer (at most 2³¹ − 1), got ${show(growthInterval)}`);
  return { initScale, growthFactor, backoffFactor, growthInterval };
}

function checkState(op: string, state: LossScaleState): void {
  if (state === null || typeof state !== 'object' || !(state.scale instanceof Tensor) || !(state.growthTracker instanceof Tensor))
    throw new ValueError(`${op}: state must be {scale, growthTracker} as init() returns it, got ${state === null ? 'null' : typeof state}`);
  if (state.scale.ndim !== 0 || state.scale.dtype !== 'float32') throw new DTypeError(`${op}: state.scale must be a float32 scalar, got ${state.scale.dtype} of shape [${state.scale.shape.join(', ')}]`);
  if (state.growthTracker.ndim !== 0 || state.growthTracker.dtype !== 'int32')
    throw new DTypeError(`${op}: state.growthTracker must be an int32 scalar, got ${state.growthTracker.dtype} of shape [${state.growthTracker.shape.join(', ')}]`);
}

function checkFinite(op: string, finite: Tensor): void {
  if (!(finite instanceof Tensor) || finite.ndim !== 0 || finite.dtype !== 'bool')
    throw new DTypeError(`${op}: finite must be a bool scalar tensor (unscale's finite), got ${finite instanceof Tensor ? `${finite.dtype} of shape [${finite.shape.join(', ')}]` : typeof finite}`);
}

/**
 * Dynamic loss scaling with torch.cuda.amp.GradScaler's rule, as pure functions of a tensor state:
 * scale the loss, unscale the gradients (noting whether any was inf/NaN), skip the step when one was,
 * and update the scale — × backoffFactor after a non-finite step, × growthFactor after growthInterval
 * finite steps in a row (never to inf). For an optimizer that does all of it, see {@link withLossScaling}.
 * @example
 * ```ts
 * const ls = optim.lossScaler({ initScale: 1024, growthInterval: 2 });
 * let st = ls.init();
 * const w = tensor([1, 2], { dtype: 'float32' });
 * const g = grad((p: Tensor) => ls.scale(p.square().sum(), st))(w);   // the gradient of the scaled loss
 * g.tolist();                                   // [2048, 4096]
 * const { grads, finite } = ls.unscale(g, st);
 * grads.tolist();                               // [2, 4]
 * finite.item();                                // true
 * st = ls.update(st, finite);
 * st = ls.update(st, finite);                   // two finite steps: the scale grows
 * st.scale.item();                              // 2048
 * st = ls.update(st, tensor(false));            // an overflow: it backs off
 * st.scale.item();                              // 1024
 * ```
 */
export function lossScaler(opts: LossScalerOptions = {}): LossScaler {
  const o = checkOptions('optim.lossScaler', opts);
  const init = (): LossScaleState => ({ scale: full([], o.initScale, { dtype: 'float32' }), growthTracker: zeros([], { dtype: 'int32' }) });
  const scale = (loss: Tensor, state: LossScaleState): Tensor => {
    const op = 'optim.lossScaler.scale';
    checkState(op, state);
    if (!(loss instanceof Tensor)) throw new ValueError(`${op}: loss must be a Tensor, got ${loss === null ? 'null' : typeof loss}`);
    if (loss.dtype !== 'float16' && loss.dtype !== 'bfloat16' && loss.dtype !== 'float32' && loss.dtype !== 'float64')
      throw new DTypeError(`${op}: loss must be a real floating tensor, got ${loss.dtype}`);
    const wide = promoteTypes(loss.dtype, 'float32');
    const out = loss.cast(wide).mul(state.scale.cast(wide));
    return out.dtype === loss.dtype ? out : out.cast(loss.dtype);
  };
  const unscale = <G extends PyTreeOrNode>(grads: G, state: LossScaleState): { grads: G; finite: Tensor } => {
    const op = 'optim.lossScaler.unscale';
    checkState(op, state);
    const flat = flattenTree(grads);
    checkFloatLeaves(op, 'grads', flat);
    const inv = full([], 1, { dtype: 'float64' }).div(state.scale.cast('float64')).cast('float32');
    // Count the elements that are not finite (|g| < inf is false for ±inf and NaN), before the multiply as torch checks them.
    let bad: Tensor = zeros([], { dtype: 'int32' });
    const leaves = flat.leaves.map((g) => {
      bad = bad.add(g.abs().lt(Infinity).logicalNot().sum());
      const wide = promoteTypes(g.dtype, 'float32');
      const u = g.cast(wide).mul(inv.cast(wide));
      return u.dtype === g.dtype ? u : u.cast(g.dtype);
    });
    return { grads: rebuild(flat, leaves) as G, finite: bad.eq(0) };
  };
  const update = (state: LossScaleState, finite: Tensor): LossScaleState => {
    const op = 'optim.lossScaler.update';
    checkState(op, state);
    checkFinite(op, finite);
    const s = state.scale;
    const s64 = s.cast('float64');
    const backedOff = s64.mul(o.backoffFactor).cast('float32');
    const grown = s64.mul(o.growthFactor).cast('float32');
    const successful = state.growthTracker.add(1);
    const grows = successful.eq(o.growthInterval);
    const onFinite = where(grows, where(grown.lt(Infinity), grown, s), s);
    return {
      scale: where(finite, onFinite, backedOff),
      growthTracker: where(finite, where(grows, 0, successful), 0),
    };
  };
  return { options: Object.freeze({ ...o }), init, scale, unscale, update };
}

/** The state of a {@link withLossScaling} optimizer. */
export interface LossScaledState extends OptimizerState {
  /** Steps taken, skipped ones included (int32 scalar); `step − inner.step` is the number skipped. */
  step: Tensor;
  /** The wrapped optimizer's state: it advances (its step count too) only on the steps that were not skipped. */
  inner: OptimizerState;
  /** The loss scale (float32 scalar). */
  scale: Tensor;
  /** Finite steps since the scale last changed (int32 scalar). */
  growthTracker: Tensor;
}

/** An optimizer that takes the gradients of the scaled loss (see {@link withLossScaling}). */
export interface LossScalingOptimizer extends Optimizer<LossScaledState> {
  /** The scaler (its options and functions). */
  readonly scaler: LossScaler;
  /** loss × the state's scale: differentiate this, and pass its gradients to step. */
  scale(loss: Tensor, state: LossScaledState): Tensor;
}

/**
 * Wraps `opt` with dynamic loss scaling (GradScaler's `scale` / `step` / `update` in one optimizer):
 * `step(params, grads, state)` takes the gradients of `scale(loss, state)`, unscales them, and applies
 * `opt`'s update only if every gradient element is finite — else params and `opt`'s state stay as
 * they were (a select, not a branch: one compiled graph) — then updates the scale as
 * {@link lossScaler} does. Skipped steps do not advance `opt`'s step count (as torch skips
 * `optimizer.step()`), so a schedule of that count does not advance either.
 * @example
 * ```ts
 * const opt = optim.withLossScaling(optim.sgd({ lr: 0.1 }), { initScale: 256 });
 * const params = { w: tensor([1, 2], { dtype: 'float32' }) };
 * let st = opt.init(params);
 * const loss = (p: typeof params, k: number) => p.w.square().sum().mul(k);
 * const g = grad((p: typeof params) => opt.scale(loss(p, 1), st))(params);
 * let r = opt.step(params, g, st);               // finite: an SGD step
 * r.params.w.tolist();                           // [0.8, 1.6]
 * const gBad = grad((p: typeof params) => opt.scale(loss(p, 1e37), r.state))(r.params);   // overflows float32
 * const r2 = opt.step(r.params, gBad, r.state);  // skipped; the scale backs off
 * r2.params.w.tolist();                          // [0.8, 1.6]
 * r2.state.scale.item();                         // 128
 * r2.state.step.sub(r2.state.inner.step).item();     // 1  (steps skipped so far)
 * ```
 */
export function withLossScaling(opt: Optimizer, scalerOrOptions: LossScaler | LossScalerOptions = {}): LossScalingOptimizer {
  const name = 'optim.withLossScaling';
  if (opt === null || typeof opt !== 'object' || typeof opt.init !== 'function' || typeof opt.step !== 'function')
    throw new ValueError(`${name}: expects an optimizer (optim.adam({lr}), ...) as its first argument, got ${opt === null ? 'null' : typeof opt}`);
  const isScaler = (x: unknown): x is LossScaler => x !== null && typeof x === 'object' && typeof (x as LossScaler).update === 'function' && typeof (x as LossScaler).unscale === 'function';
  const scaler = isScaler(scalerOrOptions) ? scalerOrOptions : ((): LossScaler => {
    checkOptions(name, scalerOrOptions);
    return lossScaler(scalerOrOptions);
  })();
  const checkWrapped = (op: string, state: LossScaledState): void => {
    if (state === null || typeof state !== 'object' || !(state.step instanceof Tensor) || state.inner === null || typeof state.inner !== 'object' || !(state.scale instanceof Tensor))
      throw new ValueError(`${op}: state must be what ${name}(...).init(params) returned ({step, inner, scale, growthTracker}), got ${state === null ? 'null' : typeof state === 'object' ? `an object with keys {${Object.keys(state).join(', ')}}` : typeof state}`);
  };
  const init = (params: PyTreeOrNode): LossScaledState => {
    const ls = scaler.init();
    return { step: zeros([], { dtype: 'int32' }), inner: opt.init(params), scale: ls.scale, growthTracker: ls.growthTracker };
  };
  const step = <P extends PyTreeOrNode>(params: P, grads: PyTreeOrNode, state: LossScaledState): { params: P; state: LossScaledState } => {
    const op = `${name}.step`;
    checkWrapped(op, state);
    const ls: LossScaleState = { scale: state.scale, growthTracker: state.growthTracker };
    const { grads: g, finite } = scaler.unscale(grads, ls);
    const r = opt.step(params, g, state.inner);
    const keep = <T extends PyTreeOrNode>(next: PyTreeOrNode, old: T, what: string): T => {
      const a = flatten(next),
        b = flatten(old);
      if (defKey(a.def) !== defKey(b.def)) throw new ValueError(`${op}: the wrapped optimizer's step changed the structure of its ${what}`);
      return unflatten(b.def, a.leaves.map((x, i) => where(finite, x, b.leaves[i]!))) as T;
    };
    const next = scaler.update(ls, finite);
    return {
      params: keep(r.params, params, 'params'),
      state: { step: state.step.add(1), inner: keep(r.state, state.inner, 'state'), scale: next.scale, growthTracker: next.growthTracker },
    };
  };
  const scale = (loss: Tensor, state: LossScaledState): Tensor => {
    checkWrapped(`${name}.scale`, state);
    return scaler.scale(loss, { scale: state.scale, growthTracker: state.growthTracker });
  };
  return { init, step, scale, scaler };
}
