// Compiler behaviour observable through explain(): fusion, CSE, DCE, memory plan, cache.

import { describe, expect, it, beforeEach, afterEach } from 'vitest';
import * as rlx from '../../src/index.js';

const quiet = { print: false };
const vec = (n: number, f: (i: number) => number) => rlx.tensor(Float64Array.from({ length: n }, (_, i) => f(i)));

describe('fusion', () => {
  it('a.add(b).mul(c).relu().sum() is ONE kernel with no n-sized intermediate', () => {
    const n = 100_000;
    const a = vec(n, (i) => Math.sin(i)),
      b = vec(n, (i) => Math.cos(i)),
      c = vec(n, (i) => (i % 7) - 3);
    const r = a.add(b).mul(c).relu().sum();
    const plan = rlx.explain(r, quiet);
    expect(plan.kernels).toHaveLength(1);
    expect(plan.kernels[0]!.kind).toBe('reduce');
    expect(plan.kernels[0]!.ops).toEqual(expect.arrayContaining(['sum', 'add', 'mul', 'maximum']));
    // Only the scalar output is allocated.
    expect(plan.buffers).toHaveLength(1);
    expect(plan.buffers.every((buf) => (buf.bytes ?? Infinity) < n)).toBe(true);
    expect(plan.peakBytes).toBe(8);
    let want = 0;
    for (let i = 0; i < n; i++) want += Math.max((Math.sin(i) + Math.cos(i)) * ((i % 7) - 3), 0);
    expect(r.item()).toBeCloseTo(want, 6);
  });

  it('a chain of k elementwise ops on one shape is one kernel', () => {
    const x = vec(1000, (i) => i / 1000);
    let y = x;
    const k = 12;
    for (let i = 0; i < k; i++) y = i % 3 === 0 ? y.add(0.5) : i % 3 === 1 ? y.mul(1.01) : y.tanh();
    const plan = rlx.explain(y, quiet);
    expect(plan.kernels).toHaveLength(1);
    expect(plan.kernels[0]!.ops.filter((o) => ['add', 'mul', 'tanh'].includes(o))).toHaveLength(k);
    const xs = x.toArray();
    const got = y.toArray();
    for (const i of [0, 17, 999]) {
      let v = xs[i]!;
      for (let j = 0; j < k; j++) v = j % 3 === 0 ? v + 0.5 : j % 3 === 1 ? v * 1.01 : Math.tanh(v);
      expect(got[i]).toBe(v);
    }
  });

  it('a reduction fuses its elementwise epilogue (mean = sum / n)', () => {
    const x = rlx.tensor([[1, 2, 3], [4, 5, 6]]);
    const m = x.mean(1);
    const plan = rlx.explain(m, quiet);
    expect(plan.kernels).toHaveLength(1);
    expect(plan.kernels[0]!.ops).toEqual(expect.arrayContaining(['sum', 'div']));
    expect(m.tolist()).toEqual([2, 5]);
  });

  it('matmul fuses a bias + activation epilogue', () => {
    const x = rlx.tensor([[1, -2], [3, 4]]),
      w = rlx.tensor([[1, 0, -1], [0, 1, 1]]),
      bias = rlx.tensor([0.5, -10, 0]);
    const y = x.matmul(w).add(bias).relu();
    const plan = rlx.explain(y, quiet);
    expect(plan.kernels).toHaveLength(1);
    expect(plan.kernels[0]!.kind).toBe('matmul');
    expect(plan.kernels[0]!.ops).toEqual(expect.arrayContaining(['matmul', 'add', 'maximum']));
    expect(y.tolist()).toEqual([[1.5, 0, 0], [3.5, 0, 1]]);
  });

  // exp(x - max) feeds two kernels (the sum and the division), so it is materialized
  // once rather than recomputed: max, exp, sum, divide.
  it('softmax: max kernel, exp kernel shared by a sum kernel and a normalizing kernel', () => {
    const x = rlx.tensor([[1, 2, 3], [1, 1, 1]]);
    const e = x.sub(x.max(1, true)).exp();
    const sm = e.div(e.sum(1, true));
    const plan = rlx.explain(sm, quiet);
    expect(plan.kernels.map((k) => k.kind)).toEqual(['reduce', 'elementwise', 'reduce', 'elementwise']);
    expect(plan.kernels[2]!.ops).toEqual(['sum']);
    const got = sm.toArray();
    const z = Math.exp(-2) + Math.exp(-1) + 1;
    expect(got[2]).toBeCloseTo(1 / z, 15);
    expect(got[3]).toBeCloseTo(1 / 3, 15);
  });

  it('views fold into loads: transpose + slice + broadcast need no copy kernel', () => {
    const a = rlx.arange(12).reshape(3, 4);
    const v = a.T.slice(rlx.s(rlx.rg(null, null, -1), rlx.rg(1, 3))).add(rlx.tensor([100, 200]));
    const plan = rlx.explain(v, quiet);
    expect(plan.kernels).toHaveLength(1);
    expect(v.tolist()).toEqual([[107, 211], [106, 210], [105, 209], [104, 208]]);
  });

  it('a reshape that is not a view of its input gets a copy kernel, and is correct', () => {
    const a = rlx.arange(6).reshape(2, 3);
    const f = a.T.reshape(-1).mul(10);
    const plan = rlx.explain(f, quiet);
    expect(plan.kernels.length).toBe(2);
    expect(f.tolist()).toEqual([0, 30, 10, 40, 20, 50]);
  });
});

