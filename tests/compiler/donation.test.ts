// Buffer donation (jit's donateArgnums, src/compiler/donation.ts): results equal
// an independent loop reference and the same step without donation bit for bit;
// the donated memory is really reused (the outputs are the donors' arrays);
// donated tensors are consumed (reads throw DonatedError, lazy expressions on
// them too); and memory is not reused where that would be wrong: an input read
// after the output is written, an output its kernel writes only in part (pad,
// scatterAdd: the rest must be zeros), an array shared with a realized view, with another argument
// or with the rest of a larger buffer.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DonatedError, TransformError } from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import { webgpuStatus } from '../../src/backends/webgpu/device.js';

const CPU = DEVICES.filter((d) => d !== 'webgpu');

/** Deterministic values in [-1, 1). */
const vals = (n: number, seed: number) => Float64Array.from({ length: n }, (_, i) => (((i * 7919 + seed * 104729) % 2003) / 2003) * 2 - 1);

const M = 8,
  K = 6,
  N = 5;

/** Heavy-ball descent on L(w) = Σ (x·w)² / M: v' = 0.9 v + ∇L, w' = w − 0.1 v'. */
function momentumStep(w: rlx.Tensor, v: rlx.Tensor, x: rlx.Tensor): [rlx.Tensor, rlx.Tensor, rlx.Tensor] {
  const [loss, g] = rlx.valueAndGrad((ww: rlx.Tensor) => x.matmul(ww).square().sum().div(M))(w);
  const v2 = v.mul(0.9).add(g);
  return [loss, w.sub(v2.mul(0.1)), v2];
}

/** The same in loops: ∇L = 2 xᵀ(x·w) / M. */
function referenceSteps(w0: Float64Array, v0: Float64Array, x: Float64Array, steps: number): { w: Float64Array; v: Float64Array; loss: number } {
  const w = w0.slice(),
    v = v0.slice();
  let loss = 0;
  for (let s = 0; s < steps; s++) {
    const xw = new Float64Array(M * N);
    loss = 0;
    for (let i = 0; i < M; i++)
      for (let j = 0; j < N; j++) {
        let a = 0;
        for (let k = 0; k < K; k++) a += x[i * K + k]! * w[k * N + j]!;
        xw[i * N + j] = a;
        loss += a * a;
      }
    loss /= M;
    for (let k = 0; k < K; k++)
      for (let j = 0; j < N; j++) {
        let g = 0;
        for (let i = 0; i < M; i++) g += x[i * K + k]! * xw[i * N + j]!;
        g = (2 * g) / M;
        v[k * N + j] = 0.9 * v[k * N + j]! + g;
        w[k * N + j] = w[k * N + j]! - 0.1 * v[k * N + j]!;
      }
  }
  return { w, v, loss };
}

