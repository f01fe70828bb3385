// Timing of cg (rtol 1e-8) on poisson2d(512), n = 262144, with the raw CSR
// matvec; the SciPy side is bench_cg.py. Skipped unless RLX_BENCH=1:
//   RLX_BENCH=1 npx vitest run tests/sparse/solvers/bench-cg.test.ts
//   /usr/bin/python3 tests/sparse/solvers/bench_cg.py

import { expect, it } from 'vitest';
import { cg } from '../../../src/sparse/solvers/index.js';
import type { CompressedArrays } from '../../../src/sparse/contract.js';
import * as U from './util.js';

/** poisson2d(m) built directly (util's generic builder is too slow at this size); same arrays. */
function poisson2dFast(m: number): CompressedArrays {
  const n = m * m;
  const indptr = new Int32Array(n + 1),
    indices = new Int32Array(5 * n),
    data = new Float64Array(5 * n);
  let q = 0;
  for (let j = 0; j < m; j++)
    for (let i = 0; i < m; i++) {
      const r = i + m * j;
      const push = (c: number, v: number) => {
        indices[q] = c;
        data[q++] = v;
      };
      if (j > 0) push(r - m, -1);
      if (i > 0) push(r - 1, -1);
      push(r, 4);
      if (i < m - 1) push(r + 1, -1);
      if (j < m - 1) push(r + m, -1);
      indptr[r + 1] = q;
    }
  return { shape: [n, n], dtype: 'float64', indptr, indices: indices.subarray(0, q), data: data.subarray(0, q) };
}

it.skipIf(!process.env.RLX_BENCH)('cg rtol 1e-8 on poisson2d(512)', () => {
  const A = poisson2dFast(512);
  const b = U.randomVector(512 * 512);
  const times: number[] = [];
  let its = 0;
  for (let rep = 0; rep < 3; rep++) {
    const t = performance.now();
    const r = cg(A, b, { rtol: 1e-8 });
    times.push(performance.now() - t);
    its = r.iterations;
    expect(r.converged).toBe(true);
  }
  times.sort((a, c) => a - c);
  console.log(`rlx cg poisson2d(512): iterations ${its}, median ${(times[1]! / 1000).toFixed(3)} s (${times.map((t) => (t / 1000).toFixed(3)).join(', ')})`);
}, 600_000);
