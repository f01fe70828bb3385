// Krylov solvers × model problems, and the contract every solver keeps (SciPy's
// info convention, the true-residual stopping rule, argument checking).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, gmres, ilu0, jacobi, LinearOperator, minres, type SolveOptions, type SolveResult } from '../../../src/sparse/solvers/index.js';
import type { CompressedArrays } from '../../../src/sparse/contract.js';
import { tensor } from '../../../src/tensor/create.js';
import { ShapeError, ValueError } from '../../../src/tensor/errors.js';
import * as U from './util.js';
import { readFileSync } from 'node:fs';

const golden = JSON.parse(readFileSync(new URL('./golden.json', import.meta.url), 'utf8'));

type Solver = (A: any, b: any, o?: SolveOptions) => SolveResult;
const SOLVERS: Record<string, Solver> = { cg, bicgstab, gmres, minres };

/** Checks the returned x: converged, true residual meets the rule, matches the dense solve. */
function expectSolved(A: CompressedArrays, b: Float64Array, r: SolveResult, rtol: number, xtol: number) {
  expect(r.info).toBe(0);
  expect(r.converged).toBe(true);
  const trueRes = U.residual(A, r.x, b);
  expect(trueRes).toBeLessThanOrEqual(rtol * U.norm(b));
  expect(r.residualNorm).toBeCloseTo(trueRes, 12);
  const cplx = A.dtype.startsWith('complex');
  const xd = U.denseSolve(A.shape[0], U.csrToDense(A), b, cplx);
  expect(U.maxAbsDiff(r.x, xd) / U.norm(xd)).toBeLessThan(xtol);
}

describe('solver × case matrix (rtol 1e-8, true residual, vs dense Gaussian elimination)', () => {
  const spd: [string, CompressedArrays][] = [
    ['poisson1d(60)', U.poisson1d(60)],
    ['poisson2d(12)', U.poisson2d(12)],
    ['variableDiffusion(10)', U.variableDiffusion(10)],
  ];
  for (const [name, A] of spd) {
    for (const s of ['cg', 'minres', 'gmres', 'bicgstab']) {
      it(`${s} on ${name}`, () => {
        const b = U.randomVector(A.shape[0]);
        const r = SOLVERS[s]!(U.csrOperator(A), b, { rtol: 1e-8, maxiter: 20000 });
        expectSolved(A, b, r, 1e-8, 1e-4);
      });
    }
  }
  const nonsym: [string, CompressedArrays][] = [
    ['convectionDiffusion(12)', U.convectionDiffusion(12, 2, 1)],
    ['helmholtz(12) complex', U.helmholtz(12)],
  ];
  for (const [name, A] of nonsym) {
    for (const s of ['gmres', 'bicgstab']) {
      it(`${s} on ${name}`, () => {
        const b = U.randomVector((A.dtype.startsWith('complex') ? 2 : 1) * A.shape[0], 11);
        const r = SOLVERS[s]!(A, b, { rtol: 1e-8 });
        expect(r.dtype).toBe(A.dtype.startsWith('complex') ? 'complex128' : 'float64');
        expectSolved(A, b, r, 1e-8, 1e-5);
      });
    }
  }
  for (const s of ['cg', 'minres', 'gmres', 'bicgstab']) {
    it(`${s} on the complex HPD magnetic Laplacian(12)`, () => {
      const A = U.magneticLaplacian(12);
      const b = U.randomVector(2 * 144, 5);
      expectSolved(A, b, SOLVERS[s]!(A, b, { rtol: 1e-9 }), 1e-9, 1e-6);
    });
  }
  it('a real A with a complex Tensor b solves the real and imaginary parts', () => {
    const A = U.poisson2d(8);
    const vals = U.randomVector(128, 3);
    const b = tensor(vals, { dtype: 'complex128' });
    const r = gmres(A, b, { rtol: 1e-10 });
    expect(r.dtype).toBe('complex128');
    const re = Float64Array.from({ length: 64 }, (_, i) => vals[2 * i]!);
    const xr = cg(A, re, { rtol: 1e-12 }).x;
    for (let i = 0; i < 64; i++) expect(r.x[2 * i]).toBeCloseTo(xr[i]!, 7);
    const t = r.toTensor();
    expect(t.dtype).toBe('complex128');
    expect(t.shape).toEqual([64]);
  });
  it('float32 and complex64 CSR data are applied in float64 (contract)', () => {
    const A = U.poisson2d(8);
    const A32 = { ...A, dtype: 'float32' as const, data: Float32Array.from(A.data) };
    const b = U.randomVector(64);
    const r = cg(A32, b, { rtol: 1e-10, M: jacobi(A32) });
    expect(r.converged && r.dtype === 'float64').toBe(true);
    expect(U.maxAbsDiff(r.x, cg(A, b, { rtol: 1e-10 }).x)).toBeLessThan(1e-8);
    const H = U.helmholtz(6);
    const H64 = { ...H, dtype: 'complex64' as const, data: Float32Array.from(H.data) };
    const bc = U.randomVector(72);
    const rc = bicgstab(H64, bc, { rtol: 1e-10, M: ilu0(H64) });
    expect(rc.converged && rc.dtype === 'complex128').toBe(true);
    expect(U.maxAbsDiff(rc.x, gmres(H, bc, { rtol: 1e-10 }).x)).toBeLessThan(1e-7);
  });
  it('a 0×0 system is solved trivially', () => {
    const r = gmres(U.fromRows(0, []), new Float64Array(0));
    expect(r.converged && r.iterations === 0 && r.x.length === 0).toBe(true);
  });
  it('gmres left and right preconditioning both meet the true-residual rule', () => {
    const A = U.convectionDiffusion(16, 3, 1);
    const b = U.randomVector(256);
    for (const side of ['left', 'right'] as const) {
      const r = gmres(A, b, { rtol: 1e-10, M: ilu0(A), side, restart: 10 });
      expect(r.converged).toBe(true);
      expect(U.residual(A, r.x, b)).toBeLessThanOrEqual(1e-10 * U.norm(b));
    }
  });
  it('gmres restarts: small restart still converges, with more iterations than full GMRES', () => {
    const A = U.convectionDiffusion(16, 1, 1);
    const b = U.randomVector(256);
    const full = gmres(A, b, { rtol: 1e-8, restart: 256 });
    const r5 = gmres(A, b, { rtol: 1e-8, restart: 5 });
    expect(full.converged && r5.converged).toBe(true);
    expect(r5.iterations).toBeGreaterThan(full.iterations);
  });
});

