// The data-movement and scan ops on the 'webgpu' device (wgsl-opaque.ts):
// cumsum, gather, scatterAdd, cat (concat) and pad through the public Tensor
// API, compared with the same graphs on 'js'. int32 results must be equal;
// float32 ones differ only by the order of additions (cumsum scans in
// parallel, scatterAdd adds repeated indices as the atomics land), bounded
// below. Out-of-range indices throw the js backend's IndexError when a result
// is read (the GPU records the first bad index in an error buffer).

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { webgpuStatus } from '../../src/backends/webgpu/device.js';

const status = webgpuStatus();
const f32 = (n: number, seed: number) => rlx.tensor(Float32Array.from({ length: n }, (_, i) => Math.sin(seed + i * 0.77) * 3), { dtype: 'float32' });
const i32 = (n: number, seed: number, mod = 1000) => rlx.tensor(Int32Array.from({ length: n }, (_, i) => ((seed * 7919 + i * 104729) % (2 * mod)) - mod), { dtype: 'int32' });
const both = (f: (dev: string) => Tensor) => [f('webgpu').toArray(), f('js').toArray()] as [Float32Array | Int32Array, Float32Array | Int32Array];

/** |gpu − js| ≤ tol·(1 + |js|) elementwise, and same length. */
function close(g: ArrayLike<number>, j: ArrayLike<number>, tol: number) {
  expect(g.length).toBe(j.length);
  for (let i = 0; i < j.length; i++) {
    if (!(Math.abs(g[i]! - j[i]!) <= tol * (1 + Math.abs(j[i]!)))) throw new Error(`element ${i}: webgpu ${g[i]} vs js ${j[i]} (tol ${tol})`);
  }
}

