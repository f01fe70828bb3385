// klu(A).refactor(A2) keeps A's pivot order; when that order is bad for A2 (a
// pivot that became tiny) the refactor must notice (KLU's rgrowth / rcond) and
// pivot afresh (issue 13, item 3). References are exact: b = A2 · x_true with
// x_true chosen so that b is exact in float64, compared with a dense solve by
// Gaussian elimination with partial pivoting written here.

import { expect, it } from 'vitest';
import { csr, klu } from '../../../src/sparse/index.js';
import { describeNative, rng } from './util.js';

/** x = A⁻¹ b for dense row-major A (n x n), partial pivoting, float64. */
function denseSolve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    [M[c], M[p]] = [M[p]!, M[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = M[r]![c]! / M[c]![c]!;
      for (let j = c; j <= n; j++) M[r]![j]! -= f * M[c]![j]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r]![n]!;
    for (let j = r + 1; j < n; j++) s -= M[r]![j]! * x[j]!;
    x[r] = s / M[r]![r]!;
  }
  return x;
}

/** A as CSR storing every entry (zeros too), so that A and A2 share one pattern. */
const dense = (A: number[][]) => {
  const n = A.length;
  const indptr = [0];
  const indices: number[] = [];
  const data: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) indices.push(j), data.push(A[i]![j]!);
    indptr.push(indices.length);
  }
  return csr({ indptr, indices, data, shape: [n, n] });
};

describeNative('klu refactor with pivots gone bad', () => {
  it('A = [[2, 1], [1, 1]] then A2 = [[1e-20, 1], [1, 1]]: x = [1, 1], not [0, 1]', async () => {
    const F = klu(dense([[2, 1], [1, 1]]));
    F.refactor(dense([[1e-20, 1], [1, 1]]));
    // b = A2 [1, 1] = [1 + 1e-20, 2] = [1, 2] in float64; the exact solution is 1/(1 - 1e-20) ≈ 1 and 2 - that ≈ 1.
    const x = Array.from(await F.solve(Float64Array.from([1, 2])).data());
    expect(x[0]).toBeCloseTo(1, 12);
    expect(x[1]).toBeCloseTo(1, 12);
    F.dispose();
  });

  it('random 6x6 matrices whose old pivots are scaled down to 1e-18: refactor matches a dense pivoted solve', async () => {
    const r = rng(13);
    for (let trial = 0; trial < 10; trial++) {
      const n = 6;
      const A = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 10 + r() : r())));
      const F = klu(dense(A));
      // Same pattern, the diagonal (A's pivots) now tiny: eliminating on it loses every digit.
      const A2 = A.map((row, i) => row.map((v, j) => (i === j ? 1e-18 * v : v)));
      F.refactor(dense(A2));
      const b = Array.from({ length: n }, () => r());
      const want = denseSolve(A2, b);
      const got = Array.from(await F.solve(Float64Array.from(b)).data());
      const err = Math.max(...got.map((v, i) => Math.abs(v - want[i]!)));
      const scale = Math.max(...want.map(Math.abs));
      expect(err / scale, `trial ${trial}`).toBeLessThan(1e-10);
      F.dispose();
    }
  });
});
