// Hand identities of the optimizers, schedules and clipping (values computed
// here in plain JS from the formulas, not by rlx), the state's structure,
// pytrees of several shapes, and the typed errors of wrong use.

import { describe, expect, it } from 'vitest';
import '../../src/index.js';
import { tensor, zeros } from '../../src/tensor/create.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { jit } from '../../src/compiler/transforms/jit.js';
import { grad } from '../../src/compiler/transforms/grad.js';
import { DTypeError, ShapeError, ValueError } from '../../src/tensor/errors.js';
import * as optim from '../../src/optim/index.js';

const P = [1.5, -0.25, 3, -2];
const G = [0.5, -4, 0.125, 2.5];
const vec = (a: number[]) => tensor(a);
const arr = (t: Tensor) => Array.from(t.toArray() as Float64Array);

describe('identities', () => {
  it('SGD without momentum: p − lr·g exactly, for every leaf of a nested tree', () => {
    const opt = optim.sgd({ lr: 0.3 });
    const params = { a: vec(P), layers: [{ w: vec(G) }, tensor(2)] };
    const grads = { a: vec(G), layers: [{ w: vec(P) }, tensor(-1)] };
    const r = opt.step(params, grads, opt.init(params));
    expect(arr(r.params.a)).toEqual(P.map((p, i) => p - 0.3 * G[i]!));
    expect(arr((r.params.layers[0] as { w: Tensor }).w)).toEqual(G.map((p, i) => p - 0.3 * P[i]!));
    expect((r.params.layers[1] as Tensor).item()).toBe(2 + 0.3);
    expect(Object.keys(r.state)).toEqual(['step']); // no momentum buffer
  });

  it('SGD with weight decay: p − lr·(g + wd·p) exactly', () => {
    const opt = optim.sgd({ lr: 0.1, weightDecay: 0.01 });
    const r = opt.step({ p: vec(P) }, { p: vec(G) }, opt.init({ p: vec(P) }));
    expect(arr(r.params.p)).toEqual(P.map((p, i) => p - 0.1 * (G[i]! + 0.01 * p)));
  });

  it("SGD momentum: the first step is plain SGD (torch starts the buffer at the gradient, dampening or not); the second is μ·b + (1 − τ)·g", () => {
    const opt = optim.sgd({ lr: 0.1, momentum: 0.9, dampening: 0.5 });
    const s0 = opt.init({ p: vec(P) });
    expect(Object.keys(s0)).toEqual(['step', 'momentumBuffer']);
    const r1 = opt.step({ p: vec(P) }, { p: vec(G) }, s0);
    const p1 = P.map((p, i) => p - 0.1 * G[i]!);
    expect(arr(r1.params.p)).toEqual(p1);
    expect(arr((r1.state.momentumBuffer as { p: Tensor }).p)).toEqual(G);
    const r2 = opt.step(r1.params, { p: vec(P) }, r1.state);
    const b2 = G.map((g, i) => g * 0.9 + P[i]! * 0.5);
    expect(arr((r2.state.momentumBuffer as { p: Tensor }).p)).toEqual(b2);
    expect(arr(r2.params.p)).toEqual(p1.map((p, i) => p - 0.1 * b2[i]!));
  });

  it('Adam: the first step moves each weight by lr·g / (|g| + eps) (the bias corrections cancel)', () => {
    const opt = optim.adam({ lr: 0.01, eps: 1e-3 });
    const r = opt.step({ p: vec(P) }, { p: vec(G) }, opt.init({ p: vec(P) }));
    const want = P.map((p, i) => p - (0.01 * G[i]!) / (Math.abs(G[i]!) + 1e-3));
    arr(r.params.p).forEach((v, i) => expect(Math.abs(v - want[i]!)).toBeLessThanOrEqual(1e-15 * Math.abs(want[i]!)));
  });

  it('AdamW with a zero gradient: p·(1 − lr·wd) exactly; Adam with a zero gradient and no decay: p unchanged', () => {
    const w = optim.adamw({ lr: 0.05, weightDecay: 0.2 });
    const rw = w.step({ p: vec(P) }, { p: zeros([4]) }, w.init({ p: vec(P) }));
    expect(arr(rw.params.p)).toEqual(P.map((p) => p * (1 - 0.05 * 0.2)));
    const a = optim.adam({ lr: 0.05 });
    expect(arr(a.step({ p: vec(P) }, { p: zeros([4]) }, a.init({ p: vec(P) })).params.p)).toEqual(P);
  });

  it('AMSGrad keeps the running maximum of v', () => {
    const opt = optim.adam({ lr: 0.01, amsgrad: true });
    const s0 = opt.init({ p: vec(P) });
    expect(Object.keys(s0)).toEqual(['step', 'expAvg', 'expAvgSq', 'maxExpAvgSq']);
    const r1 = opt.step({ p: vec(P) }, { p: vec(G) }, s0);
    const r2 = opt.step(r1.params, { p: zeros([4]) }, r1.state);
    const v1 = arr((r1.state.expAvgSq as { p: Tensor }).p);
    expect(arr((r2.state.maxExpAvgSq as { p: Tensor }).p)).toEqual(v1); // v decays (×β₂) after a zero gradient; the max keeps v₁
    expect(arr((r2.state.expAvgSq as { p: Tensor }).p)).toEqual(v1.map((v) => v * 0.999));
  });

  it('lr 0 leaves the parameters unchanged; a float32 tree stays float32 with a float64 schedule', () => {
    const opt = optim.adam({ lr: optim.schedules.cosine({ lr: 0.1, steps: 3 }) });
    const p = { w: tensor([1, 2], { dtype: 'float32' }) };
    let r = opt.step(p, { w: tensor([1, 1], { dtype: 'float32' }) }, opt.init(p));
    expect(r.params.w.dtype).toBe('float32');
    const sgd0 = optim.sgd({ lr: 0, momentum: 0.9 });
    r = sgd0.step({ w: vec(P) }, { w: vec(G) }, sgd0.init({ w: vec(P) })) as never;
    expect(arr(r.params.w)).toEqual(P);
  });

  it('float16 and bfloat16 params keep their dtype and follow the float64 trajectory to their precision', () => {
    for (const [dtype, tol] of [['float16', 4e-3], ['bfloat16', 3e-2]] as const) {
      for (const opt of [optim.adam({ lr: 0.05 }), optim.sgd({ lr: 0.05, momentum: 0.9 })]) {
        let p64 = { p: vec(P) };
        let p16 = { p: vec(P).cast(dtype) };
        let s64 = opt.init(p64);
        let s16 = opt.init(p16);
        for (let t = 0; t < 5; t++) {
          const g = vec(G.map((x) => x * (t + 1) * 0.3));
          const r64 = opt.step(p64, { p: g }, s64);
          const r16 = opt.step(p16, { p: g.cast(dtype) }, s16);
          [p64, s64, p16, s16] = [{ p: r64.params.p.realize() }, r64.state, { p: r16.params.p.realize() }, r16.state];
        }
        expect(p16.p.dtype).toBe(dtype);
        const a = arr(p16.p.cast('float64')),
          b = arr(p64.p);
        a.forEach((v, i) => expect(Math.abs(v - b[i]!)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b[i]!))));
      }
    }
  });

  it('params and grads may be arrays and plain numbers (numbers become float64 tensors)', () => {
    const opt = optim.sgd({ lr: 0.5 });
    const r = opt.step([vec(P), 3], [vec(G), 2], opt.init([vec(P), 3]));
    expect((r.params[1] as unknown as Tensor).item()).toBe(2);
  });

  it('a training loop: grad of a quadratic through jit, Adam converges to the minimum', () => {
    const target = tensor([1, -2, 3]);
    const loss = (p: { x: Tensor }) => p.x.sub(target).square().sum();
    const opt = optim.adam({ lr: optim.schedules.warmup({ lr: 0.1, steps: 10, then: optim.schedules.cosine({ lr: 0.1, steps: 290, minLr: 0.001 }) }), clipNorm: 10 });
    const step = jit((p: { x: Tensor }, s: optim.OptimizerState) => opt.step(p, grad(loss)(p), s));
    let p = { x: zeros([3]) };
    let s = opt.init(p);
    for (let i = 0; i < 300; i++) {
      const r = step(p, s);
      p = r.params as { x: Tensor };
      s = r.state as optim.OptimizerState;
    }
    expect(step.compiles).toBe(1);
    arr(p.x).forEach((v, i) => expect(Math.abs(v - [1, -2, 3][i]!)).toBeLessThan(1e-3));
  });
});

