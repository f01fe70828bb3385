// Numeric left-looking sparse LU with threshold partial pivoting:
//   P A Q = L U,  Q a given column pre-ordering, P chosen on the fly.
//
// Gilbert–Peierls (1988), in the shape of Davis's cs_lu (Direct Methods for
// Sparse Linear Systems, §6.3), written anew: for each k, column q[k] of A is
// solved against the k columns of L computed so far, x = L⁻¹ A(:, q[k]), via a
// sparse triangular solve whose pattern comes from reach.ts. Entries of x in
// already pivoted rows form column k of U; the others, divided by the chosen
// pivot, form column k of L. Total work is proportional to the flops.
//
// Pivot rule: among unpivoted rows take the largest |x_i|, but prefer the
// "diagonal" row q[k] (the row the symmetric ordering expects) whenever
// |x_diag| ≥ tol · max|x_i| — UMFPACK/SuperLU's diagonal preference. It keeps
// the fill close to what the A + Aᵀ ordering predicted; tol = 1 is plain
// partial pivoting, tol = 0 takes any nonzero diagonal.
//
// All arithmetic is float64 (complex128 interleaved). A column with no nonzero
// candidate is singular (structurally, or numerically by exact cancellation).

import { SingularMatrixError } from '../../tensor/errors-linalg.js';
import type { CscMatrix } from './csc.js';
import { reach, reachWork } from './reach.js';

export interface LuFactors {
  n: number;
  complex: boolean;
  /** L: unit lower, diagonal (1) first per column, rows in pivot order. */
  Lp: Int32Array;
  Li: Int32Array;
  Lx: Float64Array;
  /** U: upper, diagonal last per column. */
  Up: Int32Array;
  Ui: Int32Array;
  Ux: Float64Array;
  /** pinv[i] = k: original row i is the k-th pivot row (P). */
  pinv: Int32Array;
  /** q[k]: original column in position k (Q). */
  q: Int32Array;
}

/** Append-only index + value buffers, doubled on demand. */
class Growable {
  idx: Int32Array;
  val: Float64Array;
  constructor(
    cap: number,
    readonly vw: number,
  ) {
    this.idx = new Int32Array(cap);
    this.val = new Float64Array(cap * vw);
  }
  ensure(need: number): void {
    if (need <= this.idx.length) return;
    const cap = Math.max(need, 2 * this.idx.length);
    const idx = new Int32Array(cap);
    idx.set(this.idx);
    const val = new Float64Array(cap * this.vw);
    val.set(this.val);
    this.idx = idx;
    this.val = val;
  }
}

/**
 * Symmetric pruning (Eisenstat & Liu 1992, as in KLU): if the new pivot row
 * ipiv (step k) lies in L(:, J) and U(J, k) ≠ 0, every row r pivoted after k
 * with L(r, J) ≠ 0 is also in L(:, k) — so for reachability the edges J → r
 * are implied by J → ipiv → r. Partition L(:, J) into rows already pivoted
 * (searched) and the rest (numeric use only) and shorten the DFS range. Each
 * column is pruned at most once. U(:, k) rows are pivot steps; L rows original.
 */
function prune(
  ipiv: number,
  u0: number,
  u1: number,
  Ui: Int32Array,
  Li: Int32Array,
  Lx: Float64Array,
  Lp: Int32Array,
  Lend: Int32Array,
  pinv: Int32Array,
  pruned: Uint8Array,
  complex: boolean,
): void {
  for (let p = u0; p < u1; p++) {
    const J = Ui[p];
    if (pruned[J]) continue;
    const a = Lp[J] + 1,
      b = Lp[J + 1];
    let found = false;
    for (let t = a; t < b; t++)
      if (Li[t] === ipiv) {
        found = true;
        break;
      }
    if (!found) continue;
    // Two-pointer partition (the diagonal at Lp[J] stays first).
    let head = a,
      tail = b - 1;
    while (head <= tail) {
      if (pinv[Li[head]] >= 0) head++;
      else if (pinv[Li[tail]] < 0) tail--;
      else {
        const ti = Li[head];
        Li[head] = Li[tail];
        Li[tail] = ti;
        if (complex) {
          let v = Lx[2 * head];
          Lx[2 * head] = Lx[2 * tail];
          Lx[2 * tail] = v;
          v = Lx[2 * head + 1];
          Lx[2 * head + 1] = Lx[2 * tail + 1];
          Lx[2 * tail + 1] = v;
        } else {
          const v = Lx[head];
          Lx[head] = Lx[tail];
          Lx[tail] = v;
        }
        head++;
        tail--;
      }
    }
    Lend[J] = head;
    pruned[J] = 1;
  }
}

