// Shared pieces of the optim tests: the torch golden file, trees of tensors
// from its {shape, data} records, schedule specs turned into rlx schedules,
// and a relative comparison with an explicit tolerance.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { Tensor } from '../../src/tensor/tensor.js';
import { tensor } from '../../src/tensor/create.js';
import * as optim from '../../src/optim/index.js';
import type { Schedule } from '../../src/optim/index.js';

export interface Rec { shape: number[]; data: number[] }
export type Spec = { kind: string; [k: string]: unknown };
export interface Case {
  name: string;
  optimizer: 'sgd' | 'adam' | 'adamw';
  options: Record<string, unknown>;
  dtype: 'float64' | 'float32';
  schedule?: Spec;
  clip?: number;
  trajectory: Record<string, number[]>[];
  lrs: number[];
}
export interface Golden {
  torch: string;
  steps: number;
  params0: Record<string, Record<string, Rec>>;
  grads: Record<string, Record<string, Rec>[]>;
  cases: Case[];
  schedules: { name: string; spec: Spec; lrs: number[] }[];
  clip: { name: string; dtype: 'float64' | 'float32'; maxNorm: number; normType: number | 'inf'; grads: Record<string, Rec>; norm: number; clipped: Record<string, number[]> }[];
}

export const golden: Golden = JSON.parse(readFileSync(path.join(import.meta.dirname, 'golden/optim.json'), 'utf8'));

/** A {name: Tensor} tree of the given dtype from golden records (pinned to `device` if given). */
export function treeOf(recs: Record<string, Rec>, dtype: 'float64' | 'float32', device?: string): Record<string, Tensor> {
  return Object.fromEntries(Object.entries(recs).map(([k, r]) => [k, tensor(r.data, { dtype, shape: r.shape, device })]));
}

/** The rlx schedule for a golden spec (the same names as make_golden.py's). */
export function scheduleOf(spec: Spec): Schedule {
  const s = spec as never as Record<string, number>;
  switch (spec.kind) {
    case 'cosine':
      return optim.schedules.cosine({ lr: s.lr!, steps: s.steps!, minLr: s.minLr });
    case 'step':
      return optim.schedules.step({ lr: s.lr!, stepSize: s.stepSize!, gamma: s.gamma });
    case 'linear':
      return optim.schedules.linear({ from: s.from!, to: s.to!, steps: s.steps! });
    case 'warmup':
      return optim.schedules.warmup({ lr: s.lr!, steps: s.steps!, startLr: s.startLr, then: scheduleOf(spec.then as Spec) });
  }
  throw new Error(`unknown schedule spec ${spec.kind}`);
}

/** The rlx optimizer for a golden case. */
export function optimizerOf(c: Pick<Case, 'optimizer' | 'options' | 'schedule' | 'clip'>): optim.Optimizer {
  const o = { ...c.options, ...(c.schedule ? { lr: scheduleOf(c.schedule) } : {}), ...(c.clip !== undefined ? { clipNorm: c.clip } : {}) } as never;
  return c.optimizer === 'sgd' ? optim.sgd(o) : c.optimizer === 'adam' ? optim.adam(o) : optim.adamw(o);
}

/**
 * Largest |got − want| / max(|want|, 1) (relative error, absolute for the few
 * values that cross zero during a trajectory; the parameters start at magnitudes 0.5–2).
 */
export function maxRelErr(got: ArrayLike<number>, want: ArrayLike<number>): number {
  expect(got.length).toBe(want.length);
  let e = 0;
  for (let i = 0; i < want.length; i++) e = Math.max(e, Math.abs(got[i]! - want[i]!) / Math.max(Math.abs(want[i]!), 1));
  return Number.isNaN(e) ? Infinity : e;
}
