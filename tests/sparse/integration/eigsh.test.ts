// sparse.eigsh in shift-invert mode (sigma given: (A − σI) factored once by
// splu, every Lanczos step a solve): the 2-D Poisson matrix vs its analytic
// spectrum, a 1-D quantum well (finite differences of −½ψ'' + Vψ) vs the exact
// eigenvalues of the same tridiagonal matrix (rlx.linalg.eigvalsh of the dense
// one), interior shifts, and a complex Hermitian matrix; eigenvector residuals.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import { build, prng, randomSpd } from './helpers.js';

type M = rlx.sparse.CsrMatrix;

/** max_j ‖A v_j − λ_j v_j‖ over the returned pairs (complex interleaved when cplx). */
function residual(A: M, r: rlx.sparse.EigshResult): number {
  const n = A.shape[0],
    k = r.eigenvalues.length,
    L = r.dtype === 'complex128' ? 2 : 1;
  let worst = 0;
  for (let j = 0; j < k; j++) {
    const v = new Float64Array(n * L);
    for (let i = 0; i < n; i++) for (let l = 0; l < L; l++) v[i * L + l] = r.eigenvectors[(i * k + j) * L + l]!;
    const Av = A.matvecRaw(v);
    let s = 0,
      nv = 0;
    for (let q = 0; q < v.length; q++) (s += (Av[q]! - r.eigenvalues[j]! * v[q]!) ** 2), (nv += v[q]! ** 2);
    expect(Math.sqrt(nv)).toBeCloseTo(1, 10);
    worst = Math.max(worst, Math.sqrt(s));
  }
  return worst;
}

/** The k dense eigenvalues nearest sigma, ascending. */
function nearest(all: Float64Array, sigma: number, k: number): number[] {
  return [...all]
    .sort((a, b) => Math.abs(a - sigma) - Math.abs(b - sigma))
    .slice(0, k)
    .sort((a, b) => a - b);
}

const dense = (A: M) => rlx.linalg.eigvalsh(A.toDense()).toArray() as Float64Array;