describe('schedules', () => {
  it('closed forms at chosen steps', () => {
    const c = optim.schedules.cosine({ lr: 2, steps: 6, minLr: 0.5 });
    expect(c(3)).toBeCloseTo(1.25, 15);
    expect(c(6)).toBe(0.5);
    expect(c(100)).toBe(0.5); // held at minLr after `steps` (torch's CosineAnnealingLR would rise again)
    const st = optim.schedules.step({ lr: 0.8, stepSize: 4 });
    expect([st(3), st(4), st(8)]).toEqual([0.8, 0.8 * 0.1, 0.8 * 0.1 ** 2]);
    const j = optim.schedules.join([optim.schedules.constant(3), optim.schedules.constant(2), optim.schedules.linear({ from: 2, to: 0, steps: 4 })], [2, 5]);
    expect([0, 1, 2, 4, 5, 6, 9, 20].map((t) => j(t))).toEqual([3, 3, 2, 2, 2, 1.5, 0, 0]);
    expect(optim.schedules.warmup({ lr: 1, steps: 4, startLr: 0.2 })(1)).toBeCloseTo(0.4, 15);
    expect(optim.schedules.warmup({ lr: 1, steps: 4 })(50)).toBe(1);
  });

  it('inside jit: the step count is an input, one compile for every step', () => {
    const s = optim.schedules.warmup({ lr: 1, steps: 4, then: optim.schedules.step({ lr: 1, stepSize: 2, gamma: 0.5 }) });
    const f = jit((t: Tensor) => s(t));
    const got = [0, 1, 2, 3, 4, 5, 6, 7].map((t) => f(tensor(t, { dtype: 'int32' })).item());
    expect(got).toEqual([0, 0.25, 0.5, 0.75, 1, 1, 0.5, 0.5]);
    expect(f.compiles).toBe(1);
  });

  it('typed errors for bad arguments', () => {
    expect(() => optim.schedules.cosine({ lr: 1, steps: 0 })).toThrow(ValueError);
    expect(() => optim.schedules.cosine({ lr: -1, steps: 3 })).toThrow(/lr must be a finite number >= 0/);
    expect(() => optim.schedules.join([optim.schedules.constant(1)], [3])).toThrow(/one more schedule than boundaries/);
    expect(() => optim.schedules.join([optim.schedules.constant(1), optim.schedules.constant(1), optim.schedules.constant(1)], [3, 3])).toThrow(/boundaries must increase/);
    expect(() => optim.schedules.constant(1)(-1)).toThrow(/step count must be a finite number >= 0/);
  });
});

