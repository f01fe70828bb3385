// nn.amp.autocast (src/nn/amp.ts) and nn.train's amp option: the forward and
// backward run in bfloat16/float16 while the master weights and gradients stay
// float32. The checks are exact properties rather than tolerances where they can
// be: a value stored in bfloat16 has the low 16 bits of its float32 pattern zero,
// one stored in float16 has at most 11 significant bits (both tested here on the
// bits, independently of rlx's casts); a float16 cotangent below 2⁻²⁵ flushes to
// zero, and loss scaling by 2¹⁶ brings it back; an overflow injected on chosen
// steps skips exactly those steps.
import { describe, expect, it } from 'vitest';
import { nn, optim, random, tensor, grad, jit, valueAndGrad, ValueError, type Tensor } from '../../src/index.js';

/** True when every value is exactly a bfloat16: the low 16 bits of its float32 pattern are zero. */
const allBf16 = (vals: number[]) => {
  const f = new Float32Array(vals);
  return f.every((v, i) => v === vals[i]) && new Uint32Array(f.buffer).every((b) => (b & 0xffff) === 0);
};
/** True when every value is exactly a float16 (normal: 11 significant bits; subnormal: a multiple of 2⁻²⁴). */
const allF16 = (vals: number[]) =>
  vals.every((v) => {
    if (v === 0) return true;
    const a = Math.abs(v);
    if (a > 65504) return false;
    const e = Math.max(Math.floor(Math.log2(a)), -14);
    return Number.isInteger(a * 2 ** (10 - e));
  });
const flat = (t: Tensor) => (t.toArray() as Float32Array).slice() as unknown as number[];

function blobs(n: number, seed: number) {
  const noise = random.normal(random.key(seed), [n, 8], { dtype: 'float32' });
  const y = tensor(Int32Array.from({ length: n }, (_, i) => i % 2));
  const centre = y.cast('float32').mul(2).sub(1).reshape([n, 1]);
  return { x: noise.add(centre), y };
}
const mlp = () => nn.Sequential(nn.Linear(8, 32, { key: random.key(1) }), nn.ReLU(), nn.Linear(32, 2, { key: random.key(2) }));

