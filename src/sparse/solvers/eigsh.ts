// eigsh: a few eigenpairs of a real symmetric or complex Hermitian operator by
// thick-restart Lanczos (Wu & Simon 2000) with full re-orthogonalization.
//
// Each cycle extends an orthonormal basis V (ncv vectors, one row-major block) by
// Lanczos steps, orthogonalizing every new vector against ALL of V by classical
// Gram–Schmidt as two BLAS-2 products (h = V w, w −= Vᴴ h), repeated while a pass
// removes more than 1 − 1/√2 of w's norm (the DGKS test, as ARPACK's dsaitr; at
// most 3 passes). That keeps V orthonormal to working precision and rules out
// ghost eigenvalues. The projected matrix T = Vᴴ OP V is real symmetric (Hermitian
// Lanczos has real α, β); it is tridiagonal plus, after a restart, an arrow of
// couplings to the kept Ritz vectors; it is diagonalized by symeig.ts (Householder
// + implicit QL). Restart (one gemm, V ← V Y) keeps the k wanted Ritz vectors plus
// min(nconv, (ncv − k)/2) more, nconv = the wanted ones already converged: the
// number ARPACK's implicit restart with exact shifts keeps (dsaup2), so both take
// about as many OP applications. Converged Ritz pairs are locked: their coupling
// to the residual (below tol·|θ|) is set to 0, so they stay exact eigenpairs of T.
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
import { c, dot, gemmTN, gemv, nrm2, scal, seededVector } from './vec.js';

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
  /** out = OP x (x and out are distinct rows of one buffer, or separate arrays). */
  const OP = (x: Float64Array, out: Float64Array): void => {
    matvecs++;
    const y = solve ? solve(x) : op.matvec(x, out);
    if (y.length !== len) throw new ShapeError(`eigsh: ${solve ? 'solve' : 'matvec'} returned ${y.length} values, expected ${len}`);
    if (y !== out) out.set(y);
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

  // The basis: m rows of `len` values in one row-major block (so that the
  // re-orthogonalization and the restart are BLAS-2/3 calls), and a second block
  // the restart writes into.
  let Vb = new Float64Array(m * len),
    Wb = new Float64Array(m * len);
  const row = (B: Float64Array, j: number): Float64Array => B.subarray(j * len, (j + 1) * len);
  Vb.set(v0);
  const T = new Float64Array(m * m);
  const f = new Float64Array(len);
  const h = new Float64Array(m),
    hIm = new Float64Array(m),
    tmp = cplx ? new Float64Array(len) : f;
  let betaM = 0,
    kept = 0,
    restarts = 0;
  let theta: Float64Array = new Float64Array(0),
    Y: Float64Array = new Float64Array(0),
    order: number[] = [];
  const eps = Number.EPSILON,
    eps23 = eps ** (2 / 3),
    tolEff = tol > 0 ? tol : eps;
  let extraSeed = 2;
  /** The convergence test of ARPACK (dsconv): β·|y_last| ≤ tol·max(ε^(2/3), |θ|). */
  const bound = (i: number): number => betaM * Math.abs(Y[(m - 1) * m + i]!);
  const isConverged = (i: number): boolean => bound(i) <= tolEff * Math.max(eps23, Math.abs(theta[i]!));

  /**
   * w ← w − V[0..j] V[0..j]ᴴ w, classical Gram–Schmidt with DGKS re-orthogonalization
   * (another pass while a pass removes more than 1 − 1/√2 of the norm, at most 3);
   * returns Σ of the (real parts of the) coefficients on V[j] and ‖w‖ after.
   */
  const orthogonalize = (w: Float64Array, j: number): { diag: number; norm: number } => {
    const rows = j + 1,
      Vj = Vb.subarray(0, rows * len),
      hj = h.subarray(0, rows),
      hi = hIm.subarray(0, rows);
    let diag = 0,
      before = nrm2(w),
      after = before;
    for (let pass = 0; pass < 3; pass++) {
      if (!cplx) {
        gemv(false, rows, len, Vj, w, hj, 1, 0); // h = V w
        gemv(true, rows, len, Vj, hj, w, -1, 1); // w −= Vᵀ h
      } else {
        // Vᴴw on interleaved data with real kernels: Re = Σ vr·wr + vi·wi (V·w as real
        // vectors), Im = Σ vr·wi − vi·wr (V·w̃ with w̃ = (wi, −wr)).
        for (let i = 0; i < len; i += 2) {
          tmp[i] = w[i + 1]!;
          tmp[i + 1] = -w[i]!;
        }
        gemv(false, rows, len, Vj, w, hj, 1, 0);
        gemv(false, rows, len, Vj, tmp, hi, 1, 0);
        // w −= Σ v·(hr + i·hi): the hr part is a real Vᵀhr; the hi part is i·Vᵀhi.
        gemv(true, rows, len, Vj, hj, w, -1, 1);
        gemv(true, rows, len, Vj, hi, tmp, 1, 0);
        for (let i = 0; i < len; i += 2) {
          w[i]! += tmp[i + 1]!;
          w[i + 1]! -= tmp[i]!;
        }
      }
      diag += hj[j]!;
      after = nrm2(w);
      if (!(after < Math.SQRT1_2 * before)) break;
      before = after;
    }
    return { diag, norm: after };
  };

  let converged = false;
  for (restarts = 1; restarts <= maxiter; restarts++) {
    for (let j = kept; j < m; j++) {
      // The next Lanczos vector is computed in place: row j + 1 of the basis, or f after the last.
      const w = j < m - 1 ? row(Vb, j + 1) : f;
      OP(row(Vb, j), w);
      const { diag, norm: beta } = orthogonalize(w, j);
      T[j * m + j] = diag;
      const scaleRef = Math.abs(diag) + (j > 0 ? Math.abs(T[j * m + j - 1]!) : 0);
      if (j < m - 1) {
        if (beta <= 1e3 * eps * Math.max(scaleRef, 1e-300)) {
          // Invariant subspace: continue with a fresh direction orthogonal to V (coupling 0).
          let rn = 0;
          do {
            w.set(seededVector(len, extraSeed++));
            rn = orthogonalize(w, j).norm;
          } while (rn < 1e-8);
          scal(cplx, c(1 / rn), w);
          T[j * m + j + 1] = T[(j + 1) * m + j] = 0;
        } else {
          scal(cplx, c(1 / beta), w);
          T[j * m + j + 1] = T[(j + 1) * m + j] = beta;
        }
      } else betaM = beta;
    }
    ({ w: theta, Z: Y } = symEig(m, T));
    order = ranking(theta, which);
    let nconv = 0;
    for (let l = 0; l < k; l++) if (isConverged(order[l]!)) nconv++;
    converged = nconv >= k;
    if (converged || restarts === maxiter) break;
    // Thick restart (ARPACK's choice of how many to keep, dsaup2): the k wanted Ritz
    // vectors plus min(nconv, (m − k)/2) more, so that converged ones do not crowd
    // the room for new directions.
    let p = Math.min(m - 1, k + Math.min(nconv, Math.floor((m - k) / 2)));
    if (p === 1 && m >= 6) p = Math.floor(m / 2);
    else if (p === 1 && m > 2) p = 2;
    const S = new Float64Array(m * p);
    for (let r = 0; r < m; r++) for (let l = 0; l < p; l++) S[r * p + l] = Y[r * m + order[l]!]!;
    gemmTN(m, p, len, S, Vb, Wb, 1, 0); // W[0..p) = Sᵀ V: the Ritz vectors (real S, so complex V works as real)
    T.fill(0);
    for (let l = 0; l < p; l++) {
      const i = order[l]!;
      const x = row(Wb, l);
      scal(cplx, c(1 / nrm2(x)), x);
      T[l * m + l] = theta[i]!;
      // Locking: a Ritz pair that passed the test is decoupled from the residual
      // (its coupling is below tol·|θ|); it then stays an exact eigenpair of T and
      // its vector is carried unchanged by every later restart.
      const s = isConverged(i) ? 0 : betaM * Y[(m - 1) * m + i]!;
      T[l * m + p] = T[p * m + l] = s;
    }
    const fv = row(Wb, p);
    fv.set(f);
    if (betaM > 0) scal(cplx, c(1 / betaM), fv);
    [Vb, Wb] = [Wb, Vb];
    kept = p;
  }

  // The k wanted Ritz vectors.
  const Sk = new Float64Array(m * k);
  for (let r = 0; r < m; r++) for (let l = 0; l < k; l++) Sk[r * k + l] = Y[r * m + order[l]!]!;
  const X = new Float64Array(k * len);
  gemmTN(m, k, len, Sk, Vb, X, 1, 0);

  // The k wanted pairs, as eigenvalues of A, ascending.
  const pairs = order.slice(0, k).map((i, l) => {
    const x = X.slice(l * len, (l + 1) * len);
    scal(cplx, c(1 / nrm2(x)), x);
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
