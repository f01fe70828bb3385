// BiCGSTAB (van der Vorst 1992) for general square A, right-preconditioned as in
// SciPy: it iterates on A M⁻¹ y = b, x = M⁻¹ y, so the residual it tracks is
// the true, unpreconditioned b − A x. Complex-safe (r̂ᴴ r with conjugation).
//
// Breakdowns (relative thresholds, so scaling A or b does not change them):
//   'rho'   r̂ᴴ r ≈ 0: the shadow residual became orthogonal to r;
//   'rhatv' r̂ᴴ v ≈ 0: α would be infinite;
//   'omega' ω ≈ 0: the stabilizing step stalls (tᴴs = 0), BiCG part cannot continue.

import type { OperatorLike } from './linear-operator.js';
import { type Core, drive, setup, type SolveOptions, type SolveResult, type VectorLike } from './common.js';
import { axpy, c, cabs, cdiv, cmul, cneg, dot, nrm2, type C } from './vec.js';

const EPS2 = Number.EPSILON * Number.EPSILON;

const bicgstabCore: Core = (p, x, r, rnorm, budget, done) => {
  const len = x.length,
    cplx = p.cplx;
  const rhat = r.slice();
  const rhatNorm = rnorm;
  const pv = new Float64Array(len),
    v = new Float64Array(len),
    t = new Float64Array(len);
  const phat = p.M ? new Float64Array(len) : pv;
  const shat = p.M ? new Float64Array(len) : r; // s is stored in r
  let rhoPrev: C = c(1),
    alpha: C = c(1),
    omega: C = c(1);
  for (let k = 1; k <= budget; k++) {
    const rho = dot(cplx, rhat, r);
    if (cabs(rho) <= EPS2 * rhatNorm * rnorm) return { status: 'breakdown', iterations: k - 1, breakdown: 'rho', message: 'bicgstab: r̂ᴴ r = 0 (shadow residual orthogonal to r)' };
    if (k === 1) pv.set(r);
    else {
      const beta = cmul(cdiv(rho, rhoPrev), cdiv(alpha, omega));
      // p = r + β (p − ω v)
      axpy(cplx, cneg(omega), v, pv);
      for (let i = 0; i < len; i++) t[i] = pv[i]!; // reuse t as scratch for β·p
      pv.set(r);
      axpy(cplx, beta, t, pv);
    }
    if (p.M) p.M(pv, phat);
    p.A(phat, v);
    const rv = dot(cplx, rhat, v);
    if (cabs(rv) <= EPS2 * rhatNorm * nrm2(v)) return { status: 'breakdown', iterations: k - 1, breakdown: 'rhatv', message: 'bicgstab: r̂ᴴ A p = 0' };
    alpha = cdiv(rho, rv);
    axpy(cplx, cneg(alpha), v, r); // r is now s
    axpy(cplx, alpha, phat, x);
    const snorm = nrm2(r);
    if (snorm <= p.target) {
      p.callback?.(x, done + k, snorm);
      p.onStep?.(done + k, snorm);
      return { status: 'converged', iterations: k };
    }
    if (p.M) p.M(r, shat);
    p.A(shat, t);
    // ‖t‖ by the safe norm, and ω = (tᴴs/‖t‖)/‖t‖: tᴴt itself overflows for A with entries ≳ 1e154.
    const tn = nrm2(t);
    const ts = dot(cplx, t, r);
    if (tn === 0 || cabs(ts) <= EPS2 * tn * snorm) {
      return { status: 'breakdown', iterations: k, breakdown: 'omega', message: 'bicgstab: ω = tᴴs/tᴴt vanished (stabilization step stalls)' };
    }
    omega = { re: ts.re / tn / tn, im: ts.im / tn / tn };
    axpy(cplx, omega, shat, x);
    axpy(cplx, cneg(omega), t, r);
    rnorm = nrm2(r);
    p.callback?.(x, done + k, rnorm);
    p.onStep?.(done + k, rnorm);
    if (rnorm <= p.target) return { status: 'converged', iterations: k };
    rhoPrev = rho;
  }
  return { status: 'maxiter', iterations: budget };
};

/** Solves A x = b by right-preconditioned BiCGSTAB (any square A). See common.ts for options and result. */
export function bicgstab(A: OperatorLike, b: VectorLike, opts: SolveOptions = {}): SolveResult {
  return drive(setup('bicgstab', A, b, opts), bicgstabCore);
}