describe('iteration counts agree with SciPy 1.10 (golden.json, same matrices and rhs)', () => {
  const P = U.poisson2d(32);
  const b = U.randomVector(1024);
  const g = golden.solvers;
  const near = (ours: number, theirs: number, slack: number) => expect(Math.abs(ours - theirs)).toBeLessThanOrEqual(slack);
  it('cg on poisson2d(32): the same iteration count as scipy', () => near(cg(P, b, { rtol: 1e-8 }).iterations, g.poisson2d_32.cg.iterations, 1));
  it('gmres(30) on poisson2d(32)', () => near(gmres(P, b, { rtol: 1e-8 }).iterations, g.poisson2d_32.gmres.iterations, 2));
  it('bicgstab/gmres on convection–diffusion', () => {
    const C = U.convectionDiffusion(32, 2, 1);
    near(gmres(C, b, { rtol: 1e-8 }).iterations, g.convection_diffusion_32.gmres.iterations, 2);
    near(bicgstab(C, b, { rtol: 1e-8 }).iterations, g.convection_diffusion_32.bicgstab.iterations, 3);
    near(bicgstab(C, b, { rtol: 1e-8, M: ilu0(C) }).iterations, g.convection_diffusion_32.bicgstab_ilu0.iterations, 2);
  });
  it('variable-coefficient diffusion: Jacobi cuts CG iterations ≥ 20× (as in scipy)', () => {
    const V = U.variableDiffusion(32);
    const plain = cg(V, b, { rtol: 1e-8 });
    const jac = cg(V, b, { rtol: 1e-8, M: jacobi(V) });
    expect(plain.converged && jac.converged).toBe(true);
    expect(jac.iterations * 20).toBeLessThan(plain.iterations);
    near(jac.iterations, g.variable_diffusion_32.cg_jacobi.iterations, 3);
    // Unpreconditioned CG over ~6000 steps drifts with rounding; agree within 5%.
    near(plain.iterations, g.variable_diffusion_32.cg.iterations, 0.05 * g.variable_diffusion_32.cg.iterations);
  });
});

