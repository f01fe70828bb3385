// Long reductions on the interpreter (native/src/interp: reduceChunk /
// reduceCombine): a reduction of R >= 2^15 elements per output is cut into
// chunks of 2^15 that run on the thread pool, and each output's partials are
// combined in chunk order. The chunking depends on the shape only, so every
// result is bit-identical across thread counts and runs.
//
// Tolerances against the js backend:
// - max/min/argmax/argmin: bit-identical (the combine applies the js rule, so
//   NaN propagates, ±0 and ties keep the first occurrence);
// - int32 and bool sums: exact (integers summed in double stay exact below 2^53);
// - float sums (and mean): the summation order differs on purpose. The js
//   backend adds every element in sequence into one double; the interpreter
//   adds each chunk into 8 interleaved lanes (so the loop vectorizes), then
//   the lanes pairwise, then the chunks in order. Both are within the usual
//   bound (R - 1) * 2^-53 * sum|x| of the exact sum, so they may differ by
//   up to twice that (the interpreter's is in practice the more accurate);
//   float32 results may in addition round to the neighbouring float32.
// Shorter reductions keep the js order and stay bit-identical
// (interp-graphs.test.ts).

import { afterAll, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { type DType, isComplex } from '../../src/tensor/dtype.js';
import { describeInterp, EXACT, expectMatch, rng, useInterpDevice } from './interp-harness.js';

const SPLIT = 1 << 15;

type Red = 'sum' | 'prod' | 'max' | 'min' | 'argmax' | 'argmin' | 'mean';
const call = (t: rlx.Tensor, op: Red, axis?: number): rlx.Tensor => (t as unknown as Record<Red, (a?: number) => rlx.Tensor>)[op](axis);

/** |got - want| <= 2 * R * 2^-53 * sum|x| per output (+ one float32 ulp of want for float32). */
function expectSumClose(got: ArrayLike<number>, want: ArrayLike<number>, absSums: ArrayLike<number>, R: number, f32: boolean, what: string): void {
  expect(got.length, what).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    const g = got[i]!,
      w = want[i]!;
    if (Object.is(g, w) || (g !== g && w !== w)) continue;
    const bound = 2 * R * 2 ** -53 * absSums[i]! + (f32 ? Math.abs(w) * 2 ** -23 : 0);
    expect(Math.abs(g - w), `${what} [${i}]: got ${g} want ${w}`).toBeLessThanOrEqual(bound);
  }
}

