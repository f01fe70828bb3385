// LinearOperator / aslinearoperator: every accepted form of A gives the same products.

import { describe, expect, it } from 'vitest';
import { aslinearoperator, cg, LinearOperator, csrMatvec, csrRmatvec } from '../../../src/sparse/solvers/index.js';
import { tensor } from '../../../src/tensor/create.js';
import { DTypeError, ShapeError, ValueError } from '../../../src/tensor/errors.js';
import * as U from './util.js';

describe('aslinearoperator', () => {
  const A = U.convectionDiffusion(4, 1, 2); // non-symmetric, 16×16
  const dense = U.csrToDense(A);
  const x = U.randomVector(16, 3);
  const want = csrMatvec(A, x);
  const wantT = csrRmatvec(A, x);
  const rows = Array.from({ length: 16 }, (_, i) => Array.from(dense.subarray(16 * i, 16 * i + 16)));

  it('CSR arrays, a dense Tensor, nested arrays and a CSC view give the same A x and Aᴴ x', () => {
    // CSC arrays of A = CSR arrays of Aᵀ.
    const T = U.denseToCsr(16, 16, Float64Array.from({ length: 256 }, (_, k) => dense[(k % 16) * 16 + Math.floor(k / 16)]!));
    const ops = [aslinearoperator(A), aslinearoperator(tensor(rows)), aslinearoperator(rows), aslinearoperator({ ...T, format: 'csc' as const })];
    for (const op of ops) {
      expect(op.shape).toEqual([16, 16]);
      expect(U.maxAbsDiff(op.matvec(x), want)).toBeLessThan(1e-13);
      expect(U.maxAbsDiff(op.rmatvec!(x), wantT)).toBeLessThan(1e-13);
    }
  });
  it('complex CSR: matvec and rmatvec = conjugate transpose, dtype inferred from the data length', () => {
    const H = U.helmholtz(3);
    const { dtype: _d, ...noDtype } = H;
    const op = aslinearoperator(noDtype);
    expect(op.dtype).toBe('complex128');
    const v = U.randomVector(18, 5),
      w = U.randomVector(18, 6);
    // ⟨w, A v⟩ = ⟨Aᴴ w, v⟩
    const ip = (a: Float64Array, b: Float64Array) => {
      let re = 0, im = 0;
      for (let i = 0; i < a.length; i += 2) {
        re += a[i]! * b[i]! + a[i + 1]! * b[i + 1]!;
        im += a[i]! * b[i + 1]! - a[i + 1]! * b[i]!;
      }
      return [re, im];
    };
    const l = ip(w, op.matvec(v)), r = ip(op.rmatvec!(w), v);
    expect(l[0]).toBeCloseTo(r[0]!, 12);
    expect(l[1]).toBeCloseTo(r[1]!, 12);
  });
  it('a LinearOperator comes back as is; RawOperators are accepted', () => {
    const L = new LinearOperator({ shape: [16, 16], matvec: (v) => csrMatvec(A, v) });
    expect(aslinearoperator(L)).toBe(L);
    const raw = U.csrOperator(A);
    expect(aslinearoperator(raw)).toBe(raw);
  });
  it('rejects bad inputs with typed errors', () => {
    expect(() => aslinearoperator(tensor([1, 2, 3]))).toThrow(ShapeError);
    expect(() => aslinearoperator({ ...A, indptr: A.indptr.slice(1) })).toThrow(ShapeError);
    expect(() => aslinearoperator({ ...A, indices: A.indices.map((j) => j + 100) })).toThrow(ValueError);
    expect(() => aslinearoperator(42 as never)).toThrow(ValueError);
    expect(() => new LinearOperator({ shape: [2], matvec: (v) => v })).toThrow(ShapeError);
    expect(() => new LinearOperator({ shape: [2, 2], dtype: 'int32' as never, matvec: (v) => v })).toThrow(DTypeError);
  });
});

describe('LinearOperator', () => {
  it('a matrix-free 1D Laplacian solves with cg like its CSR form', () => {
    const n = 50;
    const lap = new LinearOperator({
      shape: [n, n],
      matvec: (v) => Float64Array.from(v, (vi, i) => 2 * vi - (i > 0 ? v[i - 1]! : 0) - (i < n - 1 ? v[i + 1]! : 0)),
    });
    const b = U.randomVector(n);
    const r1 = cg(lap, b, { rtol: 1e-10 }),
      r2 = cg(U.poisson1d(n), b, { rtol: 1e-10 });
    expect(r1.iterations).toBe(r2.iterations);
    expect(U.maxAbsDiff(r1.x, r2.x)).toBeLessThan(1e-10);
  });
  it('checks the length its matvec returns and honours out', () => {
    const bad = new LinearOperator({ shape: [3, 3], matvec: (v) => v.slice(0, 2) });
    expect(() => bad.matvec(new Float64Array(3))).toThrow(ShapeError);
    const id = new LinearOperator({ shape: [3, 3], matvec: (v) => v.map((t) => 2 * t), rmatvec: (v) => v.slice() });
    const out = new Float64Array(3);
    expect(id.matvec(Float64Array.from([1, 2, 3]), out)).toBe(out);
    expect(Array.from(out)).toEqual([2, 4, 6]);
    expect(new LinearOperator({ shape: [1, 1], matvec: (v) => v }).rmatvec).toBeUndefined();
  });
});
