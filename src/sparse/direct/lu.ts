// The factorization object of the js sparse LU: P A Q = L U (lu-factor.ts),
// with solves against A, Aᵀ and Aᴴ and the log-determinant.
//
//   A  = Pᵀ L U Qᵀ   ⇒  A⁻¹ b  = Q U⁻¹ L⁻¹ P b
//   Aᵀ = Q Uᵀ Lᵀ P   ⇒  A⁻ᵀ b  = Pᵀ L⁻ᵀ U⁻ᵀ Qᵀ b     (Aᴴ: the same with conjugates)
// P is held as pinv (row i of A is row pinv[i] of P A), Q as q (column k of
// A Q is column q[k] of A).

import { ValueError } from '../../tensor/errors.js';
import type { LuFactors } from './lu-factor.js';
import { checkTrans, permutationSign, solveColumns, type LogDet, type Rhs, type Trans } from './rhs.js';
import { lsolve, lsolveZ, ltsolve, ltsolveZ, usolve, usolveZ, utsolve, utsolveZ } from './triangular.js';

export interface SolveOptions {
  trans?: Trans;
}

export class JsSparseLu {
  readonly n: number;
  readonly complex: boolean;
  /** nnz of L including its unit diagonal (SuperLU's count). */
  readonly nnzL: number;
  /** nnz of U including its diagonal. */
  readonly nnzU: number;
  private f: LuFactors | null;
  private work: Float64Array | null;

  constructor(f: LuFactors) {
    this.f = f;
    this.n = f.n;
    this.complex = f.complex;
    this.nnzL = f.Lp[f.n];
    this.nnzU = f.Up[f.n];
    this.work = new Float64Array(f.n * (f.complex ? 2 : 1));
  }

  private factors(op: string): LuFactors {
    if (!this.f) throw new ValueError(`${op}: the factorization was disposed`);
    return this.f;
  }

  /** Row permutation as pinv (pinv[i] = pivot position of original row i) and column order q. */
  get permutations(): { pinv: Int32Array; q: Int32Array } {
    const f = this.factors('splu.permutations');
    return { pinv: f.pinv, q: f.q };
  }

  /**
   * Solve A x = b (trans 'N'), Aᵀ x = b ('T') or Aᴴ x = b ('H'). b has length n
   * (2n interleaved complex) or is an n×k row-major block; the result has b's layout.
   */
  solve(b: Rhs, opts: SolveOptions = {}): Float64Array {
    const op = 'splu.solve';
    const f = this.factors(op);
    const trans = checkTrans(op, opts.trans);
    const { n, pinv, q } = f;
    const L = { colptr: f.Lp, rowind: f.Li, values: f.Lx };
    const U = { colptr: f.Up, rowind: f.Ui, values: f.Ux };
    const y = this.work!;
    if (!this.complex) {
      return solveColumns(op, b, n, false, (x) => {
        if (trans === 'N') {
          for (let i = 0; i < n; i++) y[pinv[i]] = x[i];
          lsolve(n, L, y);
          usolve(n, U, y);
          for (let k = 0; k < n; k++) x[q[k]] = y[k];
        } else {
          for (let k = 0; k < n; k++) y[k] = x[q[k]];
          utsolve(n, U, y);
          ltsolve(n, L, y);
          for (let i = 0; i < n; i++) x[i] = y[pinv[i]];
        }
      });
    }
    const conj = trans === 'H';
    return solveColumns(op, b, n, true, (x) => {
      if (trans === 'N') {
        for (let i = 0; i < n; i++) {
          y[2 * pinv[i]] = x[2 * i];
          y[2 * pinv[i] + 1] = x[2 * i + 1];
        }
        lsolveZ(n, L, y);
        usolveZ(n, U, y);
        for (let k = 0; k < n; k++) {
          x[2 * q[k]] = y[2 * k];
          x[2 * q[k] + 1] = y[2 * k + 1];
        }
      } else {
        for (let k = 0; k < n; k++) {
          y[2 * k] = x[2 * q[k]];
          y[2 * k + 1] = x[2 * q[k] + 1];
        }
        utsolveZ(n, U, y, conj);
        ltsolveZ(n, L, y, conj);
        for (let i = 0; i < n; i++) {
          x[2 * i] = y[2 * pinv[i]];
          x[2 * i + 1] = y[2 * pinv[i] + 1];
        }
      }
    });
  }

  /**
   * log|det A| and its sign: det A = sign(P)·sign(Q)·Π U(k,k). For complex
   * matrices `sign` is [re, im] = det/|det|. The factorization only succeeds
   * for nonsingular A, so logabsdet is always finite unless it under/overflows.
   */
  logDet(): LogDet {
    const f = this.factors('splu.logDet');
    const { n, Up, Ux } = f;
    let s = permutationSign(f.pinv) * permutationSign(f.q);
    let logabs = 0;
    if (!this.complex) {
      for (let k = 0; k < n; k++) {
        const u = Ux[Up[k + 1] - 1];
        if (u < 0) s = -s;
        logabs += Math.log(Math.abs(u));
      }
      return { sign: s, logabsdet: logabs };
    }
    let pr = s,
      pm = 0;
    for (let k = 0; k < n; k++) {
      const d = Up[k + 1] - 1;
      const ur = Ux[2 * d],
        um = Ux[2 * d + 1];
      const a = Math.hypot(ur, um);
      logabs += Math.log(a);
      const cr = ur / a,
        cm = um / a;
      const t = pr * cr - pm * cm;
      pm = pr * cm + pm * cr;
      pr = t;
      // Renormalize so rounding in a long product cannot drift off the unit circle.
      const r = Math.hypot(pr, pm);
      pr /= r;
      pm /= r;
    }
    return { sign: [pr, pm], logabsdet: logabs };
  }

  /** Drop the factor arrays; any later call throws. */
  dispose(): void {
    this.f = null;
    this.work = null;
  }
}
