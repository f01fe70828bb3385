// PDE builders: the documented stencils, boundary conditions and structural
// properties (symmetry, null spaces, M-matrix signs, reduction to poisson2d).

import { describe, expect, it } from 'vitest';
import * as sp from '../../../src/sparse/index.js';
import { expectValid, toRef, expectClose } from './helpers.js';

const dense = (A: sp.CsrMatrix): number[][] => A.toDense().tolist() as number[][];
const rowSums = (A: sp.CsrMatrix): number[] => Array.from(A.matvec(new Float64Array(A.shape[1]).fill(1)));
const isSym = (A: sp.CsrMatrix): boolean => A.sub(A.transpose()).nnz === 0;

describe('poisson', () => {
  it('1-D stencils for each boundary condition', () => {
    expect(dense(sp.poisson1d(3))).toEqual([[2, -1, 0], [-1, 2, -1], [0, -1, 2]]);
    expect(dense(sp.poisson1d(3, { bc: 'neumann' }))).toEqual([[1, -1, 0], [-1, 2, -1], [0, -1, 1]]);
    expect(dense(sp.poisson1d(4, { bc: 'periodic' }))).toEqual([[2, -1, 0, -1], [-1, 2, -1, 0], [0, -1, 2, -1], [-1, 0, -1, 2]]);
    expect(dense(sp.poisson1d(2, { bc: 'periodic' }))).toEqual([[2, -2], [-2, 2]]);
    expect(sp.poisson1d(1, { bc: 'periodic' }).nnz).toBe(0);
    expect(dense(sp.poisson1d(1, { bc: 'neumann' }))).toEqual([[0]].map((r) => r.map(() => 0)));
    expect(sp.poisson1d(0).shape).toEqual([0, 0]);
    expect(() => sp.poisson1d(3, { bc: 'robin' as never })).toThrow(/bc must be/);
  });
  it('2-D and 3-D: diagonals 4 / 6, symmetric, Neumann and periodic rows sum to zero', () => {
    for (const bc of ['dirichlet', 'neumann', 'periodic'] as const) {
      const A2 = sp.poisson2d(5, { bc }), A3 = sp.poisson3d(4, { bc });
      for (const A of [A2, A3]) {
        expectValid(A, true);
        expect(isSym(A)).toBe(true);
        if (bc !== 'dirichlet') expect(rowSums(A).every((s) => s === 0)).toBe(true);
      }
      expect(Array.from(A2.diagonalRaw()).every((d) => (bc === 'neumann' ? d >= 2 && d <= 4 : d === 4))).toBe(true);
      expect(Array.from(A3.diagonalRaw()).every((d) => (bc === 'neumann' ? d >= 3 && d <= 6 : d === 6))).toBe(true);
    }
    // Dirichlet: 5-point stencil counts: n² diagonal + 4n(n−1) neighbours.
    expect(sp.poisson2d(5).nnz).toBe(25 + 4 * 5 * 4);
    expect(sp.poisson3d(4).nnz).toBe(64 + 6 * 16 * 3);
    expect(sp.poisson2d(4, { bc: 'periodic' }).nnz).toBe(16 * 5);
  });
});

describe('variable coefficients', () => {
  it('diffusion2d with κ ≡ 1 is poisson2d, and uses harmonic means', () => {
    expectClose(toRef(sp.diffusion2d(() => 1, 4).toDense()), toRef(sp.poisson2d(4).toDense()), 0);
    const kappa = Float64Array.from({ length: 9 }, (_, p) => 1 + p);
    const A = sp.diffusion2d(kappa, 3);
    expectValid(A, true);
    expect(isSym(A)).toBe(true);
    const entry = (i: number, j: number): number => (A.toDense().tolist() as number[][])[i]![j]!;
    expect(entry(0, 1)).toBeCloseTo((-2 * 1 * 2) / 3, 14);
    expect(entry(0, 3)).toBeCloseTo((-2 * 1 * 4) / 5, 14);
    // Boundary faces of point 0 use κ₀ = 1 twice (left and bottom).
    expect(entry(0, 0)).toBeCloseTo(2 + 4 / 3 + 8 / 5, 14);
    // Function κ is evaluated at ((ix+1)h, (iy+1)h).
    const seen: [number, number][] = [];
    sp.diffusion2d((x, y) => (seen.push([x, y]), 1), 2);
    expect(seen).toEqual([[1 / 3, 1 / 3], [2 / 3, 1 / 3], [1 / 3, 2 / 3], [2 / 3, 2 / 3]]);
    expect(() => sp.diffusion2d(new Float64Array(3), 2)).toThrow(/kappa has 3 values, expected n² = 4/);
    expect(() => sp.diffusion2d(() => 0, 2)).toThrow(/kappa must be finite and > 0/);
  });

  it('convectionDiffusion2d is an upwind M-matrix, non-symmetric, poisson2d at Pe = 0', () => {
    expectClose(toRef(sp.convectionDiffusion2d(4, { peclet: 0 }).toDense()), toRef(sp.poisson2d(4).toDense()), 0);
    const n = 4, h = 1 / 5, pe = 10;
    const A = sp.convectionDiffusion2d(n, { peclet: pe });
    expectValid(A, true);
    expect(isSym(A)).toBe(false);
    const D = A.toDense().tolist() as number[][];
    const p = 1 * n + 1;
    expect(D[p]![p]).toBeCloseTo(4 + 2 * pe * h, 14);
    expect(D[p]![p - 1]).toBeCloseTo(-1 - pe * h, 14); // upwind in x (wind +x)
    expect(D[p]![p + 1]).toBe(-1);
    expect(D[p]![p - n]).toBeCloseTo(-1 - pe * h, 14);
    expect(D[p]![p + n]).toBe(-1);
    for (let i = 0; i < n * n; i++) for (let j = 0; j < n * n; j++) if (i !== j) expect(D[i]![j]).toBeLessThanOrEqual(0);
    const B = sp.convectionDiffusion2d(n, { peclet: pe, wind: [-1, 0] }).toDense().tolist() as number[][];
    expect(B[p]![p + 1]).toBeCloseTo(-1 - pe * h, 14);
    expect(B[p]![p - n]).toBe(-1);
  });

  it('helmholtz2d is complex symmetric: poisson2d − (kh)²(1 + i·damping)·I', () => {
    const n = 3, k = 6, s = (k / 4) ** 2;
    const A = sp.helmholtz2d(n, k, { damping: 0.5 });
    expectValid(A, true);
    expect(A.dtype).toBe('complex128');
    expect(A.sub(A.transpose()).nnz).toBe(0);
    expect(A.sub(A.conjTranspose()).nnz).toBe(9);
    const d = A.diagonalRaw();
    for (let i = 0; i < 9; i++) expect([d[2 * i], d[2 * i + 1]]).toEqual([4 - s, -s * 0.5]);
    expect(A.nnz).toBe(sp.poisson2d(n).nnz);
  });
});
