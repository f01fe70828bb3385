// The GPU radix sort and prefix sum under the splat kernels
// (src/splat/kernels/webgpu/sort.ts, scan.ts), on their own, against plain
// JS: the sort must be stable (equal keys keep their input order), since
// the tile lists' (depth, index) order rests on it.

import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../harness/prng.js';
import { radixSort } from '../../src/splat/kernels/webgpu/sort.js';
import { scanExclusive, scanTotal } from '../../src/splat/kernels/webgpu/scan.js';
import { gpuCtx, status } from './splat-helpers.js';

describe.runIf(status.available)('webgpu splat: radix sort and scan', () => {
  it('exclusive scan of lengths 1, 255, 256, 257, 70000 (three levels) and the total', () => {
    const ctx = gpuCtx();
    const r = mulberry32(3);
    try {
      for (const n of [1, 255, 256, 257, 70000]) {
        const x = Uint32Array.from({ length: n }, () => Math.floor(r() * 1000));
        const src = ctx.upload(x), dst = ctx.scratch(4 * n), tot = ctx.scratch(4);
        scanExclusive(ctx, src, dst, n);
        scanTotal(ctx, src, dst, n, tot);
        const got = new Uint32Array(ctx.device.readSync(dst, 4 * n));
        const want = new Uint32Array(n);
        for (let i = 1; i < n; i++) want[i] = want[i - 1]! + x[i - 1]!;
        expect(got).toEqual(want);
        expect(new Uint32Array(ctx.device.readSync(tot, 4))[0]).toBe(want[n - 1]! + x[n - 1]!);
      }
    } finally {
      ctx.release();
    }
  });

  const cases: [string, number, number, (r: () => number) => number][] = [
    ['full 32-bit keys', 3000, 32, (r) => Math.floor(r() * 2 ** 32)],
    ['many equal keys (stability)', 5000, 32, (r) => [0, 7, 0xffffffff, 0x80000000, 123456789][Math.floor(r() * 5)]!],
    ['12-bit keys, 2 passes', 1000, 12, (r) => Math.floor(r() * 4096)],
    ['one block', 200, 16, (r) => Math.floor(r() * 50)],
    ['n = 1', 1, 32, (r) => Math.floor(r() * 2 ** 32)],
  ];
  for (const [name, n, bits, draw] of cases)
    it(`sorts stably: ${name} (n = ${n})`, () => {
      const ctx = gpuCtx();
      const r = mulberry32(n + bits);
      try {
        const keys = Uint32Array.from({ length: n }, () => draw(r));
        const vals = Uint32Array.from({ length: n }, (_, i) => i);
        const out = radixSort(ctx, ctx.upload(keys), ctx.upload(vals), n, bits);
        const gk = new Uint32Array(ctx.device.readSync(out.keys, 4 * n)), gv = new Uint32Array(ctx.device.readSync(out.vals, 4 * n));
        const order = Array.from(vals).sort((a, b) => keys[a]! - keys[b]! || a - b); // Array.prototype.sort is stable; ties by index anyway
        expect(Array.from(gv)).toEqual(order);
        expect(Array.from(gk)).toEqual(order.map((i) => keys[i]!));
      } finally {
        ctx.release();
      }
    });
});