describe('contract (every solver)', () => {
  const A = U.poisson2d(10);
  const n = 100;
  const b = U.randomVector(n);
  for (const [name, solve] of Object.entries(SOLVERS)) {
    describe(name, () => {
      it('maxiter is honoured: info = maxiter, converged false, true residual reported', () => {
        const r = solve(A, b, { rtol: 1e-12, maxiter: 3 });
        expect(r.info).toBe(3);
        expect(r.iterations).toBe(3);
        expect(r.converged).toBe(false);
        expect(r.residualNorm).toBeCloseTo(U.residual(A, r.x, b), 12);
        expect(r.residualNorm).toBeGreaterThan(1e-12 * U.norm(b));
      });
      it('zero rhs → x = 0 with 0 iterations, even with x0', () => {
        const r = solve(A, new Float64Array(n), { x0: U.randomVector(n) });
        expect(r.info).toBe(0);
        expect(r.iterations).toBe(0);
        expect(Array.from(r.x).every((v) => v === 0)).toBe(true);
      });
      it('x0 = exact solution → 0 iterations and x0 returned', () => {
        const xs = U.randomVector(n, 9);
        const bb = U.csrOperator(A).matvec(xs);
        const r = solve(A, bb, { x0: xs, rtol: 1e-8 });
        expect(r.iterations).toBe(0);
        expect(r.info).toBe(0);
        expect(U.maxAbsDiff(r.x, xs)).toBe(0);
      });
      it('x0 is used as the start (fewer iterations from a close start)', () => {
        const xs = cg(A, b, { rtol: 1e-4 }).x;
        const cold = solve(A, b, { rtol: 1e-10 });
        const warm = solve(A, b, { rtol: 1e-10, x0: xs });
        expect(warm.converged).toBe(true);
        expect(warm.iterations).toBeLessThan(cold.iterations);
      });
      it('bad rtol/atol/maxiter → ValueError', () => {
        for (const o of [{ rtol: -1 }, { rtol: NaN }, { atol: -1e-3 }, { atol: NaN }, { maxiter: 0 }, { maxiter: 2.5 }]) {
          expect(() => solve(A, b, o)).toThrow(ValueError);
        }
      });
      it('shape mismatch → ShapeError (b, x0, M, non-square A)', () => {
        expect(() => solve(A, new Float64Array(n + 1))).toThrow(ShapeError);
        expect(() => solve(A, b, { x0: new Float64Array(3) })).toThrow(ShapeError);
        expect(() => solve(A, b, { M: jacobi(U.poisson2d(3)) })).toThrow(ShapeError);
        const rect = new LinearOperator({ shape: [n, n + 1], matvec: (x) => x.slice(0, n) });
        expect(() => solve(rect, b)).toThrow(ShapeError);
      });
      it('atol alone decides when rtol = 0', () => {
        const atol = 1e-6 * U.norm(b);
        const r = solve(A, b, { rtol: 0, atol });
        expect(r.converged).toBe(true);
        expect(r.residualNorm).toBeLessThanOrEqual(atol);
      });
      it('callback sees increasing iteration numbers and the final iterate', () => {
        const seen: number[] = [];
        let last: Float64Array | null = null;
        const r = solve(A, b, { rtol: 1e-8, callback: (xk, it) => { seen.push(it); last = xk.slice(); } });
        expect(seen.length).toBe(r.iterations);
        expect(seen).toEqual(Array.from(seen, (_, i) => i + 1));
        expect(U.maxAbsDiff(last!, r.x)).toBeLessThan(1e-12 * (1 + U.norm(r.x)));
      });
      it('accepts number[] and Tensor right-hand sides and a dense Tensor A', () => {
        const Ad = tensor(Array.from(U.csrToDense(A)), { shape: [n, n] });
        const r1 = solve(Ad, Array.from(b), { rtol: 1e-10 });
        const r2 = solve(A, tensor(b), { rtol: 1e-10 });
        expect(r1.converged && r2.converged).toBe(true);
        expect(U.maxAbsDiff(r1.x, r2.x)).toBeLessThan(1e-7);
      });
    });
  }
});

