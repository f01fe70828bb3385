// Restarted GMRES(m) (Saad & Schultz 1986) with Givens rotations, real or complex.
//
// Preconditioning side (option `side`, default 'right'):
//   right: Arnoldi on A M⁻¹, x = x0 + M⁻¹ V y. The Givens estimate |g_{k+1}| is then
//          the norm of the TRUE residual b − A x (in exact arithmetic), which is
//          what the stopping rule measures: the default for that reason.
//   left:  Arnoldi on M⁻¹ A, minimizing ‖M⁻¹(b − A x)‖. The estimate is of the
//          preconditioned residual; the inner target is scaled by ‖M⁻¹r₀‖/‖r₀‖
//          and the driver (common.ts) checks the true residual at every restart.
// Orthogonalization: modified Gram–Schmidt with one re-orthogonalization pass when
// the new vector lost more than 30% of its norm (Kahan/Parlett "twice is enough").
// maxiter counts inner Arnoldi steps over all cycles (SciPy counts cycles): one
// iteration = one application of A, as for the other solvers.
// With a callback, xk is formed at every step (O(k·n) extra work per step); the
// progress bar (SolveOptions.progress) gets the Givens estimate only, no xk.

import type { OperatorLike } from './linear-operator.js';
import { type Core, drive, setup, type SolveOptions, type SolveResult, type VectorLike } from './common.js';
import { ValueError } from '../../tensor/errors.js';
import { axpy, c, cabs, cconj, cdiv, cmul, cneg, dot, nrm2, scal, type C } from './vec.js';

export interface GmresOptions extends SolveOptions {
  /** Krylov dimension per cycle, default 30 (capped at n). */
  restart?: number;
  /** Where M is applied, default 'right' (see header). */
  side?: 'right' | 'left';
}

/** Complex Givens rotation [c s; −s̄ c] taking (a, b) to (r, 0); c real. */
function givens(a: C, b: C): { c: number; s: C; r: C } {
  const aa = cabs(a),
    bb = cabs(b);
  if (bb === 0) return { c: 1, s: c(0), r: a };
  if (aa === 0) return { c: 0, s: { re: b.re / bb, im: -b.im / bb }, r: c(bb) };
  const t = Math.hypot(aa, bb);
  const ph = { re: a.re / aa, im: a.im / aa };
  return { c: aa / t, s: cmul(ph, { re: b.re / t, im: -b.im / t }), r: { re: ph.re * t, im: ph.im * t } };
}

/** y solving the upper-triangular R y = g (R[i][l] stored as H[l][i]). */
function backSolve(H: C[][], g: C[], k: number): C[] {
  const y: C[] = new Array(k);
  for (let i = k - 1; i >= 0; i--) {
    let s = g[i]!;
    for (let l = i + 1; l < k; l++) {
      const t = cmul(H[l]![i]!, y[l]!);
      s = { re: s.re - t.re, im: s.im - t.im };
    }
    y[i] = cdiv(s, H[i]![i]!);
  }
  return y;
}

