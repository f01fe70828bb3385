// Preconditioned conjugate gradients for Hermitian positive definite A (real SPD
// or complex HPD) with an HPD preconditioner M ≈ A⁻¹.
//
// Complex-safe: ρ = rᴴz and pᴴAp are real for HPD data, but they are kept complex
// (and divided as complex numbers) so a slightly non-Hermitian A degrades
// gracefully instead of silently dropping imaginary parts.
// Breakdowns: ρ = rᴴ M r vanishing with r ≠ 0 (M not definite) → 'rho';
// pᴴAp = 0 → 'pAp' (A singular or not definite along p).

import type { OperatorLike } from './linear-operator.js';
import { type Core, drive, setup, type SolveOptions, type SolveResult, type VectorLike } from './common.js';
import { axpy, cabs, cdiv, cneg, dot, nrm2, xpby } from './vec.js';

const EPS = Number.EPSILON;

const cgCore: Core = (p, x, r, rnorm, budget, done) => {
  const len = x.length,
    cplx = p.cplx;
  const z = p.M ? new Float64Array(len) : r;
  const q = new Float64Array(len);
  if (p.M) p.M(r, z);
  const pdir = z.slice();
  let rho = dot(cplx, r, z);
  for (let k = 1; k <= budget; k++) {
    if (cabs(rho) <= EPS * EPS * rnorm * nrm2(z) || !Number.isFinite(rho.re)) {
      return { status: 'breakdown', iterations: k - 1, breakdown: 'rho', message: 'cg: rᴴ M r vanished with r ≠ 0 (preconditioner not positive definite?)' };
    }
    p.A(pdir, q);
    const pq = dot(cplx, pdir, q);
    if (cabs(pq) === 0 || !Number.isFinite(pq.re)) {
      return { status: 'breakdown', iterations: k - 1, breakdown: 'pAp', message: 'cg: pᴴ A p = 0 (A singular or not positive definite)' };
    }
    const alpha = cdiv(rho, pq);
    axpy(cplx, alpha, pdir, x);
    axpy(cplx, cneg(alpha), q, r);
    rnorm = nrm2(r);
    p.callback?.(x, done + k, rnorm);
    if (rnorm <= p.target) return { status: 'converged', iterations: k };
    if (p.M) p.M(r, z);
    const rhoNew = dot(cplx, r, z);
    xpby(cplx, z, cdiv(rhoNew, rho), pdir);
    rho = rhoNew;
  }
  return { status: 'maxiter', iterations: budget };
};

/** Solves A x = b by preconditioned CG (A Hermitian positive definite). See common.ts for options, result and stopping rule. */
export function cg(A: OperatorLike, b: VectorLike, opts: SolveOptions = {}): SolveResult {
  return drive(setup('cg', A, b, opts), cgCore);
}
