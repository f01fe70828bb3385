// The Krylov solvers' Tensor surface (issue 13 §2): x is a Tensor of b's
// dtype, solves agree with the raw Float64Array solvers, derivatives go through
// the adjoint solve, and inside vmap (no values yet) the solver says what to
// use instead.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import type { Tensor } from '../../../src/index.js';
import '../../harness/allclose.js';

const { sparse } = rlx;
const A = sparse.poisson2d(6); // 36x36 SPD
const n = A.shape[0];
const bArr = Float64Array.from({ length: n }, (_, i) => Math.sin(i + 1));
const SOLVERS = { cg: sparse.cg, bicgstab: sparse.bicgstab, gmres: sparse.gmres, minres: sparse.minres } as const;
const RAW = { cg: sparse.raw.cg, bicgstab: sparse.raw.bicgstab, gmres: sparse.raw.gmres, minres: sparse.raw.minres } as const;

describe('sparse Krylov solvers on Tensors', () => {
  for (const [name, solve] of Object.entries(SOLVERS)) {
    it(`${name}: x is a Tensor of b's dtype and equals the raw solve`, () => {
      const raw = RAW[name as keyof typeof RAW](A, bArr, { rtol: 1e-10 });
      const r64 = solve(A, rlx.tensor(bArr), { rtol: 1e-10 });
      expect(r64.x).toBeInstanceOf(rlx.Tensor);
      expect(r64.x.dtype).toBe('float64');
      expect(r64.converged).toBe(true);
      expect(Array.from(r64.x.toArray() as Float64Array)).toEqual(Array.from(raw.x));
      const r32 = solve(A, rlx.tensor(Float32Array.from(bArr)), { rtol: 1e-6 });
      expect(r32.x.dtype).toBe('float32');
      const rc = solve(A.astype('complex64'), rlx.tensor(Float32Array.from(bArr)), { rtol: 1e-6 });
      expect(rc.x.dtype).toBe('complex64');
    });
    it(`${name}: grad in b is the adjoint solve (A symmetric: A⁻¹ w)`, () => {
      const w = rlx.tensor(Float64Array.from({ length: n }, (_, i) => Math.cos(3 * i)));
      const g = rlx.grad((b: Tensor) => solve(A, b, { rtol: 1e-12 }).x.mul(w).sum())(rlx.tensor(bArr)) as Tensor;
      const want = sparse.raw.cg(A, w.toArray() as Float64Array, { rtol: 1e-13 }).x;
      expect(g.toArray()).toBeAllclose(want, { rtol: 1e-8, atol: 1e-10 });
    });
    it(`${name}: under vmap it is a TransformError naming spsolve`, () => {
      const B = rlx.tensor([Array.from(bArr), Array.from(bArr, (v) => 2 * v)]);
      expect(() => rlx.vmap((b: Tensor) => solve(A, b).x)(B)).toThrow(rlx.TransformError);
      expect(() => rlx.vmap((b: Tensor) => solve(A, b).x)(B)).toThrow(/spsolve/);
    });
  }
  it('matvec always returns a Tensor (a Float64Array argument too)', () => {
    const y = A.matvec(bArr);
    expect(y).toBeInstanceOf(rlx.Tensor);
    expect(y.toArray()).toEqual(sparse.raw.matvec(A, bArr));
    expect(A.tocoo().rmatvec(bArr)).toBeInstanceOf(rlx.Tensor);
  });
});

describe('sparse dtype names are the tensors\' vocabulary', () => {
  it("'float' is float32 for a sparse matrix as for a tensor; 'double' float64; int32 is refused", () => {
    expect(rlx.tensor([1], { dtype: 'float' }).dtype).toBe('float32');
    expect(sparse.eye(2, { dtype: 'float' }).dtype).toBe('float32');
    expect(sparse.eye(2).astype('double').dtype).toBe('float64');
    expect(() => sparse.eye(2, { dtype: 'int32' })).toThrow(rlx.DTypeError);
    expect(() => sparse.eye(2, { dtype: 'nope' })).toThrow(rlx.DTypeError);
  });
});

describe('spsolve with an iterative method takes M and x0', () => {
  const b = rlx.tensor(bArr);
  it('M = ic0(A) converges in fewer iterations and gives the same x (the solve counts through a callback-free check: maxiter)', () => {
    const plain = sparse.raw.cg(A, bArr, { rtol: 1e-10 });
    const pre = sparse.raw.cg(A, bArr, { rtol: 1e-10, M: sparse.ic0(A) });
    expect(pre.iterations).toBeLessThan(plain.iterations);
    // With maxiter just enough for the preconditioned solve, only a solve that uses M converges.
    const x = sparse.spsolve(A, b, { method: 'cg', rtol: 1e-10, maxiter: pre.iterations, M: sparse.ic0(A) });
    expect(x.toArray()).toBeAllclose(pre.x, { rtol: 1e-9, atol: 1e-12 });
    expect(() => sparse.spsolve(A, b, { method: 'cg', rtol: 1e-10, maxiter: pre.iterations }).toArray()).toThrow(rlx.linalg.ConvergenceError);
  });
  it('x0 = the solution converges at once (0 iterations allowed by maxiter 1)', () => {
    const exact = rlx.tensor(sparse.raw.cg(A, bArr, { rtol: 1e-13 }).x);
    const x = sparse.spsolve(A, b, { method: 'cg', rtol: 1e-8, maxiter: 1, x0: exact });
    expect(x.toArray()).toBeAllclose(exact.toArray(), { rtol: 1e-12, atol: 1e-14 });
    expect(() => sparse.spsolve(A, b, { method: 'cg', rtol: 1e-8, maxiter: 1 }).toArray()).toThrow(rlx.linalg.ConvergenceError);
  });
  it('gradients with M still match the adjoint solve; M/x0 with a direct method is a ValueError', () => {
    const w = rlx.tensor(Float64Array.from({ length: n }, (_, i) => Math.cos(3 * i)));
    const g = rlx.grad((bb: Tensor) => sparse.spsolve(A, bb, { method: 'cg', rtol: 1e-12, M: sparse.jacobi(A) }).mul(w).sum())(b) as Tensor;
    expect(g.toArray()).toBeAllclose(sparse.raw.cg(A, w.toArray() as Float64Array, { rtol: 1e-13 }).x, { rtol: 1e-8, atol: 1e-10 });
    expect(() => sparse.spsolve(A, b, { M: sparse.jacobi(A) })).toThrow(rlx.ValueError);
  });
});