function gmresCore(restart: number, side: 'right' | 'left'): Core {
  return (p, x, r, rnorm, budget, done) => {
    const cplx = p.cplx,
      len = x.length;
    const tmp = new Float64Array(len);
    const left = side === 'left' && p.M !== null,
      right = side === 'right' && p.M !== null;
    let r0 = r,
      beta = rnorm;
    if (left) {
      r0 = new Float64Array(len);
      p.M!(r, r0);
      beta = nrm2(r0);
    }
    const scale = beta / rnorm; // estimate units per true-residual unit
    const innerTarget = p.target * scale;
    const m = Math.min(restart, budget);
    const V: Float64Array[] = [r0.slice()];
    scal(cplx, c(1 / beta), V[0]!);
    const H: C[][] = [];
    const cs = new Float64Array(m);
    const sn: C[] = [];
    const g: C[] = [c(beta)];
    const w = new Float64Array(len);
    let k = 0;
    let status: 'converged' | 'restart' | 'maxiter' | 'breakdown' = 'restart';

    const update = (target: Float64Array, kk: number): void => {
      const y = backSolve(H, g, kk);
      const u = new Float64Array(len);
      for (let i = 0; i < kk; i++) axpy(cplx, y[i]!, V[i]!, u);
      if (right) {
        p.M!(u, tmp);
        axpy(cplx, c(1), tmp, target);
      } else axpy(cplx, c(1), u, target);
    };

    for (let j = 0; j < m; j++) {
      if (right) {
        p.M!(V[j]!, tmp);
        p.A(tmp, w);
      } else if (left) {
        p.A(V[j]!, tmp);
        p.M!(tmp, w);
      } else p.A(V[j]!, w);
      const w0 = nrm2(w);
      const h: C[] = new Array(j + 2);
      for (let i = 0; i <= j; i++) {
        const d = dot(cplx, V[i]!, w);
        axpy(cplx, cneg(d), V[i]!, w);
        h[i] = d;
      }
      let hn = nrm2(w);
      if (hn < 0.7 * w0) {
        for (let i = 0; i <= j; i++) {
          const d = dot(cplx, V[i]!, w);
          axpy(cplx, cneg(d), V[i]!, w);
          h[i] = { re: h[i]!.re + d.re, im: h[i]!.im + d.im };
        }
        hn = nrm2(w);
      }
      h[j + 1] = c(hn);
      for (let i = 0; i < j; i++) {
        const a = h[i]!,
          b = h[i + 1]!,
          si = sn[i]!,
          ci = cs[i]!;
        const sb = cmul(si, b),
          sa = cmul(cconj(si), a);
        h[i] = { re: ci * a.re + sb.re, im: ci * a.im + sb.im };
        h[i + 1] = { re: ci * b.re - sa.re, im: ci * b.im - sa.im };
      }
      const rot = givens(h[j]!, h[j + 1]!);
      cs[j] = rot.c;
      sn[j] = rot.s;
      h[j] = rot.r;
      h[j + 1] = c(0);
      H.push(h);
      const gj = g[j]!;
      g[j + 1] = cneg(cmul(cconj(rot.s), gj));
      g[j] = { re: rot.c * gj.re, im: rot.c * gj.im };
      k = j + 1;
      if (cabs(rot.r) === 0) {
        // A M⁻¹ maps the Krylov space onto a smaller one: the projected system is singular.
        k = j; // solve with what is nonsingular
        status = 'breakdown';
        break;
      }
      const est = cabs(g[j + 1]!);
      if (p.callback) {
        const xk = x.slice();
        update(xk, k);
        p.callback(xk, done + k, est / scale);
      }
      p.onStep?.(done + k, est / scale); // the estimate alone: no iterate is formed for the bar
      if (est <= innerTarget || hn === 0) {
        status = 'converged';
        break;
      }
      if (k === budget) {
        status = 'maxiter';
        break;
      }
      const vn = w.slice();
      scal(cplx, c(1 / hn), vn);
      V.push(vn);
    }
    if (k > 0) update(x, k);
    if (status === 'breakdown') return { status, iterations: Math.max(k, 1), breakdown: 'H', message: 'gmres: the Hessenberg matrix became singular (A M⁻¹ singular on the Krylov space)' };
    return { status, iterations: k };
  };
}

/** Solves A x = b by restarted GMRES (any square A, real or complex). See common.ts and the header for options. */
export function gmres(A: OperatorLike, b: VectorLike, opts: GmresOptions = {}): SolveResult {
  const s = setup('gmres', A, b, opts);
  const restart = Math.min(opts.restart ?? 30, Math.max(s.p.n, 1));
  if (!Number.isInteger(restart) || restart < 1) throw new ValueError(`gmres: restart must be a positive integer, got ${opts.restart}`);
  const side = opts.side ?? 'right';
  if (side !== 'right' && side !== 'left') throw new ValueError(`gmres: side must be 'right' or 'left', got ${String(side)}`);
  return drive(s, gmresCore(restart, side));
}
