// The js FFT kernels (src/fft/kernels/js/) against three independent
// references: NumPy 1.24's numpy.fft (tests/golden/fft/fft.json, written by
// tests/golden/fft/gen.py: regenerate with /usr/bin/python3
// tests/golden/fft/gen.py), a direct O(n²) DFT in float64 for small n, and
// exact identities (inverse∘forward = n·id, Parseval, linearity, the Hermitian
// symmetry behind r2c/c2r) as fast-check properties over lengths 1..300,
// primes included. Lengths are chosen to reach every path: radix 4, 2, 3, 5,
// the generic odd prime radix (7, 17, 97 as a factor), Bluestein (1009,
// 2049 = 3·683, 65537), even and odd real transforms.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FloatArray } from '../../src/fft/kernels/contract.js';
import { usesBluestein, PLANS } from '../../src/fft/kernels/js/complex.js';
import { jsFftKernels as K } from '../../src/fft/kernels/js/index.js';
import { BluesteinPlan } from '../../src/fft/kernels/js/bluestein.js';
import { MixedPlan } from '../../src/fft/kernels/js/mixed-radix.js';
import { PlanCache, factorize, rootTable } from '../../src/fft/kernels/js/plan.js';
import { complexInput, expectGolden, f32, golden, halfSpectrum, maxAbs, realInput } from './fft-golden.js';

describe('js FFT kernels vs NumPy 1.24', () => {
  for (const c of golden.cases) {
    const { n } = c;
    const half = Math.floor(n / 2) + 1;
    it(`n = ${n}: c2c forward and inverse, r2c, c2r in float64 and float32`, () => {
      for (const [prec, rtol] of [
        ['64', 1e-13],
        ['32', 1e-5],
      ] as const) {
        const conv = prec === '64' ? (a: Float64Array) => a : f32;
        const C = prec === '64' ? Float64Array : Float32Array;
        const cd = prec === '64' ? 'complex128' : 'complex64';
        const rd = prec === '64' ? 'float64' : 'float32';
        const x = conv(complexInput(n));
        const fwd = new C(2 * n),
          inv = new C(2 * n);
        K.c2c(cd, 1, n, x, fwd, false);
        K.c2c(cd, 1, n, x, inv, true);
        expectGolden(`fft ${n} ${cd}`, fwd, c.fft, true, rtol);
        expectGolden(`ifft ${n} ${cd}`, inv, c.ifft, true, rtol);
        const spec = new C(2 * half);
        K.r2c(rd, 1, n, conv(realInput(n)), spec);
        expectGolden(`rfft ${n} ${rd}`, spec, c.rfft, true, rtol);
        const back = new C(n);
        K.c2r(rd, 1, n, conv(halfSpectrum(n)), back);
        expectGolden(`irfft ${n} ${rd}`, back, c.irfft, false, rtol);
      }
    });
  }

  it('the goldens reach every algorithm: radix 4, 2, 3, 5, generic odd primes, Bluestein', () => {
    const ns = golden.cases.map((c) => c.n);
    const radices = new Set(ns.flatMap((n) => (usesBluestein(n) ? [] : factorize(n))));
    for (const r of [4, 2, 3, 5, 7, 17, 97]) expect(radices.has(r), `radix ${r}`).toBe(true);
    expect(ns.filter(usesBluestein)).toEqual([1009, 2049]);
  });
});

/** A direct O(n²) DFT in float64 (angles reduced exactly: jk mod n). */
function dft(x: ArrayLike<number>, n: number, inverse: boolean): Float64Array {
  const out = new Float64Array(2 * n),
    sign = inverse ? 1 : -1;
  for (let k = 0; k < n; k++) {
    let sr = 0,
      si = 0;
    for (let j = 0; j < n; j++) {
      const t = (sign * 2 * Math.PI * ((j * k) % n)) / n;
      const c = Math.cos(t),
        s = Math.sin(t);
      sr += x[2 * j]! * c - x[2 * j + 1]! * s;
      si += x[2 * j]! * s + x[2 * j + 1]! * c;
    }
    out[2 * k] = sr;
    out[2 * k + 1] = si;
  }
  return out;
}

