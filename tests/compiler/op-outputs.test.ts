// Registered ops with several outputs (issue 14 §1): each output its own node,
// shape and dtype (int32 exact past 2^24 next to float32 values), computed by
// one kernel call whichever outputs are asked for; residual outputs that only
// the derivative rules see; data-dependent lengths as an upper bound plus a
// count. Exercised through test ops registered the way a module registers one.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { registerOp, type OpRunArgs } from '../../src/compiler/op-registry.js';
import { kernelFamily, registerKernels } from '../../src/compiler/kernel-registry.js';
import { bindOp, validRows } from '../../src/tensor/ops/registered-op.js';
import { ShapeError } from '../../src/tensor/errors.js';
import type { Tensor } from '../../src/tensor/tensor.js';

// One family; every kernel call is counted, so a test can tell how often the op ran.
interface TestKernels {
  calls: number;
  run(name: string, a: OpRunArgs): void;
}
const FAMILY = kernelFamily<TestKernels>('test.outputs');
const kernels: TestKernels = {
  calls: 0,
  run(name, a) {
    this.calls++;
    KERNELS[name]!(a);
  },
};
registerKernels('js', FAMILY, kernels);

const KERNELS: Record<string, (a: OpRunArgs) => void> = {
  // [2x as float32, base + i as int32] of a float32 vector
  twiceAndIds({ ins: [x], outs: [y, ids], attrs, batch }) {
    const n = x!.length / batch;
    for (let i = 0; i < x!.length; i++) {
      y![i] = 2 * x![i]!;
      ids![i] = (attrs['base'] as number) + (i % n);
    }
  },
  // [sin x (float64), cos x (float32)]
  sincos({ ins: [x], outs: [s, c] }) {
    for (let i = 0; i < x!.length; i++) (s![i] = Math.sin(x![i]!)), (c![i] = Math.cos(x![i]!));
  },
  // y = exp(x), with exp(x) kept in float64 as a residual for the VJP
  expRes({ ins: [x], outs: [y, r] }) {
    for (let i = 0; i < x!.length; i++) (r![i] = Math.exp(x![i]!)), (y![i] = r![i]!);
  },
  // [exp x, x²] (float64)
  expSq({ ins: [x], outs: [y, q] }) {
    for (let i = 0; i < x!.length; i++) (y![i] = Math.exp(x![i]!)), (q![i] = x![i]! * x![i]!);
  },
  // indices of the positive entries (bound: the length) and their count
  positive({ ins: [x], outs: [idx, count], attrs }) {
    let k = 0;
    for (let i = 0; i < x!.length; i++) if (x![i]! > 0) idx![k++] = i;
    count![0] = attrs['lie'] === true ? x!.length + 1 : k;
  },
};

const run = (name: string) => (k: TestKernels, a: OpRunArgs) => k.run(name, a);
type Aval = { shape: number[]; dtype: rlx.DType };
/** Outputs shaped like the operand, one per dtype given. */
const likeInput =
  (...dtypes: rlx.DType[]) =>
  ([x]: readonly Aval[]) =>
    dtypes.map((dtype) => ({ shape: [...x!.shape], dtype }));

