// The n-D transforms and the 1-D ones along non-last axes, which run as ONE
// fft op over a strided core (src/fft/ops/transforms.ts: attrs rank + axes;
// no transposes): NumPy 1.24 goldens (tests/golden/fft/nd_gen.py: odd, prime
// and power-of-two sizes, s, axes out of order and not trailing, irfftn of
// non-Hermitian input) in float64 and float32 on every device; the graph is
// one op; derivatives of the strided ops against central differences;
// vmap, jit and grad through them.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import { callCase as call, expectClose, type ApiCase } from './api-golden.js';

type Case = ApiCase;
const G = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'golden', 'fft', 'nd.json'), 'utf8')) as { cases: Case[] };

const size = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);
// The inputs of nd_gen.py, rebuilt from its formula.
const realData = (n: number) => Float64Array.from({ length: n }, (_, i) => Math.cos(0.37 * i + 0.1) + (0.5 * ((3 * i) % 11)) / 11);
function input(c: Case, device: string, dtype: 'float64' | 'float32'): Tensor {
  const n = size(c.shape);
  const re = rlx.tensor(realData(n), { dtype }).reshape(c.shape);
  const x = c.kind === 'real' ? re : rlx.complex(re, rlx.tensor(Float64Array.from({ length: n }, (_, i) => Math.sin(0.91 * i)), { dtype }).reshape(c.shape));
  return x.on(device);
}

/** The ops of the graph under t (each node once). */
function opsOf(t: Tensor): string[] {
  const seen = new Set<unknown>(),
    ops: string[] = [];
  const walk = (n: { op: string; inputs: readonly unknown[]; attrs?: Record<string, unknown> }) => {
    if (seen.has(n)) return;
    seen.add(n);
    ops.push(n.op === 'registered' ? String(n.attrs!['op']) : n.op);
    for (const i of n.inputs) walk(i as typeof n);
  };
  walk(t.node as unknown as Parameters<typeof walk>[0]);
  return ops;
}

describe.each(DEVICES)('numpy.fft n-D and strided goldens on %s', (device) => {
  it(`float64 (${G.cases.length} cases)`, () => {
    for (const c of G.cases) {
      const what = `${c.fn}(${c.kind} ${JSON.stringify(c.shape)}, ${JSON.stringify(c.kwargs)})`;
      const y = call(c, input(c, device, 'float64'));
      expect(y.shape, what).toEqual(c.outShape);
      expect(y.dtype, what).toBe(c.complex ? 'complex128' : 'float64');
      expectClose(y.toArray() as Float64Array, c.out, 1e-13, what);
    }
  });

  it('float32: complex64 / float32 results to float32 precision', () => {
    for (const c of G.cases) {
      const what = `${c.fn}(${c.kind} float32 ${JSON.stringify(c.shape)}, ${JSON.stringify(c.kwargs)})`;
      const y = call(c, input(c, device, 'float32'));
      expect(y.dtype, what).toBe(c.complex ? 'complex64' : 'float32');
      // NumPy transformed the float64 values; the float32 inputs differ by ~6e-8 relative.
      expectClose(y.toArray() as Float32Array, c.out, 2e-6, what);
    }
  });
});

describe('one op, no transposes', () => {
  const x = rlx.complex(rlx.ones([4, 6, 5]), rlx.zeros([4, 6, 5]));
  const r = rlx.ones([4, 6, 5]);
  it.each([
    ['fft2', () => rlx.fft.fft2(x), 'fft.c2c'],
    ['fftn over axes (0, 2)', () => rlx.fft.fftn(x, undefined, [0, 2]), 'fft.c2c'],
    ['fft along axis 0', () => rlx.fft.fft(x, undefined, 0), 'fft.c2c'],
    ['rfftn over axes (2, 0)', () => rlx.fft.rfftn(r, undefined, [2, 0]), 'fft.r2c'],
    ['irfftn', () => rlx.fft.irfftn(x), 'fft.c2r'],
    ['irfft2 over axes (1, 0)', () => rlx.fft.irfft2(x, undefined, [1, 0]), 'fft.c2r'],
  ] as const)('%s', (_name, f, op) => {
    const ops = opsOf(f());
    expect(ops.filter((o) => o.startsWith('fft.'))).toEqual([op]);
    expect(ops).not.toContain('permute');
  });
});

// ---- derivatives of the strided n-D ops ----

