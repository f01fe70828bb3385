// WGSL reductions (src/backends/webgpu/wgsl-reduce.ts) against the js backend
// on the same compiled kernels (tests/webgpu/gpu-run.ts). float32 sums and
// products accumulate in f32 on the GPU and in float64 on js: compared
// within a tolerance from the sum of magnitudes (a bound on any summation
// order's error); max/min/argmax/argmin and int32 sums are exact.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { webgpuStatus } from '../../src/backends/webgpu/device.js';
import { runOnGpu } from './gpu-run.js';

const status = webgpuStatus();
const f32 = (shape: number[], seed: number, scale = 1) => {
  const n = shape.reduce((a, b) => a * b, 1);
  return rlx.tensor(Float32Array.from({ length: n }, (_, i) => scale * Math.sin(seed + i * 0.37)), { dtype: 'float32' }).reshape(shape);
};

/** |gpu − js| ≤ 8·ε_f32·Σ|terms| per output (Σ|terms| computed here from the input). */
function expectSumClose(gpu: ArrayLike<number>, ref: ArrayLike<number>, absSums: ArrayLike<number>): void {
  for (let i = 0; i < ref.length; i++) expect(Math.abs(gpu[i]! - ref[i]!), `output ${i}`).toBeLessThanOrEqual(8 * 2 ** -23 * absSums[i]! + 1e-30);
}

describe.runIf(status.available)('webgpu: WGSL reductions vs the js backend', () => {
  it('sum over the last axis, the first axis, two axes and everything', () => {
    const a = f32([37, 300], 1);
    for (const [axes, y, abs] of [
      [[1], a.sum(1), a.abs().sum(1)],
      [[0], a.sum(0), a.abs().sum(0)],
      [[0, 1], a.sum(), a.abs().sum()],
    ] as const) {
      const [gpu, ref] = [runOnGpu([y])[0]!, y.toArray() as Float32Array];
      expect(gpu.length, String(axes)).toBe(ref.length);
      expectSumClose(gpu, ref, abs.toArray() as Float32Array);
    }
    const b = f32([6, 7, 8, 9], 2);
    const y = b.sum([1, 3]);
    expectSumClose(runOnGpu([y])[0]!, y.toArray() as Float32Array, b.abs().sum([1, 3]).toArray() as Float32Array);
  });

  it('a fused prologue and epilogue (a softmax denominator, a mean of squares)', () => {
    const a = f32([64, 1000], 3, 4);
    const lse = a.sub(a.max(1, true)).exp().sum(1).log();
    const ref = lse.toArray() as Float32Array;
    const gpu = runOnGpu([lse])[0]!;
    for (let i = 0; i < ref.length; i++) expect(Math.abs(gpu[i]! - ref[i]!)).toBeLessThan(1e-5 * Math.max(1, Math.abs(ref[i]!)));
    const ms = a.square().mean(0);
    expectSumClose(runOnGpu([ms])[0]!, ms.toArray() as Float32Array, a.square().mean(0).toArray() as Float32Array);
  });

  it('max, min, argmax and argmin are exact, ties go to the first index', () => {
    // Values from a small set: many ties, so the first-index rule is exercised.
    const a = rlx.tensor(Float32Array.from({ length: 50 * 700 }, (_, i) => ((i * 7919) % 13) - 6), { dtype: 'float32' }).reshape([50, 700]);
    for (const y of [a.max(1), a.min(0), a.argmax(1), a.argmin(1), a.argmax(0), a.argmin(0)]) {
      expect(runOnGpu([y])[0]).toEqual(y.toArray());
    }
  });

  it('NaN propagates through max/min and argmax/argmin point at the first NaN (NumPy)', () => {
    const v = Float32Array.from({ length: 4 * 600 }, (_, i) => Math.cos(i));
    v[1 * 600 + 17] = NaN;
    v[1 * 600 + 400] = NaN;
    v[3 * 600 + 599] = NaN;
    const a = rlx.tensor(v, { dtype: 'float32' }).reshape([4, 600]);
    for (const y of [a.max(1), a.min(1), a.argmax(1), a.argmin(1), a.maximum(0.5).sum(1)]) expect(runOnGpu([y])[0]).toEqual(y.toArray());
  });

  it('int32 sums wrap around and int32 max is exact', () => {
    const x = rlx.tensor(Int32Array.from({ length: 9 * 1000 }, (_, i) => (i * 2654435761) | 0), { dtype: 'int32' }).reshape([9, 1000]);
    for (const y of [x.sum(1), x.max(1), x.argmin(1)]) expect(runOnGpu([y])[0]).toEqual(y.toArray());
  });

  it('a strided (transposed) input and an output count laid out as a 2-D grid of workgroups', () => {
    const a = f32([300, 40], 5);
    const y = a.transpose().sum(1);
    expectSumClose(runOnGpu([y], 7)[0]!, y.toArray() as Float32Array, a.transpose().abs().sum(1).toArray() as Float32Array);
  });
});
