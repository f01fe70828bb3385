// eigsh (thick-restart Lanczos) against analytic spectra (2D Dirichlet Laplacian,
// particle in a box), SciPy's eigsh (golden.json) and a dense reference; and the
// dense symmetric eigensolver it relies on (the linalg js eigh kernel).

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eigsh, symEig, NoConvergenceError, LinearOperator, type Which } from '../../../src/sparse/solvers/index.js';
import { csrMatvec } from '../../../src/sparse/solvers/csr-kernels.js';
import type { CompressedArrays } from '../../../src/sparse/contract.js';
import { ShapeError, ValueError } from '../../../src/tensor/errors.js';
import * as U from './util.js';

const golden = JSON.parse(readFileSync(new URL('./golden.json', import.meta.url), 'utf8'));

/** Sorted analytic spectrum of poisson2d(n). */
function laplace2d(n: number): number[] {
  const w: number[] = [];
  const c = (i: number) => 2 * Math.cos((i * Math.PI) / (n + 1));
  for (let i = 1; i <= n; i++) for (let j = 1; j <= n; j++) w.push(4 - c(i) - c(j));
  return w.sort((a, b) => a - b);
}

/** max_j ‖A v_j − λ_j v_j‖ and max |VᴴV − I| for eigsh's row-major [n, k] output. */
function quality(A: CompressedArrays, vals: Float64Array, vecs: Float64Array, k: number) {
  const n = A.shape[0];
  const cplx = A.dtype.startsWith('complex');
  const L = cplx ? 2 : 1;
  const col = (j: number) => {
    const v = new Float64Array(L * n);
    for (let i = 0; i < n; i++) for (let l = 0; l < L; l++) v[L * i + l] = vecs[L * (i * k + j) + l]!;
    return v;
  };
  let res = 0,
    orth = 0;
  for (let j = 0; j < k; j++) {
    const v = col(j);
    const av = csrMatvec(A, v);
    for (let i = 0; i < av.length; i++) av[i]! -= vals[j]! * v[i]!;
    res = Math.max(res, U.norm(av));
    for (let q = 0; q < k; q++) {
      const w = col(q);
      let re = 0,
        im = 0;
      for (let i = 0; i < n; i++) {
        const vr = v[L * i]!, vi = cplx ? v[L * i + 1]! : 0, wr = w[L * i]!, wi = cplx ? w[L * i + 1]! : 0;
        re += vr * wr + vi * wi;
        im += vr * wi - vi * wr;
      }
      orth = Math.max(orth, Math.abs(re - (j === q ? 1 : 0)), Math.abs(im));
    }
  }
  return { res, orth };
}

describe('eigsh on the 2D Dirichlet Laplacian poisson2d(20) (n = 400)', () => {
  const n = 20;
  const A = U.poisson2d(n);
  const exact = laplace2d(n);
  const cases: [Which, number[]][] = [
    ['SA', exact.slice(0, 6)],
    ['SM', exact.slice(0, 6)],
    ['LA', exact.slice(-6)],
    ['LM', exact.slice(-6)],
  ];
  for (const [which, want] of cases) {
    it(`which = ${which}: 6 eigenvalues = 4 − 2cos(iπ/(n+1)) − 2cos(jπ/(n+1)) (multiplicities included), vectors A v = λ v`, () => {
      const r = eigsh(U.csrOperator(A), 6, { which });
      for (let j = 0; j < 6; j++) expect(r.eigenvalues[j]).toBeCloseTo(want[j]!, 10);
      for (let j = 0; j < 6; j++) expect(r.eigenvalues[j]).toBeCloseTo(golden.eigsh[`poisson2d_20_${which}`][j], 10);
      const q = quality(A, r.eigenvalues, r.eigenvectors, 6);
      expect(q.res).toBeLessThan(1e-8);
      expect(q.orth).toBeLessThan(1e-10);
    });
  }
  it('shift-invert sigma = 2.1 (internal MINRES): the 4 eigenvalues nearest σ, as scipy', () => {
    const near = [...exact].sort((a, b) => Math.abs(a - 2.1) - Math.abs(b - 2.1)).slice(0, 4).sort((a, b) => a - b);
    const r = eigsh(A, 4, { sigma: 2.1 });
    for (let j = 0; j < 4; j++) {
      expect(r.eigenvalues[j]).toBeCloseTo(near[j]!, 10);
      expect(r.eigenvalues[j]).toBeCloseTo(golden.eigsh['poisson2d_20_sigma_2.1'][j], 10);
    }
    expect(quality(A, r.eigenvalues, r.eigenvectors, 4).res).toBeLessThan(1e-8);
    // Shift-invert converges in far fewer operator applications than plain Lanczos for interior values.
    expect(r.iterations).toBeLessThan(10);
  });
  it('shift-invert with a user solve (dense LU) and sigma = 0 gives the lowest 6', () => {
    const small = U.poisson2d(10);
    const dense = U.csrToDense(small);
    let calls = 0;
    const solve = (b: Float64Array) => {
      calls++;
      return U.denseSolve(100, dense, b);
    };
    const r = eigsh(small, 6, { sigma: 0, solve });
    const ex = laplace2d(10);
    for (let j = 0; j < 6; j++) expect(r.eigenvalues[j]).toBeCloseTo(ex[j]!, 11);
    expect(calls).toBe(r.matvecs);
  });
  it('toTensors: eigenvalues [k] float64, eigenvectors [n, k]', () => {
    const r = eigsh(U.poisson2d(6), 3, { which: 'SA' });
    const t = r.toTensors();
    expect(t.eigenvalues.shape).toEqual([3]);
    expect(t.eigenvectors.shape).toEqual([36, 3]);
    expect(Array.from(t.eigenvalues.toArray())).toEqual(Array.from(r.eigenvalues));
  });
});