describeInterp('long reductions split over the pool', (addon) => {
  const dev = useInterpDevice(addon);
  const threads0 = addon.interpGetThreads(),
    thr0 = addon.interpGetThreshold();
  afterAll(() => {
    addon.interpSetThreads(threads0);
    addon.interpSetThreshold(thr0);
  });

  /** Runs build on the interp device with 1, 2 and 3 threads (threshold 0: the pool is used); all runs must be bit-identical. */
  function acrossThreads(build: () => rlx.Tensor, what: string): ArrayLike<number> {
    let first: ArrayLike<number> | undefined;
    try {
      addon.interpSetThreshold(0);
      for (const t of [1, 2, 3]) {
        addon.interpSetThreads(t);
        const got = build().toArray();
        if (!first) first = got;
        else expectMatch(got, first, EXACT, `${what}: ${t} threads vs 1`);
      }
    } finally {
      addon.interpSetThreads(threads0);
      addon.interpSetThreshold(thr0);
    }
    return first!;
  }

  const n = 5 * SPLIT + 123; // several chunks and a short last one
  const r = rng(3);
  const xs = Float64Array.from({ length: n }, () => r() * 2 - 1);

  it('sum / mean / prod of float64 and float32, over all elements and a long axis, strided or not, vs js', () => {
    const rows = 3,
      cols = 2 * SPLIT + 77;
    const m = Float64Array.from({ length: rows * cols }, (_, i) => Math.sin(i) * (1 + (i % 7)));
    for (const dtype of ['float64', 'float32'] as DType[]) {
      const cases: [string, (d: string) => rlx.Tensor, number, Float64Array][] = [];
      const x = (d: string) => rlx.tensor(xs, { device: d }).cast(dtype);
      const mm = (d: string) => rlx.tensor(m, { device: d }).reshape([rows, cols]).cast(dtype);
      const abs = (v: ArrayLike<number>, outs: number, per: number, idx: (o: number, k: number) => number) =>
        Float64Array.from({ length: outs }, (_, o) => {
          let s = 0;
          for (let k = 0; k < per; k++) s += Math.abs(v[idx(o, k)]!);
          return s;
        });
      cases.push(['sum all', (d) => x(d).sum(), n, abs(xs, 1, n, (_, k) => k)]);
      cases.push(['sum of a fused prologue', (d) => x(d).mul(x(d)).add(0.25).sum(), n, abs(xs.map((v) => v * v + 0.25), 1, n, (_, k) => k)]);
      cases.push(['sum over axis 1', (d) => mm(d).sum(1), cols, abs(m, rows, cols, (o, k) => o * cols + k)]);
      cases.push(['sum over axis 0 of the transpose (strided)', (d) => mm(d).transpose().sum(0), cols, abs(m, rows, cols, (o, k) => o * cols + k)]);
      cases.push(['mean over axis 1 with an epilogue', (d) => mm(d).mean(1).mul(3).sub(1), cols, abs(m, rows, cols, (o, k) => o * cols + k)]);
      for (const [name, build, R, absSums] of cases) {
        const want = build('js').toArray();
        const got = acrossThreads(() => build(dev), `${dtype} ${name}`);
        // mean's epilogue scales the sum: bound it by the same relative error (x 3 / R + 1 ulp).
        const scale = name.startsWith('mean') ? Float64Array.from(absSums, (s) => (3 * s) / R + 1) : absSums;
        expectSumClose(got, want, scale, R, dtype === 'float32', `${dtype} ${name}`);
      }
      // prod of values near 1 (stays finite): same relative bound.
      const p = (d: string) => rlx.tensor(xs, { device: d }).mul(1e-4).add(1).cast(dtype).prod();
      const pw = p('js').toArray();
      const pg = acrossThreads(() => p(dev), `${dtype} prod`);
      expect(Math.abs(pg[0]! - pw[0]!), `${dtype} prod: ${pg[0]} vs ${pw[0]}`).toBeLessThanOrEqual(2 * n * 2 ** -53 * Math.abs(pw[0]!) + (dtype === 'float32' ? Math.abs(pw[0]!) * 2 ** -23 : 0));
    }
  });

  it('int32 and bool sums are exact; complex sums within the float bound', () => {
    const ints = Int32Array.from({ length: n }, (_, i) => ((i * 7919) % 20001) - 10000);
    const bools = Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : 0));
    for (const [what, build] of [
      ['int32 sum', (d: string) => rlx.tensor(ints, { device: d }).sum()],
      ['int32 sum over a long axis', (d: string) => rlx.tensor(ints.subarray(0, 4 * SPLIT), { device: d }).reshape([2, 2 * SPLIT]).sum(1)],
      ['bool sum', (d: string) => rlx.tensor(bools, { device: d }).cast('bool').sum()],
      ['int32 max', (d: string) => rlx.tensor(ints, { device: d }).max()],
    ] as const) {
      const want = build('js');
      const got = acrossThreads(() => build(dev), what);
      expect(want.dtype, what).toBe(build(dev).dtype);
      expectMatch(got, want.toArray(), EXACT, what);
    }
    const ys = Float64Array.from({ length: n }, (_, i) => Math.cos(i));
    for (const dtype of ['complex128', 'complex64'] as DType[]) {
      const build = (d: string) => rlx.complex(rlx.tensor(xs, { device: d }), rlx.tensor(ys, { device: d })).astype(dtype).sum();
      const want = build('js').toArray();
      const got = acrossThreads(() => build(dev), `${dtype} sum`);
      expect(isComplex(build(dev).dtype)).toBe(true);
      let sr = 0,
        si = 0;
      for (let i = 0; i < n; i++) (sr += Math.abs(xs[i]!)), (si += Math.abs(ys[i]!));
      expectSumClose([got[0]!], [want[0]!], [sr], n, dtype === 'complex64', `${dtype} sum re`);
      expectSumClose([got[1]!], [want[1]!], [si], n, dtype === 'complex64', `${dtype} sum im`);
    }
  });

  it('max / min / argmax / argmin: NaN in a later chunk, ±0 and ties across chunks, all -inf; bit-identical to js', () => {
    const base = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i));
    const inputs: [string, Float64Array][] = [
      ['plain', xs],
      ['NaN in chunk 3', base((i) => (i === 3 * SPLIT + 5 ? NaN : xs[i]!))],
      ['two NaNs', base((i) => (i === 2 * SPLIT + 1 || i === 4 * SPLIT ? NaN : xs[i]!))],
      ['NaN last', base((i) => (i === n - 1 ? NaN : xs[i]!))],
      ['max tie in chunks 1 and 3', base((i) => (i === SPLIT + 9 || i === 3 * SPLIT + 2 ? 5 : i === 2 * SPLIT ? -5 : xs[i]!))],
      ['±0 extremes across chunks', base((i) => (i === SPLIT + 3 ? -0 : i === 4 * SPLIT + 1 ? 0 : i % 2 ? -1 - (i % 5) : 1 + (i % 5)))],
      ['-0 then +0 as the max', base((i) => (i === SPLIT + 3 ? -0 : i === 4 * SPLIT + 1 ? 0 : -1 - (i % 5)))],
      ['+0 then -0 as the min', base((i) => (i === 7 ? 0 : i === 2 * SPLIT ? -0 : 1 + (i % 5)))],
      ['all -inf', base(() => -Infinity)],
      ['all +inf', base(() => Infinity)],
      ['constant (ties everywhere)', base(() => 2)],
    ];
    for (const [name, data] of inputs)
      for (const op of ['max', 'min', 'argmax', 'argmin'] as const)
        for (const dtype of ['float64', 'float32'] as DType[])
          for (const shape of [[n], [1, n]] as number[][]) {
            const build = (d: string) => call(rlx.tensor(data, { device: d }).cast(dtype).reshape(shape), op, shape.length - 1);
            const what = `${op} of ${dtype} [${shape}] (${name})`;
            expectMatch(acrossThreads(() => build(dev), what), build('js').toArray(), EXACT, what);
          }
  });

  it('a strided long axis (every chunk gathered) and many outputs with long rows', () => {
    const rows = 4,
      cols = SPLIT + 1000;
    const m = Float64Array.from({ length: rows * cols }, (_, i) => (i % 13 === 0 ? 9 : Math.sin(i)));
    for (const op of ['max', 'argmin', 'argmax'] as const) {
      const build = (d: string) => call(rlx.tensor(m, { device: d }).reshape([cols, rows]), op, 0);
      const what = `${op} over axis 0 of [${cols}, ${rows}]`;
      expectMatch(acrossThreads(() => build(dev), what), build('js').toArray(), EXACT, what);
    }
  });
});
