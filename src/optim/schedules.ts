// Learning-rate schedules (the `optim.schedules` namespace): cosine decay,
// linear ramps, linear warmup into another schedule, step decay, and join to
// chain any of them (optax's join_schedules). Each is a function of the step
// count, numbers or tensors (schedule.ts), and equals PyTorch's
// torch.optim.lr_scheduler value at that count (tests/optim/golden).

import { Tensor } from '../tensor/tensor.js';
import { full } from '../tensor/create.js';
import { where } from '../tensor/ops/elementwise.js';
import { ValueError } from '../tensor/errors.js';
import { type Schedule, defineSchedule, checkRate, checkCount } from './schedule.js';

export type { Schedule, LearningRate } from './schedule.js';

/**
 * A learning rate that does not change.
 * @example
 * ```ts
 * optim.schedules.constant(0.1)(7);   // 0.1
 * ```
 */
export function constant(lr: number): Schedule {
  const op = 'optim.schedules.constant';
  checkRate(op, 'lr', lr);
  return defineSchedule(op, (t) => full(t.shape, lr));
}

/**
 * Cosine decay from `lr` to `minLr` over `steps` steps, then `minLr` (torch's CosineAnnealingLR(T_max = steps, eta_min = minLr) up to `steps`).
 * @example
 * ```ts
 * const lr = optim.schedules.cosine({ lr: 1, steps: 4 });
 * [lr(0), lr(2), lr(4), lr(9)];   // [1, 0.5, 0, 0]
 * ```
 */
export function cosine(opts: { lr: number; steps: number; minLr?: number }): Schedule {
  const op = 'optim.schedules.cosine';
  const lr = checkRate(op, 'lr', opts.lr);
  const steps = checkCount(op, 'steps', opts.steps, 1);
  const minLr = checkRate(op, 'minLr', opts.minLr ?? 0);
  // torch: eta_min + (base_lr - eta_min) * (1 + cos(pi * t / T_max)) / 2
  return defineSchedule(op, (t) => t.minimum(steps).mul(Math.PI).div(steps).cos().add(1).mul(lr - minLr).div(2).add(minLr));
}

/**
 * A straight line from `from` to `to` over `steps` steps, then `to` (optax's linear_schedule; torch's LinearLR in factors of the base lr).
 * @example
 * ```ts
 * const lr = optim.schedules.linear({ from: 0, to: 1, steps: 4 });
 * [lr(0), lr(1), lr(4), lr(10)];   // [0, 0.25, 1, 1]
 * ```
 */
export function linear(opts: { from: number; to: number; steps: number }): Schedule {
  const op = 'optim.schedules.linear';
  const from = checkRate(op, 'from', opts.from);
  const to = checkRate(op, 'to', opts.to);
  const steps = checkCount(op, 'steps', opts.steps, 0);
  if (steps === 0) return defineSchedule(op, (t) => full(t.shape, to));
  return defineSchedule(op, (t) => t.minimum(steps).mul(to - from).div(steps).add(from));
}

/**
 * Step decay: `lr · gamma^⌊t / stepSize⌋` (torch's StepLR).
 * @example
 * ```ts
 * const lr = optim.schedules.step({ lr: 1, stepSize: 2, gamma: 0.5 });
 * [lr(0), lr(1), lr(2), lr(5)];   // [1, 1, 0.5, 0.25]
 * ```
 */
export function step(opts: { lr: number; stepSize: number; gamma?: number }): Schedule {
  const op = 'optim.schedules.step';
  const lr = checkRate(op, 'lr', opts.lr);
  const stepSize = checkCount(op, 'stepSize', opts.stepSize, 1);
  const gamma = checkRate(op, 'gamma', opts.gamma ?? 0.1);
  return defineSchedule(op, (t) => full(t.shape, gamma).pow(t.div(stepSize).floor()).mul(lr));
}

/**
 * Chains schedules: `schedules[0]` before `boundaries[0]`, then `schedules[i + 1](t − boundaries[i])` from `boundaries[i]` on (optax's join_schedules).
 * @example
 * ```ts
 * const lr = optim.schedules.join([optim.schedules.constant(1), optim.schedules.linear({ from: 1, to: 0, steps: 2 })], [3]);
 * [lr(2), lr(3), lr(4), lr(5)];   // [1, 1, 0.5, 0]
 * ```
 */
export function join(schedules: readonly Schedule[], boundaries: readonly number[]): Schedule {
  const op = 'optim.schedules.join';
  if (!Array.isArray(schedules) || !Array.isArray(boundaries) || schedules.length !== boundaries.length + 1) {
    throw new ValueError(`${op}: needs one more schedule than boundaries, got ${Array.isArray(schedules) ? schedules.length : typeof schedules} schedules and ${Array.isArray(boundaries) ? boundaries.length : typeof boundaries} boundaries`);
  }
  schedules.forEach((s, i) => {
    if (typeof s !== 'function') throw new ValueError(`${op}: schedules[${i}] must be a schedule (a function of the step count), got ${typeof s}`);
  });
  boundaries.forEach((b, i) => {
    checkCount(op, `boundaries[${i}]`, b, 0);
    if (i > 0 && b <= boundaries[i - 1]!) throw new ValueError(`${op}: boundaries must increase, got ${boundaries[i - 1]} then ${b}`);
  });
  const parts = [...schedules],
    bounds = [...boundaries];
  return defineSchedule(op, (t) => {
    let out: Tensor = parts[0]!(t);
    bounds.forEach((b, i) => {
      out = where(t.ge(b), parts[i + 1]!(t.sub(b)), out);
    });
    return out;
  });
}

/**
 * Linear warmup from `startLr` to `lr` over `steps` steps, then `then` counted from the end of warmup (or `lr` held): torch's SequentialLR of LinearLR and `then`.
 * @example
 * ```ts
 * const lr = optim.schedules.warmup({ lr: 1, steps: 2, then: optim.schedules.cosine({ lr: 1, steps: 2 }) });
 * [lr(0), lr(1), lr(2), lr(3), lr(4)];   // [0, 0.5, 1, 0.5, 0]
 * ```
 */
export function warmup(opts: { lr: number; steps: number; startLr?: number; then?: Schedule }): Schedule {
  const op = 'optim.schedules.warmup';
  const lr = checkRate(op, 'lr', opts.lr);
  const steps = checkCount(op, 'steps', opts.steps, 1);
  const startLr = checkRate(op, 'startLr', opts.startLr ?? 0);
  if (opts.then !== undefined && typeof opts.then !== 'function') throw new ValueError(`${op}: then must be a schedule (a function of the step count), got ${typeof opts.then}`);
  return join([linear({ from: startLr, to: lr, steps }), opts.then ?? constant(lr)], [steps]);
}
