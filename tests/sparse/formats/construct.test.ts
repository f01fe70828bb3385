// Construction: validation errors name the first bad position, flags, value
// input forms (typed arrays, number[], [re, im] pairs, Tensors), fromTriplets,
// fromDense, eye/diags semantics, printing.

import { describe, expect, it } from 'vitest';
import * as sp from '../../../src/sparse/index.js';
import { tensor } from '../../../src/tensor/create.js';
import { ValueError, DTypeError } from '../../../src/tensor/errors.js';

const base = { indptr: [0, 2, 3, 5], indices: [0, 2, 1, 0, 2], data: [1, 2, 3, 4, 5], shape: [3, 3] as [number, number] };

describe('validation', () => {
  const bad: [string, Record<string, unknown>, RegExp][] = [
    ['indptr length', { indptr: [0, 2, 3] }, /csr: indptr has length 3, expected 4/],
    ['indptr[0]', { indptr: [1, 2, 3, 5] }, /csr: indptr\[0\] = 1, expected 0/],
    ['monotone', { indptr: [0, 4, 3, 5] }, /csr: indptr\[2\] = 3 < indptr\[1\] = 4/],
    ['last = nnz', { indptr: [0, 2, 3, 4] }, /csr: indptr\[3\] = 4 but indices has length 5/],
    ['index range', { indices: [0, 2, 1, 3, 2] }, /csr: indices\[3\] = 3 out of range \[0, 3\) in row 2/],
    ['negative index', { indices: [0, -1, 1, 0, 2] }, /indices\[1\] = -1 out of range/],
    ['data length', { data: [1, 2, 3, 4] }, /data has 4 values but indices has length 5/],
    ['non-integer index', { indices: [0, 1.5, 1, 0, 2] }, /indices\[1\] = 1.5 is not an int32 integer/],
    ['negative shape', { shape: [-1, 3] as never }, /shape\[0\] = -1 must be a non-negative int32 integer/],
    ['fractional shape', { shape: [3, 2.5] as never }, /shape\[1\] = 2.5/],
    ['shape arity', { shape: [3] as never }, /shape must be \[rows, cols\]/],
    ['odd complex', { data: new Float64Array(5), dtype: 'complex128' }, /interleaved/],
  ];
  for (const [name, patch, re] of bad) {
    it(`csr rejects: ${name}`, () => {
      const f = (): unknown => sp.csr({ ...base, ...patch } as never);
      expect(f).toThrow(sp.SparseFormatError);
      expect(f).toThrow(re);
    });
  }
  it('SparseFormatError is a ValueError; csc and coo name their format', () => {
    expect(new sp.SparseFormatError('x')).toBeInstanceOf(ValueError);
    expect(() => sp.csc({ ...base, indices: [0, 2, 1, 0, 7] })).toThrow(/csc: indices\[4\] = 7 out of range \[0, 3\) in column 2/);
    expect(() => sp.coo({ row: [0, 3], col: [0, 0], data: [1, 2], shape: [3, 3] })).toThrow(/coo: row\[1\] = 3 out of range \[0, 3\)/);
    expect(() => sp.coo({ row: [0, 1], col: [0], data: [1, 2], shape: [3, 3] })).toThrow(/coo: row has length 2 but col has length 1/);
    expect(() => sp.csr({ ...base, dtype: 'int32' })).toThrow(DTypeError);
  });
  it('flags unsorted and duplicate indices, and canonicalizes on request', () => {
    const A = sp.csr(base);
    expect([A.hasSortedIndices, A.hasCanonicalFormat]).toEqual([true, true]);
    const U = sp.csr({ ...base, indices: [2, 0, 1, 2, 0] });
    expect([U.hasSortedIndices, U.hasCanonicalFormat]).toEqual([false, false]);
    const D = sp.csr({ ...base, indices: [0, 0, 1, 0, 2] });
    expect([D.hasSortedIndices, D.hasCanonicalFormat]).toEqual([true, false]);
    expect(D.nnz).toBe(5);
    const C = D.sumDuplicates();
    expect(C.nnz).toBe(4);
    expect(Array.from(C.indptr)).toEqual([0, 1, 2, 4]);
    expect(Array.from(C.data)).toEqual([3, 3, 4, 5]);
    expect(U.sortIndices().indices).toEqual(Int32Array.from([0, 2, 1, 0, 2]));
    expect(Array.from(U.sortIndices().data)).toEqual([2, 1, 3, 5, 4]);
  });
  it('the matrix owns copies of the arrays it is given (issue 13: a caller writing them later cannot corrupt it)', () => {
    const indptr = Int32Array.from(base.indptr), indices = Int32Array.from(base.indices), data = Float64Array.from(base.data);
    const A = sp.csr({ indptr, indices, data, shape: [3, 3] });
    expect(A.indptr).not.toBe(indptr);
    expect(A.indices).not.toBe(indices);
    expect(A.data).not.toBe(data);
    expect(Array.from(A.indptr)).toEqual(Array.from(indptr));
    expect(Array.from(A.indices)).toEqual(Array.from(indices));
    expect(Array.from(A.data)).toEqual(Array.from(data));
    expect(sp.csr({ indptr, indices, data: Float32Array.from(base.data), shape: [3, 3] }).dtype).toBe('float32');
  });
  it('0-sized matrices', () => {
    for (const shape of [[0, 0], [0, 5], [4, 0]] as [number, number][]) {
      const A = sp.csr({ indptr: new Int32Array(shape[0] + 1), indices: [], data: [], shape });
      expect(A.toDense().shape).toEqual(shape);
      expect(sp.raw.matvec(A, new Float64Array(shape[1])).length).toBe(shape[0]);
      expect(A.matvec(new Float64Array(shape[1])).shape).toEqual([shape[0]]);
      expect(A.transpose().shape).toEqual([shape[1], shape[0]]);
      expect(A.matmulSparse(A.transpose()).shape).toEqual([shape[0], shape[0]]);
    }
  });
});

