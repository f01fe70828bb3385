// The n-D kernels of the contract (c2cNd, r2cNd, c2rNd): the js ones against
// a reference built here from the 1-D js kernels (themselves checked against
// a direct DFT and NumPy in kernels-js.test.ts) applied line by line along
// each axis, gathered and scattered by this file; FFTW's against the js ones
// on the shapes that reach each of its paths (contiguous rows, one plan of
// strided lines, strided tiles for strides of a multiple of 1 KiB and for
// large arrays, with a partial last tile, the narrow tiles of long columns,
// the pool's threads, a halved axis that is not last, batch > 1); c2rNd of a
// non-Hermitian input (NumPy's irfftn semantics); the typed errors of bad
// shapes and axes.

import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../src/backends/native/addon.js';
import type { FftKernels, FloatArray } from '../../src/fft/kernels/contract.js';
import { jsFftKernels as J } from '../../src/fft/kernels/js/index.js';
import { hasNativeFft, nativeFftKernels } from '../../src/fft/kernels/native.js';
import { ShapeError } from '../../src/tensor/errors.js';
import { rng } from '../native/native-harness.js';
import { maxAbs } from './fft-golden.js';

type Prec = '64' | '32';
const Ctor = (p: Prec) => (p === '64' ? Float64Array : Float32Array);
const cdt = (p: Prec) => (p === '64' ? 'complex128' : 'complex64');
const rdt = (p: Prec) => (p === '64' ? 'float64' : 'float32');
const RTOL: Record<Prec, number> = { '64': 1e-12, '32': 2e-6 };

function random(p: Prec, len: number, seed: number): FloatArray {
  const r = rng(seed);
  return (Ctor(p) as Float64ArrayConstructor).from({ length: len }, () => r());
}
function expectClose(label: string, got: ArrayLike<number>, want: ArrayLike<number>, rtol: number): void {
  expect(got.length, `${label}: length`).toBe(want.length);
  const scale = Math.max(maxAbs(want), 1e-300);
  let worst = 0;
  for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i]! - want[i]!));
  expect(worst / scale, label).toBeLessThan(rtol);
}

const prod = (s: readonly number[], lo = 0, hi = s.length) => s.slice(lo, hi).reduce((a, b) => a * b, 1);

/**
 * f applied to every line along axis a of `batch` blocks of `shape` (lanes
 * scalars per element), from x into a fresh float64 array of blocks of
 * `outShape` (the same but along a): each line gathered into a row, run
 * through the 1-D kernel f(row, outRow), scattered.
 */
function alongAxis(x: ArrayLike<number>, batch: number, shape: number[], a: number, inLanes: number, outLen: number, outLanes: number, f: (row: Float64Array, out: Float64Array) => void): Float64Array {
  const outer = batch * prod(shape, 0, a),
    n = shape[a]!,
    inner = prod(shape, a + 1);
  const out = new Float64Array(outer * outLen * inner * outLanes);
  const row = new Float64Array(n * inLanes),
    res = new Float64Array(outLen * outLanes);
  for (let o = 0; o < outer; o++)
    for (let j = 0; j < inner; j++) {
      for (let k = 0; k < n; k++) for (let l = 0; l < inLanes; l++) row[k * inLanes + l] = x[((o * n + k) * inner + j) * inLanes + l]!;
      f(row, res);
      for (let k = 0; k < outLen; k++) for (let l = 0; l < outLanes; l++) out[((o * outLen + k) * inner + j) * outLanes + l] = res[k * outLanes + l]!;
    }
  return out;
}

