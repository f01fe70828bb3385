// Control flow on 'webgpu' (src/backends/webgpu/control-flow.ts): scan,
// whileLoop and cond with float32/int32 operands pinned to webgpu run their
// bodies as GPU graphs step by step, every value staying on the GPU; results
// and gradients match the same code on 'js'.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { webgpuStatus } from '../../src/backends/webgpu/device.js';

const status = webgpuStatus();
const f32 = (n: number, seed: number) => rlx.tensor(Float32Array.from({ length: n }, (_, i) => Math.sin(seed + i * 0.61)), { dtype: 'float32' });

function close(g: ArrayLike<number>, j: ArrayLike<number>, tol: number, what: string) {
  expect(g.length, what).toBe(j.length);
  for (let i = 0; i < j.length; i++) if (!(Math.abs(g[i]! - j[i]!) <= tol * (1 + Math.abs(j[i]!)))) throw new Error(`${what}[${i}]: webgpu ${g[i]} vs js ${j[i]}`);
}

describe.runIf(status.available)("control flow on 'webgpu'", () => {
  it('scan: carries and stacked ys (forward and reverse), a tanh RNN over 50 steps', () => {
    const W = f32(16, 1).reshape([4, 4]).mul(0.5),
      xs = f32(50 * 4, 2).reshape([50, 4]),
      h0 = f32(4, 3);
    for (const reverse of [false, true]) {
      const run = (d: string) => {
        const [h, ys] = rlx.scan((h: Tensor, x: Tensor) => {
          const hn = h.matmul(W.on(d)).add(x).tanh();
          return [hn, hn.sum()] as const;
        }, h0.on(d), xs.on(d), { reverse });
        return [h.toArray(), (ys as Tensor).toArray()] as [Float32Array, Float32Array];
      };
      const [hg, yg] = run('webgpu');
      const [hj, yj] = run('js');
      close(hg, hj, 1e-5, `h (reverse ${reverse})`);
      close(yg, yj, 1e-5, `ys (reverse ${reverse})`);
    }
  });

  it('scan with int32 carries (exact) and a gradient through a float32 loop; mixed int32/float32 carries are refused with the reason', () => {
    const x0 = f32(8, 4);
    const ints = (d: string) => rlx.scan((c: Tensor) => [c.mul(3).add(1), c] as const, rlx.tensor(Int32Array.of(1, -7, 2 ** 30), { dtype: 'int32' }).on(d), null, { length: 25 });
    const [cg, kg] = ints('webgpu');
    const [cj, kj] = ints('js');
    expect((cg as Tensor).toArray()).toEqual((cj as Tensor).toArray()); // int32 wrap-around, exact
    expect((kg as Tensor).toArray()).toEqual((kj as Tensor).toArray());
    const loss = (d: string) => (x: Tensor) => (rlx.scan((v: Tensor) => [v.mul(0.9).add(v.sin()), null] as const, x.on(d), null, { length: 15 })[0] as Tensor).sum();
    close(rlx.grad(loss('webgpu'))(x0).toArray() as Float32Array, rlx.grad(loss('js'))(x0).toArray() as Float32Array, 1e-5, 'grad');
    // NumPy promotion packs int32 with float32 results as float64, which webgpu cannot store: a LegalizationError saying so.
    const mixed = () => rlx.scan((c: { k: Tensor; v: Tensor }) => [{ k: c.k.add(1), v: c.v.mul(2) }, null] as const, { k: rlx.tensor(Int32Array.of(0), { dtype: 'int32' }).on('webgpu'), v: x0.on('webgpu') }, null, { length: 3 });
    expect(() => (mixed()[0] as { v: Tensor }).v.toArray()).toThrow(/float64.*give its carries one dtype/);
  });

  it('whileLoop (a predicate read per iteration) and cond on a GPU predicate', () => {
    const run = (d: string) =>
      rlx.whileLoop(
        (c: { i: Tensor; x: Tensor }) => c.i.lt(37),
        (c: { i: Tensor; x: Tensor }) => ({ i: c.i.add(1), x: c.x.mul(1.01).add(c.i.mul(0.001)) }),
        { i: rlx.tensor(Float32Array.of(0), { dtype: 'float32' }).reshape([]).on(d), x: f32(5, 6).on(d) },
      );
    const g = run('webgpu') as { i: Tensor; x: Tensor };
    const j = run('js') as { i: Tensor; x: Tensor };
    expect(g.i.item()).toBe(37);
    close(g.x.toArray() as Float32Array, j.x.toArray() as Float32Array, 1e-5, 'x');
    for (const v of [2, -2]) {
      const c = (d: string) => {
        const x = f32(6, 7).on(d);
        return rlx.cond(x.sum().add(v).gt(0), (a: Tensor) => a.exp(), (a: Tensor) => a.neg().mul(3), x).toArray() as Float32Array;
      };
      close(c('webgpu'), c('js'), 2e-6, `cond ${v}`);
    }
  });

  it('the body runs on the GPU: its values stay there (a 1000-step loop reads nothing back)', () => {
    const x = f32(64, 8).on('webgpu');
    const [h] = rlx.scan((v: Tensor) => [v.mul(0.999).add(0.001), null] as const, x, null, { length: 1000 });
    const r = (h as Tensor).realize();
    expect(r.node.dev?.device).toBe('webgpu');
    expect(r.node.host).toBeUndefined();
    close(r.toArray() as Float32Array, (rlx.scan((v: Tensor) => [v.mul(0.999).add(0.001), null] as const, f32(64, 8).on('js'), null, { length: 1000 })[0] as Tensor).toArray() as Float32Array, 1e-4, 'h');
  });
});