describe.runIf(status.available)("data ops on 'webgpu'", () => {
  it('cumsum along every axis of a 3-D array, int32 exact and float32 within the reordering bound', () => {
    const fx = f32(3 * 300 * 5, 1).reshape([3, 300, 5]);
    const ix = i32(3 * 300 * 5, 2).reshape([3, 300, 5]);
    for (const ax of [0, 1, 2, -1]) {
      const [gi, ji] = both((d) => ix.on(d).cumsum(ax));
      expect(gi).toEqual(ji);
      // A float32 running sum of n terms of size ≤ 3: any summation order is within n·ε·Σ|x| of the exact sum.
      const [gf, jf] = both((d) => fx.on(d).cumsum(ax));
      close(gf, jf, 300 * 3 * 2 ** -23 * 2);
    }
    // A long column (several 256-element chunks with a carry) and int32 wrap-around, exact.
    const big = rlx.tensor(Int32Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? 2 ** 30 : -i)), { dtype: 'int32' });
    const [g, j] = both((d) => big.on(d).cumsum());
    expect(g).toEqual(j);
  });

  it('cumsum with fused producers and consumers around it', () => {
    const x = f32(1000, 3);
    const [g, j] = both((d) => x.on(d).mul(2).exp().cumsum().log());
    close(g, j, 1e-5);
  });

  it('gather along each axis, with negative indices, as np.take', () => {
    const x = f32(4 * 6 * 5, 4).reshape([4, 6, 5]);
    const xi = i32(4 * 6 * 5, 5).reshape([4, 6, 5]);
    const idx = rlx.tensor(Int32Array.of(3, -1, 0, 2, 2, -4), { dtype: 'int32' });
    for (const ax of [0, 1, 2]) {
      const ix = idx.reshape([2, 3]);
      const [g, j] = both((d) => x.on(d).gather(ix.on(d), ax));
      expect(g).toEqual(j);
      const [gi, ji] = both((d) => xi.on(d).gather(ix.on(d), ax));
      expect(gi).toEqual(ji);
    }
  });

  it('scatterAdd with repeated indices accumulates (int32 exact, float32 within the reordering bound)', () => {
    const xi = i32(10 * 4, 6).reshape([10, 4]);
    const idx = rlx.tensor(Int32Array.from({ length: 300 }, (_, i) => (i * 7) % 10 - (i % 2 ? 10 : 0)), { dtype: 'int32' });
    const ui = i32(300 * 4, 7).reshape([300, 4]);
    const [gi, ji] = both((d) => xi.on(d).scatterAdd(idx.on(d), ui.on(d), 0));
    expect(gi).toEqual(ji);
    const xf = f32(10 * 4, 8).reshape([10, 4]);
    const uf = f32(300 * 4, 9).reshape([300, 4]);
    const [gf, jf] = both((d) => xf.on(d).scatterAdd(idx.on(d), uf.on(d), 0));
    close(gf, jf, 30 * 3 * 2 ** -23 * 2); // 30 additions of |u| ≤ 3 per row
    // Along the last axis.
    const idx2 = rlx.tensor(Int32Array.of(0, 3, 3, 1), { dtype: 'int32' });
    const [g2, j2] = both((d) => xi.on(d).scatterAdd(idx2.on(d), i32(40, 3).reshape([10, 4]).on(d), 1));
    expect(g2).toEqual(j2);
  });

  it('the gradient of gather (a scatterAdd) matches js', () => {
    const x = f32(20, 10);
    const idx = rlx.tensor(Int32Array.of(1, 1, 5, 19, 0, 5), { dtype: 'int32' });
    const g = (d: string) => rlx.grad((t: Tensor) => t.on(d).gather(idx.on(d)).mul(f32(6, 11).on(d)).sum())(x).toArray();
    close(g('webgpu') as Float32Array, g('js') as Float32Array, 1e-6);
  });

  it('an out-of-range index throws the IndexError js throws, when the result is read (sync and async)', async () => {
    const x = f32(10, 12);
    const bad = rlx.tensor(Int32Array.of(0, 10, 2), { dtype: 'int32' });
    expect(() => x.on('js').gather(bad).toArray()).toThrow(rlx.IndexError);
    const msg = (() => {
      try {
        x.on('js').gather(bad).toArray();
      } catch (e) {
        return (e as Error).message;
      }
    })()!;
    expect(() => x.on('webgpu').gather(bad.on('webgpu')).toArray()).toThrow(msg);
    await expect(x.on('webgpu').gather(bad.on('webgpu')).data()).rejects.toThrow(rlx.IndexError);
    // A later graph computed from the bad result carries the error too.
    const y = x.on('webgpu').gather(bad.on('webgpu')).realize();
    expect(() => y.mul(2).sum().toArray()).toThrow(/index 10 is out of range for an axis of size 10/);
    expect(() => x.on('webgpu').scatterAdd(rlx.tensor(Int32Array.of(-11), { dtype: 'int32' }).on('webgpu'), f32(1, 1).on('webgpu')).toArray()).toThrow(
      /scatterAdd: index -11 is out of range for an axis of size 10/,
    );
    // Good indices afterwards are unaffected.
    expect(x.on('webgpu').gather(rlx.tensor(Int32Array.of(9), { dtype: 'int32' }).on('webgpu')).toArray()).toEqual(x.on('js').gather(rlx.tensor(Int32Array.of(9), { dtype: 'int32' })).toArray());
  });

  it('cat along each axis, including more inputs than one pass binds', () => {
    const parts = Array.from({ length: 3 }, (_, i) => f32(2 * (i + 1) * 3, 20 + i).reshape([2, i + 1, 3]));
    const [g, j] = both((d) => rlx.cat(parts.map((p) => p.on(d)), 1));
    expect(g).toEqual(j);
    const many = Array.from({ length: 30 }, (_, i) => i32(4 * (1 + (i % 3)), 40 + i).reshape([4, 1 + (i % 3)]));
    for (const ax of [0, 1]) {
      const src = ax === 0 ? many.map((m) => m.reshape([-1, 4])) : many;
      const [gm, jm] = both((d) => rlx.cat(src.map((p) => p.on(d)), ax));
      expect(gm).toEqual(jm);
    }
    // With a fused producer: WGSL's exp is within 3 + 2|x| ulp (|x| ≤ 3 here), not correctly rounded.
    const [gs, js] = both((d) => rlx.stack([f32(6, 1).on(d), f32(6, 2).on(d).exp()], 1));
    close(gs, js, 9 * 2 ** -23);
  });

  it('pad with a value, on each axis, matches js (fast-check shapes and widths)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 0, maxLength: 3 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })), { minLength: 3, maxLength: 3 }),
        fc.double({ min: -5, max: 5, noNaN: true }),
        (shape, widths, value) => {
          const n = shape.reduce((a, b) => a * b, 1);
          const x = f32(n, n).reshape(shape);
          const w = shape.map((_, i) => widths[i]!);
          const [g, j] = both((d) => x.on(d).pad(w, value));
          expect(g).toEqual(j);
          const xi = i32(n, n).reshape(shape);
          const [gi, ji] = both((d) => xi.on(d).add(1).pad(w, Math.round(value)));
          expect(gi).toEqual(ji);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('cumsum over random shapes and axes (fast-check), int32 exact', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 3 }), fc.nat(), (shape, a) => {
        const n = shape.reduce((x, y) => x * y, 1);
        const ax = a % shape.length;
        const x = i32(n, n, 50).reshape(shape);
        const [g, j] = both((d) => x.on(d).cumsum(ax));
        expect(g).toEqual(j);
      }),
      { numRuns: 25 },
    );
  });
});
