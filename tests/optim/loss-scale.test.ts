// optim.lossScaler / optim.withLossScaling (src/optim/loss-scale.ts): PyTorch's
// GradScaler rule. torch 1.13's CPU build has no `_amp_update_scale_` nor
// `_amp_foreach_non_finite_check_and_unscale_` (both CUDA only: checked with
// Debian's python3-torch, "Could not run ... with arguments from the 'CPU'
// backend"), so no golden can be made on this machine; the references are
//   1. sequences of scales worked out by hand from GradScaler's documented rule, and
//   2. `torchUpdate` below, a line-by-line transcription of AmpKernels.cu's
//      amp_update_scale kernel (torch 1.13) with float32 rounding by Math.fround:
//        if (*found_inf) { *current_scale = (*current_scale)*backoff_factor; *growth_tracker = 0; }
//        else { auto successful = (*growth_tracker) + 1;
//               if (successful == growth_interval) {
//                 auto new_scale = static_cast<float>((*current_scale)*growth_factor);
//                 if (isfinite(new_scale)) *current_scale = new_scale;
//                 *growth_tracker = 0;
//               } else { *growth_tracker = successful; } }
//      (current_scale is float, the factors double: the product is a double stored as float.)
// withLossScaling's updates are compared with the plain optimizer run on the
// unscaled gradients and simply not stepped on the injected steps (power-of-two
// scales make scaling and unscaling exact, so they agree bit for bit).
import { describe, expect, it } from 'vitest';
import { optim, tensor, grad, jit, random, DTypeError, ValueError, type Tensor } from '../../src/index.js';

function torchUpdate(scale: number, tracker: number, foundInf: boolean, gf: number, bf: number, gi: number): [number, number] {
  if (foundInf) return [Math.fround(scale * bf), 0];
  const successful = tracker + 1;
  if (successful === gi) {
    const grown = Math.fround(scale * gf);
    return [Number.isFinite(grown) ? grown : scale, 0];
  }
  return [scale, successful];
}

/** Runs `update` over a pattern of finite flags inside one jitted function; returns the scales and trackers after each step and the compile count. */
function runUpdates(opts: optim.LossScalerOptions, finite: boolean[]) {
  const ls = optim.lossScaler(opts);
  const upd = jit((st: optim.LossScaleState, f: Tensor) => ls.update(st, f));
  let st = ls.init();
  const scales: number[] = [], trackers: number[] = [];
  for (const f of finite) {
    st = upd(st, tensor(f));
    scales.push(st.scale.item() as number);
    trackers.push(st.growthTracker.item() as number);
  }
  return { scales, trackers, compiles: upd.compiles, last: st };
}

describe('optim.lossScaler: the update rule', () => {
  it('a sequence worked out by hand (initScale 8, growthInterval 2), in one compiled update', () => {
    const T = true, F = false;
    const r = runUpdates({ initScale: 8, growthInterval: 2 }, [T, T, T, F, T, T, F, F, T, T]);
    // T: tracker 1 | T: 2 = interval → ×2, reset | T: 1 | F: ×0.5, reset | T | T: ×2 | F: ×0.5 | F: ×0.5 | T | T: ×2
    expect(r.scales).toEqual([8, 16, 16, 8, 8, 16, 8, 4, 4, 8]);
    expect(r.trackers).toEqual([1, 0, 1, 0, 1, 0, 0, 0, 1, 0]);
    expect(r.compiles).toBe(1);
    expect(r.last.scale.dtype).toBe('float32');
    expect(r.last.growthTracker.dtype).toBe('int32');
  });

  it('matches the transcription of torch’s kernel with non-power-of-two factors (float32 rounding of a double product)', () => {
    const opts = { initScale: 1000.7, growthFactor: 3.3, backoffFactor: 0.3, growthInterval: 3 };
    // a pseudo-random pattern, mostly finite
    const pattern = Array.from({ length: 40 }, (_, i) => (i * 7919) % 11 !== 3 && i % 13 !== 5);
    const r = runUpdates(opts, pattern);
    let s = Math.fround(1000.7), t = 0;
    const want: number[] = [], wantT: number[] = [];
    for (const f of pattern) {
      [s, t] = torchUpdate(s, t, !f, 3.3, 0.3, 3);
      want.push(s);
      wantT.push(t);
    }
    expect(r.scales).toEqual(want); // bit-exact
    expect(r.trackers).toEqual(wantT);
    expect(new Set(want).size).toBeGreaterThan(5); // the pattern both grows and backs off
  });

  it('never grows the scale to inf; backs off to the float32 product', () => {
    const r = runUpdates({ initScale: 2 ** 127, growthInterval: 1 }, [true, true, false]);
    expect(r.scales).toEqual([2 ** 127, 2 ** 127, 2 ** 126]);
    expect(r.trackers).toEqual([0, 0, 0]);
  });

  it('the defaults are GradScaler’s', () => {
    expect(optim.lossScaler().options).toEqual({ initScale: 65536, growthFactor: 2, backoffFactor: 0.5, growthInterval: 2000 });
    const r = runUpdates({}, Array<boolean>(2000).fill(true));
    expect(r.scales[1998]).toBe(65536);
    expect(r.scales[1999]).toBe(131072);
    expect(r.trackers[1998]).toBe(1999);
  });
});

