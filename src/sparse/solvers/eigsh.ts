// eigsh: a few eigenpairs of a real symmetric or complex Hermitian operator by
// thick-restart Lanczos (Wu & Simon 2000) with full re-orthogonalization.
//
// Each cycle extends an orthonormal basis V (ncv vectors) by Lanczos steps,
// orthogonalizing every new vector against ALL of V twice (classical Gram–Schmidt
// twice), which keeps V orthonormal to working precision and rules out ghost
// eigenvalues. The projected matrix T = Vᴴ OP V is real symmetric (Hermitian
// Lanczos has real α, β); it is tridiagonal plus, after a restart, an arrow of
// couplings to the kept Ritz vectors; it is diagonalized by symeig.ts (Householder
// + implicit QL). Restart keeps the most wanted Ritz vectors (k plus half the
// remaining room), which is what ARPACK's implicit restart does with exact shifts.
// Convergence (ARPACK's test): β·|y_last,i| ≤ tol·max(ε^(2/3), |θ_i|), tol = ε when 0.
//
// Shift-invert (sigma given): Lanczos runs on OP = (A − σI)⁻¹, whose largest |ν|
// belong to the eigenvalues λ = σ + 1/ν nearest σ; `which` then refers to ν, as in
// SciPy (default 'LM'). The solve is `opts.solve` when given (e.g. a sparse direct
// factorization; the SuiteSparse binding brings one), else MINRES (A − σI is
// Hermitian but indefinite, so CG does not apply) to rtol 1e-12 (or its stagnation
// level when that is unattainable, if below 1e-6). Returned λ are
// Rayleigh quotients xᴴAx of the final vectors, accurate even if the solve is not.

import type { RawOperator } from '../contract.js';
import { Tensor } from '../../tensor/tensor.js';
import { fromStorage } from '../../tensor/create.js';
import { ShapeError, ValueError } from '../../tensor/errors.js';
import { aslinearoperator, LinearOperator, type OperatorLike } from './linear-operator.js';
import { isComplexDType } from './csr-kernels.js';
import { readVector, type VectorLike } from './common.js';
import { minres } from './minres.js';
import { symEig } from './symeig.js';
import { NoConvergenceError } from './errors.js';
import { axpy, c, cneg, dot, nrm2, scal, seededVector } from './vec.js';

export type Which = 'LA' | 'SA' | 'LM' | 'SM';

export interface EigshOptions {
  /** Which eigenvalues (of OP: A, or (A − σI)⁻¹ with sigma). Default 'LM'. */
  which?: Which;
  /** Shift for shift-invert mode (see header). */
  sigma?: number;
  /** Relative accuracy of the Ritz values; 0 (default) means machine precision. */
  tol?: number;
  /** Maximum number of restart cycles, default 10·n (SciPy). */
  maxiter?: number;
  /** Start vector (default: a fixed pseudo-random vector, so runs are reproducible). */
  v0?: VectorLike;
  /** Basis size, k < ncv ≤ n; default min(n, max(2k + 1, 20)) (SciPy). */
  ncv?: number;
  /** x = (A − σI)⁻¹ b for shift-invert; default MINRES (rtol 1e-12). */
  solve?: (b: Float64Array) => Float64Array;
}

export interface EigshResult {
  /** k eigenvalues, ascending. */
  eigenvalues: Float64Array;
  /** Row-major [n, k]: column j is the unit eigenvector of eigenvalues[j] (interleaved complex for complex A). */
  eigenvectors: Float64Array;
  dtype: 'float64' | 'complex128';
  /** Restart cycles run. */
  iterations: number;
  /** Applications of OP (A or the shift-invert solve). */
  matvecs: number;
  /** The results as Tensors: eigenvalues [k] float64, eigenvectors [n, k] float64/complex128 (copies). */
  toTensors(): { eigenvalues: Tensor; eigenvectors: Tensor };
}

/** Indices of θ (ascending) from most to least wanted. */
function ranking(theta: Float64Array, which: Which): number[] {
  const idx = Array.from(theta, (_, i) => i);
  const key: Record<Which, (i: number) => number> = {
    LA: (i) => -theta[i]!,
    SA: (i) => theta[i]!,
    LM: (i) => -Math.abs(theta[i]!),
    SM: (i) => Math.abs(theta[i]!),
  };
  const f = key[which];
  return idx.sort((a, b) => f(a) - f(b) || a - b);
}

