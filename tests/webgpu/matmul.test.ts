// WGSL matmul (src/backends/webgpu/wgsl-matmul.ts) against the js backend on
// the same compiled kernels (tests/webgpu/gpu-run.ts) and through the public
// API. float32 accumulates in f32 on the GPU and in float64 on js: each
// output is compared within 4·k·ε_f32·Σ|a_ip·b_pj| (a bound on any summation
// order's error, Σ computed here); int32 products are exact (wrapping).

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { webgpuStatus } from '../../src/backends/webgpu/device.js';
import { runOnGpu } from './gpu-run.js';

const status = webgpuStatus();
const f32 = (shape: number[], seed: number) => {
  const n = shape.reduce((a, b) => a * b, 1);
  return rlx.tensor(Float32Array.from({ length: n }, (_, i) => Math.sin(seed + i * 0.61)), { dtype: 'float32' }).reshape(shape);
};

function expectMatmulClose(gpu: ArrayLike<number>, y: Tensor, absProduct: Tensor, k: number): void {
  const ref = y.toArray() as Float32Array,
    bound = absProduct.toArray() as Float32Array;
  expect(gpu.length).toBe(ref.length);
  for (let i = 0; i < ref.length; i++) expect(Math.abs(gpu[i]! - ref[i]!), `output ${i}`).toBeLessThanOrEqual(4 * k * 2 ** -23 * bound[i]! + 1e-30);
}

describe.runIf(status.available)('webgpu: WGSL matmul vs the js backend', () => {
  it('square, ragged (not multiples of 16) and k = 1 shapes', () => {
    for (const [m, k, n] of [[64, 64, 64], [37, 50, 23], [5, 1, 70], [1, 300, 1]] as const) {
      const a = f32([m, k], m),
        b = f32([k, n], n);
      expectMatmulClose(runOnGpu([a.matmul(b)])[0]!, a.matmul(b), a.abs().matmul(b.abs()), k);
    }
  });

  it('transposed operands, broadcast batches and a fused epilogue', () => {
    const a = f32([3, 20, 30], 1),
      b = f32([30, 17], 2),
      bias = f32([17], 3);
    const y = a.matmul(b).add(bias).maximum(0);
    const yt = f32([30, 20], 4).transpose().matmul(f32([17, 30], 5).transpose());
    const abs = a.abs().matmul(b.abs()).add(bias.abs());
    expectMatmulClose(runOnGpu([y])[0]!, y, abs, 31);
    expectMatmulClose(runOnGpu([yt])[0]!, yt, f32([30, 20], 4).abs().transpose().matmul(f32([17, 30], 5).abs().transpose()), 30);
  });

  it('int32 products are exact', () => {
    const a = rlx.tensor(Int32Array.from({ length: 24 * 40 }, (_, i) => ((i * 7919) % 201) - 100), { dtype: 'int32' }).reshape([24, 40]);
    const b = rlx.tensor(Int32Array.from({ length: 40 * 9 }, (_, i) => ((i * 104729) % 61) - 30), { dtype: 'int32' }).reshape([40, 9]);
    expect(runOnGpu([a.matmul(b)])[0]).toEqual(a.matmul(b).toArray());
  });

  it("through the public API on 'webgpu' (a two-layer MLP forward)", () => {
    const x = f32([32, 64], 6),
      w1 = f32([64, 48], 7),
      w2 = f32([48, 10], 8);
    const f = (dev: string) => x.on(dev).matmul(w1.on(dev)).maximum(0).matmul(w2.on(dev));
    const g = f('webgpu').toArray() as Float32Array,
      j = f('js').toArray() as Float32Array;
    for (let i = 0; i < j.length; i++) expect(Math.abs(g[i]! - j[i]!)).toBeLessThan(1e-4 * Math.max(1, Math.abs(j[i]!)));
  });
});