/** A deterministic pseudo-random row in [−1, 1) (xorshift32), so fast-check shrinks seeds, not arrays. */
function randomRow(len: number, seed: number): Float64Array {
  let s = seed >>> 0 || 1;
  const a = new Float64Array(len);
  for (let i = 0; i < len; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    a[i] = s / 2 ** 31 - 1;
  }
  return a;
}

function expectClose(label: string, got: ArrayLike<number>, want: ArrayLike<number>, rtol: number): void {
  expect(got.length).toBe(want.length);
  const scale = Math.max(maxAbs(want), 1e-300);
  for (let i = 0; i < want.length; i++)
    if (!(Math.abs(got[i]! - want[i]!) <= rtol * scale)) throw new Error(`${label}: index ${i}: ${got[i]} vs ${want[i]} (rtol ${rtol} of ${scale})`);
}

const c2c = (n: number, x: Float64Array, inverse: boolean, batch = 1): Float64Array => {
  const o = new Float64Array(2 * n * batch);
  K.c2c('complex128', batch, n, x, o, inverse);
  return o;
};
const r2c = (n: number, x: Float64Array, batch = 1): Float64Array => {
  const o = new Float64Array(2 * (Math.floor(n / 2) + 1) * batch);
  K.r2c('float64', batch, n, x, o);
  return o;
};
const c2r = (n: number, x: Float64Array, batch = 1): Float64Array => {
  const o = new Float64Array(n * batch);
  K.c2r('float64', batch, n, x, o);
  return o;
};
/** The real row as complex values with zero imaginary parts. */
const complexOf = (r: Float64Array): Float64Array => {
  const z = new Float64Array(2 * r.length);
  for (let i = 0; i < r.length; i++) z[2 * i] = r[i]!;
  return z;
};

const lengths = fc.oneof(fc.integer({ min: 1, max: 300 }), fc.constantFrom(2, 3, 5, 7, 11, 13, 53, 59, 61, 67, 127, 131, 251, 257, 277, 293));
const seeds = fc.integer({ min: 1, max: 2 ** 31 - 1 });

