// The transform API: composition, pytrees, jit caching, Func methods, custom rules, errors.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import '../harness/allclose.js';
import { escapingNodes } from '../../src/compiler/realize.js';
import { topoSort } from '../../src/compiler/ir.js';

/** A tensor constructor pinned to `device`: every input below lives there. */
const pin = (device: string) => (v: rlx.NestedData) => rlx.tensor(v).on(device);
const arr = (t: rlx.PyTree) => Array.from((t as rlx.Tensor).toArray());

describe.each(DEVICES)('grad family on %s', (device) => {
  const T = pin(device);
  const f = (x: rlx.Tensor) => x.mul(x).mul(x).sum(); // sum x^3

  it('grad, grad of grad, valueAndGrad with argnums and pytrees', () => {
    const x = T([0.5, -1, 2]);
    const g1 = rlx.grad(f)(x) as rlx.Tensor;
    expect(g1.device, 'the gradient stays pinned to the device of its input').toBe(device);
    expect(rlx.explain(g1, { print: false }).device).toBe(device);
    expect(arr(g1)).toBeAllclose([0.75, 3, 12], { rtol: 1e-15 });
    const g2 = rlx.grad((y: rlx.Tensor) => (rlx.grad(f)(y) as rlx.Tensor).sum());
    expect(arr(g2(x))).toBeAllclose([3, -6, 12], { rtol: 1e-15 });
    const loss = (p: { w: rlx.Tensor; b: rlx.Tensor }, xs: rlx.Tensor) => xs.matmul(p.w).add(p.b).square().sum();
    const p = { w: T([[1], [2]]), b: T([0.5]) };
    const xs = T([[1, 0], [0, 1], [1, 1]]);
    const [v, g] = rlx.valueAndGrad(loss)(p, xs) as [rlx.Tensor, { w: rlx.Tensor; b: rlx.Tensor }];
    expect(v.item()).toBe(1.5 ** 2 + 2.5 ** 2 + 3.5 ** 2);
    // d/dw sum (xw+b)^2 = 2 x^T (xw + b); d/db = 2 sum(xw + b)
    expect(arr(g.w)).toEqual([2 * (1.5 + 3.5), 2 * (2.5 + 3.5)]);
    expect(arr(g.b)).toEqual([2 * (1.5 + 2.5 + 3.5)]);
    const [gw, gx] = rlx.grad(loss, { argnums: [0, 1] })(p, xs) as [{ w: rlx.Tensor; b: rlx.Tensor }, rlx.Tensor];
    expect(arr(gw.w)).toEqual(arr(g.w));
    expect(arr(gw.b)).toEqual(arr(g.b));
    // d/dx sum (x w + b)^2 = 2 (x w + b) w^T, rows (1.5, 2.5, 3.5) times w^T = [1, 2].
    expect(gx.tolist()).toEqual([[3, 6], [5, 10], [7, 14]]);
  });

  it('a cotangent the backward discards (a constant operand\'s) does not make what it reads look used elsewhere: no extra outputs', () => {
    const target = rlx.tensor([1, 2, 3]);
    const [v, g] = rlx.valueAndGrad((t: rlx.Tensor) => t.mul(2).sub(target).square().sum())(rlx.tensor([0.5, 0.25, 4])) as [rlx.Tensor, rlx.Tensor];
    // sub's rule also gives −cotangent for target, which takes no gradient: that node is dropped, and so is its use
    // of the cotangent (realize.ts would otherwise compute the cotangent as one more output, a fresh buffer a step).
    const roots = [v.node, g.node];
    expect(escapingNodes(topoSort(roots), roots)).toEqual([]);
    expect(v.item()).toBe(0 + 2.25 + 25); // (2t − target)²: 0, 1.5², 5²
    expect(Array.from(g.toArray() as Float32Array)).toEqual([0, -6, 20]); // 4 (2t − target)
  });

  it("valueAndGrad's value and gradients are computed together: realizing one computes the others, with the same numbers", () => {
    const loss = (p: { w: rlx.Tensor; b: rlx.Tensor }, xs: rlx.Tensor) => xs.matmul(p.w).add(p.b).tanh().square().sum();
    const p = { w: T([[0.3], [-0.7]]), b: T([0.25]) };
    const xs = T([[1, 0.5], [0, 1], [1, 1]]);
    const [v, g] = rlx.valueAndGrad(loss)(p, xs) as [rlx.Tensor, { w: rlx.Tensor; b: rlx.Tensor }];
    expect([v, g.w, g.b].map((t) => t.node.op === 'buffer')).toEqual([false, false, false]);
    v.realize();
    expect([g.w, g.b].map((t) => t.node.op), 'the gradients came with the value').toEqual(['buffer', 'buffer']);
    // Realized apart (a gradient first, then the value): the same bits.
    const [v2, g2] = rlx.valueAndGrad(loss)(p, xs) as [rlx.Tensor, { w: rlx.Tensor; b: rlx.Tensor }];
    expect(arr(g2.b)).toEqual(arr(g.b));
    expect(v2.node.op, 'a gradient realized first brings the value').toBe('buffer');
    expect(v2.item()).toBe(v.item());
    expect(arr(g2.w)).toEqual(arr(g.w));
    // grad alone: its gradients realize (the value comes along, unseen).
    expect(arr(rlx.grad(loss)(p, xs).w)).toEqual(arr(g.w));
    // A gradient already used by other lazy ops is left to them: reading the value then computes the forward only.
    const [v3, g3] = rlx.valueAndGrad(loss)(p, xs) as [rlx.Tensor, { w: rlx.Tensor; b: rlx.Tensor }];
    const step = p.w.sub(g3.w.mul(0.1));
    expect(v3.item()).toBe(v.item());
    expect([g3.w.node.op === 'buffer', g3.b.node.op === 'buffer']).toEqual([false, true]);
    expect(arr(step)).toEqual(arr(p.w).map((w, i) => w - 0.1 * arr(g.w)[i]!));
  });

  it('tensor-level loss.grad([a, b]) through lazy nodes and through realized tracked history', () => {
    const a = T([1, 2]).requiresGrad(),
      b = T([3, 4]).requiresGrad();
    const mid = a.mul(b);
    mid.toArray(); // realized: tracked history keeps the path
    const [ga, gb] = mid.sum().mul(2).grad([a, b]);
    expect(arr(ga!)).toEqual([6, 8]);
    expect(arr(gb!)).toEqual([2, 4]);
  });

  it('jvp, vjp, hvp and the hessian of a quadratic form is A + A^T exactly', () => {
    const A = T([[1, 2, 0], [-1, 3, 4], [0.5, 0, 2]]);
    const q = (x: rlx.Tensor) => x.matmul(A).matmul(x);
    const x = T([0.3, -0.7, 1.1]);
    const H = rlx.hessian(q)(x);
    const At = A.T;
    expect(H.tolist()).toEqual(A.add(At).tolist());
    const v = T([1, 0, -1]);
    expect(arr(rlx.hvp(q, [x], [v]))).toEqual(arr(A.add(At).matmul(v)));
    const [y, t] = rlx.jvp(q, [x], [v]) as [rlx.Tensor, rlx.Tensor];
    expect(y.item()).toBeCloseTo(x.matmul(A).matmul(x).item() as number, 14);
    expect(t.item()).toBeCloseTo(A.add(At).matmul(x).dot(v).item() as number, 14);
    const [, back] = rlx.vjp((z: rlx.Tensor) => z.mul(2).exp(), x);
    expect(arr(back(T([1, 1, 1]))[0]!)).toBeAllclose(arr(x.mul(2).exp().mul(2)), { rtol: 1e-15 });
  });

  it('jacfwd equals jacrev', () => {
    const f2 = (x: rlx.Tensor) => x.sin().mul(x.sum()).add(x.square());
    const x = T([0.1, 0.2, 0.3, 0.4]);
    expect(arr(rlx.jacfwd(f2)(x))).toBeAllclose(arr(rlx.jacrev(f2)(x)), { rtol: 1e-14, atol: 1e-15 });
  });

  it('stopGradient, customVjp, customJvp, checkpoint', () => {
    const x = T([2, 3]);
    expect(arr(rlx.grad((y: rlx.Tensor) => rlx.stopGradient(y.square()).mul(y).sum())(x))).toEqual([4, 9]);
    const clipGrad = rlx.customVjp((y: rlx.Tensor) => y.mul(10), (_xs, _out, ct) => [ct.clip(-1, 1)]);
    expect(arr(rlx.grad((y: rlx.Tensor) => clipGrad(y).sum())(x))).toEqual([1, 1]);
    expect(arr(clipGrad(x))).toEqual([20, 30]);
    const lin = rlx.customJvp((y: rlx.Tensor) => y.exp(), ([y], [t]) => t!.mul(y!.exp()).mul(2));
    expect(arr(rlx.jvp(lin, [x], [T([1, 1])])[1])).toBeAllclose(arr(x.exp().mul(2)), { rtol: 1e-15 });
    const heavy = rlx.checkpoint((y: rlx.Tensor) => y.sin().exp());
    expect(arr(rlx.grad((y: rlx.Tensor) => heavy(y).sum())(x))).toBeAllclose(arr(x.sin().exp().mul(x.cos())), { rtol: 1e-14 });
  });

  it('typed errors: non-scalar output, integer output and input', () => {
    expect(() => rlx.grad((x: rlx.Tensor) => x.mul(2))(T([1, 2]))).toThrow(/must return a scalar, got shape \[2\]/);
    expect(() => rlx.grad((x: rlx.Tensor) => x.sum().cast('int32'))(T([1, 2]))).toThrow(rlx.TransformError);
    expect(() => rlx.grad((x: rlx.Tensor) => x.sum().cast('float64'))(rlx.tensor(new Int32Array([1])).on(device))).toThrow(/int32; only float and complex/);
    expect(() => rlx.vmap((a: rlx.Tensor, b: rlx.Tensor) => a.add(b))(T([1, 2]), T([1, 2, 3]))).toThrow(/mismatched batch sizes.*2.*3/);
  });
});