describe('clipGradNorm', () => {
  it('the norm is √Σg² over every leaf; below maxNorm the gradients are unchanged; above, their norm becomes maxNorm·n/(n + 1e-6)', () => {
    const n = Math.sqrt([...P, ...G].reduce((a, b) => a + b * b, 0));
    const below = optim.clipGradNorm({ a: vec(P), b: [vec(G)] }, 100);
    expect(below.norm.item()).toBeCloseTo(n, 14);
    expect(arr(below.grads.a)).toEqual(P);
    const above = optim.clipGradNorm({ a: vec(P), b: [vec(G)] }, 1);
    const clipped = [...arr(above.grads.a), ...arr(above.grads.b[0]!)];
    expect(Math.sqrt(clipped.reduce((a, b) => a + b * b, 0))).toBeCloseTo(n / (n + 1e-6), 14);
    expect(optim.clipGradNorm({ a: vec(P) }, 1, { normType: Infinity }).norm.item()).toBe(3);
  });

  it('as an optimizer option (clipNorm) it equals clipping first', () => {
    const a = optim.sgd({ lr: 0.1, clipNorm: 0.5 });
    const b = optim.sgd({ lr: 0.1 });
    const ra = a.step({ p: vec(P) }, { p: vec(G) }, a.init({ p: vec(P) }));
    const rb = b.step({ p: vec(P) }, optim.clipGradNorm({ p: vec(G) }, 0.5).grads, b.init({ p: vec(P) }));
    expect(arr(ra.params.p)).toEqual(arr(rb.params.p));
  });

  it('typed errors', () => {
    expect(() => optim.clipGradNorm({ a: vec(P) }, -1)).toThrow(ValueError);
    expect(() => optim.clipGradNorm({ a: vec(P) }, 1, { normType: 1 })).toThrow(/normType must be 2 or Infinity/);
    expect(() => optim.clipGradNorm({ a: tensor([1, 2], { dtype: 'int32' }) }, 1)).toThrow(DTypeError);
  });
});

