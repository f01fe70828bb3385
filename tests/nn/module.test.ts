// nn.Module as a pytree (src/nn/module.ts): parameters by PyTorch name, state
// dicts, train/eval, and the transforms (grad, jit, vmap, tree.map) seeing
// through modules and rebuilding the same class.
import { describe, expect, it } from 'vitest';
import { tensor, grad, valueAndGrad, jit, vmap, Tensor, ShapeError, ValueError } from '../../src/index.js';
import { Module } from '../../src/nn/module.js';
import * as tree from '../../src/compiler/transforms/tree.js';

/** A small affine layer written for these tests (the real nn.Linear lives in its own file). */
class Affine extends Module {
  weight: Tensor;
  bias: Tensor | null;
  constructor(w: number[][], b: number[] | null, readonly scale = 1) {
    super();
    this.weight = tensor(w, { dtype: 'float64' });
    this.bias = b ? tensor(b, { dtype: 'float64' }) : null;
  }
  forward(x: Tensor): Tensor {
    const y = x.matmul(this.weight.transpose()).mul(this.scale);
    return this.bias ? y.add(this.bias) : y;
  }
}
class Two extends Module {
  first = new Affine([[1, 2], [3, 4]], [0.5, -0.5]);
  second = new Affine([[1, -1]], null, 2);
  forward(x: Tensor): Tensor {
    return this.second.forward(this.first.forward(x).tanh());
  }
}

describe('nn.Module', () => {
  it('names parameters by their PyTorch paths, in registration order, without absent (null) ones', () => {
    const m = new Two();
    expect(m.namedParameters().map(([k, p]) => [k, p.shape])).toEqual([
      ['first.weight', [2, 2]],
      ['first.bias', [2]],
      ['second.weight', [1, 2]],
    ]);
    expect(Object.keys(m.stateDict())).toEqual(['first.weight', 'first.bias', 'second.weight']);
  });

  it('loadStateDict: strict names missing and unexpected keys; shapes checked before anything changes; non-strict reports', () => {
    const m = new Two();
    const before = m.first.weight;
    expect(() => m.loadStateDict({ 'first.weight': tensor([[0, 0], [0, 0]]) })).toThrow(/missing keys: first.bias, second.weight/);
    expect(() => m.loadStateDict({ ...m.stateDict(), 'third.x': tensor(1) })).toThrow(ValueError);
    expect(() => m.loadStateDict({ ...m.stateDict(), 'first.weight': tensor([[1, 2, 3]]) })).toThrow(ShapeError);
    expect(m.first.weight).toBe(before);
    const r = m.loadStateDict({ 'second.weight': tensor([[2, 2]], { dtype: 'float32' }), extra: tensor(0) }, { strict: false });
    expect(r).toEqual({ missingKeys: ['first.weight', 'first.bias'], unexpectedKeys: ['extra'] });
    expect(m.second.weight.dtype).toBe('float64');
    expect(m.second.weight.tolist()).toEqual([[2, 2]]);
  });

  it('grad with respect to a module is a module of the same class holding the gradients (checked by finite differences)', () => {
    const m = new Two();
    const x = tensor([[0.3, -0.2], [0.1, 0.4]], { dtype: 'float64' });
    const loss = (mm: Two) => mm.forward(x).square().sum();
    const g = grad(loss)(m);
    expect(g).toBeInstanceOf(Two);
    expect(g.second).toBeInstanceOf(Affine);
    expect(g.second.scale).toBe(2);
    expect(g.second.bias).toBeNull();
    // central differences on every parameter entry
    const eps = 1e-6;
    for (const [name, p] of m.namedParameters()) {
      const flat = p.toArray() as Float64Array;
      const gv = (g.stateDict()[name]!.toArray() as Float64Array);
      for (let i = 0; i < flat.length; i++) {
        const shifted = (d: number) => {
          const q = Float64Array.from(flat);
          q[i]! += d;
          const mm = new Two();
          mm.loadStateDict({ ...m.stateDict(), [name]: tensor(Array.from(q), { dtype: 'float64' }).reshape(p.shape) });
          return (loss(mm).item() as number);
        };
        expect(gv[i]!).toBeCloseTo((shifted(eps) - shifted(-eps)) / (2 * eps), 6);
      }
    }
  });

  it('jit takes and returns modules, compiles once for equal structure, retraces when static config (training) changes', () => {
    const m = new Two();
    const x = tensor([[0.3, -0.2]], { dtype: 'float64' });
    const step = jit((mm: Two, xx: Tensor) => {
      const [l, g] = valueAndGrad((q: Two) => q.forward(xx).square().sum())(mm);
      return [l, tree.map((p, dp) => p.sub(dp.mul(0.1)), mm, g)] as const;
    });
    let cur: Two = m;
    const losses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [l, next] = step(cur, x);
      expect(next).toBeInstanceOf(Two);
      losses.push(l.item() as number);
      cur = next as Two;
    }
    expect(step.compiles).toBe(1);
    expect(losses[3]!).toBeLessThan(losses[0]!);
    // the same updates eagerly
    let e: Two = m;
    for (let i = 0; i < 4; i++) e = tree.map((p, dp) => p.sub(dp.mul(0.1)), e, grad((q: Two) => q.forward(x).square().sum())(e));
    expect(cur.forward(x).item()).toBeCloseTo(e.forward(x).item() as number, 12);
    cur.eval();
    step(cur, x);
    expect(step.compiles).toBe(2);
  });

  it('vmap over a batch of inputs with the module closed over or passed unbatched', () => {
    const m = new Two();
    const xs = tensor([[0.3, -0.2], [0.1, 0.4], [1, 1]], { dtype: 'float64' });
    const per = vmap((x: Tensor) => m.forward(x.reshape([1, 2])).reshape([]))(xs);
    expect(per.toArray()).toEqual(m.forward(xs).reshape([3]).toArray());
  });

  it('tree utilities see parameters as leaves; a mismatched structure is a typed error', () => {
    const m = new Two();
    expect(tree.leaves(m).length).toBe(3);
    expect(tree.leaves({ model: m, extra: [tensor(1)] }).length).toBe(4);
    expect(() => tree.map((a, b) => a.add(b), m, new Affine([[1]], null))).toThrow(ValueError);
  });
});
