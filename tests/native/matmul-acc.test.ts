// A native matmul with an epilogue (GEMM into an accumulator, then the fused
// elementwise epilogue into the output: src/backends/native/index.ts) keeps its
// accumulator between synchronous runs. What must hold: every run's result equals
// a loop reference, earlier outputs are untouched by later runs, a new size
// (dynamic dims) gets a new accumulator, awaited runs in flight together give
// correct results, and the accumulator is really reused (one allocation for ten
// runs).

import { afterEach, expect, it, vi } from 'vitest';
import * as rlx from '../../src/index.js';
import { describeNative } from './native-harness.js';

/** Deterministic values in [-1, 1). */
const vals = (n: number, seed: number) => Float64Array.from({ length: n }, (_, i) => (((i * 7919 + seed * 104729) % 2003) / 2003) * 2 - 1);

/** relu(x·w + b) in loops, x [m, k], w [k, n], b [n]. */
function reference(x: Float64Array, w: Float64Array, b: Float64Array, m: number, k: number, n: number): Float64Array {
  const out = new Float64Array(m * n);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let acc = 0;
      for (let p = 0; p < k; p++) acc += x[i * k + p]! * w[p * n + j]!;
      out[i * n + j] = Math.max(acc + b[j]!, 0);
    }
  return out;
}

const layer = (x: rlx.Tensor, w: rlx.Tensor, b: rlx.Tensor) => x.matmul(w).add(b).relu();

function expectClose(got: ArrayLike<number>, want: Float64Array): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) expect(Math.abs(got[i]! - want[i]!)).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(want[i]!)));
}

describeNative('native matmul + epilogue: the kept accumulator', () => {
  afterEach(() => vi.restoreAllMocks());
  const K = 24,
    N = 16;
  const t = (a: Float64Array, shape: number[]) => rlx.tensor(a, { dtype: 'float64', device: 'native', shape }).realize();
  const w0 = vals(K * N, 1),
    b0 = vals(N, 2);
  const w = t(w0, [K, N]),
    b = t(b0, [N]);

  it('gives each run its own correct result and leaves earlier outputs as they were', () => {
    const f = rlx.jit(layer);
    const xs = [3, 4, 5, 6, 7].map((s) => vals(8 * K, s));
    const outs = xs.map((x) => f(t(x, [8, K]), w, b));
    outs.forEach((o, i) => expectClose(o.toArray() as Float64Array, reference(xs[i]!, w0, b0, 8, K, N)));
    expect(f.compiles).toBe(1);
  });

  it('takes a new accumulator for a new size (dynamic dims), and goes back', () => {
    const f = rlx.jit(layer, { dynamicAxes: { 0: [0] } });
    for (const [m, seed] of [[3, 8], [9, 9], [3, 10], [1, 11], [9, 12]] as const) {
      const x = vals(m * K, seed);
      expectClose(f(t(x, [m, K]), w, b).toArray() as Float64Array, reference(x, w0, b0, m, K, N));
    }
    expect(f.compiles).toBe(1);
  });

  it('gives awaited runs in flight together correct results (each takes a fresh accumulator)', async () => {
    // Awaited GEMMs run off the main thread. (Sharing the kept accumulator here was not caught by this
    // test in three tries: the addon's completions did not interleave with the epilogues; the rule that
    // awaited runs never take it is in the code, not proven here.)
    const k = 256,
      n = 256,
      m = 256;
    const wl = vals(k * n, 20),
      bl = vals(n, 21);
    const [wt, bt] = [t(wl, [k, n]), t(bl, [n])];
    const xs = [13, 14, 15, 16, 17, 18].map((s) => vals(m * k, s));
    layer(t(xs[0]!, [m, k]), wt, bt).realize(); // compiled and run once synchronously: a kept accumulator exists
    const got = await Promise.all(xs.map((x) => layer(t(x, [m, k]), wt, bt).data()));
    got.forEach((g, i) => expectClose(g as Float64Array, reference(xs[i]!, wl, bl, m, k, n)));
  });

  it('allocates the accumulator once for ten synchronous runs (a [128, 256] float32 product: 128 KiB)', () => {
    const x = rlx.tensor(Float32Array.from(vals(128 * 64, 17)), { device: 'native', shape: [128, 64] }).realize();
    const w32 = rlx.tensor(Float32Array.from(vals(64 * 256, 18)), { device: 'native', shape: [64, 256] }).realize();
    const b32 = rlx.tensor(Float32Array.from(vals(256, 19)), { device: 'native', shape: [256] }).realize();
    const f = rlx.jit(layer);
    f(x, w32, b32).realize();
    const spy = vi.spyOn(Buffer, 'allocUnsafeSlow');
    const results: Float32Array[] = [];
    for (let i = 0; i < 10; i++) results.push(f(x, w32, b32).toArray() as Float32Array);
    // 128 KiB buffers unzeroed: the ten outputs, and no accumulator (kept from the first call).
    expect(spy.mock.calls.filter(([n]) => n === 128 * 256 * 4).length).toBe(10);
    for (const r of results) expect(r).toEqual(results[0]);
  });
});