describe('nn.amp.autocast', () => {
  it('casts the floating tensors of the arguments (float64 too; not integers or non-tensors) and casts half results back to float32', () => {
    const seen: string[] = [];
    const f = nn.amp.autocast((m: nn.Linear, x: Tensor, extra: { d: Tensor; i: Tensor; n: number }, tag: string) => {
      seen.push(m.weight.dtype, m.bias!.dtype, x.dtype, extra.d.dtype, extra.i.dtype, typeof extra.n, tag);
      return { out: m.forward(x), d: extra.d, i: extra.i };
    }, 'float16');
    const m = nn.Linear(3, 2, { key: random.key(0) });
    const r = f(m, random.normal(random.key(1), [4, 3], { dtype: 'float32' }), { d: tensor([1.5]), i: tensor([1], { dtype: 'int32' }), n: 3 }, 'hi');
    expect(seen).toEqual(['float16', 'float16', 'float16', 'float16', 'int32', 'number', 'hi']);
    expect([r.out.dtype, r.d.dtype, r.i.dtype]).toEqual(['float32', 'float32', 'int32']);
    expect(m.weight.dtype).toBe('float32'); // the model itself is untouched
  });

  for (const [dtype, exact, rel] of [['bfloat16', allBf16, 2 ** -6], ['float16', allF16, 2 ** -9]] as const) {
    it(`${dtype}: the forward's values and the weight gradients are ${dtype} values held in float32, close to float32's`, () => {
      const m = nn.Linear(16, 4, { key: random.key(3) });
      const x = random.normal(random.key(4), [8, 16], { dtype: 'float32' });
      const fwd = nn.amp.autocast((mm: nn.Linear, xb: Tensor) => mm.forward(xb), dtype);
      const out = fwd(m, x), ref = m.forward(x);
      expect(out.dtype).toBe('float32');
      expect(exact(flat(out))).toBe(true);
      expect(exact(flat(ref))).toBe(false); // float32's own forward is not on that grid (the check is not vacuous)
      const scaleOf = (t: Tensor) => t.abs().max().item() as number;
      expect(scaleOf(out.sub(ref))).toBeLessThan(rel * 16 * scaleOf(ref));
      const lossOf = (f: (mm: nn.Linear, xb: Tensor) => Tensor) => (mm: nn.Linear) => f(mm, x).square().mean();
      const g = grad(lossOf(fwd))(m), g32 = grad(lossOf((mm, xb) => mm.forward(xb)))(m);
      expect(g.weight.dtype).toBe('float32');
      expect(exact(flat(g.weight))).toBe(true);
      expect(scaleOf(g.weight.sub(g32.weight))).toBeLessThan(rel * 32 * scaleOf(g32.weight));
      expect(scaleOf(g.weight.sub(g32.weight))).toBeGreaterThan(0);
    });
  }

  it('float16 flushes small gradients to zero; a 2¹⁶ loss scale keeps them', () => {
    const w = tensor([1, 2, 3], { dtype: 'float32' });
    const fwd = nn.amp.autocast((p: Tensor) => p.mul(2), 'float16');
    const lossOf = (p: Tensor) => fwd(p).sum().mul(1e-9); // d/dp = 2e-9; the cotangent 1e-9 is below float16's 2⁻²⁴ ≈ 6e-8
    expect(grad(lossOf)(w).tolist()).toEqual([0, 0, 0]);
    const ls = optim.lossScaler();
    const st = ls.init();
    const { grads, finite } = ls.unscale(grad((p: Tensor) => ls.scale(lossOf(p), st))(w), st);
    expect(finite.item()).toBe(true);
    for (const v of grads.tolist() as number[]) expect(Math.abs(v - 2e-9) / 2e-9).toBeLessThan(2 ** -10);
    // bfloat16 has float32's exponent range: no flush, no scaling needed
    const bf = nn.amp.autocast((p: Tensor) => p.mul(2), 'bfloat16');
    for (const v of grad((p: Tensor) => bf(p).sum().mul(1e-9))(w).tolist() as number[]) expect(Math.abs(v - 2e-9) / 2e-9).toBeLessThan(2 ** -7);
  });

  it('rejects a bad dtype or a non-function with ValueError', () => {
    expect(() => nn.amp.autocast((x: Tensor) => x, 'float32' as nn.amp.AmpDtype)).toThrow(/'bfloat16' or 'float16', got 'float32'/);
    expect(() => nn.amp.autocast(null as unknown as () => Tensor, 'bfloat16')).toThrow(ValueError);
  });
});

