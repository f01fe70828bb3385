// Control flow in the IR: scan/forLoop/whileLoop/cond forward, derivatives, batching.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';

/** A tensor constructor pinned to `device`: every input below lives there. */
const pin = (device: string) => (v: rlx.NestedData) => rlx.tensor(v).on(device);
type Pair = [rlx.Tensor, rlx.Tensor];

/** Leapfrog for q'' = -k q, N steps of dt, in rlx (scan) and in plain JS (the reference). */
function leapfrog(q0: rlx.Tensor, k: rlx.Tensor, dt: number, N: number): rlx.Tensor {
  const step = ([q, p]: Pair): Pair => {
    const ph = p.sub(q.mul(k).mul(dt / 2));
    const qn = q.add(ph.mul(dt));
    return [qn, ph.sub(qn.mul(k).mul(dt / 2))];
  };
  // The initial momentum is a constant made here: it follows q0's device.
  const [[qf]] = rlx.scan((s) => [step(s as Pair), null], [q0, rlx.tensor(0)], null, { length: N }) as [Pair, unknown];
  return qf;
}
function leapfrogJs(q0: number, k: number, dt: number, N: number): number {
  let q = q0,
    p = 0;
  for (let i = 0; i < N; i++) {
    const ph = p - k * q * (dt / 2);
    q = q + ph * dt;
    p = ph - k * q * (dt / 2);
  }
  return q;
}