describe.each(DEVICES)('composition and jit on %s', (device) => {
  const T = pin(device);
  it('vmap(grad(f)) equals per-example gradients; grad(vmap(f)) too', () => {
    const f = (w: rlx.Tensor, x: rlx.Tensor) => x.mul(w).tanh().sum();
    const w = T([0.5, -0.25]);
    const xs = T([[1, 2], [3, 4], [-1, 0.5]]);
    const per = rlx.vmap(rlx.grad(f), { inAxes: [null, 0] })(w, xs) as rlx.Tensor;
    const rows = [0, 1, 2].map((i) => rlx.grad(f)(w, xs.select(0, i)) as rlx.Tensor);
    expect(arr(per)).toBeAllclose(arr(rlx.stack(rows)), { rtol: 1e-15 });
    const total = rlx.grad((ww: rlx.Tensor) => (rlx.vmap(f, { inAxes: [null, 0] })(ww, xs) as rlx.Tensor).sum())(w);
    expect(arr(total)).toBeAllclose(arr(per.sum(0)), { rtol: 1e-14 });
  });

  it('jit: second call is a cache hit; dynamic axes do not recompile; jit(vmap(grad(f)))', () => {
    // The pinned inputs are computed first, so only jit's own cache traffic is counted.
    const x1 = T([1, 2]).realize(),
      x2 = T([3, 4]).realize();
    const s0 = rlx.cacheStats().hits;
    const f = rlx.jit((x: rlx.Tensor) => x.square().sum(), { device });
    f(x1);
    f(x2);
    expect(f.compiles).toBe(1);
    expect(f.hits).toBe(1);
    expect(rlx.cacheStats().hits).toBeGreaterThan(s0);
    const d = rlx.jit((x: rlx.Tensor) => x.mul(2).sum(0), { dynamicAxes: { 0: [0] }, device });
    for (const n of [1, 5, 9]) expect((d(rlx.ones([n, 2]).on(device)) as rlx.Tensor).tolist()).toEqual([2 * n, 2 * n]);
    expect(d.compiles).toBe(1);
    const pg = rlx.jit(rlx.vmap(rlx.grad((x: rlx.Tensor) => x.square().sum())), { device });
    expect((pg(T([[1, 2], [3, 4]])) as rlx.Tensor).tolist()).toEqual([[2, 4], [6, 8]]);
    expect((rlx.grad((x: rlx.Tensor) => f(x) as rlx.Tensor)(T([1, 2])) as rlx.Tensor).tolist()).toEqual([2, 4]);
  });

  it('Func methods: f.grad([x]).vmap([x], 4).jit() then run many times with no recompile', () => {
    const f = rlx.graph('energy', (g) => {
      const x = g.input('x', [3]);
      const k = g.param('k', []);
      return x.square().sum().mul(k).mul(0.5);
    });
    const xs = [[1, 2, 3], [0, 0, 1], [-1, 1, 0], [2, 2, 2]];
    // The pinned inputs are computed first, so only the Func's compile is counted.
    const x = T(xs).realize(),
      k = T(2).realize();
    const s0 = rlx.cacheStats().compiles;
    const per = f.grad(['x']).vmap(['x'], 4).jit({ device });
    for (let rep = 0; rep < 3; rep++) {
      const out = per.run({ x, k }) as Record<string, rlx.Tensor>;
      expect(out['x']!.tolist()).toEqual(xs.map((r) => r.map((v) => 2 * v)));
    }
    expect(rlx.cacheStats().compiles - s0).toBe(1);
  });
});