describe('js FFT kernels: a direct DFT and exact identities', () => {
  it('c2c, r2c and c2r equal a direct O(n²) DFT for n in 1..128', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 128 }), seeds, (n, seed) => {
        const x = randomRow(2 * n, seed);
        for (const inv of [false, true]) expectClose(`c2c n=${n} inverse=${inv}`, c2c(n, x, inv), dft(x, n, inv), 1e-13);
        const r = randomRow(n, seed + 1);
        const full = dft(complexOf(r), n, false);
        const half = Math.floor(n / 2) + 1;
        expectClose(`r2c n=${n}`, r2c(n, r), full.subarray(0, 2 * half), 1e-13);
        // c2r of a Hermitian half spectrum: the real part of the full inverse DFT.
        const h = randomRow(2 * half, seed + 2);
        h[1] = 0;
        if (n % 2 === 0) h[2 * half - 1] = 0;
        const hf = new Float64Array(2 * n);
        for (let k = 0; k < n; k++) {
          const m = k < half ? k : n - k;
          hf[2 * k] = h[2 * m]!;
          hf[2 * k + 1] = k < half ? h[2 * m + 1]! : -h[2 * m + 1]!;
        }
        const ref = dft(hf, n, true);
        const want = new Float64Array(n);
        for (let j = 0; j < n; j++) want[j] = ref[2 * j]!;
        expectClose(`c2r n=${n}`, c2r(n, h), want, 1e-13);
      }),
      { numRuns: 60 },
    );
  });

  it('inverse(forward(x)) = n·x and Parseval Σ|x|² = Σ|X|²/n', () => {
    fc.assert(
      fc.property(lengths, seeds, (n, seed) => {
        const x = randomRow(2 * n, seed);
        const X = c2c(n, x, false);
        const back = c2c(n, X, true);
        const nx = x.map((v) => n * v);
        expectClose(`round trip n=${n}`, back, nx, 1e-13);
        let e = 0,
          E = 0;
        for (let i = 0; i < 2 * n; i++) {
          e += x[i]! ** 2;
          E += X[i]! ** 2;
        }
        expect(Math.abs(E / n - e)).toBeLessThanOrEqual(1e-13 * e);
      }),
      { numRuns: 100 },
    );
  });

  it('linearity: F(a·x + y) = a·F(x) + F(y)', () => {
    fc.assert(
      fc.property(lengths, seeds, fc.double({ min: -4, max: 4, noNaN: true }), (n, seed, a) => {
        const x = randomRow(2 * n, seed),
          y = randomRow(2 * n, seed ^ 0x5bd1e995);
        const lhs = c2c(
          n,
          x.map((v, i) => a * v + y[i]!),
          false,
        );
        const Fx = c2c(n, x, false),
          Fy = c2c(n, y, false);
        expectClose(
          `linearity n=${n}`,
          lhs,
          Fx.map((v, i) => a * v + Fy[i]!),
          1e-13,
        );
      }),
      { numRuns: 60 },
    );
  });

  it('r2c equals the first n/2 + 1 entries of c2c of the real row, and c2r(r2c(x)) = n·x', () => {
    fc.assert(
      fc.property(lengths, seeds, (n, seed) => {
        const r = randomRow(n, seed);
        const half = Math.floor(n / 2) + 1;
        const spec = r2c(n, r);
        expectClose(`r2c n=${n}`, spec, c2c(n, complexOf(r), false).subarray(0, 2 * half), 1e-13);
        expectClose(
          `c2r∘r2c n=${n}`,
          c2r(n, spec),
          r.map((v) => n * v),
          1e-13,
        );
      }),
      { numRuns: 100 },
    );
  });

  it('batched rows (batch 3) equal the rows done one by one, in both precisions', () => {
    for (const n of [1, 6, 7, 16, 97, 100, 1009]) {
      const half = Math.floor(n / 2) + 1;
      for (const C of [Float64Array, Float32Array]) {
        const cd = C === Float64Array ? 'complex128' : 'complex64',
          rd = C === Float64Array ? 'float64' : 'float32';
        const x = C.from(randomRow(2 * n * 3, n)),
          r = C.from(randomRow(n * 3, n + 1)),
          h = C.from(randomRow(2 * half * 3, n + 2));
        const cases: [string, number, number, FloatArray, (xs: FloatArray, o: FloatArray, b: number) => void][] = [
          ['c2c', 2 * n, 2 * n, x, (xs, o, b) => K.c2c(cd, b, n, xs, o, false)],
          ['c2c inverse', 2 * n, 2 * n, x, (xs, o, b) => K.c2c(cd, b, n, xs, o, true)],
          ['r2c', n, 2 * half, r, (xs, o, b) => K.r2c(rd, b, n, xs, o)],
          ['c2r', 2 * half, n, h, (xs, o, b) => K.c2r(rd, b, n, xs, o)],
        ];
        for (const [name, inLen, outLen, input, run] of cases) {
          const all = new C(3 * outLen);
          run(input, all, 3);
          for (let b = 0; b < 3; b++) {
            const one = new C(outLen);
            run(input.slice(b * inLen, (b + 1) * inLen), one, 1);
            expect(Array.from(all.subarray(b * outLen, (b + 1) * outLen)), `${name} n=${n} ${cd} row ${b}`).toEqual(Array.from(one));
          }
        }
      }
    }
  });

  it('large lengths: 2^16, 3^9·2, and the primes 65537 (Bluestein) keep the round trip and Parseval to ~1e-14', () => {
    for (const n of [2 ** 16, 2 * 3 ** 9, 65537]) {
      const x = randomRow(2 * n, n);
      const X = c2c(n, x, false);
      expectClose(
        `round trip n=${n}`,
        c2c(n, X, true),
        x.map((v) => n * v),
        1e-13,
      );
      let e = 0,
        E = 0;
      for (let i = 0; i < 2 * n; i++) {
        e += x[i]! ** 2;
        E += X[i]! ** 2;
      }
      expect(Math.abs(E / n - e) / e, `Parseval n=${n}`).toBeLessThanOrEqual(1e-13);
      // One output against the direct sum in float64 (k = 12345).
      const k = 12345;
      let sr = 0,
        si = 0;
      for (let j = 0; j < n; j++) {
        const t = (-2 * Math.PI * ((j * k) % n)) / n;
        sr += x[2 * j]! * Math.cos(t) - x[2 * j + 1]! * Math.sin(t);
        si += x[2 * j]! * Math.sin(t) + x[2 * j + 1]! * Math.cos(t);
      }
      const scale = Math.sqrt(E / n) * Math.sqrt(n);
      expect(Math.hypot(X[2 * k]! - sr, X[2 * k + 1]! - si) / scale, `X[${k}] n=${n}`).toBeLessThanOrEqual(1e-13);
    }
  });
});

