// Preconditioned conjugate gradients for Hermitian positive definite A (real SPD
// or complex HPD) with an HPD preconditioner M ≈ A⁻¹.
//
// Complex-safe: ρ = rᴴz and pᴴAp are real for HPD data, but they are kept complex
// (and divided as complex numbers) so a slightly non-Hermitian A degrades
// gracefully instead of silently dropping imaginary parts.
// Breakdowns: ρ = rᴴ M r ≤ 0 with r ≠ 0 (M not positive definite) → 'rho';
// pᴴAp = 0 → 'pAp' (A singular or not definite along p); ρ or pᴴAp NaN/Inf →
// 'nonfinite' (M or A produced NaN/Inf: input is checked before, see finite.ts).

import type { OperatorLike } from './linear-operator.js';
import { type Core, drive, setup, type SolveOptions, type SolveResult, type VectorLike } from './common.js';
import { axpy, cabs, cdiv, cgStep, cneg, dot, nrm2, xpby } from './vec.js';

/** ‖r‖² from the fused step is used as it is between these bounds; outside them (overflow, underflow) ‖r‖ is recomputed safely. */
const RR_MIN = 2 ** -900;

const cgCore: Core = (p, x, r, rnorm, budget, done) => {
  const len = x.length,
    cplx = p.cplx;
  const z = p.M ? new Float64Array(len) : r;
  const q = new Float64Array(len);
  if (p.M) p.M(r, z);
  const pdir = z.slice();
  let rho = dot(cplx, r, z);
  for (let k = 1; k <= budget; k++) {
    if (!Number.isFinite(rho.re) || !Number.isFinite(rho.im)) {
      const what = p.M ? 'rᴴ M r is not finite (the preconditioner returned NaN/Inf)' : 'rᴴ r is not finite (the residual overflowed or holds NaN)';
      return { status: 'breakdown', iterations: k - 1, breakdown: 'nonfinite', message: `cg: ${what}` };
    }
    // For HPD M, ρ = rᴴMr > 0 whenever r ≠ 0, so ρ ≤ 0 means M is not definite (free test, no extra sweep).
    if (!(rho.re > 0)) {
      const what = p.M ? 'rᴴ M r ≤ 0 with r ≠ 0 (preconditioner not positive definite?)' : 'rᴴ r underflowed to 0 with r ≠ 0';
      return { status: 'breakdown', iterations: k - 1, breakdown: 'rho', message: `cg: ${what}` };
    }
    // q = A p and pᴴq: one fused pass when the kernel has it (CG is memory bound).
    const fused = p.Adot?.(pdir, q) ?? null;
    const pq = fused !== null ? { re: fused, im: 0 } : (p.A(pdir, q), dot(cplx, pdir, q));
    if (!Number.isFinite(pq.re) || !Number.isFinite(pq.im)) {
      return { status: 'breakdown', iterations: k - 1, breakdown: 'nonfinite', message: 'cg: pᴴ A p is not finite (A p overflowed or holds NaN)' };
    }
    if (cabs(pq) === 0) {
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
    // The fused sum of squares overflows for ‖r‖ ≳ 1e154 and underflows for ‖r‖ ≲ 1e-154: then the safe norm.
    rnorm = rr < Infinity && rr >= RR_MIN ? Math.sqrt(rr) : nrm2(r);
    p.callback?.(x, done + k, rnorm);
    p.onStep?.(done + k, rnorm);
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
