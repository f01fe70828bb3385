// What a learning rate is: a number, or a schedule — a function of the step
// count (the number of optimizer steps already taken) that takes numbers to
// numbers and tensors to tensors. The tensor form is what an optimizer calls
// with the step count it keeps in its state, so a scheduled step inside jit is
// one graph for every step (the count is an input, not a constant).

import { Tensor } from '../tensor/tensor.js';
import { tensor } from '../tensor/create.js';
import { ValueError } from '../tensor/errors.js';

/** A learning rate as a function of the step count: a number gives a number, a tensor (of counts, any shape) a float64 tensor. */
export interface Schedule {
  (step: number): number;
  (step: Tensor): Tensor;
}

/** A fixed learning rate or a schedule of the step count. */
export type LearningRate = number | Schedule;

/**
 * Wraps f (float64 step counts → float64 values, elementwise) as a Schedule:
 * numbers go through f as float64 scalars (so both forms give the same values),
 * tensors of any dtype are cast to float64 first.
 */
export function defineSchedule(op: string, f: (step: Tensor) => Tensor): Schedule {
  function schedule(step: number): number;
  function schedule(step: Tensor): Tensor;
  function schedule(step: number | Tensor): number | Tensor {
    if (step instanceof Tensor) return f(step.dtype === 'float64' ? step : step.cast('float64'));
    if (typeof step !== 'number' || !Number.isFinite(step) || step < 0) throw new ValueError(`${op}: the step count must be a finite number >= 0 or a tensor, got ${typeof step === 'number' ? step : typeof step}`);
    return f(tensor(step)).item() as number;
  }
  return schedule;
}

/** Throws unless v is a finite number (>= 0 unless `negative`). */
export function checkRate(op: string, name: string, v: unknown, opts: { negative?: boolean } = {}): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || (!opts.negative && v < 0)) {
    throw new ValueError(`${op}: ${name} must be a finite number${opts.negative ? '' : ' >= 0'}, got ${typeof v === 'number' ? v : typeof v}`);
  }
  return v;
}

/** Throws unless v is an integer >= min. */
export function checkCount(op: string, name: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new ValueError(`${op}: ${name} must be an integer >= ${min}, got ${typeof v === 'number' ? v : typeof v}`);
  return v;
}

/** Throws unless lr is a finite number >= 0 or a function (a schedule). */
export function checkLearningRate(op: string, lr: unknown): LearningRate {
  if (typeof lr === 'function') return lr as Schedule;
  return checkRate(op, 'lr', lr);
}