describe('eigsh: quantum particle in a box, H = −½ d²/dx² on (0, 1), finite differences', () => {
  const N = 400;
  const h = 1 / (N + 1);
  // H = (1/(2h²)) tridiag(−1, 2, −1) (V = 0 inside the box, ψ = 0 at the walls).
  const P = U.poisson1d(N);
  const H: CompressedArrays = { ...P, data: P.data.map((v) => v / (2 * h * h)) };
  it('lowest 4 energies: the exact discrete values (1 − cos kπh)/h², and k²π²/2 within O(h²)', () => {
    const r = eigsh(H, 4, { which: 'SA' });
    for (let k = 1; k <= 4; k++) {
      const discrete = (1 - Math.cos(k * Math.PI * h)) / (h * h);
      const continuum = (k * k * Math.PI * Math.PI) / 2;
      expect(Math.abs(r.eigenvalues[k - 1]! - discrete) / discrete).toBeLessThan(1e-10);
      // discretization error (kπh)²/12 relative
      expect(Math.abs(r.eigenvalues[k - 1]! - continuum) / continuum).toBeLessThan(((k * Math.PI * h) ** 2) / 12 * 1.01);
    }
  });
  it('the ground state is nodeless and ∝ sin(πx)', () => {
    const r = eigsh(H, 1, { sigma: 0 });
    const v = r.eigenvectors;
    const sign = Math.sign(v[N / 2]!);
    let dev = 0;
    const nrm = Math.sqrt(Array.from({ length: N }, (_, i) => Math.sin(Math.PI * (i + 1) * h) ** 2).reduce((a, b) => a + b));
    for (let i = 0; i < N; i++) {
      expect(sign * v[i]!).toBeGreaterThan(0);
      dev = Math.max(dev, Math.abs(sign * v[i]! - Math.sin(Math.PI * (i + 1) * h) / nrm));
    }
    expect(dev).toBeLessThan(1e-10);
  });
});

describe('eigsh on complex Hermitian matrices', () => {
  it('magnetic Laplacian(8): SA and LA agree with the dense spectrum of the real embedding [[Re, −Im], [Im, Re]]', () => {
    const G = U.magneticLaplacian(8, 1.1, 0);
    const n = 64;
    const d = U.csrToDense(G);
    const E = new Float64Array(4 * n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const re = d[2 * (i * n + j)]!, im = d[2 * (i * n + j) + 1]!;
        E[i * 2 * n + j] = re;
        E[(i + n) * 2 * n + j + n] = re;
        E[i * 2 * n + j + n] = -im;
        E[(i + n) * 2 * n + j] = im;
      }
    const w = symEig(2 * n, E).w.filter((_, i) => i % 2 === 0); // each eigenvalue appears twice
    for (const [which, want] of [['SA', w.slice(0, 4)], ['LA', w.slice(-4)]] as const) {
      const r = eigsh(G, 4, { which });
      expect(r.dtype).toBe('complex128');
      for (let j = 0; j < 4; j++) expect(r.eigenvalues[j]).toBeCloseTo(want[j]!, 9);
      const q = quality(G, r.eigenvalues, r.eigenvectors, 4);
      expect(q.res).toBeLessThan(1e-8);
      expect(q.orth).toBeLessThan(1e-10);
    }
    const si = eigsh(G, 3, { sigma: (w[10]! + w[11]!) / 2 });
    const near = Array.from(w).sort((a, b) => Math.abs(a - (w[10]! + w[11]!) / 2) - Math.abs(b - (w[10]! + w[11]!) / 2)).slice(0, 3).sort((a, b) => a - b);
    for (let j = 0; j < 3; j++) expect(si.eigenvalues[j]).toBeCloseTo(near[j]!, 9);
  });
});

