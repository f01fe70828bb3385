// WGSL for fused elementwise kernels (src/backends/webgpu/wgsl-elementwise.ts)
// against the js backend on the same kernel descriptions: a graph is compiled
// for 'js' (capture, passes, fusion, memory plan), each of its elementwise
// kernels is lowered to WGSL and run on the WebGPU device over the same input
// data and constant vector, and the outputs are compared with what the js
// executable computes. Exact where float32 arithmetic is exact (add, mul,
// select, int32 wrap-around, casts); within a few float32 ulps for the
// transcendental functions (WGSL's accuracy for exp/sin/tanh is a few ulps).

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { executableFor } from '../../src/compiler/realize.js';
import { LegalizationError } from '../../src/tensor/errors.js';
import { webgpuStatus } from '../../src/backends/webgpu/device.js';
import { wgslElementwise } from '../../src/backends/webgpu/wgsl-elementwise.js';
import { runOnGpu } from './gpu-run.js';

const status = webgpuStatus();

const f32 = (n: number, seed: number, scale = 1) => rlx.tensor(Float32Array.from({ length: n }, (_, i) => scale * Math.sin(seed + i * 0.7)), { dtype: 'float32' });

/** Largest |gpu − js| / max(|js|, 1e-30) in float32 ulps-ish units (relative error). */
function maxRel(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let w = 0;
  for (let i = 0; i < a.length; i++) w = Math.max(w, Math.abs(a[i]! - b[i]!) / Math.max(Math.abs(b[i]!), 1e-30));
  return w;
}

describe.runIf(status.available)('webgpu: WGSL elementwise kernels vs the js backend', () => {
  it('a fused float32 chain over 2^17 elements (exact arithmetic)', () => {
    const a = f32(1 << 17, 1),
      b = f32(1 << 17, 2);
    const y = a.mul(2).add(b).mul(a).sub(0.5);
    const [gpu] = runOnGpu([y]);
    expect(gpu).toEqual(y.toArray());
  });

  it('transcendental functions within a few float32 ulps', () => {
    const a = f32(4096, 3, 3);
    for (const [name, y] of [['exp', a.exp()], ['sin', a.sin()], ['sigmoid', a.sigmoid()], ['sqrt∘abs', a.abs().sqrt()], ['log∘(1+x²)', a.square().add(1).log()]] as const) {
      const [gpu] = runOnGpu([y as Tensor]);
      expect(maxRel(gpu!, (y as Tensor).toArray() as Float32Array), name).toBeLessThan(4e-6);
    }
    // WGSL's tanh has an absolute error bound (it is sinh/cosh): near 0 its relative error grows (2.3e-5 measured on llvmpipe).
    const t = a.tanh();
    const [gpu] = runOnGpu([t]);
    const ref = t.toArray() as Float32Array;
    let worst = 0;
    for (let i = 0; i < ref.length; i++) worst = Math.max(worst, Math.abs(gpu![i]! - ref[i]!));
    expect(worst).toBeLessThan(4e-7);
  });

  it('broadcasts, transposes and strided slices (index decomposition)', () => {
    const a = f32(6 * 5, 4).reshape([6, 5]),
      row = f32(5, 5),
      col = f32(6, 6).reshape([6, 1]);
    const y1 = a.add(row).mul(col);
    const y2 = a.transpose().add(col.reshape([1, 6]));
    const y3 = f32(12 * 9, 7).reshape([12, 9]).slice(rlx.s(rlx.rg(1, 11, 2), rlx.rg(0, 9, 3))).mul(a.slice(rlx.s(rlx.rg(0, 5), rlx.rg(0, 3))));
    for (const y of [y1, y2, y3]) {
      const [gpu] = runOnGpu([y]);
      expect(gpu).toEqual(y.toArray());
    }
  });

  it('comparisons, where, logical ops and casts', () => {
    const a = f32(1000, 8, 4),
      b = f32(1000, 9, 4);
    const y = rlx.where(a.gt(b).logicalAnd(b.gt(-1)), a, b.mul(3));
    const t = a.mul(10).cast('int32').add(a.lt(0).cast('int32')).cast('float32');
    const [g1, g2] = runOnGpu([y, t]);
    expect(g1).toEqual(y.toArray());
    expect(g2).toEqual(t.toArray());
  });

  it('int32 arithmetic wraps around like int32', () => {
    const x = rlx.tensor(Int32Array.from({ length: 513 }, (_, i) => (i * 2654435761) | 0), { dtype: 'int32' });
    const y = x.mul(x).add(x.mul(-7)).maximum(x.neg());
    const [gpu] = runOnGpu([y]);
    expect(gpu).toEqual(y.toArray());
  });

  it('a 2-D grid of workgroups (what more than 65535 workgroups need) indexes every element once', () => {
    // 23 groups of 256 laid out 5 per row: rows of the grid continue the element index.
    const a = f32(23 * 256 - 17, 10);
    const y = a.mul(a).add(1);
    const [gpu] = runOnGpu([y], 5);
    expect(gpu).toEqual(y.toArray());
  });

  it('dtypes WGSL cannot store are LegalizationErrors naming the op and dtype', () => {
    const { exe } = executableFor([rlx.tensor([1, 2, 3], { dtype: 'float64' }).exp().node], 'js');
    const k = exe.exe.report.kernels[0]!;
    expect(() => wgslElementwise(k as never, exe.exe.report.slots.map((s) => s.shape))).toThrow(LegalizationError);
    const { exe: e2 } = executableFor([rlx.tensor([1, 2], { dtype: 'complex64' }).mul(2).node], 'js');
    expect(() => wgslElementwise(e2.exe.report.kernels[0] as never, e2.exe.report.slots.map((s) => s.shape))).toThrow(/complex64/);
  });
});