describe.each(DEVICES)('scan on %s', (device) => {
  const T = pin(device);
  it('carries and stacks like a loop, forward and reversed', () => {
    const [c, ys] = rlx.scan((c, x) => [(c as rlx.Tensor).add(x as rlx.Tensor), (c as rlx.Tensor).mul(2)], T(0), T([1, 2, 3, 4])) as Pair;
    expect(c.item()).toBe(10);
    expect(ys.tolist()).toEqual([0, 2, 6, 12]);
    const [c2, ys2] = rlx.scan((c, x) => [(c as rlx.Tensor).add(x as rlx.Tensor), c], T(0), T([1, 2, 3, 4]), { reverse: true }) as Pair;
    expect(c2.item()).toBe(10);
    expect(ys2.tolist()).toEqual([9, 7, 4, 0]);
  });

  it('a 10,000-step integration is one scan kernel in one executable', () => {
    const s0 = rlx.cacheStats().compiles;
    const qf = leapfrog(T(1), T(1), 0.01, 10_000);
    const plan = rlx.explain(qf, { print: false });
    expect(qf.device, 'the loop result stays pinned to the device of its inputs').toBe(device);
    expect(plan.device).toBe(device);
    expect(plan.kernels.map((k) => k.kind)).toContain('scan');
    expect(plan.kernels.filter((k) => k.kind === 'scan')).toHaveLength(1);
    expect(qf.item()).toBeCloseTo(leapfrogJs(1, 1, 0.01, 10_000), 12);
    expect(rlx.cacheStats().compiles - s0).toBeLessThanOrEqual(3); // body + outer graph (+ explain's identical graph is a hit)
  });

  it('gradient of a 1,000-step leapfrog: exact vs the map derivative, O(dt^2) vs the analytic cos(T)', () => {
    const dt = 0.01,
      N = 1000;
    const g = rlx.grad((q0: rlx.Tensor) => leapfrog(q0, T(1), dt, N))(T(1)) as rlx.Tensor;
    // The leapfrog map is linear in q0: d q_N / d q0 = q_N(q0 = 1).
    expect(g.item()).toBeCloseTo(leapfrogJs(1, 1, dt, N), 13);
    expect(Math.abs((g.item() as number) - Math.cos(N * dt))).toBeLessThan(dt * dt);
    // Through a closed-over parameter k, against central differences of the JS reference.
    const gk = rlx.grad((k: rlx.Tensor) => leapfrog(T(1), k, dt, N))(T(1)) as rlx.Tensor;
    const h = 1e-6;
    expect(gk.item()).toBeCloseTo((leapfrogJs(1, 1 + h, dt, N) - leapfrogJs(1, 1 - h, dt, N)) / (2 * h), 7);
    // Forward mode agrees.
    const [, t] = rlx.jvp((k: rlx.Tensor) => leapfrog(T(1), k, dt, N), [T(1)], [T(1)]) as Pair;
    expect(t.item()).toBeCloseTo(gk.item() as number, 12);
  });

  it('gradients through xs and a stacked output', () => {
    const f = (xs: rlx.Tensor) => (rlx.scan((c, x) => [(c as rlx.Tensor).mul(x as rlx.Tensor), (c as rlx.Tensor).sin()], T(1), xs)[1] as rlx.Tensor).sum();
    const xs = T([0.5, 1.5, -2, 0.25]);
    const g = (rlx.grad(f)(xs) as rlx.Tensor).toArray();
    const ref = (v: number[]) => {
      let c = 1,
        s = 0;
      for (const x of v) (s += Math.sin(c)), (c *= x);
      return s;
    };
    const base = [0.5, 1.5, -2, 0.25];
    base.forEach((_, i) => {
      const up = [...base],
        dn = [...base];
      up[i]! += 1e-6;
      dn[i]! -= 1e-6;
      expect(g[i]).toBeCloseTo((ref(up) - ref(dn)) / 2e-6, 7);
    });
  });

  it('checkpoint = k gives the same gradients while storing one carry per k steps', () => {
    const f = (ck: number) => (xs: rlx.Tensor) =>
      (rlx.scan((c, x) => {
        const cc = c as Pair;
        const nx = cc[0].mul(x as rlx.Tensor).sin().add(cc[1]);
        return [[nx, cc[1].mul(0.99)], nx.square()];
      }, [T(0.3), T(0.1)], xs, { checkpoint: ck })[1] as rlx.Tensor).sum();
    const xs = rlx.linspace(0.5, 1.5, 60).on(device);
    const g0 = (rlx.grad(f(0))(xs) as rlx.Tensor).toArray();
    for (const k of [6, 20, 60]) expect(Array.from((rlx.grad(f(k))(xs) as rlx.Tensor).toArray())).toEqual(Array.from(g0));
    expect(() => rlx.grad(f(7))(xs)).toThrow(/checkpoint 7 must divide the length 60/);
  });

  it('vmap of scan equals stacking, and forLoop counts', () => {
    const q0s = T([1, 2, -0.5]);
    const v = rlx.vmap((q0: rlx.Tensor) => leapfrog(q0, T(1.5), 0.01, 200))(q0s) as rlx.Tensor;
    expect(Array.from(v.toArray())).toEqual([1, 2, -0.5].map((q) => leapfrog(T(q), T(1.5), 0.01, 200).item()));
    expect((rlx.forLoop(0, 5, (i, acc) => (acc as rlx.Tensor).add(i.cast('float64')), T(0)) as rlx.Tensor).item()).toBe(10);
    expect((rlx.forLoop(3, 3, (_i, acc) => acc, T(7)) as rlx.Tensor).item()).toBe(7);
  });

  it('jvp through a body with a literal exponent at negative values is finite and matches grad (no 0·NaN from log x)', () => {
    const x0 = T([-0.5, 0.7]);
    const v = T([1, -2]);
    const bodyStep = (c: rlx.Tensor) => c.pow(3).mul(0.5).add(c);
    const viaScan = (x: rlx.Tensor) => (rlx.scan((c: rlx.Tensor) => [bodyStep(c), null] as const, x, null, { length: 2 })[0] as rlx.Tensor).sum();
    const viaWhile = (x: rlx.Tensor) => (rlx.whileLoop((s: [rlx.Tensor, rlx.Tensor]) => s[1].lt(2), (s: [rlx.Tensor, rlx.Tensor]) => [bodyStep(s[0]), s[1].add(1)], [x, T(0)])[0] as rlx.Tensor).sum();
    const viaCond = (x: rlx.Tensor) => (rlx.cond(T(1).gt(0), (y: rlx.Tensor) => bodyStep(bodyStep(y)), (y: rlx.Tensor) => y, x) as rlx.Tensor).sum();
    const g = rlx.grad(viaScan)(x0) as rlx.Tensor;
    const want = g.mul(v).sum().item() as number;
    for (const [name, f] of [['scan', viaScan], ['whileLoop', viaWhile], ['cond', viaCond]] as const) {
      const [, t] = rlx.jvp(f, [x0], [v]) as [rlx.Tensor, rlx.Tensor];
      expect(t.item() as number, name).toBeCloseTo(want, 10);
    }
  });

  it('zero steps give the carry as a step would (numbers become tensors); leafless xs keep their structure', () => {
    const [a, b] = rlx.forLoop(2, 2, (_i, c) => c, [1.5, T(2)]);
    expect(a).toBeInstanceOf(rlx.Tensor);
    expect(a.item()).toBe(1.5);
    expect(b.item()).toBe(2);
    for (const xs of [[], {}, null]) {
      const seen: unknown[] = [];
      rlx.scan((c: rlx.Tensor, x) => (seen.push(x), [c, null] as const), T(0), xs, { length: 2 });
      expect(seen.length).toBeGreaterThan(0);
      for (const x of seen) expect(x).toEqual(xs);
    }
  });

  it('a body that changes the carry is a TransformError', () => {
    expect(() => rlx.scan((c) => [(c as rlx.Tensor).reshape(1, 1), null], T([1]), null, { length: 2 })).toThrow(/carry like its input/);
  });
});

