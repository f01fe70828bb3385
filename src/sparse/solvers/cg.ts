// Preconditioned conjugate gradients for Hermitian positive definite A (real SPD
// or complex HPD) with an HPD preconditioner M ≈ A⁻¹.
//
// Complex-safe: ρ = rᴴz and pᴴAp are real for HPD data, but they are kept complex
// (and divided as complex numbers) so a slightly non-Hermitian A degrades
// gracefully instead of silently dropping imaginary parts.
// Breakdowns: ρ = rᴴ M r ≤ 0 with r ≠ 0 (M not positive definite) → 'rho';
// pᴴAp = 0 → 'pAp' (A singular or not definite along p).

import type { OperatorLike } from './linear-operator.js';
import { type Core, drive, setup, type SolveOptions, type SolveResult, type VectorLike } from './common.js';
import { axpy, cabs, cdiv, cgStep, cneg, dot, nrm2, xpby } from './vec.js';

const cgCore: Core = (p, x, r, rnorm, budget, done) => {
  const len = x.length,
    cplx = p.cplx;
  const z = p.M ? new Float64Array(len) : r;
  const q = new Float64Array(len);
  if (p.M) p.M(r, z);
  const pdir = z.slice();
  let rho = dot(cplx, r, z);
  for (let k = 1; k <= budget; k++) {
    // For HPD M, ρ = rᴴMr > 0 whenever r ≠ 0, so ρ ≤ 0 means M is not definite (free test, no extra sweep).
    if (!(rho.re > 0) || !Number.isFinite(rho.re)) {
      return { status: 'breakdown', iterations: k - 1, breakdown: 'rho', message: 'cg: rᴴ M r vanished with r ≠ 0 (preconditioner not positive definite?)' };
    }
    // q = A p and pᴴq: one fused pass when the kernel has it (CG is memory bound).
    const fused = p.Adot?.(pdir, q) ?? null;
    const pq = fused !== null ? { re: fused, im: 0 } : (p.A(pdir, q), dot(cplx, pdir, q));
    if (cabs(pq) === 0 || !Number.isFinite(pq.re)) {
      return { status: 'breakdown', iterations: k - 1, breakdown: 'pAp', message: 'cg: pᴴ A p = 0 (A singular or not positive definite)' };
    }
    const alpha = cdiv(rho, pq);
    let rr: number;
    if (!cplx || alpha.im === 0) {
      // One fused pass for x += αp, r −= αq and ‖r‖² (CG is memory bound; this saves two sweeps).
      rr = cgStep(alpha.re, pdir, q, x, r);
    } else {
      axpy(cplx, alpha, pdir, x);
      axpy(cplx, cneg(alpha), q, r);
      rr = nrm2(r) ** 2;
    }
    rnorm = Math.sqrt(rr);
    p.callback?.(x, done + k, rnorm);
    if (rnorm <= p.target) return { status: 'converged', iterations: k };
    if (p.M) p.M(r, z);
    // Without M, z = r and rᴴz = ‖r‖² is already known.
    const rhoNew = p.M ? dot(cplx, r, z) : { re: rr, im: 0 };
    xpby(cplx, z, cdiv(rhoNew, rho), pdir);
    rho = rhoNew;
  }
  return { status: 'maxiter', iterations: budget };
};

/** Solves A x = b by preconditioned CG (A Hermitian positive definite). See common.ts for options, result and stopping rule. */
export function cg(A: OperatorLike, b: VectorLike, opts: SolveOptions = {}): SolveResult {
  return drive(setup('cg', A, b, opts), cgCore);
}