describe.each(CPU)('jit donateArgnums on %s', (device) => {
  const t = (a: Float64Array, shape: number[]) => rlx.tensor(a, { dtype: 'float64', device, shape }).realize();
  const data = (a: rlx.Tensor) => a.node.data!;

  it('gives the loop reference and the undonated step bit for bit, writing the outputs over the donors', () => {
    const w0 = vals(K * N, 1),
      v0 = vals(K * N, 2),
      x0 = vals(M * K, 3);
    const plain = rlx.jit(momentumStep);
    const donating = rlx.jit(momentumStep, { donateArgnums: [0, 1] });
    const x = t(x0, [M, K]);
    let wp: rlx.Tensor = t(w0, [K, N]),
      vp: rlx.Tensor = t(v0, [K, N]);
    let wd: rlx.Tensor = t(w0, [K, N]),
      vd: rlx.Tensor = t(v0, [K, N]);
    let lp: rlx.Tensor | undefined, ld: rlx.Tensor | undefined;
    for (let s = 0; s < 4; s++) {
      [lp, wp, vp] = plain(wp, vp, x);
      const [oldW, oldV] = [data(wd), data(vd)];
      [ld, wd, vd] = donating(wd, vd, x);
      // w' = w - 0.1 v' is an elementwise kernel reading w at the index it writes: in place.
      expect(data(wd)).toBe(oldW);
      // v' = 0.9 v + ∇L is the epilogue of the gradient's GEMM, which writes its product before
      // the epilogue reads v: v' must not take v's memory (it would read the product as v).
      expect(data(vd)).not.toBe(oldV);
      expect(data(vd)).not.toBe(oldW);
      expect(data(wd)).toEqual(data(wp));
      expect(data(vd)).toEqual(data(vp));
      expect(ld!.item()).toBe(lp!.item());
    }
    const ref = referenceSteps(w0, v0, x0, 4);
    expectClose(data(wd) as Float64Array, ref.w);
    expectClose(data(vd) as Float64Array, ref.v);
    expect(ld!.item()).toBeCloseTo(ref.loss, 12);
    // x was not donated: it is intact and still usable.
    expect(x.toArray()).toEqual(x0);
  });

  it('consumes donated tensors: reads, and lazy expressions built on them, throw DonatedError', async () => {
    const f = rlx.jit((a: rlx.Tensor, b: rlx.Tensor) => a.add(b), { donateArgnums: [0] });
    const a = t(vals(4, 1), [4]),
      b = t(vals(4, 2), [4]);
    const lazy = a.mul(2); // built before the call, realized after
    const out = f(a, b);
    expect(out.toArray()).toEqual(Float64Array.from(vals(4, 1), (v, i) => v + vals(4, 2)[i]!));
    expect(() => a.toArray()).toThrow(DonatedError);
    expect(() => lazy.toArray()).toThrow(DonatedError);
    await expect(a.data()).rejects.toThrow(DonatedError);
    expect(() => f(a, b)).toThrow(/donated \(donateArgnums\)/);
    // The argument that was not donated is untouched.
    expect(b.toArray()).toEqual(vals(4, 2));
  });

  it('does not write an output over an input that a later kernel still reads', () => {
    // e = exp(a) could be written over a in place, but the matmul reads a after it.
    const g = (a: rlx.Tensor) => {
      const e = a.exp();
      return [e, e.matmul(a)];
    };
    const a0 = vals(9, 4);
    const [e1, p1] = rlx.jit(g)(t(a0, [3, 3])) as rlx.Tensor[];
    const a = t(a0, [3, 3]);
    const [e2, p2] = rlx.jit(g, { donateArgnums: [0] })(a) as rlx.Tensor[];
    expect(e2!.toArray()).toEqual(e1!.toArray());
    expect(p2!.toArray()).toEqual(p1!.toArray());
    // The same elementwise output with no later reader does take a's memory.
    const b = t(a0, [3, 3]);
    const bData = data(b);
    const e3 = rlx.jit((x: rlx.Tensor) => x.exp(), { donateArgnums: [0] })(b);
    expect(data(e3)).toBe(bData);
    expect(e3.toArray()).toEqual(e1!.toArray());
  });

  it('gives outputs whose kernel writes only part of them (pad, scatterAdd) fresh zeroed memory, not a donor', () => {
    // a is read (its sum) before the kernels that write these outputs: only their partial writes keep it out.
    const f = (a: rlx.Tensor, b: rlx.Tensor) => {
      const s = a.sum();
      return [b.mul(s).pad([[1, 1]]), rlx.zeros([6], { dtype: 'float64', device }).scatterAdd(rlx.tensor([1, 4], { dtype: 'int32', device }), b.mul(s).reshape([2, 2]).sum(-1))];
    };
    const a0 = vals(6, 5),
      b0 = vals(4, 6);
    const [p1, q1] = rlx.jit(f)(t(a0, [6]), t(b0, [4])) as rlx.Tensor[];
    const a = t(a0, [6]);
    const aData = data(a);
    const [p2, q2] = rlx.jit(f, { donateArgnums: [0] })(a, t(b0, [4])) as rlx.Tensor[];
    expect(data(p2!)).not.toBe(aData);
    expect(data(q2!)).not.toBe(aData);
    expect(p2!.toArray()).toEqual(p1!.toArray());
    expect(q2!.toArray()).toEqual(q1!.toArray());
    const sum = a0.reduce((x, y) => x + y, 0);
    expect(p2!.toArray()[0]).toBe(0);
    expect(p2!.toArray()[5]).toBe(0);
    expect(q2!.toArray()[0]).toBe(0);
    expect(q2!.toArray()[1]).toBeCloseTo((b0[0]! + b0[1]!) * sum, 12);
    // The same inputs with an elementwise output of a's size: that one takes a's memory.
    const a2 = t(a0, [6]);
    const a2Data = data(a2);
    const m = rlx.jit((x: rlx.Tensor, y: rlx.Tensor) => y.pad([[1, 1]]).mul(x.sum()), { donateArgnums: [0] })(a2, t(b0, [4]));
    expect(data(m)).toBe(a2Data);
  });

  it('keeps memory that a realized view, another argument or a larger buffer shares', () => {
    const f = rlx.jit((a: rlx.Tensor, b: rlx.Tensor) => [a.mul(2), b.add(1)], { donateArgnums: [0, 1] });
    const a0 = vals(6, 7);
    // A realized view sharing a's memory: a's array is not reused, the view keeps its values.
    const a = t(a0, [6]);
    const view = a.reshape([2, 3]).realize();
    const [x1, y1] = f(a, t(a0, [6])) as rlx.Tensor[];
    expect(data(x1!).buffer).not.toBe(data(view).buffer);
    expect(view.toArray()).toEqual(a0);
    expect(x1!.toArray()).toEqual(Float64Array.from(a0, (v) => 2 * v));
    expect(y1!.toArray()).toEqual(Float64Array.from(a0, (v) => v + 1));
    // The same tensor as both arguments: neither output may take its memory.
    const c = t(a0, [6]);
    const cData = data(c);
    const [x2, y2] = f(c, c) as rlx.Tensor[];
    expect(data(x2!)).not.toBe(cData);
    expect(data(y2!)).not.toBe(cData);
    expect(x2!.toArray()).toEqual(Float64Array.from(a0, (v) => 2 * v));
    expect(y2!.toArray()).toEqual(Float64Array.from(a0, (v) => v + 1));
    // Storage that is part of a larger array: the rest of that array is never written.
    const big = new Float64Array(12).fill(5);
    big.set(a0, 3);
    const part = rlx.fromStorage(big.subarray(3, 9), [6], 'float64', device);
    const [x3] = f(part, t(a0, [6])) as rlx.Tensor[];
    expect(Array.from(big)).toEqual([5, 5, 5, ...a0, 5, 5, 5]);
    expect(x3!.toArray()).toEqual(Float64Array.from(a0, (v) => 2 * v));
  });

  it('donates the leaves of modules and optimizer states (an Adam step), bit for bit as without', () => {
    const make = () => {
      const key = rlx.random.key(3);
      return rlx.nn.Sequential(rlx.nn.Linear(6, 5, { key, dtype: 'float64' }), rlx.nn.ReLU(), rlx.nn.Linear(5, 3, { key: rlx.random.foldIn(key, 1), dtype: 'float64' }));
    };
    const x = t(vals(4 * 6, 8), [4, 6]);
    const y = rlx.tensor([0, 2, 1, 2], { dtype: 'int32', device });
    const opt = rlx.optim.adam({ lr: 1e-2 });
    const body = (m: rlx.nn.Module, s: rlx.optim.OptimizerState, xs: rlx.Tensor, ys: rlx.Tensor) => {
      const [loss, g] = rlx.valueAndGrad((mm: rlx.nn.Module) => rlx.nn.functional.crossEntropy(mm.forward(xs) as rlx.Tensor, ys))(m);
      const r = opt.step(m, g, s);
      return [loss, r.params, r.state] as const;
    };
    const plain = rlx.jit(body);
    const donating = rlx.jit(body, { donateArgnums: [0, 1] });
    let mp = make(),
      md = make();
    let sp = opt.init(mp),
      sd = opt.init(md);
    for (let s = 0; s < 3; s++) {
      const oldWeight = (md as unknown as { layers: { weight: rlx.Tensor }[] }).layers[0]!.weight;
      const [lp, mp2, sp2] = plain(mp, sp, x, y);
      const [ld, md2, sd2] = donating(md, sd, x, y);
      expect(ld.item()).toBe(lp.item());
      const lp2 = rlx.tree.leaves(mp2 as never) as rlx.Tensor[],
        ld2 = rlx.tree.leaves(md2 as never) as rlx.Tensor[];
      lp2.forEach((l, i) => expect(ld2[i]!.toArray()).toEqual(l.toArray()));
      const sl = rlx.tree.leaves(sp2 as never) as rlx.Tensor[],
        sdl = rlx.tree.leaves(sd2 as never) as rlx.Tensor[];
      sl.forEach((l, i) => expect(sdl[i]!.toArray()).toEqual(l.toArray()));
      expect(() => oldWeight.toArray()).toThrow(DonatedError);
      [mp, sp, md, sd] = [mp2 as never, sp2 as never, md2 as never, sd2 as never];
    }
  });
});

