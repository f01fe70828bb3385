// The js FFT kernels on rows holding one ±Inf sample, against NumPy 1.24
// (tests/golden/fft/inf_gen.py: fft and rfft, smooth lengths, the generic
// prime 101 and the Bluestein length 509, the infinite sample at the start,
// second, middle and last place, on zeros and on a finite ramp). What the
// contract (src/fft/kernels/contract.ts) promises, checked here:
//   - wherever NumPy gives ±∞ the js kernel gives the same ±∞ or NaN, never
//     a finite value or the other infinity;
//   - wherever both are finite they agree;
//   - an infinite first sample (it meets only unit twiddles) gives NumPy's
//     values exactly, NaN-free (the even-n r2c gave NaN there: its
//     half-length split computes ∞ − ∞; it now redoes such a row by the
//     complex passes);
//   - a Bluestein length gives NaN everywhere, as NumPy's Bluestein does (the
//     convolution sums the infinite product with the others).
// Not matched: where an exact sum multiplies the infinite sample by a
// twiddle with a 0 component, pocketfft and the js passes (a different order
// of radix passes) make ∞·0 = NaN at different outputs, so at an output
// either may be NaN where the other has ±∞ or a finite value (on these
// goldens: 448 of NumPy's ±∞ are NaN in js, fft n = 32 and rfft of n = 10 to
// 100 with the sample off the start; 68 NumPy-finite values are NaN in js;
// 432 NumPy NaNs are finite in js). Matching them exactly would mean
// running pocketfft's own passes.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { jsFftKernels as K } from '../../src/fft/kernels/js/index.js';
import { usesBluestein } from '../../src/fft/kernels/js/complex.js';

interface Case {
  n: number;
  at: number;
  sign: number;
  base: 'zeros' | 'ramp';
  fft: string[];
  rfft: string[];
}
const G = JSON.parse(readFileSync(new URL('../golden/fft/inf.json', import.meta.url), 'utf8')) as { cases: Case[] };

function transforms(c: Case): { fft: Float64Array; rfft: Float64Array } {
  const n = c.n;
  const x = c.base === 'zeros' ? new Float64Array(n) : Float64Array.from({ length: n }, (_, j) => Math.sin(j) + 2);
  x[c.at] = c.sign * Infinity;
  const z = new Float64Array(2 * n);
  x.forEach((v, i) => (z[2 * i] = v));
  const fft = new Float64Array(2 * n);
  K.c2c('complex128', 1, n, z, fft, false);
  const rfft = new Float64Array(2 * ((n >> 1) + 1));
  K.r2c('float64', 1, n, x, rfft);
  return { fft, rfft };
}
/** The golden's strings ('inf', '-inf', 'nan', or a float's repr) as numbers. */
const decode = (v: string): number => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : Number(v));
const label = (c: Case, k: string, i: number) => `${k} n=${c.n} x[${c.at}]=${c.sign > 0 ? '+' : '-'}∞ on ${c.base}, output ${i >> 1} ${i % 2 ? 'im' : 're'}`;

describe('js FFT kernels with an infinite sample, against NumPy 1.24', () => {
  it(`where NumPy has ±∞: the same ±∞ or NaN, never a finite value or the other sign; where both are finite, the same value (${G.cases.length} rows, fft and rfft)`, () => {
    for (const c of G.cases) {
      const got = transforms(c);
      for (const k of ['fft', 'rfft'] as const) {
        const want = c[k].map(decode);
        expect(got[k].length).toBe(want.length);
        want.forEach((w, i) => {
          const g = got[k][i]!;
          if (w === Infinity || w === -Infinity) expect(g === w || Number.isNaN(g), `${label(c, k, i)}: got ${g}, NumPy ${w}`).toBe(true);
          else if (Number.isFinite(w) && Number.isFinite(g)) expect(Math.abs(g - w), label(c, k, i)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(w)));
        });
      }
    }
  });

  it("an infinite first sample gives NumPy's values exactly (no NaN), fft and rfft of every length without Bluestein", () => {
    const cases = G.cases.filter((c) => c.at === 0 && !usesBluestein(c.n) && c.n !== 101);
    expect(cases.length).toBeGreaterThan(50);
    for (const c of cases) {
      const got = transforms(c);
      for (const k of ['fft', 'rfft'] as const)
        c[k].map(decode).forEach((w, i) => {
          const g = got[k][i]!;
          if (Number.isFinite(w)) expect(Math.abs(g - w), label(c, k, i)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(w)));
          else expect(g, label(c, k, i)).toBe(w);
        });
    }
  });

  it('a Bluestein length (509) gives NaN everywhere, as NumPy does', () => {
    const cases = G.cases.filter((c) => c.n === 509);
    expect(usesBluestein(509)).toBe(true);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      const got = transforms(c);
      expect(c.fft.every((v) => v === 'nan')).toBe(true);
      expect(got.fft.every((v) => Number.isNaN(v))).toBe(true);
      // rfft: NumPy's X_0 imaginary part is the exact 0 a real transform stores; every other value is NaN in both.
      c.rfft.forEach((w, i) => (i === 1 ? expect(got.rfft[i]).toBe(0) : expect(Number.isNaN(got.rfft[i]!), label(c, 'rfft', i)).toBe(w === 'nan')));
    }
  });
});
