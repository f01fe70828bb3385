// Preconditioners: they are what they claim (M⁻¹ of the right factorization),
// they cut iterations on poisson2d(32) as in SciPy with the same preconditioner
// (golden.json), and they reject what they cannot factor with typed errors.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, gmres, ic0, ilu0, jacobi, minres, ssor, NotPositiveDefiniteError, LinearOperator } from '../../../src/sparse/solvers/index.js';
import { csrMatvec } from '../../../src/sparse/solvers/csr-kernels.js';
import { ShapeError, ValueError } from '../../../src/tensor/errors.js';
import * as U from './util.js';

const golden = JSON.parse(readFileSync(new URL('./golden.json', import.meta.url), 'utf8'));
const P = U.poisson2d(32);
const b = U.randomVector(1024);

describe('iteration counts on poisson2d(32), rtol 1e-8', () => {
  const g = golden.solvers.poisson2d_32;
  it('ic0 cuts CG iterations ≥ 2.5× and matches scipy cg with the same IC(0)', () => {
    const plain = cg(P, b, { rtol: 1e-8 });
    const pre = cg(P, b, { rtol: 1e-8, M: ic0(P) });
    expect(pre.converged).toBe(true);
    expect(pre.iterations * 2.5).toBeLessThan(plain.iterations);
    expect(Math.abs(pre.iterations - g.cg_ic0.iterations)).toBeLessThanOrEqual(1);
  });
  it('ilu0 cuts GMRES(30) iterations ≥ 4× and is within 2 of scipy gmres with the same ILU(0)', () => {
    const plain = gmres(P, b, { rtol: 1e-8 });
    const pre = gmres(P, b, { rtol: 1e-8, M: ilu0(P) });
    expect(pre.converged).toBe(true);
    expect(pre.iterations * 4).toBeLessThan(plain.iterations);
    expect(Math.abs(pre.iterations - g.gmres_ilu0.iterations)).toBeLessThanOrEqual(2);
  });
  it('ssor(1.5) cuts CG and MINRES iterations (SPD preconditioner)', () => {
    for (const s of [cg, minres]) {
      const plain = s(P, b, { rtol: 1e-8 });
      const pre = s(P, b, { rtol: 1e-8, M: ssor(P, 1.5) });
      expect(pre.converged).toBe(true);
      expect(pre.iterations * 2).toBeLessThan(plain.iterations);
    }
  });
  it('ilu0 on complex Helmholtz cuts GMRES and BiCGSTAB iterations', () => {
    const H = U.helmholtz(24);
    const bc = U.randomVector(2 * 576, 4);
    for (const s of [gmres, bicgstab]) {
      const plain = s(H, bc, { rtol: 1e-8 });
      const pre = s(H, bc, { rtol: 1e-8, M: ilu0(H) });
      expect(plain.converged && pre.converged).toBe(true);
      expect(pre.iterations * 2).toBeLessThan(plain.iterations);
    }
  });
  it('a user LinearOperator works as M (here: the exact inverse through a tight CG → 1 iteration)', () => {
    const A = U.poisson2d(8);
    const exact = new LinearOperator({ shape: [64, 64], matvec: (x) => cg(A, x, { rtol: 1e-14 }).x });
    const r = gmres(A, U.randomVector(64), { rtol: 1e-8, M: exact });
    expect(r.iterations).toBe(1);
  });
});