describe('breakdown is reported as info < 0', () => {
  it('cg: pᴴAp = 0 on a singular A', () => {
    // A = diag(1, 0) stored with an explicit zero, b = e₂: the first direction p = b has pᴴAp = 0.
    const r = cg(U.fromRows(2, [[[0, 1, 0]], [[1, 0, 0]]]), [0, 1]);
    expect(r.info).toBe(-1);
    expect(r.breakdown).toBe('pAp');
    expect(r.converged).toBe(false);
    expect(r.message).toMatch(/pᴴ A p/);
  });
  it('bicgstab: r̂ᴴ A p = 0 on the rotation [[0, 1], [−1, 0]] (r̂ ⟂ A r̂)', () => {
    const R = U.denseToCsr(2, 2, [0, 1, -1, 0]);
    const r = bicgstab(R, [1, 0]);
    expect(r.info).toBe(-1);
    expect(r.breakdown).toBe('rhatv');
  });
  it('cg: a negative definite preconditioner is reported as breakdown rho', () => {
    const negM = new LinearOperator({ shape: [10, 10], matvec: (x) => x.map((v) => -v) });
    const r = cg(U.poisson1d(10), U.randomVector(10), { M: negM });
    expect(r.info).toBe(-1);
    expect(r.breakdown).toBe('rho');
    expect(r.iterations).toBe(0);
  });
  it('minres: an indefinite preconditioner is reported as breakdown M', () => {
    const A = U.poisson1d(10);
    const negM = new LinearOperator({ shape: [10, 10], matvec: (x) => x.map((v) => -v) });
    const r = minres(A, U.randomVector(10), { M: negM });
    expect(r.info).toBe(-1);
    expect(r.breakdown).toBe('M');
  });
  it('gmres solves the rotation that breaks bicgstab', () => {
    const R = U.denseToCsr(2, 2, [0, 1, -1, 0]);
    const r = gmres(R, [1, 0], { rtol: 1e-12 });
    expect(r.converged).toBe(true);
    expect(U.maxAbsDiff(r.x, [0, 1])).toBeLessThan(1e-12);
  });
});

describe('properties (fast-check): random diagonally dominant systems', () => {
  /** Random sparse n×n with |a_ii| > Σ|a_ij| (symmetric when sym): every solver's domain. */
  const sysArb = (sym: boolean, complex: boolean) =>
    fc.record({ n: fc.integer({ min: 2, max: 30 }), seed: fc.integer({ min: 1, max: 1e6 }), density: fc.double({ min: 0.05, max: 0.5, noNaN: true }) }).map(({ n, seed, density }) => {
      const rnd = U.randomVector(4 * n * n + 2 * n, seed);
      const L = complex ? 2 : 1;
      const vals = new Float64Array(L * n * n);
      let q = 0;
      for (let i = 0; i < n; i++)
        for (let j = sym ? i + 1 : 0; j < n; j++) {
          if (i === j || Math.abs(rnd[q++]!) > density) continue;
          const re = rnd[q++]!, im = complex ? rnd[q++]! : 0;
          vals[L * (i * n + j)] = re;
          if (complex) vals[L * (i * n + j) + 1] = im;
          if (sym) {
            vals[L * (j * n + i)] = re;
            if (complex) vals[L * (j * n + i) + 1] = -im;
          }
        }
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++) if (j !== i) s += Math.hypot(vals[L * (i * n + j)]!, complex ? vals[L * (i * n + j) + 1]! : 0);
        vals[L * (i * n + i)] = s + 0.1 + Math.abs(rnd[q++] ?? 0.5);
      }
      const A = U.denseToCsr(n, n, vals, complex);
      const b = U.randomVector(L * n, seed + 1);
      return { A, b, n };
    });
  const check = (solve: Solver, sym: boolean, complex: boolean) =>
    fc.assert(
      fc.property(sysArb(sym, complex), ({ A, b }) => {
        const r = solve(A, b, { rtol: 1e-9 });
        expect(r.converged).toBe(true);
        expect(U.residual(A, r.x, b)).toBeLessThanOrEqual(1e-9 * U.norm(b));
        const xd = U.denseSolve(A.shape[0], U.csrToDense(A), b, complex);
        expect(U.maxAbsDiff(r.x, xd)).toBeLessThan(1e-6 * (1 + U.norm(xd)));
      }),
      { numRuns: 30 },
    );
  it('cg on SPD', () => check(cg, true, false));
  it('minres on HPD complex', () => check(minres, true, true));
  it('gmres on general complex', () => check(gmres, false, true));
  it('bicgstab on general real', () => check(bicgstab, false, false));
});