registerOp('test.twiceAndIds', {
  family: FAMILY,
  coreRanks: [1],
  outputs: likeInput('float32', 'int32'),
  run: run('twiceAndIds'),
});
registerOp('test.sincos', {
  family: FAMILY,
  coreRanks: [1],
  outputs: likeInput('float64', 'float32'),
  run: run('sincos'),
  jvp: ({ outs: [s, c] }, [dx]) => (dx ? [dx.mul(c!.cast('float64')), dx.mul(s!).neg().cast('float32')] : [null, null]),
  vjp: ({ outs: [s, c] }, [gs, gc]) => {
    let g: Tensor | null = null;
    if (gs) g = gs.mul(c!.cast('float64'));
    if (gc) {
      const t = gc.cast('float64').mul(s!).neg();
      g = g ? g.add(t) : t;
    }
    return [g];
  },
});
let expVjps = 0;
registerOp('test.expRes', {
  family: FAMILY,
  coreRanks: [1],
  outputs: ([x]: readonly Aval[]) => [
    { shape: [...x!.shape], dtype: 'float64' },
    { shape: [...x!.shape], dtype: 'float64', residual: true },
  ],
  run: run('expRes'),
  jvp: ({ outs: [y] }, [dx]) => (dx ? [dx.mul(y!), dx.mul(y!)] : [null, null]),
  vjp: ({ outs: [, r] }, [g]) => {
    expVjps++;
    return [g ? g.mul(r!) : null];
  },
});
registerOp('test.expSq', {
  family: FAMILY,
  coreRanks: [1],
  outputs: likeInput('float64', 'float64'),
  run: run('expSq'),
  // reads y and x, never x²: a loss of y alone leaves x² unused
  vjp: ({ inputs: [x], outs: [y] }, [gy, gq]) => {
    let g: Tensor | null = gy ? gy.mul(y!) : null;
    if (gq) g = g ? g.add(gq.mul(x!).mul(2)) : gq.mul(x!).mul(2);
    return [g];
  },
});
registerOp('test.positive', {
  family: FAMILY,
  coreRanks: [1],
  outputs: ([x]: readonly Aval[]) => [
    { shape: [x!.shape[0]!], dtype: 'int32', count: 1 },
    { shape: [], dtype: 'int32' },
  ],
  run: run('positive'),
  batching: 'none',
});

const js = (v: Parameters<typeof rlx.tensor>[0], dtype: rlx.DType = 'float64') => rlx.tensor(v, { dtype, device: 'js' });
const sincos = (x: Tensor) => bindOp('test.sincos', [x]) as [Tensor, Tensor];