describe('CSE, DCE, folding, simplification', () => {
  it('CSE merges repeated subexpressions (visible in explain)', () => {
    const x = rlx.tensor([0.1, 0.2, 0.3]);
    const y = x.exp().add(x.exp());
    const plan = rlx.explain(y, quiet);
    const cse = plan.passes.find((p) => p.name === 'cse')!;
    expect(cse.detail).toMatch(/^[1-9]\d* merged/);
    expect(plan.kernels[0]!.ops.filter((o) => o === 'exp')).toHaveLength(1);
    expect(Array.from(y.toArray())).toEqual([0.1, 0.2, 0.3].map((v) => 2 * Math.exp(v)));
  });

  it('DCE removes what a traced builder computed but did not return', () => {
    const f = rlx.graph('dead', (g) => {
      const x = g.input('x', [3]);
      x.exp().sin(); // dead
      return x.add(1);
    });
    const cf = f.compile();
    const dce = cf.report.passes.find((p) => p.name === 'dce')!;
    expect(dce.detail).toBe('2 removed');
    expect((cf.run({ x: [1, 2, 3] }) as rlx.Tensor).tolist()).toEqual([2, 3, 4]);
  });

  it('constant folding and exact simplifications', () => {
    const x = rlx.tensor([1.5, -2]);
    const y = x.mul(rlx.full([2], 2).mul(0.5)).add(rlx.full([2], 3).sub(3)).neg().neg();
    const plan = rlx.explain(y, quiet);
    expect(plan.passes.find((p) => p.name === 'constant-fold')!.detail).toMatch(/^[1-9]/);
    expect(plan.kernels[0]!.ops).not.toContain('neg');
    expect(plan.kernels[0]!.ops).not.toContain('mul');
    // x + (+0) is kept (it turns -0 into +0), x*1 is dropped.
    expect(Array.from(y.toArray())).toEqual([1.5, -2]);
    expect(Object.is(rlx.tensor([-0]).add(0).item(), 0)).toBe(true);
    expect(Object.is(rlx.tensor([-0]).mul(1).item(), -0)).toBe(true);
  });
});

describe('memory planning', () => {
  beforeEach(() => {
    rlx.config.fusion = false;
  });
  afterEach(() => {
    rlx.config.fusion = true;
  });
  it('without fusion, a dying intermediate is overwritten in place and buffers are reused', () => {
    const x = rlx.tensor(Float64Array.from({ length: 1000 }, (_, i) => i / 1000));
    const y = x.exp().add(1).mul(2).sqrt().neg();
    const plan = rlx.explain(y, quiet);
    expect(plan.kernels).toHaveLength(5);
    expect(plan.inPlace).toBeGreaterThanOrEqual(3);
    expect(plan.buffers.length).toBeLessThanOrEqual(2);
    const xs = x.toArray();
    const got = y.toArray();
    expect(got[500]).toBe(-Math.sqrt((Math.exp(xs[500]!) + 1) * 2));
  });
});

