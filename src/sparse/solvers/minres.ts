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
import { axpy, c, dot } from './vec.js';

const EPS = Number.EPSILON;

const minresCore: Core = (p, x, r, rnorm, budget, done) => {
  const cplx = p.cplx,
    len = x.length;
  let r1 = r.slice(),
    r2 = r.slice(),
    y = new Float64Array(len);
  if (p.M) p.M(r1, y);
  else y.set(r1);
  const b1sq = dot(cplx, r1, y).re;
  if (!Number.isFinite(b1sq)) return { status: 'breakdown', iterations: 0, breakdown: 'nonfinite', message: `minres: ${p.M ? 'rᴴ M r' : 'rᴴ r'} is not finite (${p.M ? 'the preconditioner returned NaN/Inf' : 'the residual overflowed or holds NaN'})` };
  if (!(b1sq > 0)) return { status: 'breakdown', iterations: 0, breakdown: 'M', message: p.M ? 'minres: rᴴ M r ≤ 0: the preconditioner is not positive definite' : 'minres: rᴴ r underflowed to 0 with r ≠ 0' };
  const beta1 = Math.sqrt(b1sq);
  const innerTarget = p.target * (beta1 / rnorm);
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
    const bsq = dot(cplx, r2, y).re;
    if (!Number.isFinite(bsq)) return { status: 'breakdown', iterations: k - 1, breakdown: 'nonfinite', message: 'minres: a Lanczos vector became non-finite (A or M produced NaN/Inf)' };
    if (bsq < 0) return { status: 'breakdown', iterations: k - 1, breakdown: 'M', message: 'minres: rᴴ M r < 0: the preconditioner is not positive definite' };
    beta = Math.sqrt(bsq);
    const oldeps = epsln;
    const delta = cs * dbar + sn * alfa;
    const gbar = sn * dbar - cs * alfa;
    epsln = sn * beta;
    dbar = -cs * beta;
    const gamma = Math.max(Math.hypot(gbar, beta), EPS);
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
    if (est <= innerTarget || beta === 0) return { status: 'converged', iterations: k };
  }
  return { status: 'maxiter', iterations: budget };
};

/** Solves A x = b by MINRES (A Hermitian, M Hermitian positive definite). See common.ts for options and result. */
export function minres(A: OperatorLike, b: VectorLike, opts: SolveOptions = {}): SolveResult {
  return drive(setup('minres', A, b, opts), minresCore);
}
