// splat.ssim against SciPy golden values written straight from the 3DGS
// formula (tests/splat/golden/ssim_gen.py: full 2-D zero-padded convolutions,
// not separable passes), its gradient against central finite differences in
// float64, the identity ssim(a, a) = 1, and its typed errors.

import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ssim, type SsimOptions } from '../../src/splat/ssim.js';
import { tensor } from '../../src/tensor/create.js';
import { grad } from '../../src/compiler/transforms/grad.js';
import * as random from '../../src/tensor/random.js';
import { DTypeError, ShapeError, ValueError } from '../../src/tensor/errors.js';
import { DEVICES } from '../harness/devices.js';

interface Case { name: string; shape: number[]; a: number[]; b: number[]; options: SsimOptions; ssim: number; map?: number[] }
const golden = JSON.parse(readFileSync(new URL('./golden/ssim.json', import.meta.url), 'utf8')) as { cases: Case[] };

const maxAbsDiff = (x: ArrayLike<number>, y: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]! - y[i]!));
  return m;
};

describe.each(DEVICES)('splat.ssim on %s', (device) => {
  test.each(golden.cases.map((c) => [c.name, c] as const))('SciPy golden: %s', (_, c) => {
    const a = tensor(c.a, { dtype: 'float64', shape: c.shape, device }),
      b = tensor(c.b, { dtype: 'float64', shape: c.shape, device });
    const v = ssim(a, b, c.options).item() as number;
    expect(Math.abs(v - c.ssim)).toBeLessThan(1e-12);
    if (c.map) {
      const m = ssim(a, b, { ...c.options, reduction: 'none' });
      expect(m.shape).toEqual(c.shape);
      expect(maxAbsDiff(m.toArray() as Float64Array, c.map)).toBeLessThan(1e-12);
    }
    // float32 inputs: the same value to float32 rounding of the sums.
    const v32 = ssim(a.cast('float32'), b.cast('float32'), c.options);
    expect(v32.dtype).toBe('float32');
    expect(Math.abs((v32.item() as number) - c.ssim)).toBeLessThan(2e-5);
  });

  test('ssim(a, a) = 1 exactly, and symmetric: ssim(a, b) = ssim(b, a)', () => {
    const a = random.uniform(random.key(3), [20, 17, 3]).on(device),
      b = random.uniform(random.key(4), [20, 17, 3]).on(device);
    expect(ssim(a, a).item()).toBe(1);
    expect(ssim(a.cast('float64'), a.cast('float64')).item()).toBe(1);
    expect(Math.abs((ssim(a, b).item() as number) - (ssim(b, a).item() as number))).toBeLessThan(1e-7);
  });

  test('gradient w.r.t. both images matches central differences (float64)', () => {
    const c = golden.cases[4]!; // 12×13×2, window 7: borders and interior both present
    const opts = c.options;
    const shape = c.shape;
    // A smaller crop keeps the 2n forward evaluations cheap.
    const H = 6, W = 7, C = 2;
    const crop = (v: number[]) => Array.from({ length: H * W * C }, (_, i) => {
      const ch = i % C, j = Math.floor(i / C) % W, r = Math.floor(i / (C * W));
      return v[(r * shape[1]! + j) * shape[2]! + ch]!;
    });
    const av = crop(c.a), bv = crop(c.b);
    const f = (x: number[], y: number[]) => ssim(tensor(x, { dtype: 'float64', shape: [H, W, C], device }), tensor(y, { dtype: 'float64', shape: [H, W, C], device }), opts).item() as number;
    const [ga, gb] = grad((x, y) => ssim(x, y, opts), { argnums: [0, 1] })(tensor(av, { dtype: 'float64', shape: [H, W, C], device }), tensor(bv, { dtype: 'float64', shape: [H, W, C], device }));
    const h = 1e-6;
    let err = 0, scale = 0;
    for (const [which, g] of [[0, ga!], [1, gb!]] as const) {
      const gv = g.toArray() as Float64Array;
      for (let i = 0; i < av.length; i++) {
        const p = [av.slice(), bv.slice()], m = [av.slice(), bv.slice()];
        p[which]![i]! += h;
        m[which]![i]! -= h;
        const fd = (f(p[0]!, p[1]!) - f(m[0]!, m[1]!)) / (2 * h);
        err = Math.max(err, Math.abs(fd - gv[i]!));
        scale = Math.max(scale, Math.abs(fd));
      }
    }
    expect(scale).toBeGreaterThan(1e-3);
    expect(err).toBeLessThan(1e-8);
  });
});

describe('splat.ssim errors', () => {
  const a = tensor([[0.1, 0.2], [0.3, 0.4]]);
  test('typed errors name what is wrong', () => {
    expect(() => ssim(a, tensor([[0.1, 0.2, 0.3]]))).toThrow(ShapeError);
    expect(() => ssim(a, tensor([[0.1, 0.2, 0.3]]))).toThrow(/shapes differ/);
    expect(() => ssim(tensor([1, 2]), tensor([1, 2]))).toThrow(/\[H, W\]/);
    expect(() => ssim(tensor([[1, 2]], { dtype: 'int32' }), tensor([[1, 2]], { dtype: 'int32' }))).toThrow(DTypeError);
    expect(() => ssim(a, a, { windowSize: 4 })).toThrow(/odd/);
    expect(() => ssim(a, a, { sigma: 0 })).toThrow(ValueError);
    expect(() => ssim(a, a, { dataRange: -1 })).toThrow(/dataRange/);
    expect(() => ssim(a, a, { reduction: 'sum' as 'mean' })).toThrow(/reduction/);
    expect(() => ssim([[1]] as never, a)).toThrow(ValueError);
  });
});