describe('values', () => {
  it('complex as interleaved arrays, [re, im] pairs, {re, im} and complex Tensors', () => {
    const want = [[[1, 2], [0, 0]], [[0, 0], [3, -4]]];
    const forms = [
      sp.csr({ indptr: [0, 1, 2], indices: [0, 1], data: new Float64Array([1, 2, 3, -4]), shape: [2, 2], dtype: 'complex128' }),
      sp.csr({ indptr: [0, 1, 2], indices: [0, 1], data: [1, 2, 3, -4], shape: [2, 2], dtype: 'complex128' }),
      sp.csr({ indptr: [0, 1, 2], indices: [0, 1], data: [[1, 2], [3, -4]], shape: [2, 2] }),
      sp.csr({ indptr: [0, 1, 2], indices: [0, 1], data: [{ re: 1, im: 2 }, { re: 3, im: -4 }], shape: [2, 2] }),
      sp.csr({ indptr: [0, 1, 2], indices: [0, 1], data: tensor([{ re: 1, im: 2 }, { re: 3, im: -4 }]), shape: [2, 2] }),
      sp.csr({ indptr: [0, 1, 2], indices: [0, 1], data: new Float32Array([1, 2, 3, -4]), shape: [2, 2], dtype: 'complex64' }),
      sp.fromTriplets([1, 0], [1, 0], [[3, -4], [1, 2]], [2, 2]),
      sp.fromDense([[[1, 2], [0, 0]], [[0, 0], [3, -4]]]),
    ];
    for (const A of forms) {
      expect(A.dtype.startsWith('complex')).toBe(true);
      expect(A.toDense().tolist()).toEqual(want);
    }
    expect(forms[5]!.dtype).toBe('complex64');
    expect(() => sp.csr({ indptr: [0, 1], indices: [0], data: [[1, 2]], shape: [1, 1], dtype: 'float64' })).toThrow(DTypeError);
    expect(() => forms[0]!.astype('float64')).toThrow(/imaginary parts would be lost/);
  });

  it('fromTriplets sums duplicates into canonical CSR and keeps explicit zeros', () => {
    const A = sp.fromTriplets(Int32Array.from([2, 0, 2, 0, 1]), [1, 0, 1, 2, 1], [1, 2, 3, 0, 5], [3, 3]);
    expect(A.hasCanonicalFormat).toBe(true);
    expect(Array.from(A.indptr)).toEqual([0, 2, 3, 4]);
    expect(Array.from(A.indices)).toEqual([0, 2, 1, 1]);
    expect(Array.from(A.data)).toEqual([2, 0, 5, 4]);
    expect(A.eliminateZeros().nnz).toBe(3);
    expect(sp.fromTriplets([0], [0], tensor([7]), [1, 1], { dtype: 'float32' }).dtype).toBe('float32');
  });

  it('fromDense takes int/bool tensors as float64 and can return csc/coo', () => {
    const t = tensor([[1, 0], [0, 2]], { dtype: 'int32' });
    const A = sp.fromDense(t);
    expect([A.format, A.dtype, A.nnz]).toEqual(['csr', 'float64', 2]);
    expect(sp.fromDense(t, { format: 'csc' }).format).toBe('csc');
    expect(sp.fromDense(t, { format: 'coo', dtype: 'complex64' }).dtype).toBe('complex64');
    expect(() => sp.fromDense(tensor([1, 2]))).toThrow(/2-D/);
  });
});