describe('registered ops with several outputs', () => {
  it('each output has its own dtype: int32 ids past 2^24 are exact next to float32 values', () => {
    const base = 2 ** 24 + 1; // not a float32: a float32 pack would round it to 2^24
    const [y, ids] = bindOp('test.twiceAndIds', [js([1.5, -2, 3], 'float32')], { base });
    expect(y!.dtype).toBe('float32');
    expect(ids!.dtype).toBe('int32');
    expect(Array.from(ids!.toArray() as Int32Array)).toEqual([base, base + 1, base + 2]);
    expect(Array.from(y!.toArray() as Float32Array)).toEqual([3, -4, 6]);
    // batched: ids restart per batch entry, still exact
    const [, idsB] = bindOp('test.twiceAndIds', [js([[1, 2], [3, 4]], 'float32')], { base: 2 ** 30 + 3 });
    expect(Array.from(idsB!.toArray() as Int32Array)).toEqual([2 ** 30 + 3, 2 ** 30 + 4, 2 ** 30 + 3, 2 ** 30 + 4]);
  });

  it('an operand that reshapes an input or a computed node is read from its buffer under the operand shape, not copied', () => {
    // coreRanks [1]: [2, 3] would be a batch of two rows (ids restart per row); reshaped to [6] it is one row.
    const x = js([[1, 2, 3], [4, 5, 6]], 'float32').realize();
    const kinds = (t: Tensor) => rlx.explain(t, { print: false }).kernels.map((k) => k.kind);
    const [y, ids] = bindOp('test.twiceAndIds', [x.reshape([6])], { base: 10 }) as [Tensor, Tensor];
    expect(kinds(ids)).toEqual(['registered']);
    expect(Array.from(ids.toArray() as Int32Array)).toEqual([10, 11, 12, 13, 14, 15]);
    expect(Array.from(y.toArray() as Float32Array)).toEqual([2, 4, 6, 8, 10, 12]);
    // a computed operand: its kernel writes [2, 3], the call reads that buffer as [6]
    const [y2, ids2] = bindOp('test.twiceAndIds', [x.mul(3).reshape([6])], { base: 0 }) as [Tensor, Tensor];
    expect(kinds(y2)).toEqual(['elementwise', 'registered']);
    expect(Array.from(ids2.toArray() as Int32Array)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Array.from(y2.toArray() as Float32Array)).toEqual([6, 12, 18, 24, 30, 36]);
    // a reshape that the call and an elementwise user share: one buffer still serves the call
    const r = x.add(1).reshape([3, 2]);
    const [y3] = bindOp('test.twiceAndIds', [r], { base: 0 }) as [Tensor, Tensor];
    const both = y3.reshape([6]).add(r.reshape([6]));
    expect(Array.from(both.toArray() as Float32Array)).toEqual([6, 9, 12, 15, 18, 21]);
  });

  it('one kernel call computes every output, whichever is asked for first (also inside a larger graph)', () => {
    const x = js([0.1, 0.2, 0.3]);
    kernels.calls = 0;
    const [s, c] = sincos(x);
    c.toArray();
    expect(s.node.op).toBe('buffer'); // realized with c
    s.toArray();
    expect(kernels.calls).toBe(1);
    // an output used inside a graph, the other held by the user: still one call
    kernels.calls = 0;
    const [s2, c2] = sincos(js([0.5, 1]));
    const total = s2.sum().item() as number;
    expect(total).toBeCloseTo(Math.sin(0.5) + Math.sin(1), 14);
    expect(Array.from(c2.toArray() as Float32Array)).toEqual([Math.fround(Math.cos(0.5)), Math.fround(Math.cos(1))]);
    expect(kernels.calls).toBe(1);
  });

  it('an output of a call in a differentiated function that nothing used and the function did not return is its intermediate: computed only when read', () => {
    const expSq = (t: Tensor) => bindOp('test.expSq', [t]) as [Tensor, Tensor];
    let leaked: Tensor | undefined;
    kernels.calls = 0;
    const [v, g] = rlx.valueAndGrad((t: Tensor) => {
      const [y, q] = expSq(t);
      leaked = q; // not returned: an intermediate, as in JAX
      return y.sum();
    })(js([0.5, -1])) as [Tensor, Tensor];
    v.toArray(); // computes the value and the gradient (one graph)
    expect(kernels.calls).toBe(1);
    expect(leaked!.node.op).toBe('part'); // not computed with them (no fresh buffer every step)
    expect(v.item()).toBeCloseTo(Math.exp(0.5) + Math.exp(-1), 14);
    Array.from(g.toArray() as Float64Array).forEach((x, i) => expect(x).toBeCloseTo(Math.exp([0.5, -1][i]!), 14));
    // read afterwards: the call runs again and gives its value
    expect(Array.from(leaked!.toArray() as Float64Array)).toEqual([0.25, 1]);
    expect(kernels.calls).toBe(2);
    // returned (as aux), the same output is computed with the step
    kernels.calls = 0;
    const [[v2, aux]] = rlx.valueAndGrad(
      (t: Tensor) => {
        const [y, q] = expSq(t);
        return [y.sum(), q];
      },
      { hasAux: true },
    )(js([0.5, -1])) as unknown as [[Tensor, Tensor], Tensor];
    v2.toArray();
    expect(aux.node.op).toBe('buffer');
    expect(Array.from(aux.toArray() as Float64Array)).toEqual([0.25, 1]);
    expect(kernels.calls).toBe(1);
    // outside a differentiated function the call's outputs stay computed together (the test above)
  });

  it('a realized call lets go of its other outputs (holding one does not keep the rest alive), unless autodiff may need them', () => {
    const [s, c] = sincos(js([0.1, 0.2]));
    s.toArray();
    expect(s.node.op).toBe('buffer');
    expect(c.node.op).toBe('buffer');
    expect(s.node.parts).toBeUndefined();
    const x = js([0.3]).requiresGrad();
    const [s2] = sincos(x);
    s2.toArray();
    expect(s2.node.parts?.length).toBe(2); // kept with the history grad reads
    const g = s2.sum().grad([x])[0]!;
    expect(g.item()).toBeCloseTo(Math.cos(0.3), 6); // the test op's cos output is float32
  });

  it('grad, jvp and vjp see every output at once (one VJP call with both cotangents)', () => {
    const x0 = [0.3, -1.2, 2];
    const f = (x: Tensor) => {
      const [s, c] = sincos(x);
      return s.sum().add(c.cast('float64').mul(2).sum());
    };
    const g = rlx.grad(f)(js(x0)) as Tensor;
    // d/dx (sin x + 2 cos x) = cos x - 2 sin x; cos x went through float32
    const want = x0.map((v) => Math.cos(v) - 2 * Math.fround(Math.sin(v)));
    Array.from(g.toArray() as Float64Array).forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 6));
    // jvp: both tangents, each in its output's dtype
    const [, [ts, tc]] = rlx.jvp((x: Tensor) => sincos(x), [js(x0)], [js([1, 1, 1])]) as [unknown, [Tensor, Tensor]];
    expect(ts.dtype).toBe('float64');
    expect(tc.dtype).toBe('float32');
    Array.from(ts.toArray() as Float64Array).forEach((v, i) => expect(v).toBeCloseTo(Math.cos(x0[i]!), 6));
    Array.from(tc.toArray() as Float32Array).forEach((v, i) => expect(v).toBeCloseTo(-Math.sin(x0[i]!), 6));
    // an output nobody uses gets no cotangent (a symbolic zero, not a NaN-prone zero tensor)
    const gs = rlx.grad((x: Tensor) => sincos(x)[1].cast('float64').sum())(js(x0)) as Tensor;
    Array.from(gs.toArray() as Float64Array).forEach((v, i) => expect(v).toBeCloseTo(-Math.sin(x0[i]!), 6));
  });

  it('vmap and jit map and compile a several-output op like any other', () => {
    const xs = js([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]]);
    const [vs, vc] = rlx.vmap((x: Tensor) => sincos(x))(xs) as [Tensor, Tensor];
    expect(vs.shape).toEqual([3, 2]);
    expect(vc.dtype).toBe('float32');
    const flat = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
    Array.from(vs.toArray() as Float64Array).forEach((v, i) => expect(v).toBeCloseTo(Math.sin(flat[i]!), 14));
    Array.from(vc.toArray() as Float32Array).forEach((v, i) => expect(v).toBe(Math.fround(Math.cos(flat[i]!))));
    const jf = rlx.jit((x: Tensor) => {
      const [s, c] = sincos(x);
      return s.add(c.cast('float64'));
    });
    for (const v of [[0.1, 0.2], [1, 2]]) {
      const got = Array.from(jf(js(v)).toArray() as Float64Array);
      got.forEach((g, i) => expect(g).toBeCloseTo(Math.sin(v[i]!) + Math.fround(Math.cos(v[i]!)), 14));
    }
    expect((jf as unknown as { compiles: number }).compiles).toBe(1);
  });
});

