// numpy.fft's public functions against NumPy 1.24 golden values
// (tests/golden/fft/api_gen.py): every function, every norm, n / s padding
// and truncation, axes, on every device. Then the dtypes (NumPy 2's
// promotion), the errors, and the transforms as IR ops: derivatives against
// finite differences in float64, vmap against a loop, jit.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import { callCase as call, expectClose, type ApiCase } from './api-golden.js';
import { DTypeError, ShapeError, ValueError } from '../../src/tensor/errors.js';

type Case = ApiCase;
const G = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'golden', 'fft', 'api.json'), 'utf8')) as {
  cases: Case[];
  freq: Record<string, [number, number, number[]][]>;
  shift: [number | number[] | null, number[], number[]][];
};

// The inputs of api_gen.py, rebuilt from its formula.
const size = (s: number[]) => s.reduce((a, b) => a * b, 1);
const realData = (n: number) => Float64Array.from({ length: n }, (_, i) => Math.sin(0.7 * i + 0.3) + 0.25 * ((5 * i) % 7));
function input(c: Case, device: string): Tensor {
  const n = size(c.shape);
  const re = rlx.tensor(realData(n)).reshape(c.shape);
  const x = c.kind === 'real' ? re : rlx.complex(re, rlx.tensor(Float64Array.from({ length: n }, (_, i) => 0.5 * Math.cos(1.3 * i))).reshape(c.shape));
  return x.on(device);
}

describe.each(DEVICES)('numpy.fft goldens on %s', (device) => {
  it(`every function, norm, n/s and axes (${G.cases.length} cases)`, () => {
    for (const c of G.cases) {
      const what = `${c.fn}(${c.kind} ${JSON.stringify(c.shape)}, ${JSON.stringify(c.kwargs)})`;
      const y = call(c, input(c, device));
      expect(y.shape, what).toEqual(c.outShape);
      expect(y.dtype, what).toBe(c.complex ? 'complex128' : 'float64');
      expectClose(y.toArray() as Float64Array, c.out, 1e-13, what);
    }
  });

  it('fftfreq, rfftfreq, fftshift, ifftshift', () => {
    for (const [n, d, want] of G.freq['fftfreq']!) expectClose(rlx.fft.fftfreq(n, d).toArray() as Float64Array, want, 1e-15, `fftfreq(${n}, ${d})`);
    for (const [n, d, want] of G.freq['rfftfreq']!) expectClose(rlx.fft.rfftfreq(n, d).toArray() as Float64Array, want, 1e-15, `rfftfreq(${n}, ${d})`);
    const x = rlx.arange(0, 15, 1, { dtype: 'float64' }).reshape([3, 5]).on(device);
    for (const [axes, fwd, inv] of G.shift) {
      const a = axes ?? undefined;
      expect(Array.from(rlx.fft.fftshift(x, a).toArray() as Float64Array), `fftshift ${JSON.stringify(axes)}`).toEqual(fwd);
      expect(Array.from(rlx.fft.ifftshift(x, a).toArray() as Float64Array), `ifftshift ${JSON.stringify(axes)}`).toEqual(inv);
    }
  });
});

describe('dtypes and errors', () => {
  it('promote like NumPy 2: float32 → complex64, float64 and integers → complex128; rfft keeps float32', () => {
    expect(rlx.fft.fft(rlx.tensor([1, 2, 3], { dtype: 'float32' })).dtype).toBe('complex64');
    expect(rlx.fft.fft(rlx.tensor([1, 2, 3], { dtype: 'int32' })).dtype).toBe('complex128');
    expect(rlx.fft.fft([1, 2, 3]).dtype).toBe('complex128');
    expect(rlx.fft.rfft(rlx.tensor([1, 2, 3, 4], { dtype: 'float32' })).dtype).toBe('complex64');
    expect(rlx.fft.irfft(rlx.fft.rfft(rlx.tensor([1, 2, 3, 4], { dtype: 'float32' }))).dtype).toBe('float32');
    // float32 values agree with the float64 transform to float32 precision
    const x = Float64Array.from({ length: 100 }, (_, i) => Math.sin(i) * 3 + (i % 5));
    const a = rlx.fft.fft(rlx.tensor(x, { dtype: 'float32' })).toArray() as Float32Array;
    const b = rlx.fft.fft(rlx.tensor(x)).toArray() as Float64Array;
    expectClose(a, Array.from(b), 1e-6, 'float32 vs float64');
  });

  it('bad arguments are typed errors naming the function', () => {
    expect(() => rlx.fft.rfft(rlx.complex(rlx.tensor([1, 2]), rlx.tensor([0, 1])))).toThrow(DTypeError);
    expect(() => rlx.fft.fft([1, 2, 3], 0)).toThrow(/fft\.fft: n must be a positive integer, got 0/);
    expect(() => rlx.fft.fft([1, 2, 3], 2.5)).toThrow(ValueError);
    expect(() => rlx.fft.fft([1, 2, 3], undefined, 1)).toThrow(/fft\.fft/);
    expect(() => rlx.fft.fft(rlx.tensor(1))).toThrow(ShapeError);
    expect(() => rlx.fft.fft([1, 2], undefined, -1, 'both' as never)).toThrow(/norm must be 'backward', 'ortho' or 'forward'/);
    expect(() => rlx.fft.irfft([1])).toThrow(/invalid number of data points \(0\)/);
    expect(() => rlx.fft.fftn(rlx.zeros([2, 3]), [4], [0, 1])).toThrow(/s has 1 entries for 2 axes/);
    expect(() => rlx.fft.fftn(rlx.zeros([2, 3]), undefined, 1 as never)).toThrow(/fft\.fftn: axes must be an array of integers/);
    expect(() => rlx.fft.fft2(rlx.zeros([2, 3]), [2, 2.5])).toThrow(/fft\.fft2: s must hold integers/);
    expect(() => rlx.fft.fft([1, 2, 3], undefined, 0.5)).toThrow(rlx.RlxError);
    expect(() => rlx.fft.fftfreq(0)).toThrow(ValueError);
    expect(() => rlx.fft.fftfreq(4, 0)).toThrow(ValueError);
  });
});