describe('what each preconditioner computes', () => {
  const A = U.convectionDiffusion(6, 1.5, 0.5);
  const n = 36;
  it('ilu0 is exact for a tridiagonal (no fill-in exists): M⁻¹ A x = x', () => {
    const T = U.fromRows(5, [[[0, 4, 0], [1, -1, 0]], [[0, -2, 0], [1, 5, 0], [2, 1, 0]], [[1, 1, 0], [2, 3, 0], [3, -1, 0]], [[2, 2, 0], [3, 6, 0], [4, 1, 0]], [[3, -1, 0], [4, 2, 0]]]);
    const x = U.randomVector(5);
    const y = ilu0(T).apply(csrMatvec(T, x));
    expect(U.maxAbsDiff(y, x)).toBeLessThan(1e-14);
  });
  it('ilu0: (L U)_ij = a_ij on the pattern of A (checked through M⁻¹ on unit vectors)', () => {
    // (LU) e_j column = M e_j where M = LU; reconstruct M by solving M y = e_j ⇔ y = M⁻¹ e_j, then LU = inverse.
    const M = ilu0(A);
    const Minv = new Float64Array(n * n);
    for (let j = 0; j < n; j++) {
      const e = new Float64Array(n);
      e[j] = 1;
      const col = M.apply(e);
      for (let i = 0; i < n; i++) Minv[i * n + j] = col[i]!;
    }
    // LU = (M⁻¹)⁻¹: solve column by column with the dense reference.
    const dense = U.csrToDense(A);
    for (let j = 0; j < n; j++) {
      const e = new Float64Array(n);
      e[j] = 1;
      const luCol = U.denseSolve(n, Minv, e);
      for (let i = 0; i < n; i++) if (dense[i * n + j] !== 0) expect(luCol[i]).toBeCloseTo(dense[i * n + j]!, 10);
    }
  });
  it('ic0 of a tridiagonal SPD is its exact Cholesky; ic0 on complex HPD solves with CG', () => {
    const T = U.poisson1d(20);
    const x = U.randomVector(20);
    expect(U.maxAbsDiff(ic0(T).apply(csrMatvec(T, x)), x)).toBeLessThan(1e-12);
    const G = U.magneticLaplacian(10);
    const bc = U.randomVector(200, 8);
    const plain = cg(G, bc, { rtol: 1e-10 });
    const pre = cg(G, bc, { rtol: 1e-10, M: ic0(G) });
    expect(pre.converged).toBe(true);
    expect(pre.iterations).toBeLessThan(plain.iterations);
  });
  it('on a full band (no fill outside it) ic0 and ilu0 are exact factorizations, real and complex', () => {
    // Banded matrices keep their Cholesky/LU factors inside the band, so zero fill-in loses nothing:
    // this exercises the row–row updates (rows sharing columns) that 5-point stencils never meet.
    const n = 30;
    const band = (cplx: boolean, sym: boolean) => {
      const rows: [number, number, number][][] = [];
      for (let i = 0; i < n; i++) {
        const r: [number, number, number][] = [[i, 7 + Math.sin(i), 0]];
        for (const d of [1, 2]) {
          const im = cplx ? 0.3 * d : 0;
          if (i - d >= 0) r.push([i - d, -1 + 0.1 * d, sym ? -im : im * 0.5]);
          if (i + d < n) r.push([i + d, -1 + 0.1 * d, sym ? im : -im * 0.7 + (sym ? 0 : 0.2)]);
        }
        rows.push(r);
      }
      return U.fromRows(n, rows, cplx);
    };
    for (const cplx of [false, true]) {
      const S = band(cplx, true);
      const x = U.randomVector((cplx ? 2 : 1) * n, 12);
      expect(U.maxAbsDiff(ic0(S).apply(csrMatvec(S, x)), x)).toBeLessThan(1e-12);
      const N = band(cplx, false);
      expect(U.maxAbsDiff(ilu0(N).apply(csrMatvec(N, x)), x)).toBeLessThan(1e-12);
      // ssor is not exact, but still an approximate inverse: M⁻¹A x closer to x than A x is.
      const y = ssor(S).apply(csrMatvec(S, x));
      expect(U.norm(y.map((v, i) => v - x[i]!))).toBeLessThan(U.norm(x));
    }
  });
  it('ssor and ic0 are Hermitian positive definite for SPD A: yᵀM⁻¹x = xᵀM⁻¹y, xᵀM⁻¹x > 0', () => {
    for (const M of [ssor(P, 1.3), ssor(P, 0.7), ic0(P), jacobi(P)]) {
      const x = U.randomVector(1024, 2),
        y = U.randomVector(1024, 3);
      const dot = (a: Float64Array, c: Float64Array) => a.reduce((s, v, i) => s + v * c[i]!, 0);
      expect(dot(y, M.apply(x))).toBeCloseTo(dot(x, M.apply(y)), 10);
      expect(dot(x, M.apply(x))).toBeGreaterThan(0);
    }
  });
  it('ssor with ω = 1 on a diagonal matrix is exact', () => {
    const D = U.fromRows(3, [[[0, 2, 0]], [[1, 4, 0]], [[2, 8, 0]]]);
    expect(Array.from(ssor(D, 1).apply(Float64Array.from([2, 4, 8])))).toEqual([1, 1, 1]);
  });
  it('jacobi divides by the (complex) diagonal', () => {
    const H = U.fromRows(2, [[[0, 0, 2]], [[1, 1, 1]]], true);
    const y = jacobi(H).apply(Float64Array.from([2, 0, 2, 0]));
    expect(Array.from(y).map((v) => +v.toFixed(12))).toEqual([0, -1, 1, -1]);
  });
});

describe('errors', () => {
  it('ic0 on an indefinite matrix → NotPositiveDefiniteError naming the row', () => {
    const A = U.fromRows(3, [[[0, 2, 0], [1, -1, 0]], [[0, -1, 0], [1, 0.25, 0], [2, 1, 0]], [[1, 1, 0], [2, 3, 0]]]);
    let err: unknown;
    try {
      ic0(A);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NotPositiveDefiniteError);
    expect(err).toBeInstanceOf(ValueError);
    expect((err as NotPositiveDefiniteError).row).toBe(1);
    expect((err as Error).message).toMatch(/row 1/);
  });
  it('ilu0/jacobi/ssor with a missing or zero diagonal → ValueError naming the row', () => {
    const Z = U.fromRows(2, [[[0, 1, 0], [1, 1, 0]], [[0, 1, 0]]]);
    for (const f of [ilu0, jacobi, (a: typeof Z) => ssor(a)]) expect(() => f(Z)).toThrow(/row 1/);
    const Z0 = U.fromRows(2, [[[0, 1, 0], [1, 1, 0]], [[0, 1, 0], [1, 1, 0]]]);
    expect(() => ilu0(Z0)).toThrow(ValueError); // singular: u_11 = 0
  });
  it('non-square, unsorted rows and bad omega are rejected', () => {
    const R = U.fromRows(2, [[[0, 1, 0]], [[1, 1, 0]], [[0, 1, 0]]]);
    expect(() => jacobi({ ...R, shape: [3, 2] })).toThrow(ShapeError);
    const unsorted = { ...P, indices: P.indices.slice() };
    [unsorted.indices[0], unsorted.indices[1]] = [unsorted.indices[1]!, unsorted.indices[0]!];
    expect(() => ilu0(unsorted)).toThrow(/not canonical/);
    expect(() => ssor(P, 2)).toThrow(ValueError);
    expect(() => ssor(P, 0)).toThrow(ValueError);
  });
});
