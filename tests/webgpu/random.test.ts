// The random ops on 'webgpu' (src/tensor/random/webgpu.ts) against the host
// samplers (js), which reproduce JAX's bits (tests/random): split, foldIn,
// randint, bernoulli and float32 uniform must give the same bits; float32 normals differ
// only by erfinv computed in float32 on the GPU (Giles' approximation, a few
// ulps) where the host computes it in float64 and rounds once.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { random } from '../../src/index.js';
import { webgpuStatus } from '../../src/backends/webgpu/device.js';

const status = webgpuStatus();

describe.runIf(status.available)("random ops on 'webgpu'", () => {
  const k = random.key(42);
  const keys = random.split(random.key(7), 3); // a batch of keys: samples key by key

  it('split and foldIn give the host bits, single keys and batches', () => {
    expect(random.split(k.on('webgpu'), 5).toArray()).toEqual(random.split(k, 5).toArray());
    expect(random.split(keys.on('webgpu'), 4).toArray()).toEqual(random.split(keys, 4).toArray());
    for (const d of [0, 1, 12345, 2 ** 31 - 1, -1]) expect(random.foldIn(k.on('webgpu'), d).toArray()).toEqual(random.foldIn(k, d).toArray());
  });

  it('float32 uniform: the host bits, on [0, 1) and on a shifted range', () => {
    const g = random.uniform(k.on('webgpu'), [1000], { dtype: 'float32' }).toArray() as Float32Array;
    expect(g).toEqual(random.uniform(k, [1000], { dtype: 'float32' }).toArray());
    const opts = { dtype: 'float32' as const, minval: -3.5, maxval: 1e3 };
    expect(random.uniform(keys.on('webgpu'), [7, 9], opts).toArray()).toEqual(random.uniform(keys, [7, 9], opts).toArray());
    expect(Math.min(...g)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...g)).toBeLessThan(1);
  });

  it('float16/bfloat16 uniform: the host bits (rounded from the float32 draw); normals within one narrow ulp', () => {
    for (const dtype of ['float16', 'bfloat16'] as const) {
      expect(random.uniform(k.on('webgpu'), [500], { dtype, minval: -2, maxval: 5 }).toArray()).toEqual(random.uniform(k, [500], { dtype, minval: -2, maxval: 5 }).toArray());
      const g = random.normal(k.on('webgpu'), [2000], { dtype }).cast('float32').toArray() as Float32Array;
      const h = random.normal(k, [2000], { dtype }).cast('float32').toArray() as Float32Array;
      const ulp = dtype === 'float16' ? 2 ** -10 : 2 ** -7;
      g.forEach((x, i) => expect(Math.abs(x - h[i]!)).toBeLessThanOrEqual(ulp * Math.abs(h[i]!) + 1e-7));
    }
  });

  it('randint: the host values, small and full-width spans (int32 exact)', () => {
    for (const [lo, hi] of [
      [0, 10],
      [-5, 5],
      [-(2 ** 31), 2 ** 31],
      [-1000, 2 ** 31 - 7],
      [3, 4],
    ] as [number, number][]) {
      expect(random.randint(k.on('webgpu'), [500], lo, hi).toArray()).toEqual(random.randint(k, [500], lo, hi).toArray());
    }
    expect(random.randint(keys.on('webgpu'), [3, 11], 0, 1 << 20).toArray()).toEqual(random.randint(keys, [3, 11], 0, 1 << 20).toArray());
  });

  it('float32 normal within a few ulps of the host (erfinv in float32), tails included', () => {
    const n = 20000;
    const g = random.normal(k.on('webgpu'), [n], { dtype: 'float32' }).toArray() as Float32Array;
    const h = random.normal(k, [n], { dtype: 'float32' }).toArray() as Float32Array;
    let worst = 0;
    for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(g[i]! - h[i]!) / (Math.abs(h[i]!) + 1e-3));
    // Giles' single-precision erfinv is good to a few e-7 relative; the GPU's log adds ~2^-21 absolute near 0.
    expect(worst).toBeLessThan(4e-6);
    expect(Math.max(...h.map(Math.abs))).toBeGreaterThan(3.5); // the sample reaches the tails the bound must cover
  });

  it('samples feed GPU graphs; what is not served is a LegalizationError', () => {
    const x = random.uniform(k.on('webgpu'), [100], { dtype: 'float32' }).mul(2).sum().item();
    expect(x).toBeCloseTo((random.uniform(k, [100], { dtype: 'float32' }).mul(2).sum().item() as number), 4);
    expect(() => random.normal(k.on('webgpu'), [3]).toArray()).toThrow(rlx.LegalizationError); // float64 default
  });

  it('bernoulli: the host draws (uniform float64 < p, compared exactly as 52-bit integers), p at the ends too', () => {
    for (const p of [0, 1e-9, 0.3, 0.5, 1 - 2 ** -52, 1]) {
      const g = random.bernoulli(k.on('webgpu'), p, [2000]).toArray() as Uint8Array;
      expect(g).toEqual(random.bernoulli(k, p, [2000]).toArray());
    }
    expect(random.bernoulli(keys.on('webgpu'), 0.25, [5, 4]).toArray()).toEqual(random.bernoulli(keys, 0.25, [5, 4]).toArray());
  });
});