describe('js FFT kernels: edges and arguments', () => {
  it('n = 1 is the identity (c2c both ways, r2c, c2r), and batch 0 writes nothing', () => {
    expect(Array.from(c2c(1, new Float64Array([3, -4]), false))).toEqual([3, -4]);
    expect(Array.from(c2c(1, new Float64Array([3, -4]), true))).toEqual([3, -4]);
    expect(Array.from(r2c(1, new Float64Array([2.5])))).toEqual([2.5, 0]);
    expect(Array.from(c2r(1, new Float64Array([2.5, 7])))).toEqual([2.5]);
    K.c2c('complex128', 0, 8, new Float64Array(0), new Float64Array(0), false);
  });

  it('c2r ignores Im X[0] and, for even n, Im X[n/2] (as numpy.fft.irfft)', () => {
    for (const n of [2, 8, 9, 100, 1009]) {
      const half = Math.floor(n / 2) + 1;
      const h = randomRow(2 * half, n);
      const clean = h.slice();
      clean[1] = 0;
      if (n % 2 === 0) clean[2 * half - 1] = 0;
      expect(Array.from(c2r(n, h)), `n=${n}`).toEqual(Array.from(c2r(n, clean)));
    }
  });

  it('float32 rows are computed in float64 and rounded once', () => {
    // A sum that float32 accumulation would get wrong: 1 + 2^-30 − 1 kinds of
    // cancellation. x = [1, 2^-24, −1, 0] as reals: X[0] = 2^-24 exactly.
    const out = new Float32Array(6);
    K.r2c('float32', 1, 4, new Float32Array([1, 2 ** -24, -1, 0]), out);
    expect(out[0]).toBe(2 ** -24);
    const n = 4096,
      x = randomRow(2 * n, 7);
    const o32 = new Float32Array(2 * n);
    K.c2c('complex64', 1, n, Float32Array.from(x), o32, false);
    const o64 = c2c(n, Float64Array.from(Float32Array.from(x)), false);
    // Each value is its float64 counterpart rounded: within half an ulp of float32.
    for (let i = 0; i < 2 * n; i++) expect(o32[i]).toBe(Math.fround(o64[i]!));
  });

  it('NaN and Inf propagate instead of throwing', () => {
    const x = new Float64Array(16);
    x[6] = x[7] = NaN; // x_3 = NaN + NaN·i reaches every output
    expect(c2c(8, x, false).every((v) => Number.isNaN(v))).toBe(true);
    // One infinite sample at j = 0 meets only w^0 = 1, so every X_k is +∞ + 0i
    // exactly (as NumPy's pocketfft gives): the passes skip the unit twiddles.
    for (const n of [7, 8, 10, 12, 64]) {
      const z = new Float64Array(2 * n);
      z[0] = Infinity;
      const X = c2c(n, z, false);
      for (let k = 0; k < n; k++) expect([X[2 * k], X[2 * k + 1]], `n=${n} k=${k}`).toEqual([Infinity, 0]);
    }
    // The real transforms' half-length split meets ∞ − ∞ inside: non-finite, as IEEE sums go.
    for (const n of [7, 8]) {
      const r = new Float64Array(n);
      r[0] = Infinity;
      const X = r2c(n, r);
      expect(X[0]).toBe(Infinity);
      for (let k = 0; k < Math.floor(n / 2) + 1; k++) expect(Number.isFinite(X[2 * k]!), `n=${n} k=${k}`).toBe(false);
    }
  });

  it('a bad call (length, n < 1, array type, dtype, overlap) is an Error naming the kernel', () => {
    expect(() => K.c2c('complex128', 1, 4, new Float64Array(6), new Float64Array(8), false)).toThrow(/fft c2c: x has length 6, expected 8/);
    expect(() => K.c2c('complex128', 1, 0, new Float64Array(0), new Float64Array(0), false)).toThrow(/n must be an integer ≥ 1/);
    expect(() => K.c2c('complex64', 1, 4, new Float64Array(8), new Float32Array(8), false)).toThrow(/x must be a Float32Array for complex64/);
    expect(() => K.r2c('float64', 1, 4, new Float64Array(4), new Float64Array(4))).toThrow(/out has length 4, expected 6/);
    expect(() => K.c2r('float64', 2, 5, new Float64Array(12), new Float64Array(9))).toThrow(/out has length 9, expected 10/);
    expect(() => K.r2c('complex128' as never, 1, 4, new Float64Array(4), new Float64Array(6))).toThrow(/dtype must be float32 or float64/);
    const buf = new Float64Array(16);
    expect(() => K.c2c('complex128', 1, 4, buf.subarray(0, 8), buf.subarray(4, 12), false)).toThrow(/overlaps/);
  });
});