describe('amp training', () => {
  it('float16 with loss scaling: an overflow injected on chosen steps skips exactly those steps and halves the scale then', () => {
    const opt = optim.withLossScaling(optim.adam({ lr: 1e-2 }));
    const fwd = nn.amp.autocast((m: nn.Sequential, x: Tensor) => m.forward(x) as Tensor, 'float16');
    const step = jit((m: nn.Sequential, st: optim.LossScaledState, x: Tensor, y: Tensor, k: Tensor) => {
      // k = 1e3 makes the scaled cotangent of the logits ≈ 2¹⁶·1e3/32·|p − onehot| ≫ 65504: inf in float16
      const [loss, g] = valueAndGrad((mm: nn.Sequential) => opt.scale(nn.functional.crossEntropy(fwd(mm, x), y).mul(k), st))(m);
      return [loss, opt.step(m, g, st)] as const;
    });
    const { x, y } = blobs(32, 5);
    let m = mlp(), st = opt.init(m);
    const inject = new Set([1, 4, 5]);
    let scale = 65536;
    for (let i = 0; i < 8; i++) {
      const w0 = flat((m.layers[0] as nn.Linear).weight);
      const [, r] = step(m, st, x, y, tensor(inject.has(i) ? 1e3 : 1, { dtype: 'float32' }));
      ({ params: m, state: st } = r);
      const w1 = flat((m.layers[0] as nn.Linear).weight);
      if (inject.has(i)) scale /= 2;
      expect(w1.every((v, j) => v === w0[j]), `step ${i} kept the weights`).toBe(inject.has(i));
      expect(st.scale.item()).toBe(scale);
      expect(st.step.sub(st.inner.step).item()).toBe([...inject].filter((j) => j <= i).length);
    }
    expect((m.layers[0] as nn.Linear).weight.dtype).toBe('float32');
    expect(step.compiles).toBe(1);
  });

  it('nn.train with amp bfloat16 / float16: the loss falls, one compile, float32 weights; float16 reports its loss scale', () => {
    const train = blobs(512, 6), val = blobs(256, 7);
    const run = (amp?: nn.amp.AmpDtype, lossScaling?: boolean) =>
      nn.train(mlp(), train, { optimizer: optim.adam({ lr: 1e-2 }), epochs: 3, batchSize: 64, key: random.key(8), validation: val, progress: false, amp, lossScaling });
    const f32 = run(), bf = run('bfloat16'), f16 = run('float16'), f16plain = run('float16', false);
    for (const r of [bf, f16, f16plain]) {
      expect(r.compiles).toBe(1);
      expect(r.history[2]!.loss).toBeLessThan(r.history[0]!.loss);
      expect(r.history[2]!.valAccuracy!).toBeGreaterThan(0.9);
      expect((r.model.layers[0] as nn.Linear).weight.dtype).toBe('float32');
      expect(Math.abs(r.history[2]!.loss - f32.history[2]!.loss)).toBeLessThan(0.02);
      expect(r.history[0]!.loss).not.toBe(f32.history[0]!.loss); // the half-precision forward did run
    }
    expect(bf.history[0]!.lossScale).toBeUndefined();
    expect(f16plain.history[0]!.lossScale).toBeUndefined();
    expect(f16.history.map((h) => [h.lossScale, h.skippedSteps])).toEqual([[65536, 0], [65536, 0], [65536, 0]]);
    const st = f16.state as optim.LossScaledState;
    expect([st.step.item(), st.inner.step.item()]).toEqual([24, 24]);
  });

  it('nn.train float16 from a scale that overflows: it backs off once per skipped step, and continues from its state', () => {
    const d = blobs(256, 9);
    const opts = { optimizer: optim.adam({ lr: 1e-2 }), batchSize: 32, key: random.key(10), progress: false, amp: 'float16' as const, lossScaling: { initScale: 2 ** 30 } };
    const r = nn.train(mlp(), d, { ...opts, epochs: 2 });
    const skipped = r.history[0]!.skippedSteps! + r.history[1]!.skippedSteps!;
    expect(r.history[0]!.skippedSteps!).toBeGreaterThanOrEqual(3); // 2³⁰/32 · |p − onehot| overflows float16 until the scale is ≤ ~2¹⁷
    expect(r.history[1]!.lossScale).toBe(2 ** 30 / 2 ** skipped); // growthInterval 2000 is never reached
    const st = r.state as optim.LossScaledState;
    expect((st.step.item() as number) - (st.inner.step.item() as number)).toBe(skipped);
    expect(st.step.item()).toBe(16);
    const c = nn.train(r.model, d, { ...opts, epochs: 1, state: r.state });
    expect((c.state as optim.LossScaledState).step.item()).toBe(24);
    expect(() => nn.train(r.model, d, { ...opts, state: optim.adam().init(r.model) })).toThrow(/withLossScaling state/);
  });

  it('nn.train rejects a bad amp or lossScaling option with ValueError', () => {
    const d = blobs(16, 11);
    const base = { optimizer: optim.sgd({ lr: 0.1 }), key: random.key(0), progress: false };
    expect(() => nn.train(mlp(), d, { ...base, amp: 'float32' as nn.amp.AmpDtype })).toThrow(/amp must be 'bfloat16' or 'float16', got 'float32'/);
    expect(() => nn.train(mlp(), d, { ...base, amp: 'float16', lossScaling: 'yes' as unknown as boolean })).toThrow(ValueError);
    expect(() => nn.train(mlp(), d, { ...base, amp: 'float16', lossScaling: { growthFactor: 0.5 } })).toThrow(/growthFactor/);
  });
});