// ---- the transforms as IR ops ----

const rng = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
const randn = (shape: number[], seed: number) => {
  const r = rng(seed);
  return rlx.tensor(Float64Array.from({ length: size(shape) }, () => r())).reshape(shape);
};
const randc = (shape: number[], seed: number) => rlx.complex(randn(shape, seed), randn(shape, seed + 7));

/** Central differences of a real scalar function of a real or complex tensor, along direction v (same type as x). */
function fdDirectional(f: (x: Tensor) => Tensor, x: Tensor, v: Tensor, h = 1e-6): number {
  return ((f(x.add(v.mul(h))).item() as number) - (f(x.sub(v.mul(h))).item() as number)) / (2 * h);
}
/** ⟨g, v⟩ = Re Σ g·v: the bilinear pairing a gradient is defined by (JAX's convention). */
const pairing = (g: Tensor, v: Tensor) => g.mul(v).sum().real().item() as number;

describe.each(DEVICES)('fft ops: derivatives, vmap, jit on %s', (device) => {
  const cases: [string, (x: Tensor) => Tensor, () => Tensor][] = [
    ['fft (ortho, padded)', (x) => rlx.fft.fft(x, 9, -1, 'ortho'), () => randc([3, 7], 1)],
    ['ifft (axis 0, truncated)', (x) => rlx.fft.ifft(x, 2, 0), () => randc([3, 7], 2)],
    ['rfft (even n)', (x) => rlx.fft.rfft(x), () => randn([2, 8], 3)],
    ['rfft (odd n, forward norm)', (x) => rlx.fft.rfft(x, undefined, -1, 'forward'), () => randn([2, 9], 4)],
    ['irfft (even n)', (x) => rlx.fft.irfft(x, 8), () => randc([2, 5], 5)],
    ['irfft (odd n, ortho)', (x) => rlx.fft.irfft(x, 9, -1, 'ortho'), () => randc([2, 5], 6)],
    ['fft2', (x) => rlx.fft.fft2(x), () => randc([4, 6], 7)],
    ['rfftn', (x) => rlx.fft.rfftn(x), () => randn([4, 6], 8)],
    ['irfftn', (x) => rlx.fft.irfftn(x, [4, 6]), () => randc([4, 4], 9)],
  ];
  // A real scalar of the output that weights every entry differently (complex outputs: real and imaginary parts).
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

  it('vmap over a batch equals the transforms one by one; jit compiles once and matches', () => {
    const xs = randc([4, 3, 6], 11).on(device);
    const f = (x: Tensor) => rlx.fft.fft(x, undefined, 0, 'ortho');
    const v = rlx.vmap(f)(xs) as Tensor;
    const loop = rlx.stack([0, 1, 2, 3].map((i) => f(xs.select(0, i))));
    expectClose(v.toArray() as Float64Array, Array.from(loop.toArray() as Float64Array), 1e-14, 'vmap');
    const jf = rlx.jit((x: Tensor) => rlx.fft.irfft(rlx.fft.rfft(x).mul(2)));
    const x1 = randn([5, 8], 12).on(device);
    expectClose(jf(x1).toArray() as Float64Array, Array.from(x1.mul(2).toArray() as Float64Array), 1e-13, 'jit round trip');
    jf(randn([5, 8], 13).on(device));
    expect((jf as unknown as { compiles: number }).compiles).toBe(1);
  });

  it('inside a scan body: 20 steps of spectral heat diffusion match the closed form', () => {
    // u_t = u_xx on a periodic grid: each Fourier mode decays by exp(−k² dt) per step.
    const n = 32,
      dt = 0.01,
      steps = 20;
    const k = rlx.fft.rfftfreq(n, 1 / n).mul(2 * Math.PI / n); // angular wavenumbers on [0, n)
    const decay = k.square().mul(-dt).exp().on(device).realize();
    const u0 = rlx.tensor(Float64Array.from({ length: n }, (_, i) => Math.sin((2 * Math.PI * i) / n) + 0.5 * Math.cos((6 * Math.PI * i) / n))).on(device);
    const [u] = rlx.scan((u: Tensor) => [rlx.fft.irfft(rlx.fft.rfft(u).mul(decay), n), null] as const, u0, null, { length: steps });
    const T = dt * steps;
    const k1 = 2 * Math.PI / n,
      k3 = 6 * Math.PI / n;
    const want = Array.from({ length: n }, (_, i) => Math.exp(-k1 * k1 * T) * Math.sin(k1 * i) + 0.5 * Math.exp(-k3 * k3 * T) * Math.cos(k3 * i));
    expectClose(u.toArray() as Float64Array, want, 1e-12, 'spectral heat in scan');
  });
});