describe('eigsh shift-invert (splu)', () => {
  for (const n of [8, 15])
    it(`poisson2d(${n}): the 6 lowest eigenvalues (sigma = 0) are 4 − 2cos(iπ/(n+1)) − 2cos(jπ/(n+1))`, () => {
      const A = rlx.sparse.poisson2d(n);
      const analytic: number[] = [];
      for (let i = 1; i <= n; i++) for (let j = 1; j <= n; j++) analytic.push(4 - 2 * Math.cos((i * Math.PI) / (n + 1)) - 2 * Math.cos((j * Math.PI) / (n + 1)));
      analytic.sort((a, b) => a - b);
      const r = rlx.sparse.raw.eigsh(A, 6, { sigma: 0 });
      expect(r.eigenvalues).toHaveLength(6);
      expect(Array.from(r.eigenvalues)).toBeAllclose(analytic.slice(0, 6), { rtol: 1e-10, atol: 1e-12 });
      expect(residual(A, r)).toBeLessThan(1e-8);
      // the degenerate pair (i, j) / (j, i): two orthogonal eigenvectors, not one twice
      const k = 6;
      let dot = 0;
      for (let q = 0; q < n * n; q++) dot += r.eigenvectors[q * k + 1]! * r.eigenvectors[q * k + 2]!;
      expect(Math.abs(dot)).toBeLessThan(1e-8);
      // shift-invert needs far fewer operator applications than the dimension
      expect(r.matvecs).toBeLessThan(n * n * 4);
    });

  for (const dtype of ['float32', 'complex64', 'complex128'] as const)
    it(`poisson2d(6) stored as ${dtype}: the same lowest eigenvalues`, () => {
      const A = rlx.sparse.poisson2d(6).astype(dtype);
      const ref = dense(rlx.sparse.poisson2d(6)).slice(0, 4);
      const r = rlx.sparse.raw.eigsh(A, 4, { sigma: 0 });
      expect(Array.from(r.eigenvalues)).toBeAllclose(Array.from(ref), dtype === 'complex128' ? { rtol: 1e-10, atol: 1e-12 } : { rtol: 1e-5, atol: 1e-5 });
    });

  it("which with sigma selects among the eigenvalues of (A − σI)⁻¹: 'LA' just above sigma, 'SA' just below; any format", () => {
    const A = rlx.sparse.poisson1d(40);
    const all = [...dense(A)];
    const sigma = 2.05;
    const above = all.filter((e) => e > sigma).slice(0, 3);
    const below = all.filter((e) => e < sigma).slice(-3);
    for (const M of [A, A.tocsc(), A.tocoo()] as unknown as M[]) {
      expect(Array.from(rlx.sparse.raw.eigsh(M, 3, { sigma, which: 'LA' }).eigenvalues)).toBeAllclose(above, { rtol: 1e-10, atol: 1e-10 });
      expect(Array.from(rlx.sparse.raw.eigsh(M, 3, { sigma, which: 'SA' }).eigenvalues)).toBeAllclose(below, { rtol: 1e-10, atol: 1e-10 });
    }
  });

  it('poisson2d(12): an interior shift finds the 5 eigenvalues nearest sigma', () => {
    const A = rlx.sparse.poisson2d(12);
    const sigma = 3.1;
    const r = rlx.sparse.raw.eigsh(A, 5, { sigma });
    expect(Array.from(r.eigenvalues)).toBeAllclose(nearest(dense(A), sigma, 5), { rtol: 1e-10, atol: 1e-10 });
    expect(residual(A, r)).toBeLessThan(1e-8);
  });

  it('1-D quantum well −½ψ″ + V(x)ψ: the 5 lowest levels vs eigvalsh of the same matrix, and vs (n + ½) for V = x²/2', () => {
    const N = 300,
      half = 8,
      h = (2 * half) / (N + 1);
    for (const [name, V, exact] of [
      ['harmonic', (x: number) => 0.5 * x * x, (j: number) => j + 0.5],
      ['finite square well', (x: number) => (Math.abs(x) < 2 ? -10 : 0), undefined],
    ] as const) {
      const xs = Array.from({ length: N }, (_, i) => -half + (i + 1) * h);
      const H = rlx.sparse.diags([new Array(N - 1).fill(-0.5 / (h * h)), xs.map((x) => 1 / (h * h) + V(x)), new Array(N - 1).fill(-0.5 / (h * h))], [-1, 0, 1]) as M;
      const ref = dense(H);
      const sigma = name === 'harmonic' ? 0 : -11; // below the spectrum: the 5 nearest are the 5 lowest
      const r = rlx.sparse.raw.eigsh(H, 5, { sigma });
      expect(Array.from(r.eigenvalues), name).toBeAllclose(Array.from(ref.slice(0, 5)), { rtol: 1e-9, atol: 1e-9 });
      expect(residual(H, r)).toBeLessThan(1e-7 * (1 / (h * h)));
      // the discretization is second order: the levels are within O(h²) of the exact ones
      if (exact) for (let j = 0; j < 5; j++) expect(Math.abs(r.eigenvalues[j]! - exact(j)), `level ${j}`).toBeLessThan(0.02);
      // bound states of the square well lie inside it: −10 < E < 0
      if (!exact) for (const e of r.eigenvalues) expect(e > -10 && e < 0).toBe(true);
    }
  });

  it('complex Hermitian (indefinite): eigenvalues nearest sigma vs dense eigvalsh, complex eigenvectors', () => {
    const r = prng(4);
    const n = 40;
    const T = randomSpd(r, n, 'complex128', 0.1);
    const A0 = build(T, 'csr') as M;
    const shift = 1.5 * n + 1.5; // around the middle of the diagonal: indefinite
    const A = A0.sub(rlx.sparse.eye(n, { dtype: 'complex128' }).scale(shift));
    expect(A.dtype).toBe('complex128');
    const all = dense(A);
    expect(all[0]! < 0 && all[n - 1]! > 0).toBe(true);
    const sigma = 0.1;
    const res = rlx.sparse.raw.eigsh(A, 4, { sigma });
    expect(res.dtype).toBe('complex128');
    expect(Array.from(res.eigenvalues)).toBeAllclose(nearest(all, sigma, 4), { rtol: 1e-9, atol: 1e-9 });
    expect(residual(A, res)).toBeLessThan(1e-8);
    const t = res.toTensors();
    expect(t.eigenvectors.shape).toEqual([n, 4]);
    expect(t.eigenvectors.dtype).toBe('complex128');
  });

  it('a shift on an eigenvalue (A − σI exactly singular) is a SingularMatrixError', () => {
    const A = rlx.sparse.diags([[1, 2, 3, 4, 5, 6]], [0]) as M;
    expect(() => rlx.sparse.raw.eigsh(A, 2, { sigma: 3 })).toThrow(rlx.sparse.SingularMatrixError);
    // and the process goes on
    expect(Array.from(rlx.sparse.raw.eigsh(A, 2, { sigma: 3.2 }).eigenvalues)).toBeAllclose([3, 4], { rtol: 1e-12, atol: 1e-12 });
  });
});
