// Sparse products with an `out` that shares memory with x or with the matrix's
// own arrays (issue 13, item 3): every raw product entry point must refuse it
// with a typed error (the kernels read x and A while writing out, so an
// overlapping out gives wrong values, and a scatter zeroes out first, which
// destroys the matrix when out is its data). Byte ranges matter, not identity:
// a subarray view of the same buffer overlaps too, and disjoint views of one
// buffer are legal (Lanczos keeps its basis rows in one block).

import { describe, expect, it } from 'vitest';
import { csc, csr, type CompressedArrays } from '../../../src/sparse/index.js';
import { cscMatvecRaw, cscRmatvecRaw, csrMatvecRaw, csrRmatvecRaw } from '../../../src/sparse/spmv.js';
import { ValueError } from '../../../src/tensor/errors.js';

// A 3×3 matrix with one entry per row and column (nnz = 3 = rows, so its data
// array has the length of an output vector), and a denser 3×3 one.
//   P = [[0, 2, 0], [0, 0, 3], [5, 0, 0]]      D = [[1, 2, 0], [0, 3, 4], [5, 0, 6]]
const P_ROWS = { indptr: [0, 1, 2, 3], indices: [1, 2, 0], data: [2, 3, 5] };
const P_COLS = { indptr: [0, 1, 2, 3], indices: [2, 0, 1], data: [5, 2, 3] };
const D_DENSE = [
  [1, 2, 0],
  [0, 3, 4],
  [5, 0, 6],
];
const D_ROWS = { indptr: [0, 2, 4, 6], indices: [0, 1, 1, 2, 0, 2], data: [1, 2, 3, 4, 5, 6] };
const D_COLS = { indptr: [0, 2, 4, 6], indices: [0, 2, 0, 1, 1, 2], data: [1, 5, 2, 3, 4, 6] };

/** Dense reference y = D x (or Dᵀ x). */
function denseProduct(x: ArrayLike<number>, transpose: boolean): number[] {
  return [0, 1, 2].map((i) => [0, 1, 2].reduce((s, j) => s + (transpose ? D_DENSE[j]![i]! : D_DENSE[i]![j]!) * x[j]!, 0));
}

const dtypes = ['float32', 'float64'] as const;