/** The references, in float64, from the js 1-D kernels. */
function refC2c(x: ArrayLike<number>, batch: number, shape: number[], axes: number[], inverse: boolean): Float64Array {
  let w: Float64Array = Float64Array.from(x);
  for (const a of axes) w = alongAxis(w, batch, shape, a, 2, shape[a]!, 2, (r, o) => J.c2c('complex128', 1, shape[a]!, r, o, inverse));
  return w;
}
function refR2c(x: ArrayLike<number>, batch: number, shape: number[], axes: number[]): Float64Array {
  const h = axes[axes.length - 1]!,
    n = shape[h]!,
    m = (n >> 1) + 1;
  const w = alongAxis(x, batch, shape, h, 1, m, 2, (r, o) => J.r2c('float64', 1, n, r, o));
  return refC2c(w, batch, shape.map((d, i) => (i === h ? m : d)), axes.slice(0, -1), false);
}
function refC2r(x: ArrayLike<number>, batch: number, shape: number[], axes: number[]): Float64Array {
  const h = axes[axes.length - 1]!,
    n = shape[h]!,
    m = (n >> 1) + 1;
  const half = shape.map((d, i) => (i === h ? m : d));
  const w = refC2c(x, batch, half, axes.slice(0, -1), true);
  return alongAxis(w, batch, half, h, 2, n, 1, (r, o) => J.c2r('float64', 1, n, r, o));
}

/** [shape, axes (the last one halved for r2c / c2r), batch]. */
const PROBLEMS: [number[], number[], number][] = [
  [[6], [0], 3],
  [[4, 6], [0, 1], 2],
  [[4, 6], [1, 0], 1],
  [[5, 7, 3], [0], 2],
  [[5, 7, 3], [2, 0], 1],
  [[3, 5, 4, 2], [1, 3, 0], 2],
  [[9, 33], [0], 1], // one FFTW plan of strided lines (plans.cc's lines_by_fftw)
  [[17, 17], [1, 0], 1],
  [[1, 8, 1], [0, 2, 1], 2], // axes of length 1
  [[13, 3, 11], [0, 2], 1],
];

function run(k: FftKernels, p: Prec, kind: 'c2c' | 'ic2c' | 'r2c' | 'c2r', batch: number, shape: number[], axes: number[], x: FloatArray): FloatArray {
  const h = axes[axes.length - 1]!;
  const half = prod(shape.map((d, i) => (i === h ? (d >> 1) + 1 : d)));
  const full = prod(shape);
  const C = Ctor(p);
  if (kind === 'c2c' || kind === 'ic2c') {
    const out = new C(2 * batch * full);
    k.c2cNd(cdt(p), batch, shape, axes, x, out, kind === 'ic2c');
    return out;
  }
  if (kind === 'r2c') {
    const out = new C(2 * batch * half);
    k.r2cNd(rdt(p), batch, shape, axes, x, out);
    return out;
  }
  const out = new C(batch * full);
  k.c2rNd(rdt(p), batch, shape, axes, x, out);
  return out;
}
const inputLen = (kind: string, batch: number, shape: number[], axes: number[]) => {
  const h = axes[axes.length - 1]!;
  if (kind === 'r2c') return batch * prod(shape);
  if (kind === 'c2r') return 2 * batch * prod(shape.map((d, i) => (i === h ? (d >> 1) + 1 : d)));
  return 2 * batch * prod(shape);
};

describe('js n-D kernels against the 1-D kernels line by line', () => {
  it.each(PROBLEMS)('shape %j, axes %j, batch %i: c2cNd both ways, r2cNd, c2rNd (non-Hermitian input), float64 and float32', (shape, axes, batch) => {
    for (const p of ['64', '32'] as const) {
      for (const kind of ['c2c', 'ic2c', 'r2c', 'c2r'] as const) {
        const x = random(p, inputLen(kind, batch, shape, axes), 7);
        const got = run(J, p, kind, batch, shape, axes, x);
        const want = kind === 'r2c' ? refR2c(x, batch, shape, axes) : kind === 'c2r' ? refC2r(x, batch, shape, axes) : refC2c(x, batch, shape, axes, kind === 'ic2c');
        expectClose(`${kind} ${p}`, got, want, RTOL[p]);
      }
    }
  });

  it('c2rNd leaves its input alone; a bad call is an Error naming the kernel', () => {
    const x = random('64', 2 * 4 * 4, 3);
    const copy = Float64Array.from(x);
    J.c2rNd('float64', 1, [4, 6], [0, 1], x, new Float64Array(24));
    expect(Array.from(x)).toEqual(Array.from(copy));
    expect(() => J.c2cNd('complex128', 1, [4, 6], [1, 1], new Float64Array(48), new Float64Array(48), false)).toThrow(/fft c2cNd: axes must be distinct/);
    expect(() => J.c2cNd('complex128', 1, [4, 6], [0], new Float64Array(40), new Float64Array(48), false)).toThrow(/fft c2cNd: x has length 40/);
  });
});

