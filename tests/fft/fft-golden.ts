// The NumPy 1.24 goldens of the fft kernels (tests/golden/fft/fft.json,
// written by tests/golden/fft/gen.py), the inputs gen.py transformed (rebuilt
// here), and the comparison of a kernel's output with an encoded golden:
// shared by the js kernels' tests (kernels-js.test.ts) and FFTW's
// (kernels-native.test.ts).

import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { FloatArray } from '../../src/fft/kernels/contract.js';

export interface Encoded {
  sumsq: number;
  wsum: number;
  idx?: number[];
  values: number[];
}
export interface Case {
  n: number;
  fft: Encoded;
  ifft: Encoded;
  rfft: Encoded;
  irfft: Encoded;
}
export const golden = JSON.parse(readFileSync(new URL('../golden/fft/fft.json', import.meta.url), 'utf8')) as { cases: Case[] };

// The inputs of gen.py, rebuilt (see its header).
export function complexInput(n: number): Float64Array {
  const x = new Float64Array(2 * n);
  for (let j = 0; j < n; j++) {
    x[2 * j] = Math.sin(0.37 * j) + 0.1 * (j % 7);
    x[2 * j + 1] = Math.cos(0.91 * j) - 0.05 * (j % 5);
  }
  return x;
}
export function realInput(n: number): Float64Array {
  const r = new Float64Array(n);
  for (let j = 0; j < n; j++) r[j] = Math.sin(0.37 * j) + 0.1 * (j % 7);
  return r;
}
export function halfSpectrum(n: number): Float64Array {
  const m = Math.floor(n / 2) + 1;
  const h = new Float64Array(2 * m);
  for (let k = 0; k < m; k++) {
    h[2 * k] = Math.cos(0.23 * k) + 0.2 * (k % 3);
    h[2 * k + 1] = Math.sin(0.61 * k + 0.5) - 0.1 * (k % 4);
  }
  return h;
}

export const maxAbs = (a: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]!));
  return m;
};

/**
 * Compares a full output (interleaved complex when `complex`) with an
 * encoded golden: stored values within rtol·max|v|, and the checksums over
 * every value (which the subset of a large n alone would not cover).
 */
export function expectGolden(label: string, got: FloatArray, g: Encoded, complex: boolean, rtol: number): void {
  const per = complex ? 2 : 1;
  const count = got.length / per;
  const scale = Math.max(maxAbs(got), 1e-300);
  const idx = g.idx ?? Array.from({ length: count }, (_, i) => i);
  expect(idx.length * per, `${label}: stored values`).toBe(g.values.length);
  for (let t = 0; t < idx.length; t++)
    for (let c = 0; c < per; c++) {
      const want = g.values[per * t + c]!,
        have = got[per * idx[t]! + c]!;
      if (!(Math.abs(have - want) <= rtol * scale)) throw new Error(`${label}: element ${idx[t]}${complex ? (c ? ' im' : ' re') : ''} = ${have}, NumPy ${want} (rtol ${rtol} of max ${scale})`);
    }
  let sumsq = 0,
    wsum = 0;
  for (let k = 0; k < count; k++) {
    const re = got[per * k]!,
      im = complex ? got[per * k + 1]! : 0;
    sumsq += re * re + im * im;
    wsum += ((k % 5) - 2) * re + ((k % 3) - 1) * im;
  }
  // Each value is within rtol·scale, so the sums are within these bounds.
  expect(Math.abs(sumsq - g.sumsq), `${label}: Σ|v|²`).toBeLessThanOrEqual(4 * rtol * scale * Math.sqrt(count * g.sumsq) + 1e-300);
  expect(Math.abs(wsum - g.wsum), `${label}: weighted sum`).toBeLessThanOrEqual(3 * rtol * scale * count);
}

export const f32 = (a: Float64Array): Float32Array => Float32Array.from(a);