const rng = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
const randn = (shape: number[], seed: number) => {
  const r = rng(seed);
  return rlx.tensor(Float64Array.from({ length: size(shape) }, () => r())).reshape(shape);
};
const randc = (shape: number[], seed: number) => rlx.complex(randn(shape, seed), randn(shape, seed + 7));
function fdDirectional(f: (x: Tensor) => Tensor, x: Tensor, v: Tensor, h = 1e-6): number {
  return ((f(x.add(v.mul(h))).item() as number) - (f(x.sub(v.mul(h))).item() as number)) / (2 * h);
}
const pairing = (g: Tensor, v: Tensor) => g.mul(v).sum().real().item() as number;

describe.each(DEVICES)('strided fft ops: derivatives, vmap, jit on %s', (device) => {
  const cases: [string, (x: Tensor) => Tensor, () => Tensor][] = [
    ['fft along axis 0 of a 3-D tensor', (x) => rlx.fft.fft(x, undefined, 0), () => randc([5, 3, 4], 1)],
    ['ifftn over axes (2, 0), padded', (x) => rlx.fft.ifftn(x, [5, 6], [2, 0], 'ortho'), () => randc([3, 2, 4], 2)],
    ['fftn of all axes (rank 3)', (x) => rlx.fft.fftn(x), () => randc([3, 4, 5], 3)],
    ['rfft along axis 1 (odd n)', (x) => rlx.fft.rfft(x, undefined, 1), () => randn([2, 7, 3], 4)],
    ['rfftn, halved axis 0 (even n)', (x) => rlx.fft.rfftn(x, undefined, [2, 0]), () => randn([6, 3, 5], 5)],
    ['rfft2 (odd × even)', (x) => rlx.fft.rfft2(x, undefined, undefined, 'forward'), () => randn([2, 5, 6], 6)],
    ['irfft along axis 0 (odd n)', (x) => rlx.fft.irfft(x, 7, 0), () => randc([4, 3], 7)],
    ['irfftn, halved axis 0 (even n)', (x) => rlx.fft.irfftn(x, [4, 6], [1, 0]), () => randc([4, 5, 2], 8)],
    ['irfft2 of rank 3 (odd n)', (x) => rlx.fft.irfft2(x, [3, 9]), () => randc([2, 3, 5], 9)],
  ];
  const loss = (y: Tensor) => {
    const w = randn(y.shape as number[], 99).on(device);
    return y.dtype.startsWith('complex') ? y.real().mul(w).sum().add(y.imag().mul(w.mul(0.7).add(0.1)).sum()) : y.mul(w).sum();
  };

  it.each(cases)('%s: grad and jvp agree with central differences (float64)', (_name, f, make) => {
    const x = make().on(device).realize();
    const v = (x.dtype.startsWith('complex') ? randc(x.shape as number[], 42) : randn(x.shape as number[], 42)).on(device);
    const L = (t: Tensor) => loss(f(t));
    const fd = fdDirectional(L, x, v);
    const g = rlx.grad(L)(x) as Tensor;
    expect(pairing(g, v)).toBeCloseTo(fd, 6);
    const [, t] = rlx.jvp(L, [x], [v]) as [Tensor, Tensor];
    expect(t.item() as number).toBeCloseTo(fd, 6);
  });

  it('vmap of fft2, rfftn over non-trailing axes and irfft2 equals the transforms one by one', () => {
    const xs = randc([3, 4, 6, 5], 11).on(device);
    const rs = randn([3, 4, 6, 5], 12).on(device);
    const fs: [Tensor, (x: Tensor) => Tensor][] = [
      [xs, (x) => rlx.fft.fft2(x, undefined, undefined, 'ortho')],
      [rs, (x) => rlx.fft.rfftn(x, undefined, [2, 0])],
      [xs, (x) => rlx.fft.irfft2(x, [6, 7], [0, 1])],
    ];
    for (const [batch, f] of fs) {
      const v = rlx.vmap(f)(batch) as Tensor;
      const loop = rlx.stack([0, 1, 2].map((i) => f(batch.select(0, i))));
      expect(v.shape).toEqual(loop.shape);
      const want = Array.from(loop.toArray() as Float64Array);
      expectClose(v.toArray() as Float64Array, want, 1e-14, 'vmap');
    }
  });

  it('jit: irfft2(rfft2(x)) = x over axes (0, 2), compiled once', () => {
    const jf = rlx.jit((x: Tensor) => rlx.fft.irfft2(rlx.fft.rfft2(x, undefined, [0, 2]), [4, 7], [0, 2]));
    const x1 = randn([4, 3, 7], 12).on(device);
    expectClose(jf(x1).toArray() as Float64Array, Array.from(x1.toArray() as Float64Array), 1e-13, 'jit round trip');
    jf(randn([4, 3, 7], 13).on(device));
    expect((jf as unknown as { compiles: number }).compiles).toBe(1);
  });
});
