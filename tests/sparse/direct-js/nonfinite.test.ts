// NaN/±Inf in the matrix of the js sparse LU and Cholesky (issue 13, item 2):
// a typed NonFiniteError naming the op and the (row, col) of A, instead of a
// NaN or, worse, a finite but wrong solution (an Inf pivot divides its column
// to zeros). The expected solution where a factorization must still work comes
// from closed form: tridiag(−1, 2, −1) x = 1 has x_i = (i+1)(n−i)/2.

import { describe, expect, it } from 'vitest';
import { NonFiniteError } from '../../../src/tensor/errors-linalg.js';
import type { CompressedArrays, SparseDType } from '../../../src/sparse/contract.js';
import { jsCholesky, jsSplu } from '../../../src/sparse/direct/index.js';
import { cholesky, csr, splu } from '../../../src/sparse/index.js';
import { ValueError } from '../../../src/tensor/errors.js';

const N = 5;

/** tridiag(−1, 2, −1) as CSR arrays, each value given by `v(row, col, default)`; complex dtypes get imaginary part `im(row, col)`. */
function tridiag(dtype: SparseDType, v: (i: number, j: number, d: number) => number = (_i, _j, d) => d, im: (i: number, j: number) => number = () => 0): CompressedArrays {
  const indptr = [0],
    indices: number[] = [],
    data: number[] = [];
  const cplx = dtype.startsWith('complex');
  for (let i = 0; i < N; i++) {
    for (let j = Math.max(0, i - 1); j <= Math.min(N - 1, i + 1); j++) {
      indices.push(j);
      data.push(v(i, j, i === j ? 2 : -1));
      if (cplx) data.push(im(i, j));
    }
    indptr.push(indices.length);
  }
  const Data = dtype === 'float32' || dtype === 'complex64' ? Float32Array : Float64Array;
  return { shape: [N, N], dtype, indptr: Int32Array.from(indptr), indices: Int32Array.from(indices), data: Data.from(data) };
}

/** The CSC arrays of the same matrix (tridiag is symmetric in pattern; values transposed). */
function toCscArrays(a: CompressedArrays): CompressedArrays & { format: 'csc' } {
  const lanes = a.dtype.startsWith('complex') ? 2 : 1;
  const cols: number[][] = Array.from({ length: N }, () => []);
  const vals: number[][][] = Array.from({ length: N }, () => []);
  for (let i = 0; i < N; i++)
    for (let p = a.indptr[i]!; p < a.indptr[i + 1]!; p++) {
      cols[a.indices[p]!]!.push(i);
      vals[a.indices[p]!]!.push(Array.from(a.data.subarray(lanes * p, lanes * p + lanes)));
    }
  const indptr = [0];
  for (const c of cols) indptr.push(indptr[indptr.length - 1]! + c.length);
  const Data = a.data instanceof Float32Array ? Float32Array : Float64Array;
  return { ...a, format: 'csc', indptr: Int32Array.from(indptr), indices: Int32Array.from(cols.flat()), data: Data.from(vals.flat(2)) };
}

const exact = Float64Array.from({ length: N }, (_, i) => ((i + 1) * (N - i)) / 2);
const ones = () => new Float64Array(N).fill(1);

const DTYPES: SparseDType[] = ['float32', 'float64', 'complex64', 'complex128'];
const BAD = [Infinity, -Infinity, NaN];
const PLACES: [number, number][] = [
  [0, 0],
  [2, 1],
  [3, 4],
];

describe('jsSplu: non-finite matrix entries throw NonFiniteError naming the entry', () => {
  for (const dtype of DTYPES)
    for (const bad of BAD)
      for (const [r, c] of PLACES)
        for (const fmt of ['csr', 'csc'] as const) {
          it(`${dtype} ${fmt} A[${r}, ${c}] = ${bad}`, () => {
            let a = tridiag(dtype, (i, j, d) => (i === r && j === c ? bad : d));
            if (fmt === 'csc') a = toCscArrays(a);
            const call = () => jsSplu(a);
            expect(call).toThrow(NonFiniteError);
            expect(call).toThrow(ValueError);
            expect(call).toThrow(`splu: input must be finite, found ${bad} at [${r}, ${c}]`);
          });
        }

  it('a non-finite imaginary part counts too', () => {
    const a = tridiag('complex128', undefined, (i, j) => (i === 1 && j === 2 ? NaN : 0));
    expect(() => jsSplu(a)).toThrow('splu: input must be finite, found NaN at [1, 2]');
  });

  it('duplicates whose sum overflows are reported at their (row, col)', () => {
    // Row 0 stores (0, 0) twice: 1e308 + 1e308 = Infinity.
    const a: CompressedArrays = { shape: [2, 2], dtype: 'float64', indptr: Int32Array.from([0, 2, 3]), indices: Int32Array.from([0, 0, 1]), data: Float64Array.from([1e308, 1e308, 1]) };
    expect(() => jsSplu(a)).toThrow('splu: input must be finite, found Infinity at [0, 0]');
  });

  it('finite huge entries still factor (no false alarm)', () => {
    const a = tridiag('float64', (_i, _j, d) => d * 1e300);
    const x = jsSplu(a).solve(ones().map((v) => v * 1e300));
    for (let i = 0; i < N; i++) expect(x[i]).toBeCloseTo(exact[i]!, 12);
  });
});

describe('jsCholesky: non-finite entries of the lower triangle throw NonFiniteError', () => {
  for (const dtype of DTYPES)
    for (const bad of BAD)
      for (const [r, c] of [
        [0, 0],
        [2, 1],
        [4, 4],
      ] as [number, number][]) {
        it(`${dtype} A[${r}, ${c}] = ${bad}`, () => {
          const a = tridiag(dtype, (i, j, d) => (i === r && j === c ? bad : d));
          const call = () => jsCholesky(a);
          expect(call).toThrow(NonFiniteError);
          expect(call).toThrow(`cholesky: input must be finite, found ${bad} at [${r}, ${c}]`);
        });
      }

  it('the upper triangle is not read: an Inf there changes nothing (documented: lower triangle only)', () => {
    const a = tridiag('float64', (i, j, d) => (i === 1 && j === 2 ? Infinity : d));
    const x = jsCholesky(a).solve(ones());
    for (let i = 0; i < N; i++) expect(x[i]).toBeCloseTo(exact[i]!, 12);
  });
});

describe("public splu / cholesky with device 'js'", () => {
  it('splu', () => {
    const A = csr({ ...tridiag('float64', (i, j, d) => (i === 0 && j === 0 ? Infinity : d)) });
    expect(() => splu(A, { device: 'js' })).toThrow(NonFiniteError);
    expect(() => splu(A, { device: 'js' })).toThrow(/splu: input must be finite, found Infinity at \[0, 0\]/);
  });
  it('cholesky', () => {
    const A = csr({ ...tridiag('float64', (i, j, d) => (i === 3 && j === 2 ? NaN : d)) });
    expect(() => cholesky(A, { device: 'js' })).toThrow(/cholesky: input must be finite, found NaN at \[3, 2\]/);
  });
});
