// rlx's optimizers, schedules and clipping against PyTorch 1.13: the same
// initial parameters and gradient sequence as tests/optim/golden/make_golden.py
// fed to torch.optim, compared step by step (float64 at 1e-12, float32 at 1e-6,
// relative), on every available device. Five cases also run jitted (one
// compile for all steps, the eager numbers).

import { describe, expect, it } from 'vitest';
import '../../src/index.js';
import { tensor } from '../../src/tensor/create.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { jit } from '../../src/compiler/transforms/jit.js';
import * as optim from '../../src/optim/index.js';
import type { PyTree } from '../../src/compiler/transforms/pytree.js';
import { DEVICES } from '../harness/devices.js';
import { golden, treeOf, scheduleOf, optimizerOf, maxRelErr } from './helpers.js';

const TOL = { float64: 1e-12, float32: 1e-6 } as const;

/** Realizes every tensor of a tree (bounded graphs between eager steps). */
function realizeTree(t: PyTree): void {
  if (t instanceof Tensor) t.realize();
  else if (Array.isArray(t)) t.forEach(realizeTree);
  else if (t !== null && typeof t === 'object') Object.values(t).forEach(realizeTree);
}

describe.each(DEVICES)('optimizers against torch.optim on %s', (device) => {
  expect(golden.torch.startsWith('1.13')).toBe(true);
  for (const c of golden.cases) {
    it(`${c.name} (${c.dtype})`, () => {
      const opt = optimizerOf(c);
      let params = treeOf(golden.params0[c.dtype]!, c.dtype, device);
      let state = opt.init(params);
      let worst = 0;
      for (let t = 0; t < golden.steps; t++) {
        const r = opt.step(params, treeOf(golden.grads[c.dtype]![t]!, c.dtype, device), state);
        realizeTree(r as never);
        params = r.params;
        state = r.state;
        for (const [k, want] of Object.entries(c.trajectory[t]!)) {
          expect(params[k]!.dtype).toBe(c.dtype);
          expect(params[k]!.device).toBe(device);
          worst = Math.max(worst, maxRelErr(params[k]!.toArray() as Float64Array, want));
        }
      }
      expect(state.step.item()).toBe(golden.steps);
      console.log(`${device}: ${c.name} (${c.dtype}): largest relative error over ${golden.steps} steps ${worst.toExponential(2)}`);
      expect(worst).toBeLessThanOrEqual(TOL[c.dtype]);
      if (c.schedule) {
        const s = scheduleOf(c.schedule);
        expect(maxRelErr(c.lrs.map((_, t) => s(t)), c.lrs)).toBeLessThanOrEqual(1e-12);
      }
    });
  }
});

describe('schedules against torch.optim.lr_scheduler', () => {
  for (const g of golden.schedules) {
    it(`${g.name}: numbers and a tensor of step counts`, () => {
      const s = scheduleOf(g.spec);
      const n = g.lrs.length;
      expect(maxRelErr(g.lrs.map((_, t) => s(t)), g.lrs)).toBeLessThanOrEqual(1e-12);
      const steps = tensor(Array.from({ length: n }, (_, t) => t), { dtype: 'int32' });
      const asTensor = s(steps);
      expect(asTensor.dtype).toBe('float64');
      expect(maxRelErr(asTensor.toArray() as Float64Array, g.lrs)).toBeLessThanOrEqual(1e-12);
    });
  }
});

describe('clipGradNorm against torch.nn.utils.clip_grad_norm_', () => {
  for (const g of golden.clip) {
    it(g.name, () => {
      const grads = treeOf(Object.fromEntries(Object.entries(g.grads)), g.dtype);
      const r = optim.clipGradNorm(grads, g.maxNorm, { normType: g.normType === 'inf' ? Infinity : g.normType });
      const tol = TOL[g.dtype];
      expect(r.norm.dtype).toBe(g.dtype);
      expect(maxRelErr([r.norm.item() as number], [g.norm])).toBeLessThanOrEqual(tol);
      for (const [k, want] of Object.entries(g.clipped)) expect(maxRelErr(r.grads[k]!.toArray() as Float64Array, want)).toBeLessThanOrEqual(tol);
    });
  }
});

describe('a jitted step', () => {
  const cases = golden.cases.filter((c) => ['adam step schedule', 'sgd momentum clipped', 'adamw warmup cosine', 'adam amsgrad betas eps', 'sgd momentum dampening weight decay'].includes(c.name));
  expect(cases.length).toBe(10);
  for (const c of cases) {
    it(`${c.name} (${c.dtype}): compiles once over 5 steps and gives the eager numbers`, () => {
      const opt = optimizerOf(c);
      const step = jit((p: Record<string, Tensor>, s: optim.OptimizerState, g: Record<string, Tensor>) => opt.step(p, g, s));
      let pj = treeOf(golden.params0[c.dtype]!, c.dtype);
      let sj = opt.init(pj);
      let pe = pj;
      let se = sj;
      for (let t = 0; t < 5; t++) {
        const g = treeOf(golden.grads[c.dtype]![t]!, c.dtype);
        const rj = step(pj, sj, g);
        const re = opt.step(pe, g, se);
        realizeTree(re as never);
        [pj, sj, pe, se] = [rj.params as Record<string, Tensor>, rj.state as optim.OptimizerState, re.params, re.state];
        for (const k of Object.keys(pe)) {
          expect(maxRelErr(pj[k]!.toArray() as Float64Array, pe[k]!.toArray() as Float64Array)).toBeLessThanOrEqual(c.dtype === 'float64' ? 1e-15 : 1e-7);
          expect(maxRelErr(pj[k]!.toArray() as Float64Array, c.trajectory[t]![k]!)).toBeLessThanOrEqual(TOL[c.dtype]);
        }
      }
      expect(step.compiles).toBe(1);
      expect(step.hits).toBe(4);
      expect(sj.step.dtype).toBe('int32');
      expect(sj.step.item()).toBe(5);
    });
  }
});