describe('optim.lossScaler: scale and unscale', () => {
  it('unscales by float32(1/scale) and checks finiteness before the multiply, as torch', () => {
    const ls = optim.lossScaler({ initScale: 3 });
    const st = ls.init();
    const g = { a: tensor([3, -1.5, 1e-3], { dtype: 'float32' }), b: [tensor([[7]], { dtype: 'float64' })] };
    const { grads, finite } = ls.unscale(g, st);
    const inv = Math.fround(1 / 3);
    expect(grads.a.dtype).toBe('float32');
    expect(grads.a.tolist()).toEqual([3, -1.5, 1e-3].map((v) => Math.fround(Math.fround(v) * inv)));
    expect(grads.b[0]!.dtype).toBe('float64');
    expect(grads.b[0]!.tolist()).toEqual([[7 * inv]]);
    expect(finite.dtype).toBe('bool');
    expect(finite.item()).toBe(true);
    // scale 1/4: 1e38 is finite before unscaling and inf after; torch checks the scaled value
    const small = optim.lossScaler({ initScale: 0.25 });
    const r = small.unscale({ a: tensor([1e38], { dtype: 'float32' }) }, small.init());
    expect(r.finite.item()).toBe(true);
    expect(r.grads.a.item()).toBe(Infinity);
  });

  it('finds inf and NaN anywhere, in any float dtype', () => {
    const ls = optim.lossScaler();
    const st = ls.init();
    const ok = [tensor([1, 2], { dtype: 'float32' }), tensor([3], { dtype: 'float16' }), tensor([4], { dtype: 'bfloat16' })];
    expect(ls.unscale(ok, st).finite.item()).toBe(true);
    for (const bad of [Infinity, -Infinity, NaN]) {
      for (const dtype of ['float32', 'float16', 'bfloat16', 'float64'] as const) {
        const g = [...ok, tensor([0, bad, 0], { dtype })];
        expect(ls.unscale(g, st).finite.item(), `${bad} in ${dtype}`).toBe(false);
      }
    }
    // float16 gradients are unscaled in float32 and stored back: 65504·2⁻¹⁶ is exact
    const h = ls.unscale({ w: tensor([65504, 1], { dtype: 'float16' }) }, st).grads.w;
    expect(h.dtype).toBe('float16');
    expect(h.tolist()).toEqual([65504 / 65536, 2 ** -16]);
  });

  it('scale keeps the loss dtype and computes in float32 or wider', () => {
    const ls = optim.lossScaler();
    const st = ls.init();
    // 0.5 · 2¹⁶ = 32768 fits float16 although 2¹⁶ does not
    const h = ls.scale(tensor(0.5, { dtype: 'float16' }), st);
    expect(h.dtype).toBe('float16');
    expect(h.item()).toBe(32768);
    expect(ls.scale(tensor(2, { dtype: 'float16' }), st).item()).toBe(Infinity);
    const d = ls.scale(tensor(1 / 3), st);
    expect(d.dtype).toBe('float64');
    expect(d.item()).toBe(65536 / 3);
  });
});

