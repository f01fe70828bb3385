// Sparse Cholesky of a symmetric / Hermitian positive definite matrix:
//   P A Pᵀ = L Lᴴ,  P a fill-reducing symmetric permutation (AMD by default).
//
// Up-looking, in the manner of Davis's cs_chol (Direct Methods for Sparse
// Linear Systems, ch. 4), our own code:
//   1. C = P A Pᵀ, upper triangle only, built from the LOWER triangle of A
//      (entries A(i, j) with i ≥ j; the upper triangle of A is never read and is
//      assumed to be the conjugate transpose, as LAPACK's uplo = 'L').
//   2. The elimination tree of C: parent[j] = min{ i > j : L(i, j) ≠ 0 }.
//   3. Row k of L has the pattern of the "row subtree": the nodes on the tree
//      paths from each i with C(i, k) ≠ 0, i < k, up towards k (ereach). One
//      symbolic sweep over all rows counts the columns of L exactly, so L is
//      allocated once.
//   4. Numeric: row k of L solves L(0:k, 0:k) · conj(L(k, 0:k))ᵀ = C(0:k, k),
//      a sparse triangular solve over the ereach pattern in topological order;
//      then L(k, k) = sqrt(C(k, k) − Σ |L(k, i)|²).
// A non-positive (or NaN) L(k, k)² means the leading minor of order k+1 OF THE
// PERMUTED MATRIX P A Pᵀ is not positive: NotPositiveDefiniteError('cholesky', k+1).
// The imaginary part of a complex diagonal is ignored (Hermitian input assumed).

import { NotPositiveDefiniteError } from '../../tensor/errors-linalg.js';
import { ValueError } from '../../tensor/errors.js';
import type { CscMatrix } from './csc.js';
import { solveColumns, type LogDet, type Rhs } from './rhs.js';
import { lsolve, lsolveZ, ltsolve, ltsolveZ } from './triangular.js';

/** Upper triangle of C = P A Pᵀ from the lower triangle of A; pinv[i] = new index of i. */
function permuteLowerToUpper(A: CscMatrix, pinv: Int32Array): CscMatrix {
  const { n, complex, colptr: Ap, rowind: Ai, values: Ax } = A;
  const cnt = new Int32Array(n + 1);
  for (let j = 0; j < n; j++)
    for (let p = Ap[j]; p < Ap[j + 1]; p++) {
      const i = Ai[p];
      if (i < j) continue;
      cnt[Math.max(pinv[i], pinv[j]) + 1]++;
    }
  for (let j = 0; j < n; j++) cnt[j + 1] += cnt[j];
  const next = cnt.slice(0, n);
  const Ci = new Int32Array(cnt[n]);
  const Cx = new Float64Array(cnt[n] * (complex ? 2 : 1));
  for (let j = 0; j < n; j++)
    for (let p = Ap[j]; p < Ap[j + 1]; p++) {
      const i = Ai[p];
      if (i < j) continue;
      const pi = pinv[i],
        pj = pinv[j];
      // A(i, j) lands at C(pi, pj); if that is below the diagonal, store its
      // Hermitian mate conj(A(i, j)) at C(pj, pi) instead.
      const r = Math.min(pi, pj),
        c = Math.max(pi, pj);
      const s = next[c]++;
      Ci[s] = r;
      if (complex) {
        Cx[2 * s] = Ax[2 * p];
        Cx[2 * s + 1] = pi > pj ? -Ax[2 * p + 1] : Ax[2 * p + 1];
      } else Cx[s] = Ax[p];
    }
  return { n, complex, colptr: cnt, rowind: Ci, values: Cx };
}

/** Elimination tree of the symmetric matrix whose upper triangle is C (Liu's algorithm with path compression). */
function etree(C: CscMatrix): Int32Array {
  const { n, colptr: Cp, rowind: Ci } = C;
  const parent = new Int32Array(n).fill(-1);
  const ancestor = new Int32Array(n).fill(-1);
  for (let k = 0; k < n; k++)
    for (let p = Cp[k]; p < Cp[k + 1]; p++) {
      for (let i = Ci[p]; i !== -1 && i < k; ) {
        const inext = ancestor[i];
        ancestor[i] = k;
        if (inext === -1) parent[i] = k;
        i = inext;
      }
    }
  return parent;
}

/** Pattern of row k of L (excluding k) into s[top..n-1], topologically ordered; returns top. */
function ereach(C: CscMatrix, k: number, parent: Int32Array, s: Int32Array, mark: Int32Array, path: Int32Array): number {
  const { n, colptr: Cp, rowind: Ci } = C;
  let top = n;
  mark[k] = k;
  for (let p = Cp[k]; p < Cp[k + 1]; p++) {
    let i = Ci[p];
    if (i > k) continue;
    let len = 0;
    for (; mark[i] !== k; i = parent[i]) {
      path[len++] = i;
      mark[i] = k;
    }
    while (len > 0) s[--top] = path[--len];
  }
  return top;
}

export interface CholeskyFactors {
  n: number;
  complex: boolean;
  Lp: Int32Array;
  Li: Int32Array;
  Lx: Float64Array;
  /** perm[k]: original index at position k; pinv its inverse. */
  perm: Int32Array;
  pinv: Int32Array;
}