describe('compile cache', () => {
  it('re-materializing the same expression structure is a cache hit', () => {
    const a = rlx.tensor([1, 2, 3]);
    const mk = (t: rlx.Tensor) => t.mul(2).add(1).exp().sub(t).abs();
    mk(a).toArray();
    const s0 = rlx.cacheStats();
    for (let i = 0; i < 5; i++) mk(rlx.tensor([i, i + 1, i + 2])).toArray();
    const s1 = rlx.cacheStats();
    expect(s1.hits - s0.hits).toBe(5);
    expect(s1.compiles).toBe(s0.compiles);
  });

  // Issue 13: a literal's value is an argument of the executable, not part of
  // the key (a loop over distinct scalars compiled and kept one executable each).
  it('a literal is a parameter: a different constant reuses the executable, with its own value', () => {
    const a = rlx.tensor([1, 2, 3]);
    expect(a.mul(1.25).tolist()).toEqual([1.25, 2.5, 3.75]);
    const s0 = rlx.cacheStats();
    expect(a.mul(1.75).tolist()).toEqual([1.75, 3.5, 5.25]);
    expect(rlx.cacheStats().compiles).toBe(s0.compiles);
  });

  it('the values a pass rewrites on (x*1) are still keyed by value', () => {
    const a = rlx.tensor([-0, 2]);
    const s0 = rlx.cacheStats();
    const one = a.mul(1);
    expect(rlx.explain(one, quiet).kernels.flatMap((k) => k.ops)).not.toContain('mul');
    expect(Object.is(one.toArray()[0], -0)).toBe(true);
    expect(a.mul(3).tolist()).toEqual([-0, 6]);
    expect(rlx.cacheStats().compiles).toBe(s0.compiles + 2);
  });
});

describe('dynamic dims', () => {
  it('one compile serves three batch sizes', () => {
    const f = rlx.graph('affine', (g) => {
      const x = g.input('x', ['batch', 3]);
      const w = g.param('w', [3, 2]);
      return x.matmul(w).add(1).relu().sum(1);
    });
    const s0 = rlx.cacheStats();
    const cf = rlx.compile(f);
    const w = [[1, -1], [0.5, 0], [0, 2]];
    for (const n of [1, 4, 7]) {
      const x = Array.from({ length: n }, (_, i) => [i, 1, -i]);
      const out = cf.run({ x, w }) as rlx.Tensor;
      expect(out.shape).toEqual([n]);
      const want = x.map((r) => [0, 1].map((j) => Math.max(r[0]! * w[0]![j]! + r[1]! * w[1]![j]! + r[2]! * w[2]![j]! + 1, 0)).reduce((p, q) => p + q));
      expect(out.tolist()).toEqual(want);
    }
    expect(rlx.cacheStats().compiles - s0.compiles).toBe(1);
  });

  it('inconsistent bindings and missing inputs are typed errors', () => {
    const f = rlx.graph('pair', (g) => g.input('a', ['n']).add(g.input('b', ['n'])));
    const cf = f.compile();
    expect(() => cf.run({ a: [1, 2], b: [1, 2, 3] })).toThrow(rlx.ShapeError);
    expect(() => cf.run({ a: [1, 2] })).toThrow(/missing input 'b'/);
    expect(() => cf.run({ a: [1], b: [2], c: [3] })).toThrow(/unknown input 'c'/);
    expect((cf.run({ a: [1, 2], b: [3, 4] }) as rlx.Tensor).tolist()).toEqual([4, 6]);
  });

  it('a symbolic tensor cannot be materialized outside its compiled graph', () => {
    rlx.graph('sym', (g) => {
      const x = g.input('x', ['n']);
      expect(() => x.add(1).toArray()).toThrow(rlx.RlxError);
      return x;
    });
  });
});

describe('lazy graphs', () => {
  it('tensors from different graphs merge and realized tensors become leaves', () => {
    const a = rlx.tensor([1, 2]);
    const b = a.add(1);
    const c = rlx.tensor([10, 20]).mul(b);
    expect(c.tolist()).toEqual([20, 60]);
    expect(c.isRealized).toBe(true);
    expect(b.isRealized).toBe(false);
    expect(b.add(c).tolist()).toEqual([22, 63]);
  });

  it('await data() resolves with the values', async () => {
    const d = await rlx.tensor([1, 4, 9]).sqrt().data();
    expect(Array.from(d)).toEqual([1, 2, 3]);
  });
});