const addon = nativeAddon();
const withFftw = addon !== undefined && hasNativeFft(addon);

describe.skipIf(!withFftw)('FFTW n-D kernels agree with the js ones', () => {
  const N = withFftw ? nativeFftKernels(addon!) : (undefined as never);
  const BIG: [number[], number[], number][] = [
    [[256, 200], [0, 1], 1], // ≥ 2^15 points: the pool's threads, on rows and tiles
    [[200, 256], [0], 2],
    [[5000, 5], [0], 1], // columns longer than 4096: narrow tiles
    [[64, 48, 10], [2, 0, 1], 1],
    [[300, 130], [1, 0], 1], // halved axis 0: a strided real transform with threads
    [[9, 64], [0], 2], // a 1 KiB stride for complex128 (512 B for complex64: lines): strided tiles
    [[9, 128], [0], 1], // a 1 KiB stride for complex64 too
    [[600, 900], [0, 1], 1], // past 2^19 points: strided tiles, the last one partial, with threads
    [[4100, 130], [0], 1], // past 2^19 points, columns longer than 4096: narrow tiles, the last partial
  ];
  it.each([...PROBLEMS, ...BIG])('shape %j, axes %j, batch %i', async (shape, axes, batch) => {
    for (const p of ['64', '32'] as const) {
      for (const kind of ['c2c', 'ic2c', 'r2c', 'c2r'] as const) {
        const x = random(p, inputLen(kind, batch, shape, axes), 11);
        const want = run(J, p, kind, batch, shape, axes, x);
        expectClose(`${kind} ${p}`, run(N, p, kind, batch, shape, axes, x), want, RTOL[p]);
      }
    }
    // The Async twin gives the same result.
    const x = random('64', inputLen('c2r', batch, shape, axes), 5);
    const out = new Float64Array(batch * prod(shape));
    await N.c2rNdAsync('float64', batch, shape, axes, x, out);
    expectClose('c2rNdAsync', out, run(J, '64', 'c2r', batch, shape, axes, x), RTOL['64']);
  });

  it('leaves the input of c2rNd alone; bad shapes and axes are ShapeErrors', () => {
    const x = random('64', 2 * 4 * 4, 3);
    const copy = Float64Array.from(x);
    N.c2rNd('float64', 1, [4, 6], [0, 1], x, new Float64Array(24));
    expect(Array.from(x)).toEqual(Array.from(copy));
    const z = () => new Float64Array(48);
    expect(() => N.c2cNd('complex128', 1, [4, 6], [1, 1], z(), z(), false)).toThrow(ShapeError);
    expect(() => N.c2cNd('complex128', 1, [4, 6], [2], z(), z(), false)).toThrow(ShapeError);
    expect(() => N.c2cNd('complex128', 1, [4, 0], [0], z(), z(), false)).toThrow(ShapeError);
    expect(() => N.c2cNd('complex128', 1, [4, 6], [0], new Float64Array(40), z(), false)).toThrow(ShapeError);
    // The addon's own checks behind the TS ones.
    const raw = addon as unknown as { fftC2cNd: (...a: unknown[]) => void };
    expect(() => raw.fftC2cNd('complex128', 1, [4, 6], [0, 0], z(), z(), false)).toThrow(/distinct/);
    expect(() => raw.fftC2cNd('complex128', 1, [4, 6], [3], z(), z(), false)).toThrow(/axes/);
  });
});