describe('eye and diags', () => {
  it('eye with k and m', () => {
    expect(sp.eye(3, { k: 1 }).toDense().tolist()).toEqual([[0, 1, 0], [0, 0, 1], [0, 0, 0]]);
    expect(sp.eye(2, { m: 3, k: -1, dtype: 'complex64' }).toDense().tolist()).toEqual([[[0, 0], [0, 0], [0, 0]], [[1, 0], [0, 0], [0, 0]]]);
    expect(sp.eye(3, { k: 5 }).nnz).toBe(0);
  });
  it('diags: scalars broadcast, long diagonals truncate, short ones and bad offsets fail', () => {
    expect(sp.diags([1, -2, 1], [-1, 0, 1], [3, 3]).toDense().tolist()).toEqual([[-2, 1, 0], [1, -2, 1], [0, 1, -2]]);
    expect(sp.diags([1, 2, 3]).toDense().tolist()).toEqual([[1, 0, 0], [0, 2, 0], [0, 0, 3]]);
    expect(sp.diags([1, 2], 1).toDense().tolist()).toEqual([[0, 1, 0], [0, 0, 2], [0, 0, 0]]);
    expect(sp.diags([[1, 0, 3]], [0]).nnz).toBe(2);
    expect(() => sp.diags([[1, 2]], [0], [3, 3])).toThrow(/diagonal 0 has length 2 at offset 0; shape \[3, 3\] needs 3/);
    expect(() => sp.diags([[1]], [5], [3, 3])).toThrow(/offset 5 \(index 0\) out of bounds/);
    expect(() => sp.diags([[1], [2]], [0, 0], [3, 3])).toThrow(/duplicate/);
    expect(() => sp.diags([[1], [2]], [0], [3, 3])).toThrow(/2 diagonals but 1 offsets/);
    expect(sp.diags([{ re: 0, im: 1 }], [0], [2, 2]).dtype).toBe('complex128');
  });
});

describe('printing', () => {
  it('toString lists entries like SciPy and truncates long matrices', () => {
    const A = sp.fromTriplets([0, 1], [1, 0], [[1, -2], [3, 0]], [2, 2]);
    expect(A.toString()).toBe('<CsrMatrix 2×2, complex128, nnz=2>\n  (0, 1)\t(1.0-2.0j)\n  (1, 0)\t(3.0+0.0j)');
    expect(A.tocsc().toString().split('\n')[1]).toBe('  (1, 0)\t(3.0+0.0j)');
    expect(sp.coo({ row: [0], col: [0], data: [0.5], shape: [1, 1] }).toString()).toBe('<CooMatrix 1×1, float64, nnz=1>\n  (0, 0)\t0.5');
    const big = sp.poisson1d(100).toString().split('\n');
    expect(big.length).toBe(52);
    expect(big[26]).toBe('  :\t:');
  });
});

describe('coo', () => {
  it('delegates arithmetic to CSR and keeps duplicates until converted', () => {
    const C = sp.coo({ row: [0, 0, 1], col: [1, 1, 0], data: [1, 2, 3], shape: [2, 2] });
    expect(C.nnz).toBe(3);
    expect(C.tocsr().nnz).toBe(2);
    expect(C.tocsr()).toBe(C.tocsr());
    expect(C.add(C).toDense().tolist()).toEqual([[0, 6], [6, 0]]);
    expect(C.sub(C).nnz).toBe(0);
    expect(C.scale([0, 1]).dtype).toBe('complex128');
    expect(C.multiply(C).toDense().tolist()).toEqual([[0, 9], [9, 0]]);
    expect(C.matmulSparse(C).toDense().tolist()).toEqual([[9, 0], [0, 9]]);
    expect(C.diagonal(1).tolist()).toEqual([3]);
    expect(C.sumDuplicates().nnz).toBe(2);
    expect(sp.coo({ row: [0, 1], col: [0, 1], data: [0, 1], shape: [2, 2] }).eliminateZeros().nnz).toBe(1);
    expect(C.transpose().toDense().tolist()).toEqual([[0, 3], [3, 0]]);
    expect(C.astype('float32').dtype).toBe('float32');
  });
});
