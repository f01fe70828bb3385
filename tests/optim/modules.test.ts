// Optimizers over nn modules (registered pytree nodes): a step returns a
// module of the same class that forward runs on, the state's buffers are
// modules too, errors name a parameter by its PyTorch-style path, and a
// jitted step over a module compiles once.

import { describe, expect, it } from 'vitest';
import '../../src/index.js';
import * as nn from '../../src/nn/index.js';
import * as random from '../../src/tensor/random.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { flatten, unflatten } from '../../src/compiler/transforms/pytree.js';
import { zeros } from '../../src/tensor/create.js';
import { grad } from '../../src/compiler/transforms/grad.js';
import { jit } from '../../src/compiler/transforms/jit.js';
import { ShapeError, ValueError } from '../../src/tensor/errors.js';
import * as optim from '../../src/optim/index.js';

const mlp = (seed: number, hidden = 4) => nn.Sequential(nn.Linear(3, hidden, { key: random.key(seed), dtype: 'float64' }), nn.ReLU(), nn.Linear(hidden, 2, { key: random.key(seed + 1), dtype: 'float64' }));
const leafValues = (t: unknown) => flatten(t as never).leaves.map((l) => Array.from(l.toArray() as Float64Array));

describe('optimizers over modules', () => {
  const x = random.normal(random.key(9), [5, 3]);
  const loss = (m: nn.Sequential) => m.forward(x).square().mean();

  it('SGD: the result is a module of the same class, every parameter p − lr·g, forward runs on it', () => {
    const model = mlp(0);
    const g = grad(loss)(model);
    const opt = optim.sgd({ lr: 0.5 });
    const r = opt.step(model, g, opt.init(model));
    expect(r.params).toBeInstanceOf(model.constructor);
    const [p0, g0, p1] = [leafValues(model), leafValues(g), leafValues(r.params)];
    expect(p1).toEqual(p0.map((p, i) => p.map((v, j) => v - 0.5 * g0[i]![j]!)));
    expect(r.params.forward(x).shape).toEqual([5, 2]);
  });

  it("Adam's moments are modules of the model's class; the loss falls under a jitted step that compiles once", () => {
    const opt = optim.adam({ lr: 0.05 });
    let m = mlp(2);
    let s = opt.init(m);
    expect(s.expAvg).toBeInstanceOf(m.constructor);
    const step = jit((mm: nn.Sequential, ss: optim.OptimizerState) => opt.step(mm, grad(loss)(mm), ss));
    const first = (loss(m).item() as number);
    for (let i = 0; i < 20; i++) {
      const r = step(m, s);
      m = r.params as nn.Sequential;
      s = r.state as optim.OptimizerState;
    }
    expect(step.compiles).toBe(1);
    expect(m).toBeInstanceOf(nn.Sequential(nn.ReLU()).constructor);
    expect(loss(m).item() as number).toBeLessThan(first / 2);
  });

  it("errors name the parameter's path: a gradient of another shape, a model of another configuration", () => {
    const opt = optim.sgd({ lr: 0.1 });
    const model = mlp(0);
    const { leaves, def } = flatten(grad(loss)(model));
    const bad = unflatten(def, [zeros([4, 4]), ...leaves.slice(1)]);
    expect(() => opt.step(model, bad, opt.init(model))).toThrow(ShapeError);
    expect(() => opt.step(model, bad, opt.init(model))).toThrow(/grads at \.0\.weight has shape \[4, 4\], expected params's \[4, 3\]/);
    expect(() => opt.step(model, grad(loss)(mlp(0, 5)), opt.init(model))).toThrow(ValueError);
    expect(() => opt.step(model, grad(loss)(mlp(0, 5)), opt.init(model))).toThrow(/at \.0: expected a LinearModule with outFeatures=4, got one with outFeatures=5/);
  });

  it('clipping a module\'s gradients gives a module', () => {
    const model = mlp(0);
    const { grads, norm } = optim.clipGradNorm(grad(loss)(model), 1e-3);
    expect(grads).toBeInstanceOf(model.constructor);
    expect(norm).toBeInstanceOf(Tensor);
    expect(norm.item() as number).toBeGreaterThan(1e-3);
    const clipped = flatten(grads).leaves.reduce((a, l) => a + (l.square().sum().item() as number), 0);
    expect(Math.sqrt(clipped)).toBeCloseTo(1e-3 * (norm.item() as number) / ((norm.item() as number) + 1e-6), 12);
  });
});