/** The shifted operator's inverse through MINRES. */
function minresSolve(op: RawOperator, sigma: number, cplx: boolean): (b: Float64Array) => Float64Array {
  const n = op.shape[0];
  const shifted = new LinearOperator({
    shape: [n, n],
    dtype: cplx ? 'complex128' : 'float64',
    matvec: (x) => {
      const y = Float64Array.from(op.matvec(x));
      for (let i = 0; i < y.length; i++) y[i]! -= sigma * x[i]!;
      return y;
    },
  });
  return (b) => {
    const r = minres(shifted, b, { rtol: 1e-12, maxiter: Math.max(20 * n, 1000) });
    // 1e-12 can lie below the attainable accuracy ε·cond(A − σI); MINRES then stops at
    // its stagnation level, which is still a fine OP for Lanczos (λ is refined by the
    // Rayleigh quotient with A). Only a solve that is plainly off is an error.
    if (!r.converged && !(r.residualNorm <= 1e-6 * nrm2(b))) throw new NoConvergenceError(`eigsh: the shift-invert inner solve (MINRES on A − ${sigma}·I) did not converge (info ${r.info}); pass opts.solve, or a sigma that is not an eigenvalue`, new Float64Array(0), new Float64Array(0));
    return r.x;
  };
}

/** k eigenpairs of the Hermitian A (anything aslinearoperator accepts). */
export function eigsh(A: OperatorLike, k: number, opts: EigshOptions = {}): EigshResult {
  const op = aslinearoperator(A);
  const [rows, n] = op.shape;
  if (rows !== n) throw new ShapeError(`eigsh: A must be square, got [${rows}, ${n}]`);
  if (!Number.isInteger(k) || k < 1 || k >= n) throw new ValueError(`eigsh: k must be an integer with 0 < k < n = ${n}, got ${k}`);
  const which = opts.which ?? 'LM';
  if (!['LA', 'SA', 'LM', 'SM'].includes(which)) throw new ValueError(`eigsh: which must be 'LA', 'SA', 'LM' or 'SM', got ${String(which)}`);
  const tol = opts.tol ?? 0;
  if (!(tol >= 0)) throw new ValueError(`eigsh: tol must be ≥ 0, got ${tol}`);
  const m = opts.ncv ?? Math.min(n, Math.max(2 * k + 1, 20));
  if (!Number.isInteger(m) || m <= k || m > n) throw new ValueError(`eigsh: ncv must be an integer with k < ncv ≤ n (k = ${k}, n = ${n}), got ${m}`);
  const maxiter = opts.maxiter ?? 10 * n;
  if (!Number.isInteger(maxiter) || maxiter < 1) throw new ValueError(`eigsh: maxiter must be a positive integer, got ${maxiter}`);
  const sigma = opts.sigma;
  if (sigma !== undefined && !Number.isFinite(sigma)) throw new ValueError(`eigsh: sigma must be a finite number, got ${sigma}`);

  const cplx = isComplexDType(op.dtype);
  const len = (cplx ? 2 : 1) * n;
  const Amv = (x: Float64Array): Float64Array => Float64Array.from(op.matvec(x));
  const solve = sigma === undefined ? null : (opts.solve ?? minresSolve(op, sigma, cplx));
  let matvecs = 0;
  const OP = (x: Float64Array): Float64Array => {
    matvecs++;
    const y = solve ? solve(x) : Amv(x);
    if (y.length !== len) throw new ShapeError(`eigsh: ${solve ? 'solve' : 'matvec'} returned ${y.length} values, expected ${len}`);
    return y;
  };

  let v0: Float64Array;
  if (opts.v0 !== undefined) {
    const d = readVector(opts.v0, 'eigsh: v0').data;
    if (d.length === len) v0 = d.slice();
    else if (cplx && d.length === n) {
      v0 = new Float64Array(len);
      for (let i = 0; i < n; i++) v0[2 * i] = d[i]!;
    } else throw new ShapeError(`eigsh: v0 has ${d.length} values, expected ${len}`);
    if (nrm2(v0) === 0) throw new ValueError('eigsh: v0 must be non-zero');
  } else v0 = seededVector(len, 1);
  scal(cplx, c(1 / nrm2(v0)), v0);

  const V: Float64Array[] = [v0];
  const T = new Float64Array(m * m);
  let f: Float64Array = new Float64Array(len),
    betaM = 0,
    kept = 0,
    restarts = 0;
  let theta: Float64Array = new Float64Array(0),
    Y: Float64Array = new Float64Array(0),
    order: number[] = [];
  const eps = Number.EPSILON,
    eps23 = eps ** (2 / 3),
    tolEff = tol > 0 ? tol : eps;
  let extraSeed = 2;

  /** w ← w − V[0..j] (V[0..j]ᴴ w), twice; returns the first pass's coefficient on V[j] (real part) plus the correction. */
  const orthogonalize = (w: Float64Array, j: number): number => {
    let diag = 0;
    for (let pass = 0; pass < 2; pass++) {
      const h = V.slice(0, j + 1).map((v) => dot(cplx, v, w));
      for (let i = 0; i <= j; i++) axpy(cplx, cneg(h[i]!), V[i]!, w);
      diag += h[j]!.re;
    }
    return diag;
  };

  let converged = false;
  for (restarts = 1; restarts <= maxiter; restarts++) {
    for (let j = kept; j < m; j++) {
      const w = OP(V[j]!);
      T[j * m + j] = orthogonalize(w, j);
      const beta = nrm2(w);
      const scaleRef = Math.abs(T[j * m + j]!) + (j > 0 ? Math.abs(T[j * m + j - 1]!) : 0);
      if (j < m - 1) {
        if (beta <= 1e3 * eps * Math.max(scaleRef, 1e-300)) {
          // Invariant subspace: continue with a fresh direction orthogonal to V (coupling 0).
          let r: Float64Array;
          let rn = 0;
          do {
            r = seededVector(len, extraSeed++);
            orthogonalize(r, j);
            rn = nrm2(r);
          } while (rn < 1e-8);
          scal(cplx, c(1 / rn), r);
          V[j + 1] = r;
          T[j * m + j + 1] = T[(j + 1) * m + j] = 0;
        } else {
          scal(cplx, c(1 / beta), w);
          V[j + 1] = w;
          T[j * m + j + 1] = T[(j + 1) * m + j] = beta;
        }
      } else {
        f = w;
        betaM = beta;
      }
    }
    ({ w: theta, Z: Y } = symEig(m, T));
    order = ranking(theta, which);
    converged = true;
    for (let l = 0; l < k; l++) {
      const i = order[l]!;
      if (betaM * Math.abs(Y[(m - 1) * m + i]!) > tolEff * Math.max(eps23, Math.abs(theta[i]!))) converged = false;
    }
    if (converged || restarts === maxiter) break;
    // Thick restart: keep p most wanted Ritz vectors, coupled to the residual direction f/β.
    const p = Math.min(m - 1, k + Math.floor((m - k) / 2));
    const newV: Float64Array[] = [];
    for (let l = 0; l < p; l++) newV.push(ritzVector(V, Y, m, order[l]!, cplx, len));
    T.fill(0);
    for (let l = 0; l < p; l++) {
      const i = order[l]!;
      T[l * m + l] = theta[i]!;
      T[l * m + p] = T[p * m + l] = betaM * Y[(m - 1) * m + i]!;
    }
    V.length = 0;
    V.push(...newV);
    const fv = f.slice();
    if (betaM > 0) scal(cplx, c(1 / betaM), fv);
    V.push(fv);
    kept = p;
  }

  // The k wanted pairs, as eigenvalues of A, ascending.
  const pairs = order.slice(0, k).map((i) => {
    const x = ritzVector(V, Y, m, i, cplx, len);
    let lam = theta[i]!;
    if (solve) {
      // λ = σ + 1/ν, refined by the Rayleigh quotient with A itself.
      const ax = Amv(x);
      lam = dot(cplx, x, ax).re / dot(cplx, x, x).re;
    }
    return { lam, x };
  });
  pairs.sort((a, b) => a.lam - b.lam);
  const evals = Float64Array.from(pairs, (q) => q.lam);
  const lanes = cplx ? 2 : 1;
  const evecs = new Float64Array(len * k);
  pairs.forEach((q, j) => {
    for (let i = 0; i < n; i++) for (let l = 0; l < lanes; l++) evecs[lanes * (i * k + j) + l] = q.x[lanes * i + l]!;
  });
  if (!converged) {
    throw new NoConvergenceError(`eigsh: ${k} eigenpairs did not all converge in ${maxiter} restart cycles (${matvecs} operator applications); the error carries the current Ritz pairs`, evals, evecs);
  }
  const dtype = cplx ? 'complex128' : 'float64';
  return {
    eigenvalues: evals,
    eigenvectors: evecs,
    dtype,
    iterations: restarts,
    matvecs,
    toTensors: () => ({ eigenvalues: fromStorage(evals.slice(), [k], 'float64'), eigenvectors: fromStorage(evecs.slice(), [n, k], dtype) }),
  };
}

/** Σ_r V[r]·Y[r, col], normalized (Y real, so the combination keeps V's orthonormality). */
function ritzVector(V: Float64Array[], Y: Float64Array, m: number, col: number, cplx: boolean, len: number): Float64Array {
  const x = new Float64Array(len);
  for (let r = 0; r < m; r++) axpy(cplx, c(Y[r * m + col]!), V[r]!, x);
  scal(cplx, c(1 / nrm2(x)), x);
  return x;
}
