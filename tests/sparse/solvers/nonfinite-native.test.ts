// Out-of-range right-hand sides with the native kernels installed (issue 13,
// item 1): for vectors of at least VEC_KERNEL_MIN values nrm2 and the dot
// products go to the native BLAS-1 kernels and CG to the fused SpMV + dot and
// cgStep, whose plain sums of squares overflow exactly like the js loops. The
// solvers must still solve b = 1e200·b₀ (x = 1e200·x₀) and report Inf in b.

import { describe, expect, it } from 'vitest';
import '../../../src/index.js'; // creates the backends: the native one installs its kernels
import { getSpmvKernel } from '../../../src/sparse/spmv.js';
import { getVecKernel, nrm2, VEC_KERNEL_MIN } from '../../../src/sparse/solvers/vec.js';
import { bicgstab, cg, gmres, minres, type SolveOptions, type SolveResult } from '../../../src/sparse/solvers/index.js';
import { describeNative } from '../../native/native-harness.js';
import * as U from './util.js';

type Solver = (A: any, b: any, o?: SolveOptions) => SolveResult;

/** tridiag(−1, 4, −1): well conditioned, so every solver converges in a few dozen steps at any n. */
function tridiag4(n: number) {
  return U.fromRows(
    n,
    Array.from({ length: n }, (_, i) => {
      const r: [number, number, number][] = [[i, 4, 0]];
      if (i > 0) r.push([i - 1, -1, 0]);
      if (i < n - 1) r.push([i + 1, -1, 0]);
      return r;
    }),
  );
}

describeNative('huge and non-finite b with the native vector and SpMV kernels', () => {
  const n = 2 * VEC_KERNEL_MIN;
  const A = tridiag4(n);
  const b0 = U.randomVector(n, 5);

  // Under RLX_NATIVE=0 the kernels are not installed and the rest runs on the js loops (still a valid check);
  // in CI with native on (RLX_REQUIRE_NATIVE=1) a missing install fails here.
  it.runIf(process.env['RLX_REQUIRE_NATIVE'] === '1' && process.env['RLX_NATIVE'] !== '0')('the native kernels are installed', () => {
    expect(getVecKernel()?.name).toBe('native');
    expect(getSpmvKernel()?.name).toBe('native');
  });

  it('nrm2 of a long vector whose squares overflow (the native dot returns Inf)', () => {
    const v = b0.map((x) => x * 1e250);
    const norm0 = Math.sqrt(b0.reduce((s, x) => s + x * x, 0));
    expect(nrm2(v) / (1e250 * norm0)).toBeCloseTo(1, 13);
    const w = b0.map((x) => x * 1e-250);
    expect(nrm2(w) / (1e-250 * norm0)).toBeCloseTo(1, 13);
  });

  for (const [name, solve] of [
    ['cg', cg],
    ['bicgstab', bicgstab],
    ['gmres', gmres],
    ['minres', minres],
  ] as [string, Solver][]) {
    it(`${name}: b · 1e200 solves to x · 1e200; Inf in b is reported`, () => {
      const small = solve(A, b0, { rtol: 1e-10 });
      expect(small.converged).toBe(true);
      const big = solve(A, b0.map((v) => v * 1e200), { rtol: 1e-10 });
      expect(big.converged).toBe(true);
      let err = 0;
      for (let i = 0; i < n; i++) err = Math.max(err, Math.abs(big.x[i]! / 1e200 - small.x[i]!));
      expect(err).toBeLessThan(1e-8);
      const bad = b0.slice();
      bad[n - 1] = Infinity;
      const r = solve(A, bad);
      expect(r.converged).toBe(false);
      expect(r.breakdown).toBe('nonfinite');
    });
  }
});