describe('epilogue legality', () => {
  it('a view of a value derived from a reduction is not fused as an epilogue', () => {
    const x = rlx.tensor([[1, 2], [3, 4], [5, 6]]);
    const y = x.sum(1).mul(2); // [6, 14, 22]
    const z = y.add(y.flip());
    expect(z.tolist()).toEqual([28, 28, 28]);
    const w = x.sum(1).mul(2).add(1); // a plain epilogue still fuses
    expect(rlx.explain(w, { print: false }).kernels).toHaveLength(1);
    expect(w.tolist()).toEqual([7, 15, 23]);
  });
});

describe('deep graphs', () => {
  it('a traced chain of 5000 ops compiles (kernels capped in size) and runs', () => {
    const f = rlx.graph('deep', (g) => {
      let x = g.input('x', ['n']);
      for (let i = 0; i < 5000; i++) x = i % 2 ? x.add(1) : x.mul(1.0001);
      return x;
    });
    const cf = f.compile();
    expect(cf.report.kernels.length).toBeGreaterThan(1);
    const out = (cf.run({ x: [0, 1] }) as rlx.Tensor).toArray();
    let a = 0,
      b = 1;
    for (let i = 0; i < 5000; i++) (a = i % 2 ? a + 1 : a * 1.0001), (b = i % 2 ? b + 1 : b * 1.0001);
    expect(out[0]).toBeCloseTo(a, 9);
    expect(out[1]).toBeCloseTo(b, 9);
  });

  it('an interior value another tensor still uses is computed once and kept', () => {
    const a = rlx.tensor([1, 2, 3]);
    const shared = a.exp();
    const other = shared.mul(2); // a user outside the next graph
    expect(shared.add(1).sum().item()).toBeCloseTo(Math.E + Math.exp(2) + Math.exp(3) + 3, 12);
    expect(shared.isRealized).toBe(true);
    expect(rlx.explain(other, { print: false }).kernels[0]!.ops).toEqual(['mul']);
  });
});

describe('Func edge cases', () => {
  it('a Func closing over a realized tensor runs', () => {
    const w = rlx.tensor([1, 2, 3]);
    const f = rlx.graph('closure', (g) => g.input('x', [3]).mul(w)).compile();
    expect((f.run({ x: [1, 1, 2] }) as rlx.Tensor).tolist()).toEqual([1, 2, 6]);
  });
  it('declared inputs are part of the signature even when unused', () => {
    const mk = (shape: number[]) => rlx.graph('unused', (g) => {
      g.input('i', shape);
      return g.input('x', [2]).add(1);
    }).compile();
    expect((mk([5, 2]).run({ i: rlx.zeros([5, 2]), x: [1, 2] }) as rlx.Tensor).tolist()).toEqual([2, 3]);
    expect((mk([2]).run({ i: [0, 0], x: [1, 2] }) as rlx.Tensor).tolist()).toEqual([2, 3]);
  });
});

describe('recompute instead of store', () => {
  it('a cheap value used by two kernels is recomputed in each (no buffer); an expensive one is stored', () => {
    const x = rlx.tensor(Float64Array.from({ length: 1000 }, (_, i) => i / 1000));
    const y = x.mul(2).add(1);
    const plan = rlx.explain([y.sum(), y.max()], quiet);
    expect(plan.kernels.map((k) => k.kind)).toEqual(['reduce', 'reduce']);
    expect(plan.buffers.every((b) => b.role === 'output')).toBe(true);
    const e = x.exp();
    const plan2 = rlx.explain([e.sum(), e.max()], quiet);
    expect(plan2.kernels).toHaveLength(3);
    const [s, m] = [y.sum(), y.max()];
    rlx.explain([s, m], quiet);
    expect(m.item()).toBe(2 * 0.999 + 1);
    expect(s.item()).toBeCloseTo(1000 + 999, 9);
  });
});
