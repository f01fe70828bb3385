// Unzeroed kernel outputs (Backend.allocUninit, src/compiler/executable.ts):
// a planned buffer is allocated without zeroing only when its first writer is
// a kernel that writes every element (elementwise, matmul, registered ops
// declaring OpDef.writesAll such as the fft transforms). To prove no kernel
// reads what it did not write, the native backend's allocUninit is replaced by
// one that fills its buffers with NaN (and int garbage): every graph below
// must still agree with the js backend bit for bit or to rounding.

import { afterAll, beforeAll, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { getBackend } from '../../src/backends/registry.js';
import type { Backend } from '../../src/backends/backend.js';
import { allocStorage, type DType, type StorageArray } from '../../src/tensor/dtype.js';
import { describeNative } from './native-harness.js';

describeNative('unzeroed outputs (allocUninit)', () => {
  let backend: Backend;
  let original: Backend['allocUninit'];
  const handed: number[] = [];
  beforeAll(() => {
    backend = getBackend('native');
    original = backend.allocUninit;
    expect(typeof original).toBe('function');
    (backend as { allocUninit: (d: DType, n: number) => StorageArray }).allocUninit = (d, n) => {
      const a = allocStorage(d, n);
      a.fill((a instanceof Float64Array || a instanceof Float32Array ? NaN : 0x5a) as never);
      handed.push(n);
      return a;
    };
  });
  afterAll(() => {
    (backend as { allocUninit?: Backend['allocUninit'] }).allocUninit = original;
  });

  const key = rlx.random.key(5);
  const x = rlx.random.normal(key, [6, 7]);
  const y = rlx.random.normal(rlx.random.key(6), [7, 5]);
  const v = rlx.random.normal(rlx.random.key(7), [7]);
  const graphs: [string, (t: (a: rlx.Tensor) => rlx.Tensor) => rlx.Tensor][] = [
    ['elementwise chain', (t) => t(x).mul(2).add(1).exp().sub(t(x)).abs()],
    ['broadcast', (t) => t(x).sub(t(v)).mul(t(x)).abs().sqrt()],
    ['matmul', (t) => t(x).matmul(t(y))],
    ['matmul + epilogue', (t) => t(x).matmul(t(y)).mul(3).add(1).tanh()],
    ['batched matmul of a transpose', (t) => t(x).reshape([2, 3, 7]).matmul(t(y).reshape([1, 7, 5]))],
    ['sum and max', (t) => t(x).mul(t(x)).sum(1).add(t(x).max(1))],
    ['cumsum', (t) => t(x).add(1).cumsum(1)],
    ['pad', (t) => t(x).exp().pad([[1, 2], [0, 3]])],
    ['concat', (t) => rlx.cat([t(x).add(1), t(x).mul(2)], 0)],
    ['scatterAdd', (t) => rlx.zeros([3, 7]).scatterAdd(rlx.tensor([0, 2, 2, 1, 0, 2], { dtype: 'int32' }), t(x).mul(2), 0)],
    ['complex', (t) => t(x).astype('complex128').mul(rlx.complex(0.5, -2)).exp().add(1)],
    ['float32 matmul', (t) => t(x).astype('float32').matmul(t(y).astype('float32')).add(1)],
    // Registered ops that declare OpDef.writesAll (the fft transforms), alone and inside a graph.
    ['fft, alone', (t) => rlx.fft.fft(t(x))],
    ['fft rfft2 then irfft2', (t) => rlx.fft.irfft2(rlx.fft.rfft2(t(x)).mul(2), [6, 7]).add(1)],
    ['fft fftn over axes 0 and 2 (strided)', (t) => rlx.fft.fftn(t(x).reshape([2, 3, 7]).add(1), undefined, [0, 2]).abs()],
  ];
  it('a registered op declaring writesAll (fft.r2c) gets an unzeroed output; one that does not stays zeroed', () => {
    const xs = x.on('native').realize();
    handed.length = 0;
    rlx.fft.rfft(xs).realize(); // [6, 4] complex128: 24 elements, no other buffer of that size
    expect(handed).toContain(24);
    handed.length = 0;
    rlx.linalg.qr(xs).r.realize(); // no writesAll: every output zeroed as before
    expect(handed).toEqual([]);
  });

  it('splat: a registered call with several outputs gets them all unzeroed (writesAll), and render and its gradients agree with js', () => {
    // 37 × 23: rasterize's [H, W] parts (alpha, depth, finalT, lastIndex) have 851 elements, no other buffer here does.
    const { gaussians, cameras } = rlx.splat.scenes.sphereShell({ n: 300, width: 37, height: 23, seed: 2, shDegree: 1 });
    const cam = cameras[0]!;
    type G = typeof gaussians;
    const on = (d: string): G => Object.fromEntries(Object.entries(gaussians).map(([k, t]) => [k, (t as rlx.Tensor).on(d)])) as unknown as G;
    const step = (g: G) => {
      const keys = Object.keys(g) as (keyof G)[];
      const [v, gs] = rlx.valueAndGrad((...xs: rlx.Tensor[]) => {
        const r = rlx.splat.render(Object.fromEntries(keys.map((k, i) => [k, xs[i]])) as unknown as G, cam);
        return r.image.square().mean().add(r.alpha.mean()).add(r.depth.mean().mul(0.01));
      }, { argnums: keys.map((_, i) => i) })(...keys.map((k) => g[k] as rlx.Tensor)) as [rlx.Tensor, rlx.Tensor[]];
      return [v, ...gs];
    };
    const want = step(on('js')).map((t) => Array.from(t.toArray() as Float32Array));
    handed.length = 0;
    const got = step(on('native')).map((t) => Array.from(t.toArray() as Float32Array));
    expect(handed.filter((n) => n === 37 * 23).length, 'the [H, W] parts came unzeroed').toBeGreaterThanOrEqual(3);
    // A plain render computes its four [H, W] parts with the image (a call's parts are realized together): unzeroed too.
    handed.length = 0;
    const img = rlx.splat.render(on('native'), cam).image.toArray();
    expect(handed.filter((n) => n === 37 * 23).length, 'the parts came unzeroed').toBe(4);
    expect(Array.from(img).some(Number.isNaN)).toBe(false);
    got.forEach((g, j) => {
      const scale = Math.max(...want[j]!.map(Math.abs), 1e-30);
      g.forEach((x, i) => {
        expect(Number.isNaN(x), `output ${j} element ${i}`).toBe(false);
        expect(Math.abs(x - want[j]![i]!), `output ${j} element ${i}: ${x} vs ${want[j]![i]}`).toBeLessThanOrEqual(2e-3 * scale + 1e-6);
      });
    });
  });

  for (const [name, build] of graphs) {
    it(`${name}: NaN-filled unzeroed buffers never leak into the result`, () => {
      const before = handed.length;
      const want = build((a) => a.on('js')).toArray();
      const got = build((a) => a.on('native')).toArray();
      expect(got.length).toBe(want.length);
      const tol = name.includes('float32') ? 1e-5 : 1e-12;
      for (let i = 0; i < want.length; i++) {
        expect(Number.isNaN(got[i]), `element ${i}`).toBe(false);
        expect(Math.abs(got[i]! - want[i]!), `element ${i}: ${got[i]} vs ${want[i]}`).toBeLessThanOrEqual(tol * (1 + Math.abs(want[i]!)));
      }
      if (name.includes('matmul') || name.includes('elementwise') || name.startsWith('fft')) expect(handed.length).toBeGreaterThan(before);
    });
  }
});