describe('residual outputs', () => {
  it('are not handed to users; the VJP reads them (the kernel runs once, forward only)', () => {
    const x0 = [0.5, -1, 2];
    const outs = bindOp('test.expRes', [js(x0)]);
    expect(outs.length).toBe(1);
    kernels.calls = 0;
    expVjps = 0;
    const g = rlx.grad((x: Tensor) => bindOp('test.expRes', [x])[0]!.sum())(js(x0)) as Tensor;
    Array.from(g.toArray() as Float64Array).forEach((v, i) => expect(v).toBeCloseTo(Math.exp(x0[i]!), 13));
    expect(expVjps).toBe(1);
    expect(kernels.calls).toBe(1);
    // second derivative through the residual's tangent (jvp of grad): d²/dx² e^x = e^x
    const h = rlx.hvp((x: Tensor) => bindOp('test.expRes', [x])[0]!.sum(), [js(x0)], [js([1, 1, 1])]) as Tensor;
    Array.from(h.toArray() as Float64Array).forEach((v, i) => expect(v).toBeCloseTo(Math.exp(x0[i]!), 12));
  });
});

describe('data-dependent lengths (an upper bound plus a count)', () => {
  it('validRows gives the valid prefix; the bound is the static shape', () => {
    const [idx, count] = bindOp('test.positive', [js([-1, 3, 0, 2, -5, 7])]);
    expect(idx!.shape).toEqual([6]);
    expect(count!.item()).toBe(3);
    expect(Array.from(validRows(idx!, count!).toArray() as Int32Array)).toEqual([1, 3, 5]);
    const [none, zero] = bindOp('test.positive', [js([-1, -2])]);
    expect(validRows(none!, zero!).shape).toEqual([0]);
  });

  it('a kernel that counts past its bound is an error, not a read past the data', () => {
    const [idx] = bindOp('test.positive', [js([1, 2])], { lie: true });
    expect(() => idx!.toArray()).toThrow(/counted 3 rows of output 0, outside \[0, 2\]/);
  });

  it('validRows refuses what is not a count', () => {
    const [idx] = bindOp('test.positive', [js([1, 2])]);
    expect(() => validRows(idx!, js([1]))).toThrow(ShapeError);
  });
});