export function luFactor(A: CscMatrix, q: Int32Array, tol: number, op = 'splu'): LuFactors {
  const { n, complex, colptr: Ap, rowind: Ai, values: Ax } = A;
  const vw = complex ? 2 : 1;
  const guess = 4 * Ai.length + n;
  const L = new Growable(guess, vw);
  const U = new Growable(guess, vw);
  const Lp = new Int32Array(n + 1);
  const Up = new Int32Array(n + 1);
  const pinv = new Int32Array(n).fill(-1);
  const Lend = new Int32Array(n); // end of the part of L(:, J) the DFS searches (pruning)
  const pruned = new Uint8Array(n);
  const x = new Float64Array(n * vw);
  const w = reachWork(n);
  let lnz = 0,
    unz = 0;

  for (let k = 0; k < n; k++) {
    const col = q[k];
    // Room for the worst case of this column before any pointer is taken.
    L.ensure(lnz + n - k);
    U.ensure(unz + k + 1);
    const Li = L.idx,
      Lx = L.val,
      Ui = U.idx,
      Ux = U.val;
    Lp[k] = lnz;
    Up[k] = unz;

    // Symbolic: pattern of x = L⁻¹ A(:, col) in topological order.
    const top = reach(n, Ap, Ai, col, Lp, Lend, Li, pinv, w, k);
    const xi = w.xi;

    // Numeric: scatter A(:, col) (x is all-zero outside the previous reach,
    // which was cleared), then eliminate with the pivoted columns of L.
    let ipiv = -1,
      amax = -1;
    if (!complex) {
      for (let p = Ap[col]; p < Ap[col + 1]; p++) x[Ai[p]] = Ax[p];
      for (let t = top; t < n; t++) {
        const j = xi[t];
        const J = pinv[j];
        if (J < 0) continue;
        const xj = x[j];
        if (xj === 0) continue;
        for (let p = Lp[J] + 1; p < Lp[J + 1]; p++) x[Li[p]] -= Lx[p] * xj;
      }
      for (let t = top; t < n; t++) {
        const i = xi[t];
        if (pinv[i] < 0) {
          const a = Math.abs(x[i]);
          if (a > amax) {
            amax = a;
            ipiv = i;
          }
        } else {
          Ui[unz] = pinv[i];
          Ux[unz++] = x[i];
        }
      }
    } else {
      for (let p = Ap[col]; p < Ap[col + 1]; p++) {
        x[2 * Ai[p]] = Ax[2 * p];
        x[2 * Ai[p] + 1] = Ax[2 * p + 1];
      }
      for (let t = top; t < n; t++) {
        const j = xi[t];
        const J = pinv[j];
        if (J < 0) continue;
        const xr = x[2 * j],
          xm = x[2 * j + 1];
        if (xr === 0 && xm === 0) continue;
        for (let p = Lp[J] + 1; p < Lp[J + 1]; p++) {
          const i = 2 * Li[p],
            lr = Lx[2 * p],
            lm = Lx[2 * p + 1];
          x[i] -= lr * xr - lm * xm;
          x[i + 1] -= lr * xm + lm * xr;
        }
      }
      for (let t = top; t < n; t++) {
        const i = xi[t];
        if (pinv[i] < 0) {
          const a = Math.hypot(x[2 * i], x[2 * i + 1]);
          if (a > amax) {
            amax = a;
            ipiv = i;
          }
        } else {
          Ui[unz] = pinv[i];
          Ux[2 * unz] = x[2 * i];
          Ux[2 * unz++ + 1] = x[2 * i + 1];
        }
      }
    }
    if (ipiv < 0 || !(amax > 0)) {
      const why = ipiv < 0 ? 'structurally singular: no candidate pivot row' : amax === 0 ? 'all candidate pivots are zero' : 'NaN in the pivot column';
      throw new SingularMatrixError(op, col, undefined, `column ${col} (elimination step ${k}): ${why}`);
    }
    // Diagonal preference (w.mark[col] === k: row col is in this column's pattern).
    if (pinv[col] < 0 && w.mark[col] === k) {
      const a = complex ? Math.hypot(x[2 * col], x[2 * col + 1]) : Math.abs(x[col]);
      if (a > 0 && a >= tol * amax) ipiv = col;
    }

    // U(k, k) = pivot, stored last; L(:, k) = x / pivot over unpivoted rows, 1 first.
    pinv[ipiv] = k;
    Ui[unz] = k;
    Li[lnz] = ipiv;
    if (!complex) {
      const piv = x[ipiv];
      Ux[unz++] = piv;
      Lx[lnz++] = 1;
      for (let t = top; t < n; t++) {
        const i = xi[t];
        if (pinv[i] < 0) {
          Li[lnz] = i;
          Lx[lnz++] = x[i] / piv;
        }
        x[i] = 0;
      }
    } else {
      const pr = x[2 * ipiv],
        pm = x[2 * ipiv + 1];
      Ux[2 * unz] = pr;
      Ux[2 * unz++ + 1] = pm;
      Lx[2 * lnz] = 1;
      Lx[2 * lnz++ + 1] = 0;
      // 1/pivot once (scaled so |pivot|² cannot over/underflow); then each L
      // entry is one complex multiply.
      const sc = Math.max(Math.abs(pr), Math.abs(pm));
      const sr = pr / sc,
        sm = pm / sc;
      const den = (sr * sr + sm * sm) * sc;
      const ir = sr / den,
        im = -sm / den;
      for (let t = top; t < n; t++) {
        const i = xi[t];
        if (pinv[i] < 0) {
          const a = x[2 * i],
            b = x[2 * i + 1];
          Li[lnz] = i;
          Lx[2 * lnz] = a * ir - b * im;
          Lx[2 * lnz++ + 1] = a * im + b * ir;
        }
        x[2 * i] = 0;
        x[2 * i + 1] = 0;
      }
    }
    Lp[k + 1] = lnz;
    Lend[k] = lnz;
    prune(ipiv, Up[k], unz - 1, Ui, Li, Lx, Lp, Lend, pinv, pruned, complex);
  }
  Lp[n] = lnz;
  Up[n] = unz;

  // Renumber L's rows from original to pivot order, and trim the buffers.
  const Li = L.idx.slice(0, lnz);
  for (let p = 0; p < lnz; p++) Li[p] = pinv[Li[p]];
  return {
    n,
    complex,
    Lp,
    Li,
    Lx: L.val.slice(0, lnz * vw),
    Up,
    Ui: U.idx.slice(0, unz),
    Ux: U.val.slice(0, unz * vw),
    pinv,
    q,
  };
}