describe('typed errors of the optimizers', () => {
  const params = { layers: [{ w: zeros([2, 3]), b: zeros([3]) }], scale: zeros([]) };
  const opt = optim.adam();
  const state = opt.init(params);

  it('grads of another structure: the path where it differs', () => {
    expect(() => opt.step(params, { layers: [{ w: zeros([2, 3]) }], scale: zeros([]) }, state)).toThrow(/grads must have the structure of params; at \.layers\[0\]: expected an object with keys \{w, b\}, got an object with keys \{w\}/);
    expect(() => opt.step(params, { layers: [{ w: zeros([2, 3]), b: zeros([3]) }], scale: [zeros([])] }, state)).toThrow(/at \.scale: expected a tensor, got an array of 1/);
    expect(() => opt.step(params, { layers: [{ w: zeros([2, 3]), b: zeros([3]) }] }, state)).toThrow(ValueError);
  });

  it('a gradient of another shape: its path and both shapes', () => {
    expect(() => opt.step(params, { layers: [{ w: zeros([3, 2]), b: zeros([3]) }], scale: zeros([]) }, state)).toThrow(ShapeError);
    expect(() => opt.step(params, { layers: [{ w: zeros([3, 2]), b: zeros([3]) }], scale: zeros([]) }, state)).toThrow(/grads at \.layers\[0\]\.w has shape \[3, 2\], expected params's \[2, 3\]/);
  });

  it('a state from another optimizer or other params', () => {
    const sgdState = optim.sgd({ lr: 1 }).init(params);
    expect(() => opt.step(params, params, sgdState)).toThrow(/state has no 'expAvg' buffer/);
    const other = opt.init({ w: zeros([2]) });
    expect(() => opt.step(params, params, other)).toThrow(/state\.expAvg must have the structure of params/);
    expect(() => opt.step(params, params, null as never)).toThrow(ValueError);
  });

  it('integer parameters, bad hyperparameters', () => {
    expect(() => opt.init({ n: tensor([1, 2], { dtype: 'int32' }) })).toThrow(/params at \.n is int32; expected a real floating tensor/);
    expect(() => optim.sgd({ lr: 0.1, nesterov: true })).toThrow(/Nesterov momentum needs momentum > 0 and dampening 0/);
    expect(() => optim.sgd({} as never)).toThrow(/lr must be a finite number >= 0/);
    expect(() => optim.adam({ betas: [0.9, 1] })).toThrow(/betas must be two numbers in \[0, 1\)/);
    expect(() => optim.adam({ eps: -1 })).toThrow(ValueError);
    expect(() => optim.adamw({ clipNorm: NaN })).toThrow(/clipNorm must be a finite number >= 0/);
  });
});