describe.each(DEVICES)('whileLoop and cond on %s', (device) => {
  const T = pin(device);
  const collatz = (n0: rlx.Tensor) =>
    rlx.whileLoop(
      (s) => (s as Pair)[0].ne(1),
      (s) => {
        const [n, k] = s as Pair;
        return [rlx.where(n.mul(0.5).floor().mul(2).eq(n), n.mul(0.5), n.mul(3).add(1)), k.add(1)];
      },
      [n0, rlx.tensor(0)], // a constant made here: it follows n0's device
    ) as Pair;
  const collatzJs = (n: number) => {
    let k = 0;
    while (n !== 1) (n = n % 2 === 0 ? n / 2 : 3 * n + 1), k++;
    return k;
  };

  it('whileLoop forward, batched (each example stops on its own), forward-mode only', () => {
    expect(collatz(T(27))[1].item()).toBe(collatzJs(27));
    expect((rlx.vmap((n: rlx.Tensor) => collatz(n)[1])(T([1, 6, 27, 7])) as rlx.Tensor).tolist()).toEqual([1, 6, 27, 7].map(collatzJs));
    const pw = (x: rlx.Tensor) => rlx.whileLoop((c) => (c as rlx.Tensor).lt(10), (c) => (c as rlx.Tensor).mul(x), x) as rlx.Tensor;
    const [y, t] = rlx.jvp(pw, [T(2)], [T(1)]) as Pair;
    expect([y.item(), t.item()]).toEqual([16, 32]);
    expect(() => rlx.grad(pw)(T(2))).toThrow(/not reverse-differentiable/);
  });

  it('cond takes either branch, differentiates the taken one, batches a batched predicate', () => {
    const f = (x: rlx.Tensor) => rlx.cond(x.sum().gt(0), (y) => y.mul(2), (y) => y.neg().exp(), x) as rlx.Tensor;
    expect(f(T([1, 2])).tolist()).toEqual([2, 4]);
    expect(f(T([-1, -2])).tolist()).toEqual([Math.E, Math.exp(2)]);
    expect((rlx.grad((x: rlx.Tensor) => f(x).sum())(T([1, 2])) as rlx.Tensor).tolist()).toEqual([2, 2]);
    expect((rlx.grad((x: rlx.Tensor) => f(x).sum())(T([-1, -2])) as rlx.Tensor).tolist()).toEqual([-Math.E, -Math.exp(2)]);
    expect((rlx.vmap(f)(T([[1, 2], [-1, -2]])) as rlx.Tensor).tolist()).toEqual([[2, 4], [Math.E, Math.exp(2)]]);
    expect(() => rlx.cond(T(true), (y) => y, (y) => y.sum(), T([1, 2]))).toThrow(/branch returns/);
    expect(() => rlx.cond(T([true, false]), (y) => y, (y) => y, T(1))).toThrow(/bool scalar/);
  });
});