describe('js FFT plans', () => {
  it('twiddles are accurate: |w| = 1 to 4e-16, within 1e-15 of cos/sin of 2πk/n, exact at quarter turns', () => {
    for (const n of [3, 8, 1000, 1009, 2 ** 20]) {
      const t = rootTable(n);
      for (let k = 0; k < n; k += Math.max(1, Math.floor(n / 997))) {
        const re = t[2 * k]!,
          im = t[2 * k + 1]!;
        expect(Math.abs(Math.hypot(re, im) - 1)).toBeLessThanOrEqual(4e-16);
        const angle = -2 * Math.PI * (k / n);
        expect(Math.abs(re - Math.cos(angle))).toBeLessThanOrEqual(1e-15);
        expect(Math.abs(im - Math.sin(angle))).toBeLessThanOrEqual(1e-15);
      }
      if (n % 4 === 0)
        for (const [k, re, im] of [
          [n / 4, 0, -1],
          [n / 2, -1, 0],
          [(3 * n) / 4, 0, 1],
        ] as const) {
          expect(t[2 * k]! + 0, `n=${n} k=${k} re`).toBe(re);
          expect(t[2 * k + 1]! + 0, `n=${n} k=${k} im`).toBe(im);
        }
    }
  });

  it('both algorithms are right at any length, whichever the cost model picks', () => {
    // Bluestein below its usual range (n = 1 and 2 included), the generic radix far above it.
    for (const n of [1, 2, 3, 5, 8, 13, 47, 60, 211, 2 * 1009]) {
      const x = randomRow(2 * n, n + 11);
      const want = dft(x, n, false);
      for (const plan of [new BluesteinPlan(n), new MixedPlan(n)]) {
        plan.a.set(x);
        expectClose(`${plan.constructor.name} n=${n}`, plan.forward(), want, 1e-13);
      }
    }
  });

  it('PlanCache drops the least recently used by count and by bytes, and keeps the newest alone over budget', () => {
    const cache = new PlanCache<{ bytes: number }>(3, 100);
    const built: string[] = [];
    const get = (k: string, bytes: number) => cache.get(k, () => (built.push(k), { bytes }));
    get('a', 10);
    get('b', 10);
    get('c', 10);
    get('a', 10); // a is now the newest: b goes first
    get('d', 10);
    expect(cache.size).toBe(3);
    get('b', 10);
    expect(built).toEqual(['a', 'b', 'c', 'd', 'b']); // b was rebuilt; c was dropped for it
    get('e', 90); // over 100 bytes with the rest: older ones go until it fits
    expect(cache.heldBytes).toBeLessThanOrEqual(100);
    get('f', 500); // alone over the budget: kept, everything else dropped
    expect([cache.size, cache.heldBytes]).toEqual([1, 500]);
    get('f', 500);
    expect(built.at(-1)).toBe('f');
    expect(built.filter((k) => k === 'f').length).toBe(1);
  });

  it('the plan cache is bounded (64 plans, 256 MiB) and keeps the newest', () => {
    PLANS.clear();
    for (let n = 2; n < 200; n++) c2c(n, randomRow(2 * n, n), false);
    expect(PLANS.size).toBeLessThanOrEqual(64);
    expect(PLANS.heldBytes).toBeLessThanOrEqual(256 * 2 ** 20);
    // Still correct after eviction and rebuild.
    const x = randomRow(10, 3);
    expectClose('rebuilt n=5', c2c(5, x, false), dft(x, 5, false), 1e-13);
  });
});
