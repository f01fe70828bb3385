// The 'webgpu' device through the public Tensor API (src/backends/webgpu/index.ts):
// graphs pinned with .on('webgpu') compile to WGSL and run on the GPU, their
// results stay there until read (toArray blocks, await data() does not), GPU
// results feed later GPU graphs without a round trip, and what the backend
// does not serve is a LegalizationError naming op, dtype and backend. Values
// are compared with the same graphs on 'js'.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { webgpuStatus } from '../../src/backends/webgpu/device.js';

const status = webgpuStatus();
const f32 = (n: number, seed: number) => rlx.tensor(Float32Array.from({ length: n }, (_, i) => Math.sin(seed + i * 0.31)), { dtype: 'float32' });

describe.runIf(status.available)("the 'webgpu' device", () => {
  it('is listed as available once started, with .on and the device option', () => {
    expect(rlx.tensor([1, 2], { dtype: 'float32', device: 'webgpu' }).mul(3).toArray()).toEqual(Float32Array.of(3, 6));
    expect(rlx.backends().find((b) => b.name === 'webgpu')).toEqual({ name: 'webgpu', available: true });
  });

  it('a fused chain and a reduction match js; the result stays on the GPU until read', async () => {
    const a = f32(5000, 1).reshape([50, 100]),
      b = f32(100, 2);
    const make = (dev: string) => a.on(dev).mul(b).add(1).maximum(0.25).sum(1);
    const gpu = make('webgpu').realize();
    expect(gpu.node.dev?.device).toBe('webgpu');
    expect(gpu.node.host).toBeUndefined(); // not read back yet
    const js = make('js').toArray() as Float32Array;
    const g = (await gpu.data()) as Float32Array;
    for (let i = 0; i < js.length; i++) expect(Math.abs(g[i]! - js[i]!)).toBeLessThanOrEqual(8 * 2 ** -23 * 200);
    expect(gpu.toArray()).toEqual(g);
  });

  it('a GPU result feeds the next GPU graph on the GPU, and a CPU graph through its host copy', () => {
    const x = f32(1000, 3).on('webgpu').exp().realize();
    const y = x.mul(2).sub(1).realize();
    expect(x.node.host).toBeUndefined(); // y was computed from x's GPU buffer
    const hostX = x.toArray() as Float32Array;
    expect(y.toArray()).toEqual(Float32Array.from(hostX, (v) => Math.fround(Math.fround(v * 2) - 1)));
    // The same data on the CPU: realized GPU data read back once, then an ordinary leaf.
    expect(x.on('js').add(1).toArray()).toEqual(Float32Array.from(hostX, (v) => Math.fround(v + 1)));
  });

  it('int32 data, comparisons and where', () => {
    const i = rlx.tensor(Int32Array.from({ length: 300 }, (_, k) => k * 7 - 1000), { dtype: 'int32' });
    const f = f32(300, 4);
    const y = (dev: string) => rlx.where(i.on(dev).gt(0), f.on(dev).mul(2), f.on(dev).neg());
    expect(y('webgpu').toArray()).toEqual(y('js').toArray());
    expect(i.on('webgpu').mul(i).sum().item()).toBe(i.on('js').mul(i).sum().item());
  });

  it('grad, jvp and vmap of a function computed on webgpu match js', () => {
    const x = f32(64, 7);
    const f = (d: string) => (t: Tensor) => t.on(d).exp().mul(t.on(d)).sum();
    const close = (g: Float32Array, j: Float32Array) => {
      for (let i = 0; i < j.length; i++) expect(Math.abs(g[i]! - j[i]!)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(j[i]!)));
    };
    close(rlx.grad(f('webgpu'))(x).toArray() as Float32Array, rlx.grad(f('js'))(x).toArray() as Float32Array);
    const v = f32(64, 8);
    close(rlx.jvp(f('webgpu'), [x], [v])[1].toArray() as Float32Array, rlx.jvp(f('js'), [x], [v])[1].toArray() as Float32Array);
    const rows = (d: string) => rlx.vmap((t: Tensor) => t.on(d).tanh().sum())(x.reshape([8, 8])).toArray() as Float32Array;
    close(rows('webgpu'), rows('js'));
  });

  it('bool, int8 and uint8 data (one 32-bit word per element on the GPU) match js', () => {
    const f = f32(300, 5);
    const both = (g: (d: string) => Tensor) => expect(g('webgpu').toArray()).toEqual(g('js').toArray());
    both((d) => f.on(d).gt(0)); // a bool result stored on the GPU, read back as a Uint8Array
    both((d) => f.on(d).gt(0).logicalAnd(f.on(d).lt(0.5)).logicalNot());
    both((d) => rlx.where(f.on(d).gt(0).realize(), f.on(d), 0)); // a bool buffer read by a later GPU graph
    const i8 = rlx.tensor(Int8Array.from({ length: 300 }, (_, i) => ((i * 37) % 256) - 128), { dtype: 'int8' });
    const u8 = rlx.tensor(Uint8Array.from({ length: 300 }, (_, i) => (i * 91) % 256), { dtype: 'uint8' });
    both((d) => i8.on(d).add(i8.on(d))); // int8 arithmetic wraps (computed in int32, stored back as int8)
    both((d) => u8.on(d).mul(3).sub(7));
    both((d) => u8.on(d).cast('float32').mul(0.5));
    both((d) => f.on(d).mul(200).cast('int8'));
    both((d) => i8.on(d).gt(u8.on(d).cast('int8')));
    both((d) => rlx.cat([f.on(d).gt(0.2), f.on(d).lt(-0.2)]).pad([[1, 2]], 1));
    both((d) => i8.on(d).gather(rlx.tensor(Int32Array.of(3, -1, 0), { dtype: 'int32' }).on(d)));
    expect(f.on('webgpu').gt(0).sum().item()).toBe(f.on('js').gt(0).sum().item());
  });

  it('composites and structural ops: logsumexp, broadcastTo, stopGradient, customVjp (values and gradients as js)', () => {
    const x = f32(60, 11).reshape([6, 10]);
    const close = (g: ArrayLike<number>, j: ArrayLike<number>) => {
      expect(g.length).toBe(j.length);
      for (let i = 0; i < j.length; i++) expect(Math.abs(g[i]! - j[i]!)).toBeLessThanOrEqual(4e-6 * Math.max(1, Math.abs(j[i]!)));
    };
    const lse = (d: string) => x.on(d).logsumexp(1).toArray() as Float32Array;
    close(lse('webgpu'), lse('js'));
    const bc = (d: string) => f32(10, 3).on(d).broadcastTo([6, 10]).mul(x.on(d)).toArray() as Float32Array;
    close(bc('webgpu'), bc('js'));
    const sq = rlx.customVjp((t: Tensor) => t.mul(t), (xs, _out, ct) => [ct.mul(xs[0]!).mul(2)]);
    const loss = (d: string) => (t: Tensor) => sq(t.on(d)).add(rlx.stopGradient(t.on(d).exp())).logsumexp().mul(t.on(d).sum());
    close(rlx.grad(loss('webgpu'))(x).toArray() as Float32Array, rlx.grad(loss('js'))(x).toArray() as Float32Array);
  });

  it('float16 and bfloat16 data (16 bits in a 32-bit word, computed in float32 as on the CPU) match js bit for bit', () => {
    // Values across the float16 range: normals, subnormals (< 2^-14), ties, overflow past 65504, ±0, ±inf, NaN.
    const special = [0, -0, 1, -1, 65504, 65519, 65520, 1e5, -1e5, 2 ** -14, 2 ** -15, 2 ** -24, 2 ** -25, 3 * 2 ** -26, 1 + 2 ** -11, 1 + 3 * 2 ** -11, Infinity, -Infinity, NaN, 0.1, 1 / 3, 3.14159];
    const v = Float32Array.from([...special, ...Array.from({ length: 200 }, (_, i) => Math.sin(i) * 10 ** ((i % 12) - 6))]);
    const f = rlx.tensor(v, { dtype: 'float32' });
    const same = (g: (d: string) => Tensor) => {
      const a = g('webgpu').toArray(),
        b = g('js').toArray();
      expect(a.constructor).toBe(b.constructor);
      expect(Array.from(a as ArrayLike<number>)).toEqual(Array.from(b as ArrayLike<number>)); // NaN bits as js (quiet NaN)
    };
    for (const dt of ['float16', 'bfloat16'] as const) {
      same((d) => f.on(d).cast(dt)); // rounding to nearest even, overflow, subnormals, NaN
      same((d) => f.on(d).cast(dt).cast('float32')); // exact widening
      const h = f.cast(dt).realize(); // a host float16 leaf uploaded as 16 bits per word
      same((d) => h.on(d).add(h.on(d)).mul(0.5)); // computed in float32, rounded once
      same((d) => h.on(d).gt(1));
      same((d) => rlx.cat([h.on(d), h.on(d).neg()]).pad([[2, 1]], 0.1));
      same((d) => h.on(d).maximum(0).minimum(100).cast('float32').sum().cast(dt)); // a float32 sum (order differs) rounded to the narrow type
    }
  });

  it('t.to(device) is t.on(device); setDefaultDevice runs unpinned computations there', () => {
    const x = f32(10, 9);
    expect(x.to('webgpu').exp().toArray()).toEqual(x.on('webgpu').exp().toArray());
    expect(() => rlx.setDefaultDevice('no-such-device')).toThrow(rlx.DeviceError);
    try {
      rlx.setDefaultDevice('webgpu');
      const y = x.mul(2).add(1).realize(); // not pinned: runs on the default
      expect(y.node.dev?.device).toBe('webgpu');
      expect(y.toArray()).toEqual(x.on('js').mul(2).add(1).toArray());
      expect(() => rlx.tensor([1.5, 2]).exp().toArray()).toThrow(/float64 on backend 'webgpu'/); // no silent CPU fallback
    } finally {
      rlx.setDefaultDevice(undefined);
    }
    expect(rlx.tensor([1.5, 2]).exp().toArray()).toEqual(Float64Array.of(Math.exp(1.5), Math.exp(2)));
  });

  it('what it does not serve is a LegalizationError naming op, dtype and backend', () => {
    expect(() => rlx.tensor([1, 2]).on('webgpu').exp().toArray()).toThrow(rlx.LegalizationError);
    expect(() => rlx.tensor([1, 2]).on('webgpu').exp().toArray()).toThrow(/float64 on backend 'webgpu'/);
    const m = rlx.tensor([1, 2, 3, 4]).reshape([2, 2]).on('webgpu');
    expect(() => m.matmul(m).toArray()).toThrow(/float64 on backend 'webgpu'/);
    expect(() => rlx.tensor([1, 2], { dtype: 'float32' }).on('webgpu').cumsum().on('webgpu').toArray()).not.toThrow();
    expect(() => rlx.tensor([1, 2]).on('webgpu').cumsum().toArray()).toThrow(/float64 on backend 'webgpu'/);
  });
});
