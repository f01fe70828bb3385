// Rough timings of the native kernels through the TS wrapper at n = 512,
// float64 (median of 5). Skipped unless RLX_LINALG_BENCH=1:
//   RLX_LINALG_BENCH=1 npx vitest run tests/linalg/kernels-native/bench.test.ts
// NumPy at the same size, for comparison (Debian's numpy):
//   /usr/bin/python3 -c "import numpy as np, time; ..." (see the report of this module)

import { expect, it } from 'vitest';
import { K, alloc, allocReal, nativeAvailable } from './helpers.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function time(f: () => Int32Array): number {
  const ts: number[] = [];
  f();
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    expect(f()[0]).toBe(0);
    ts.push(performance.now() - t0);
  }
  return median(ts);
}

it.skipIf(process.env['RLX_LINALG_BENCH'] !== '1' || !nativeAvailable())('n = 512 float64 timings', () => {
  const n = 512,
    d = 'float64' as const;
  let s = 1;
  const rnd = () => ((s = (s * 16807) % 2147483647) / 2147483647) - 0.5;
  const a = Float64Array.from({ length: n * n }, rnd);
  const sym = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) sym[i * n + j] = a[i * n + j]! + a[j * n + i]!;
  const rhs = Float64Array.from({ length: n }, rnd);
  const ms = {
    solve: time(() => K().solve(d, 1, n, 1, a, rhs, alloc(d, n))),
    eigh: time(() => K().eigh(d, 1, n, sym, allocReal(d, n), alloc(d, n * n), true)),
    svd: time(() => K().svd(d, 1, n, n, a, allocReal(d, n), alloc(d, n * n), alloc(d, n * n), false)),
    eig: time(() => K().eig(d, 1, n, a, new Float64Array(2 * n), new Float64Array(2 * n * n))),
  };
  console.log(`rlx native linalg n=${n} float64 median of 5 (ms): ${JSON.stringify(Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, +v.toFixed(2)])))}`);
}, 300_000);