describe.runIf(webgpuStatus().available)('jit donateArgnums on webgpu', () => {
  it('keeps device buffers (no host memory to reuse) but consumes the donated tensors all the same', () => {
    const f = rlx.jit((a: rlx.Tensor, b: rlx.Tensor) => a.mul(2).add(b), { donateArgnums: [0] });
    const a = rlx.tensor([1, 2, 3], { dtype: 'float32', device: 'webgpu' }).realize();
    const b = rlx.tensor([0.5, 0.5, 0.5], { dtype: 'float32', device: 'webgpu' }).realize();
    const out = f(a, b);
    expect(out.toArray()).toEqual(new Float32Array([2.5, 4.5, 6.5]));
    expect(() => a.toArray()).toThrow(DonatedError);
    expect(b.toArray()).toEqual(new Float32Array([0.5, 0.5, 0.5]));
  });
});

describe('jit donateArgnums, arguments', () => {
  it('rejects positions that are static or not non-negative integers', () => {
    const f = (a: rlx.Tensor) => a.add(1);
    expect(() => rlx.jit(f, { donateArgnums: [0], staticArgnums: [0] })).toThrow(TransformError);
    expect(() => rlx.jit(f, { donateArgnums: [-1] })).toThrow(TransformError);
    expect(() => rlx.jit(f, { donateArgnums: [0.5] })).toThrow(/donateArgnums/);
    expect(() => rlx.jit(f, { donateArgnums: 0 as unknown as number[] })).toThrow(TransformError);
    // A position past the call's arguments is an error at the call, not a silent no-op.
    const g = rlx.jit(f, { donateArgnums: [1] });
    expect(() => g(rlx.tensor([1]))).toThrow(/names argument 1, but the call passed 1 argument/);
  });

  it('is ignored under an outer transform: grad through a donating jit consumes nothing', () => {
    const f = rlx.jit((a: rlx.Tensor) => a.mul(a).sum(), { donateArgnums: [0] });
    const a = rlx.tensor([1, 2, 3], { dtype: 'float64' }).realize();
    expect(rlx.grad(f)(a).toArray()).toEqual(new Float64Array([2, 4, 6]));
    expect(a.toArray()).toEqual(new Float64Array([1, 2, 3]));
  });
});

function expectClose(got: Float64Array, want: Float64Array): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < got.length; i++) expect(Math.abs(got[i]! - want[i]!)).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(want[i]!)));
}