describe('optim.withLossScaling', () => {
  // A quadratic with a multiplier k: k = 1e36 overflows float32 once scaled by 2¹⁰.
  const loss = (p: { w: Tensor; b: Tensor }, k: Tensor) => p.w.sub(tensor([1, -2, 3], { dtype: 'float32' })).square().sum().add(p.b.square().sum()).mul(k);
  const init = () => ({ w: random.normal(random.key(0), [3], { dtype: 'float32' }), b: random.normal(random.key(1), [2], { dtype: 'float32' }) });
  const INJECT = new Set([2, 3, 7]);

  it('skips exactly the overflowing steps (params and Adam state kept, count not advanced) and backs off then; otherwise Adam bit for bit', () => {
    const opt = optim.withLossScaling(optim.adam({ lr: 0.1 }), { initScale: 1024, growthInterval: 3 });
    const step = jit((p: { w: Tensor; b: Tensor }, st: optim.LossScaledState, k: Tensor) => {
      const g = grad((q: { w: Tensor; b: Tensor }) => opt.scale(loss(q, k), st))(p);
      return opt.step(p, g, st);
    });
    const ref = optim.adam({ lr: 0.1 });
    let p = init(), st = opt.init(p);
    let rp = init(), rs = ref.init(rp);
    let scale = 1024, tracker = 0;
    for (let i = 0; i < 12; i++) {
      const inject = INJECT.has(i);
      const k = tensor(inject ? 1e36 : 1, { dtype: 'float32' });
      const before = p;
      ({ params: p, state: st } = step(p, st, k));
      if (inject) {
        expect(p.w.tolist()).toEqual(before.w.tolist());
        expect(p.b.tolist()).toEqual(before.b.tolist());
      } else {
        const g = grad((q: { w: Tensor; b: Tensor }) => loss(q, k))(rp);
        ({ params: rp, state: rs } = ref.step(rp, g, rs));
      }
      expect(p.w.tolist(), `step ${i}`).toEqual(rp.w.tolist());
      expect(p.b.tolist()).toEqual(rp.b.tolist());
      expect((st.inner.expAvgSq as { w: Tensor }).w.tolist()).toEqual((rs.expAvgSq as { w: Tensor }).w.tolist());
      [scale, tracker] = torchUpdate(scale, tracker, inject, 2, 0.5, 3);
      expect(st.scale.item(), `scale after step ${i}`).toBe(scale);
      expect(st.growthTracker.item()).toBe(tracker);
      expect(st.step.item()).toBe(i + 1);
      expect(st.inner.step.item()).toBe(rs.step.item());
    }
    expect(st.inner.step.item()).toBe(12 - INJECT.size);
    expect(step.compiles).toBe(1);
  });

  it('takes a lossScaler, and rejects bad options, optimizers and states with typed errors', () => {
    const ls = optim.lossScaler({ initScale: 4 });
    const opt = optim.withLossScaling(optim.sgd({ lr: 1 }), ls);
    expect(opt.scaler).toBe(ls);
    expect(opt.init({ w: tensor([1]) }).scale.item()).toBe(4);
    expect(() => optim.lossScaler({ initScale: 0 })).toThrow(ValueError);
    expect(() => optim.lossScaler({ initScale: 1e39 })).toThrow(/finite in float32/);
    expect(() => optim.lossScaler({ growthFactor: 1 })).toThrow(ValueError);
    expect(() => optim.lossScaler({ backoffFactor: 1 })).toThrow(ValueError);
    expect(() => optim.lossScaler({ backoffFactor: 0 })).toThrow(ValueError);
    expect(() => optim.lossScaler({ growthInterval: 1.5 })).toThrow(ValueError);
    expect(() => optim.lossScaler({ growthInterval: 0 })).toThrow(ValueError);
    expect(() => optim.lossScaler({ initscale: 8 } as optim.LossScalerOptions)).toThrow(/unknown option initscale/);
    expect(() => optim.withLossScaling({} as optim.Optimizer)).toThrow(ValueError);
    expect(() => optim.withLossScaling(optim.sgd({ lr: 1 }), { growthInterval: -1 })).toThrow(/optim.withLossScaling: growthInterval/);
    const p = { w: tensor([1], { dtype: 'float32' }) };
    expect(() => opt.step(p, p, optim.sgd({ lr: 1 }).init(p) as unknown as optim.LossScaledState)).toThrow(/withLossScaling\(\.\.\.\)\.init\(params\)/);
    const st = ls.init();
    expect(() => ls.update(st, tensor(1))).toThrow(DTypeError);
    expect(() => ls.update({ scale: tensor(1), growthTracker: st.growthTracker }, tensor(true))).toThrow(DTypeError);
    expect(() => ls.unscale({ i: tensor([1], { dtype: 'int32' }) }, st)).toThrow(DTypeError);
    expect(() => ls.scale(tensor(1, { dtype: 'int32' }), st)).toThrow(DTypeError);
  });
});