export function choleskyFactor(A: CscMatrix, perm: Int32Array, op = 'cholesky'): CholeskyFactors {
  const { n, complex } = A;
  const pinv = new Int32Array(n);
  for (let k = 0; k < n; k++) pinv[perm[k]] = k;
  const C = permuteLowerToUpper(A, pinv);
  const { colptr: Cp, rowind: Ci, values: Cx } = C;
  const parent = etree(C);

  // Symbolic: exact column counts of L from the row subtrees.
  const s = new Int32Array(n),
    mark = new Int32Array(n).fill(-1),
    path = new Int32Array(n);
  const Lp = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) {
    Lp[k + 1]++; // diagonal
    for (let t = ereach(C, k, parent, s, mark, path); t < n; t++) Lp[s[t] + 1]++;
  }
  for (let k = 0; k < n; k++) Lp[k + 1] += Lp[k];
  const nnz = Lp[n];
  const Li = new Int32Array(nnz);
  const Lx = new Float64Array(nnz * (complex ? 2 : 1));
  const fill = Lp.slice(0, n); // next free slot per column
  mark.fill(-1);
  const x = new Float64Array(n * (complex ? 2 : 1));

  for (let k = 0; k < n; k++) {
    const top = ereach(C, k, parent, s, mark, path);
    let d: number;
    if (!complex) {
      x[k] = 0;
      for (let p = Cp[k]; p < Cp[k + 1]; p++) x[Ci[p]] += Cx[p];
      d = x[k];
      x[k] = 0;
      for (let t = top; t < n; t++) {
        const i = s[t];
        const lki = x[i] / Lx[Lp[i]];
        x[i] = 0;
        for (let p = Lp[i] + 1; p < fill[i]; p++) x[Li[p]] -= Lx[p] * lki;
        d -= lki * lki;
        const q = fill[i]++;
        Li[q] = k;
        Lx[q] = lki;
      }
      if (!(d > 0)) throw new NotPositiveDefiniteError(op, k + 1);
      const q = fill[k]++;
      Li[q] = k;
      Lx[q] = Math.sqrt(d);
    } else {
      x[2 * k] = 0;
      x[2 * k + 1] = 0;
      for (let p = Cp[k]; p < Cp[k + 1]; p++) {
        x[2 * Ci[p]] += Cx[2 * p];
        x[2 * Ci[p] + 1] += Cx[2 * p + 1];
      }
      d = x[2 * k];
      x[2 * k] = 0;
      x[2 * k + 1] = 0;
      for (let t = top; t < n; t++) {
        const i = s[t];
        const lii = Lx[2 * Lp[i]]; // real positive
        const yr = x[2 * i] / lii,
          ym = x[2 * i + 1] / lii;
        x[2 * i] = 0;
        x[2 * i + 1] = 0;
        for (let p = Lp[i] + 1; p < fill[i]; p++) {
          const r = 2 * Li[p],
          lr = Lx[2 * p],
          lm = Lx[2 * p + 1];
          x[r] -= lr * yr - lm * ym;
          x[r + 1] -= lr * ym + lm * yr;
        }
        d -= yr * yr + ym * ym;
        // L(k, i) = conj(y_i)
        const q = fill[i]++;
        Li[q] = k;
        Lx[2 * q] = yr;
        Lx[2 * q + 1] = -ym;
      }
      if (!(d > 0)) throw new NotPositiveDefiniteError(op, k + 1);
      const q = fill[k]++;
      Li[q] = k;
      Lx[2 * q] = Math.sqrt(d);
    }
  }
  return { n, complex, Lp, Li, Lx, perm, pinv };
}

/** The factorization object: solve A x = b, log det, dispose. */
export class JsSparseCholesky {
  readonly n: number;
  readonly complex: boolean;
  /** nnz of L including the diagonal. */
  readonly nnzL: number;
  private f: CholeskyFactors | null;
  private work: Float64Array | null;

  constructor(f: CholeskyFactors) {
    this.f = f;
    this.n = f.n;
    this.complex = f.complex;
    this.nnzL = f.Lp[f.n];
    this.work = new Float64Array(f.n * (f.complex ? 2 : 1));
  }

  private factors(op: string): CholeskyFactors {
    if (!this.f) throw new ValueError(`${op}: the factorization was disposed`);
    return this.f;
  }

  /** The symmetric permutation: perm[k] = original index at position k. */
  get perm(): Int32Array {
    return this.factors('cholesky.perm').perm;
  }

  /** x = A⁻¹ b = Pᵀ L⁻ᴴ L⁻¹ P b; b of length n (2n complex) or an n×k row-major block. */
  solve(b: Rhs): Float64Array {
    const op = 'cholesky.solve';
    const f = this.factors(op);
    const { n, perm } = f;
    const L = { colptr: f.Lp, rowind: f.Li, values: f.Lx };
    const y = this.work!;
    if (!this.complex)
      return solveColumns(op, b, n, false, (x) => {
        for (let k = 0; k < n; k++) y[k] = x[perm[k]];
        lsolve(n, L, y);
        ltsolve(n, L, y);
        for (let k = 0; k < n; k++) x[perm[k]] = y[k];
      });
    return solveColumns(op, b, n, true, (x) => {
      for (let k = 0; k < n; k++) {
        y[2 * k] = x[2 * perm[k]];
        y[2 * k + 1] = x[2 * perm[k] + 1];
      }
      lsolveZ(n, L, y);
      ltsolveZ(n, L, y, true);
      for (let k = 0; k < n; k++) {
        x[2 * perm[k]] = y[2 * k];
        x[2 * perm[k] + 1] = y[2 * k + 1];
      }
    });
  }

  /** log det A = 2 Σ log L(k, k); the sign is 1 ([1, 0] for complex) since A is positive definite. */
  logDet(): LogDet {
    const f = this.factors('cholesky.logDet');
    const vw = f.complex ? 2 : 1;
    let s = 0;
    for (let k = 0; k < f.n; k++) s += Math.log(f.Lx[vw * f.Lp[k]]);
    return { sign: f.complex ? [1, 0] : 1, logabsdet: 2 * s };
  }

  dispose(): void {
    this.f = null;
    this.work = null;
  }
}