describe('matrix classes: matvecRaw / rmatvecRaw refuse an overlapping out', () => {
  for (const dtype of dtypes) {
    for (const [fmt, make, rows] of [
      ['csr', csr, D_ROWS],
      ['csc', csc, D_COLS],
    ] as const) {
      it(`${fmt} ${dtype}: out a subarray view overlapping x (A·x and Aᴴ·x)`, () => {
        const A = make({ ...rows, shape: [3, 3], dtype });
        for (const adjoint of [false, true]) {
          const buf = Float64Array.from([1, 2, 3, 0, 0]);
          const x = buf.subarray(0, 3),
            out = buf.subarray(2, 5); // shares x[2]
          const call = () => (adjoint ? A.rmatvecRaw(x, out) : A.matvecRaw(x, out));
          expect(call).toThrow(ValueError);
          expect(call).toThrow(/overlaps x/);
          expect(Array.from(buf)).toEqual([1, 2, 3, 0, 0]); // nothing written
        }
      });

      it(`${fmt} ${dtype}: out === x is refused`, () => {
        const A = make({ ...rows, shape: [3, 3], dtype });
        const x = Float64Array.from([1, 2, 3]);
        expect(() => A.matvecRaw(x, x)).toThrow(ValueError);
        expect(Array.from(x)).toEqual([1, 2, 3]);
      });

      it(`${fmt} ${dtype}: disjoint views of one buffer are accepted and give D·x`, () => {
        const A = make({ ...rows, shape: [3, 3], dtype });
        for (const adjoint of [false, true]) {
          const buf = Float64Array.from([1, -2, 0.5, 9, 9, 9]);
          const x = buf.subarray(0, 3),
            out = buf.subarray(3, 6);
          const y = adjoint ? A.rmatvecRaw(x, out) : A.matvecRaw(x, out);
          expect(y).toBe(out);
          expect(Array.from(out)).toEqual(denseProduct([1, -2, 0.5], adjoint));
        }
      });
    }
  }

  it("float64 CSC and CSR: the matrix's own data array as out is refused and the matrix survives", () => {
    for (const [make, arrays] of [
      [csc, P_COLS],
      [csr, P_ROWS],
    ] as const) {
      const A = make({ ...arrays, shape: [3, 3], dtype: 'float64' });
      const data = A.data as Float64Array;
      const before = Array.from(data);
      expect(() => A.matvecRaw(Float64Array.from([1, 1, 1]), data)).toThrow(/overlaps the matrix data/);
      expect(() => A.rmatvecRaw(Float64Array.from([1, 1, 1]), data)).toThrow(ValueError);
      expect(Array.from(data)).toEqual(before);
      // The matrix still computes P·[1, 2, 3] = [4, 9, 5].
      expect(Array.from(A.matvecRaw(Float64Array.from([1, 2, 3])))).toEqual([4, 9, 5]);
    }
  });

  it('an out whose bytes lie inside an index array of the same buffer is refused', () => {
    // indptr and out carved from one ArrayBuffer: indptr bytes [0, 16), out bytes [8, 32).
    const buf = new ArrayBuffer(64);
    const indptr = new Int32Array(buf, 0, 4);
    indptr.set(D_COLS.indptr);
    const arrays: CompressedArrays = { shape: [3, 3], dtype: 'float64', indptr, indices: Int32Array.from(D_COLS.indices), data: Float64Array.from(D_COLS.data) };
    expect(() => cscMatvecRaw(arrays, Float64Array.from([1, 1, 1]), new Float64Array(buf, 8, 3))).toThrow(/overlaps the matrix indptr/);
    expect(Array.from(indptr)).toEqual(D_COLS.indptr);
    // Bytes [16, 40) of the same buffer do not overlap indptr: accepted.
    expect(Array.from(cscMatvecRaw(arrays, Float64Array.from([1, 1, 1]), new Float64Array(buf, 16, 3)))).toEqual(denseProduct([1, 1, 1], false));
  });
});

describe('raw product functions of spmv.ts refuse an overlapping out', () => {
  const raw = [
    ['csrMatvecRaw', csrMatvecRaw, D_ROWS, false],
    ['csrRmatvecRaw', csrRmatvecRaw, D_ROWS, true],
    ['cscMatvecRaw', cscMatvecRaw, D_COLS, false],
    ['cscRmatvecRaw', cscRmatvecRaw, D_COLS, true],
  ] as const;
  for (const dtype of dtypes) {
    for (const [name, fn, arrays, adjoint] of raw) {
      it(`${name} ${dtype}`, () => {
        const Data = dtype === 'float32' ? Float32Array : Float64Array;
        const a: CompressedArrays = { shape: [3, 3], dtype, indptr: Int32Array.from(arrays.indptr), indices: Int32Array.from(arrays.indices), data: Data.from(arrays.data) };
        const buf = Float64Array.from([1, 2, 3, 0, 0, 0]);
        expect(() => fn(a, buf.subarray(0, 3), buf.subarray(1, 4))).toThrow(ValueError);
        expect(Array.from(buf)).toEqual([1, 2, 3, 0, 0, 0]);
        // Disjoint halves of the same buffer: fine, and right.
        expect(Array.from(fn(a, buf.subarray(0, 3), buf.subarray(3, 6)))).toEqual(denseProduct([1, 2, 3], adjoint));
        if (dtype === 'float64') {
          // The matrix's data as out (nnz = 6, so take a 3-value view of it).
          const d = a.data as Float64Array;
          expect(() => fn(a, Float64Array.from([1, 1, 1]), d.subarray(3, 6))).toThrow(/overlaps the matrix data/);
          expect(Array.from(d)).toEqual(arrays.data);
        }
      });
    }
  }
});
