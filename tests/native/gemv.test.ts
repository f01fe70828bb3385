// rlx's own matrix-vector kernel (native/src/gemv.cc): real products whose
// matrix rows are contiguous and at least 32 of them, y = A·x, reached
// through the public Tensor API on the native device. Checked against a float64 reference summed in JS
// (error within the γ_k bound of expectGemmClose), at sizes around the
// kernel's edges (groups of 8 rows, two column blocks a step, one block, the
// scalar tail, the threading threshold), with a padded leading dimension
// (a column slice of a wider matrix), a row vector times a matrix stored
// transposed (its rows contiguous: the same kernel) and a transposed matrix
// whose rows are strided (BLAS's gemv), special values propagated as IEEE
// says, and bit-identical results on one thread and on two.

import { afterAll, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { describeNative, expectGemmClose, randomArray } from './native-harness.js';

type Real = 'float32' | 'float64';
const ctor = (d: Real) => (d === 'float32' ? Float32Array : Float64Array);

/** A (rows×cols, row-major in a buffer `pad` columns wider) and x on the native device, and their values. */
function operands(dtype: Real, rows: number, cols: number, pad: number, seed: number) {
  const C = ctor(dtype);
  const wide = randomArray(rows * (cols + pad), seed, C);
  const xs = randomArray(cols, seed + 1, C);
  let A = rlx.tensor(wide, { dtype }).on('native').reshape([rows, cols + pad]);
  if (pad > 0) A = A.slice(rlx.s(rlx.ax(), rlx.rg(0, cols)));
  const x = rlx.tensor(xs, { dtype }).on('native');
  const a = (i: number, j: number) => wide[i * (cols + pad) + j]!;
  return { A, x, a, xs };
}

/** y = A·x and Σ|a_ij x_j| in float64, summed in column order. */
function reference(rows: number, cols: number, a: (i: number, j: number) => number, xs: ArrayLike<number>) {
  const y = new Float64Array(rows),
    bound = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0,
      b = 0;
    for (let j = 0; j < cols; j++) {
      s += a(i, j) * xs[j]!;
      b += Math.abs(a(i, j) * xs[j]!);
    }
    y[i] = s;
    bound[i] = b;
  }
  return { y, bound };
}

describeNative('native matrix-vector products (rlx kernel)', () => {
  const threads = rlx.numThreads();
  afterAll(() => void rlx.setNumThreads(threads));

  // Fewer than 32 rows go to BLAS's gemv (gemv.h: kGemvMinRows), checked the same way. From 32:
  // whole 8-row groups, groups plus up to 7 single rows; cols: below one lane block, the tails of
  // 8-lane (float32) and 4-lane (float64) blocks, one block, two; 600x1000 and 1003x1001 on threads.
  const shapes: [number, number][] = [[1, 1], [1, 9], [7, 5], [16, 3], [31, 40], [32, 4], [33, 31], [39, 13], [40, 8], [47, 16], [300, 257], [1003, 1001], [600, 1000]];
  for (const dtype of ['float32', 'float64'] as const)
    for (const [rows, cols] of shapes)
      for (const pad of [0, 3]) {
        it(`${dtype} ${rows}x${cols}${pad ? ' (a column slice: leading dimension ' + (cols + pad) + ')' : ''} matches the float64 reference`, () => {
          const { A, x, a, xs } = operands(dtype, rows, cols, pad, rows * 31 + cols + pad);
          const got = A.matmul(x).toArray() as Float32Array | Float64Array;
          const { y, bound } = reference(rows, cols, a, xs);
          expectGemmClose(got, y, bound, dtype, cols, `${dtype} ${rows}x${cols}`);
        });
      }

  it("M·x with M the transpose of a row-major matrix (its rows strided: BLAS's gemv) matches the reference", () => {
    const rows = 257,
      cols = 515;
    const stored = randomArray(rows * cols, 9); // S, cols×rows row-major; M = Sᵀ is rows×cols, M[i][j] = S[j][i]
    const xs = randomArray(cols, 77);
    const M = rlx.tensor(stored).on('native').reshape([cols, rows]).transpose([1, 0]);
    const got = M.matmul(rlx.tensor(xs).on('native')).toArray() as Float64Array;
    const { y, bound } = reference(rows, cols, (i, j) => stored[j * rows + i]!, xs);
    expectGemmClose(got, y, bound, 'float64', cols, 'Sᵀ·x');
  });

  it('the same bits on one thread and on two (threaded and single-thread sizes)', () => {
    for (const dtype of ['float32', 'float64'] as const)
      for (const [rows, cols] of [[1003, 1001], [600, 1000], [137, 29]] as const) {
        const { A, x } = operands(dtype, rows, cols, 1, rows + cols);
        rlx.setNumThreads(2);
        const two = A.matmul(x).toArray();
        rlx.setNumThreads(1);
        const one = A.matmul(x).toArray();
        rlx.setNumThreads(threads);
        expect(Array.from(one), `${dtype} ${rows}x${cols}`).toEqual(Array.from(two));
      }
  });

  it('NaN, ±Infinity and signed zeros propagate as in the float64 reference', () => {
    const rows = 40,
      cols = 21;
    const vals = new Float64Array(rows * cols).fill(0.5);
    vals[0] = NaN; // row 0: NaN
    vals[1 * cols + 4] = Infinity; // row 1: +Inf
    vals[2 * cols + 20] = -Infinity; // row 2 (in the scalar tail): -Inf
    vals[3 * cols + 2] = Infinity;
    vals[3 * cols + 9] = -Infinity; // row 3: Inf - Inf = NaN
    for (let j = 0; j < cols; j++) vals[4 * cols + j] = -0; // row 4: -0 · x summed from +0 lanes: +0
    vals[9 * cols + 5] = Infinity; // row 9 times x_5 = 0: NaN
    const xs = Float64Array.from({ length: cols }, (_, j) => (j === 5 ? 0 : 1 + j / 8));
    const got = rlx.tensor(vals).on('native').reshape([rows, cols]).matmul(rlx.tensor(xs).on('native')).toArray() as Float64Array;
    const want = reference(rows, cols, (i, j) => vals[i * cols + j]!, xs).y;
    for (const i of [0, 1, 2, 3, 4, 9]) expect(Object.is(got[i], want[i]) || (Number.isNaN(got[i]) && Number.isNaN(want[i])), `row ${i}: ${got[i]} vs ${want[i]}`).toBe(true);
    expect(Object.is(got[4], 0)).toBe(true);
    expect([got[0], got[1], got[2], got[3], got[9]]).toEqual([NaN, Infinity, -Infinity, NaN, NaN]);
  });

  it('y = x·A with A stored transposed (a row vector times a matrix) matches the reference', () => {
    const k = 403,
      n = 129;
    const bt = randomArray(n * k, 5); // Bᵀ stored n×k row-major: B = its transpose, k×n
    const xv = randomArray(k, 6);
    const B = rlx.tensor(bt).on('native').reshape([n, k]).transpose([1, 0]);
    const got = rlx.tensor(xv).on('native').reshape([1, k]).matmul(B).toArray() as Float64Array;
    const { y, bound } = reference(n, k, (i, j) => bt[i * k + j]!, xv);
    expectGemmClose(got, y, bound, 'float64', k, 'x·B');
  });
});
