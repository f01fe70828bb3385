// MINRES (Paige & Saunders 1975) for Hermitian (real symmetric or complex
// Hermitian), possibly indefinite A, following SciPy's minres without the shift.
// The preconditioner must be Hermitian positive DEFINITE (it defines the inner
// product of the Lanczos process); rᴴ M r < 0 is reported as breakdown 'M'.
//
// For Hermitian A every Lanczos coefficient (α = vᴴAv, β) is real, so the QR
// update of the tridiagonal uses real Givens rotations and the complex case costs
// only complex vectors. φ̄ estimates ‖r‖ in the M-norm; the inner target is scaled
// by β₁/‖r₀‖ and the driver checks the true 2-norm residual on exit.
// A is not checked for symmetry (that would cost extra products); a non-Hermitian
// A gives a wrong, usually non-converging, iteration.

import type { OperatorLike } from './linear-operator.js';
import { type Core, drive, setup, type SolveOptions, type SolveResult, type VectorLike } from './common.js';
import { axpy, c, dot, nrm2 } from './vec.js';

const EPS = Number.EPSILON;

/**
 * β = sqrt(rᴴ M r) with y = M r (y = r without M): then the safe ‖r‖ (nrm2), so
 * that an A with entries ≳ 1e154 does not overflow rᴴr. NaN when not finite,
 * −1 when rᴴ M r < 0 (M not positive definite).
 */
function mNorm(hasM: boolean, cplx: boolean, r: Float64Array, y: Float64Array): number {
  if (!hasM) return nrm2(r);
  const sq = dot(cplx, r, y).re;
  return sq < 0 ? -1 : Math.sqrt(sq);
}

const minresCore: Core = (p, x, r, rnorm, budget, done) => {
  const cplx = p.cplx,
    len = x.length;
  let r1 = r.slice(),
    r2 = r.slice(),
    y = new Float64Array(len);
  if (p.M) p.M(r1, y);
  else y.set(r1);
  const beta1 = mNorm(p.M !== null, cplx, r1, y);
  if (!Number.isFinite(beta1)) return { status: 'breakdown', iterations: 0, breakdown: 'nonfinite', message: `minres: ${p.M ? 'rᴴ M r' : '‖r‖'} is not finite (${p.M ? 'the preconditioner returned NaN/Inf' : 'the residual holds NaN/Inf'})` };
  if (!(beta1 > 0)) return { status: 'breakdown', iterations: 0, breakdown: 'M', message: 'minres: rᴴ M r ≤ 0: the preconditioner is not positive definite' };
  const innerTarget = p.target * (beta1 / rnorm);
  // Running estimate of ‖A‖ (the largest row norm of the Lanczos tridiagonal T met, overflow-safe):
  // γ's floor is relative to it, so a singular step is caught at any scale of A (SciPy's absolute
  // floor ε stalls the iteration for ‖A‖ ≲ ε, e.g. entries 1e-200).
  let anorm = 0;
  let oldb = 0,
    beta = beta1,
    dbar = 0,
    epsln = 0,
    phibar = beta1,
    cs = -1,
    sn = 0;
  const v = new Float64Array(len);
  let w = new Float64Array(len),
    w2 = new Float64Array(len);
  for (let k = 1; k <= budget; k++) {
    const s = 1 / beta;
    for (let i = 0; i < len; i++) v[i] = s * y[i]!;
    const ynew = r1; // r1's old content is consumed below before we overwrite it
    p.A(v, y);
    if (k >= 2) axpy(cplx, c(-beta / oldb), r1, y);
    const alfa = dot(cplx, v, y).re;
    axpy(cplx, c(-alfa / beta), r2, y);
    // r1 ← r2, r2 ← y, and y gets the free buffer for y = M r2.
    r1 = r2;
    r2 = y;
    y = ynew;
    if (p.M) p.M(r2, y);
    else y.set(r2);
    oldb = beta;
    beta = mNorm(p.M !== null, cplx, r2, y);
    if (!Number.isFinite(beta)) return { status: 'breakdown', iterations: k - 1, breakdown: 'nonfinite', message: 'minres: a Lanczos vector became non-finite (A or M produced NaN/Inf)' };
    if (beta < 0) return { status: 'breakdown', iterations: k - 1, breakdown: 'M', message: 'minres: rᴴ M r < 0: the preconditioner is not positive definite' };
    const oldeps = epsln;
    const delta = cs * dbar + sn * alfa;
    const gbar = sn * dbar - cs * alfa;
    epsln = sn * beta;
    dbar = -cs * beta;
    anorm = Math.max(anorm, Math.hypot(alfa, k > 1 ? oldb : 0, beta)); // β₁ = ‖r₀‖ is not an entry of T
    const gamma = Math.max(Math.hypot(gbar, beta), anorm > 0 ? EPS * anorm : EPS);
    cs = gbar / gamma;
    sn = beta / gamma;
    const phi = cs * phibar;
    phibar = sn * phibar;
    // w_new = (v − ε_old w1 − δ w2)/γ with w1 = previous w2, w2 = previous w: reuse w2's buffer.
    const ig = 1 / gamma;
    for (let i = 0; i < len; i++) w2[i] = (v[i]! - oldeps * w2[i]! - delta * w[i]!) * ig;
    const t = w;
    w = w2;
    w2 = t;
    axpy(cplx, c(phi), w, x);
    const est = Math.abs(phibar);
    p.callback?.(x, done + k, est * (rnorm / beta1));
    p.onStep?.(done + k, est * (rnorm / beta1));
    if (est <= innerTarget || beta === 0) return { status: 'converged', iterations: k };
  }
  return { status: 'maxiter', iterations: budget };
};

/** Solves A x = b by MINRES (A Hermitian, M Hermitian positive definite). See common.ts for options and result. */
export function minres(A: OperatorLike, b: VectorLike, opts: SolveOptions = {}): SolveResult {
  return drive(setup('minres', A, b, opts), minresCore);
}