describe('eigsh arguments and non-convergence', () => {
  const A = U.poisson2d(6);
  it('bad k, ncv, which, tol, sigma → ValueError; non-square → ShapeError', () => {
    expect(() => eigsh(A, 0)).toThrow(ValueError);
    expect(() => eigsh(A, 36)).toThrow(ValueError);
    expect(() => eigsh(A, 4, { ncv: 4 })).toThrow(ValueError);
    expect(() => eigsh(A, 4, { ncv: 37 })).toThrow(ValueError);
    expect(() => eigsh(A, 2, { which: 'XX' as Which })).toThrow(ValueError);
    expect(() => eigsh(A, 2, { tol: -1 })).toThrow(ValueError);
    expect(() => eigsh(A, 2, { sigma: NaN })).toThrow(ValueError);
    expect(() => eigsh(new LinearOperator({ shape: [3, 4], matvec: (x) => x.slice(0, 3) }), 1)).toThrow(ShapeError);
    expect(() => eigsh(A, 2, { v0: new Float64Array(5) })).toThrow(ShapeError);
  });
  it('maxiter too small → NoConvergenceError carrying the current Ritz pairs', () => {
    let err: unknown;
    try {
      eigsh(U.poisson2d(30), 5, { which: 'SA', ncv: 12, maxiter: 2 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NoConvergenceError);
    expect((err as NoConvergenceError).eigenvalues.length).toBe(5);
  });
  it('v0 is used: the same v0 gives the same result, and ncv = n is exact in one cycle', () => {
    const r = eigsh(A, 3, { which: 'SA', ncv: 36, v0: U.randomVector(36) });
    expect(r.iterations).toBe(1);
    const ex = laplace2d(6);
    for (let j = 0; j < 3; j++) expect(r.eigenvalues[j]).toBeCloseTo(ex[j]!, 12);
  });
});

describe('symEig (Householder + implicit QL)', () => {
  it('random symmetric matrices: A Z = Z diag(w), ZᵀZ = I, w ascending (fast-check)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 25 }), fc.integer({ min: 1, max: 1e6 }), (m, seed) => {
        const r = U.randomVector(m * m, seed);
        const A = new Float64Array(m * m);
        for (let i = 0; i < m; i++) for (let j = 0; j <= i; j++) A[i * m + j] = A[j * m + i] = r[i * m + j]!;
        const { w, Z } = symEig(m, A);
        for (let i = 1; i < m; i++) expect(w[i]).toBeGreaterThanOrEqual(w[i - 1]!);
        for (let i = 0; i < m; i++)
          for (let j = 0; j < m; j++) {
            let az = 0, zz = 0;
            for (let l = 0; l < m; l++) {
              az += A[i * m + l]! * Z[l * m + j]!;
              zz += Z[l * m + i]! * Z[l * m + j]!;
            }
            expect(Math.abs(az - Z[i * m + j]! * w[j]!)).toBeLessThan(1e-12 * m);
            expect(Math.abs(zz - (i === j ? 1 : 0))).toBeLessThan(1e-12 * m);
          }
      }),
      { numRuns: 40 },
    );
  });
  it('tridiag(−1, 2, −1) of order 50: 2 − 2cos(kπ/51)', () => {
    const m = 50;
    const T = U.csrToDense(U.poisson1d(m));
    const w = symEig(m, T).w;
    for (let k = 1; k <= m; k++) expect(w[k - 1]).toBeCloseTo(2 - 2 * Math.cos((k * Math.PI) / (m + 1)), 13);
  });
});
