// Preconditioners on CSR arrays (CompressedArrays, canonical: rows sorted, no
// duplicates), each returned as a RawPreconditioner out = M⁻¹ x ≈ A⁻¹ x usable as
// the solvers' M. They carry `dtype`, so a real preconditioner is applied to the
// real and imaginary parts of a complex problem separately.
//
//   jacobi(A)        M = D                      cheap; helps when the diagonal varies
//   ssor(A, ω)       M = (D+ωL) D⁻¹ (D+ωU) / (ω(2−ω)), 0 < ω < 2. For Hermitian A
//                    U = Lᴴ, so M = B D⁻¹ Bᴴ/(ω(2−ω)) with B = D+ωL: Hermitian, and
//                    positive definite when D is (any SPD/HPD A): safe for CG/MINRES.
//   ilu0(A)          L U with the sparsity of A (zero fill-in), any square A.
//   ic0(A)           L Lᴴ with the sparsity of tril(A), A Hermitian positive definite.
//
// Complex data (complex64/complex128) work in all four. Zero pivots throw
// ValueError (ilu0/jacobi/ssor) naming the row; ic0 throws NotPositiveDefiniteError.
// NaN/±Inf in A throws NonFiniteError naming the entry (a preconditioner built
// from them would turn every solver step into NaN, or into a wrong 'not positive
// definite').

import type { CompressedArrays } from '../contract.js';
import { ShapeError, ValueError } from '../../tensor/errors.js';
import { checkCanonical, checkCompressed, diagonalPositions, isComplexDType } from './csr-kernels.js';
import { NotPositiveDefiniteError } from './errors.js';
import { NonFiniteError } from '../../tensor/errors-linalg.js';
import { firstNonFinite } from './finite.js';
import type { TypedPreconditioner } from './linear-operator.js';

function square(a: CompressedArrays, who: string): number {
  checkCompressed(a, who);
  const [m, n] = a.shape;
  if (m !== n) throw new ShapeError(`${who}: A must be square, got [${m}, ${n}]`);
  const lanes = isComplexDType(a.dtype) ? 2 : 1;
  const bad = firstNonFinite(a.data, lanes * a.indptr[m]!);
  if (bad >= 0) {
    const k = Math.floor(bad / lanes);
    let row = 0;
    while (a.indptr[row + 1]! <= k) row++;
    throw new NonFiniteError(who, [row, a.indices[k]!], a.data[bad]!);
  }
  return n;
}

/** Complex reciprocal of (re, im); throws for 0. */
function recip(re: number, im: number, who: string, row: number): [number, number] {
  const d = re * re + im * im;
  if (d === 0 || !Number.isFinite(d)) throw new ValueError(`${who}: zero (or non-finite) pivot on the diagonal at row ${row}`);
  return [re / d, -im / d];
}

/**
 * Jacobi (diagonal) preconditioner: out = D⁻¹ x. A missing or zero diagonal entry throws ValueError.
 * @example
 * ```ts
 * const A = sparse.poisson1d(3);
 * sparse.jacobi(A).apply(new Float64Array([2, 4, 6]));   // Float64Array [1, 2, 3]  (D⁻¹x, D = 2I)
 * sparse.cg(A, [1, 0, 1], { M: sparse.jacobi(A) }).x.tolist();   // ≈ [1, 1, 1]
 * ```
 */
export function jacobi(A: CompressedArrays): TypedPreconditioner {
  const n = square(A, 'jacobi');
  const cplx = isComplexDType(A.dtype);
  const pos = diagonalPositions(A);
  const inv = new Float64Array((cplx ? 2 : 1) * n);
  for (let i = 0; i < n; i++) {
    const k = pos[i]!;
    if (k < 0) throw new ValueError(`jacobi: row ${i} has no diagonal entry`);
    if (cplx) [inv[2 * i], inv[2 * i + 1]] = recip(A.data[2 * k]!, A.data[2 * k + 1]!, 'jacobi', i);
    else inv[i] = recip(A.data[k]!, 0, 'jacobi', i)[0];
  }
  return {
    shape: [n, n],
    dtype: A.dtype,
    apply(x, out = new Float64Array(x.length)) {
      if (!cplx) for (let i = 0; i < n; i++) out[i] = inv[i]! * x[i]!;
      else
        for (let i = 0; i < 2 * n; i += 2) {
          const xr = x[i]!,
            xi = x[i + 1]!;
          out[i] = inv[i]! * xr - inv[i + 1]! * xi;
          out[i + 1] = inv[i]! * xi + inv[i + 1]! * xr;
        }
      return out;
    },
  };
}

/**
 * Triangular solves on CSR arrays with a known diagonal position per row.
 * lower: rows ascending, entries left of diag; upper: rows descending, right of diag.
 * diagScale multiplies the diagonal (SSOR's D/ω); unit: diagonal taken as 1 (ILU's L).
 */
function triSolve(a: CompressedArrays, pos: Int32Array, cplx: boolean, lower: boolean, unit: boolean, diagScale: number, offScale: number, x: Float64Array, out: Float64Array): void {
  const n = a.shape[0],
    { indptr, indices, data } = a;
  for (let t = 0; t < n; t++) {
    const i = lower ? t : n - 1 - t;
    const from = lower ? indptr[i]! : pos[i]! + 1,
      to = lower ? pos[i]! : indptr[i + 1]!;
    if (!cplx) {
      let s = x[i]!;
      for (let k = from; k < to; k++) s -= offScale * data[k]! * out[indices[k]!]!;
      out[i] = unit ? s : s / (diagScale * data[pos[i]!]!);
    } else {
      let sr = x[2 * i]!,
        si = x[2 * i + 1]!;
      for (let k = from; k < to; k++) {
        const j = 2 * indices[k]!,
          ar = offScale * data[2 * k]!,
          ai = offScale * data[2 * k + 1]!;
        sr -= ar * out[j]! - ai * out[j + 1]!;
        si -= ar * out[j + 1]! + ai * out[j]!;
      }
      if (unit) {
        out[2 * i] = sr;
        out[2 * i + 1] = si;
      } else {
        const dr = diagScale * data[2 * pos[i]!]!,
          di = diagScale * data[2 * pos[i]! + 1]!,
          d = dr * dr + di * di;
        out[2 * i] = (sr * dr + si * di) / d;
        out[2 * i + 1] = (si * dr - sr * di) / d;
      }
    }
  }
}

function needDiagonal(a: CompressedArrays, who: string): Int32Array {
  const pos = diagonalPositions(a);
  const cplx = isComplexDType(a.dtype);
  for (let i = 0; i < pos.length; i++) {
    const k = pos[i]!;
    if (k < 0) throw new ValueError(`${who}: row ${i} has no diagonal entry`);
    const re = a.data[(cplx ? 2 : 1) * k]!,
      im = cplx ? a.data[2 * k + 1]! : 0;
    if (re === 0 && im === 0) throw new ValueError(`${who}: zero pivot on the diagonal at row ${i}`);
  }
  return pos;
}

/**
 * Symmetric SOR: a forward then a backward Gauss–Seidel sweep with relaxation ω ∈ (0, 2).
 * @example
 * ```ts
 * // ω = 1: M = (D + L)D⁻¹(D + U) = [[4, 1], [1, 2.25]], so M⁻¹·[5, 3.25] = [1, 1]
 * const M = sparse.ssor(sparse.fromDense([[4, 1], [1, 2]]));
 * M.apply(new Float64Array([5, 3.25]));   // ≈ Float64Array [1, 1]
 * ```
 */
export function ssor(A: CompressedArrays, omega = 1): TypedPreconditioner {
  const n = square(A, 'ssor');
  if (!(omega > 0 && omega < 2)) throw new ValueError(`ssor: omega must lie in (0, 2), got ${omega}`);
  checkCanonical(A, 'ssor');
  const cplx = isComplexDType(A.dtype);
  const pos = needDiagonal(A, 'ssor');
  const scale = omega * (2 - omega);
  const y = new Float64Array((cplx ? 2 : 1) * n);
  return {
    shape: [n, n],
    dtype: A.dtype,
    apply(x, out = new Float64Array(x.length)) {
      // M⁻¹ = ω(2−ω) (D+ωU)⁻¹ D (D+ωL)⁻¹: forward sweep, diagonal, backward sweep.
      triSolve(A, pos, cplx, true, false, 1, omega, x, y); // (D + ωL) y = x
      // y ← D y
      for (let i = 0; i < n; i++) {
        const k = pos[i]!;
        if (!cplx) y[i]! *= A.data[k]!;
        else {
          const dr = A.data[2 * k]!,
            di = A.data[2 * k + 1]!,
            yr = y[2 * i]!,
            yi = y[2 * i + 1]!;
          y[2 * i] = dr * yr - di * yi;
          y[2 * i + 1] = dr * yi + di * yr;
        }
      }
      triSolve(A, pos, cplx, false, false, 1, omega, y, out); // (D + ωU) out = D y
      for (let i = 0; i < out.length; i++) out[i]! *= scale;
      return out;
    },
  };
}

/**
 * ILU(0): L (unit lower) and U (upper) stored in one CSR array with A's pattern.
 * @example
 * ```ts
 * // a tridiagonal A has no fill-in: ILU(0) is its exact LU, so M⁻¹ = A⁻¹
 * const M = sparse.ilu0(sparse.poisson1d(3));
 * M.apply(new Float64Array([1, 0, 1]));   // ≈ Float64Array [1, 1, 1]
 * ```
 */
export function ilu0(A: CompressedArrays): TypedPreconditioner {
  const n = square(A, 'ilu0');
  checkCanonical(A, 'ilu0');
  const cplx = isComplexDType(A.dtype);
  const lanes = cplx ? 2 : 1;
  const { indptr, indices } = A;
  const lu = Float64Array.from(A.data.subarray(0, lanes * indptr[n]!));
  const F: CompressedArrays = { shape: [n, n], dtype: cplx ? 'complex128' : 'float64', indptr, indices, data: lu };
  const pos = diagonalPositions(F);
  for (let i = 0; i < n; i++) if (pos[i]! < 0) throw new ValueError(`ilu0: row ${i} has no diagonal entry (ILU(0) keeps A's pattern, so the diagonal must be stored)`);
  const where = new Int32Array(n).fill(-1); // column → position in the current row
  for (let i = 0; i < n; i++) {
    const start = indptr[i]!,
      end = indptr[i + 1]!;
    for (let k = start; k < end; k++) where[indices[k]!] = k;
    // IKJ variant: for each k < i in row i (ascending), l_ik = a_ik / u_kk; a_ij −= l_ik u_kj on the pattern.
    for (let kk = start; kk < pos[i]!; kk++) {
      const k = indices[kk]!;
      const dk = pos[k]!;
      if (!cplx) {
        const l = lu[kk]! / lu[dk]!;
        if (!Number.isFinite(l)) throw new ValueError(`ilu0: zero pivot at row ${k} (met while eliminating row ${i})`);
        lu[kk] = l;
        for (let q = dk + 1; q < indptr[k + 1]!; q++) {
          const w = where[indices[q]!]!;
          if (w >= 0) lu[w]! -= l * lu[q]!;
        }
      } else {
        const [ir, ii] = recip(lu[2 * dk]!, lu[2 * dk + 1]!, 'ilu0', k);
        const ar = lu[2 * kk]!,
          ai = lu[2 * kk + 1]!;
        const lr = ar * ir - ai * ii,
          li = ar * ii + ai * ir;
        lu[2 * kk] = lr;
        lu[2 * kk + 1] = li;
        for (let q = dk + 1; q < indptr[k + 1]!; q++) {
          const w = where[indices[q]!]!;
          if (w >= 0) {
            const ur = lu[2 * q]!,
              ui = lu[2 * q + 1]!;
            lu[2 * w]! -= lr * ur - li * ui;
            lu[2 * w + 1]! -= lr * ui + li * ur;
          }
        }
      }
    }
    const d = pos[i]!;
    if (lu[lanes * d] === 0 && (!cplx || lu[2 * d + 1] === 0)) throw new ValueError(`ilu0: zero pivot U[${i}, ${i}] (the factorization of A's pattern breaks down at row ${i})`);
    for (let k = start; k < end; k++) where[indices[k]!] = -1;
  }
  const y = new Float64Array(lanes * n);
  return {
    shape: [n, n],
    dtype: A.dtype,
    apply(x, out = new Float64Array(x.length)) {
      triSolve(F, pos, cplx, true, true, 1, 1, x, y); // L y = x (unit diagonal)
      triSolve(F, pos, cplx, false, false, 1, 1, y, out); // U out = y
      return out;
    },
  };
}

/**
 * IC(0): A ≈ L Lᴴ with L on the pattern of tril(A). Only the lower triangle of A is
 * read (A is assumed Hermitian). A pivot a_ii − Σ|l_ik|² ≤ 0 throws
 * NotPositiveDefiniteError naming the row (A not HPD, or IC(0) breaks down for an
 * HPD A that is not an M-matrix; a diagonal shift A + αI is the usual cure).
 * @example
 * ```ts
 * // a tridiagonal A has no fill-in: IC(0) is its exact Cholesky factor, so M⁻¹ = A⁻¹
 * const M = sparse.ic0(sparse.poisson1d(3));
 * M.apply(new Float64Array([1, 0, 1]));   // ≈ Float64Array [1, 1, 1]
 * ```
 */
export function ic0(A: CompressedArrays): TypedPreconditioner {
  const n = square(A, 'ic0');
  checkCanonical(A, 'ic0');
  const cplx = isComplexDType(A.dtype);
  const lanes = cplx ? 2 : 1;
  // Extract tril(A) as CSR (rows sorted, diagonal last in each row).
  const lp = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    let cnt = 0;
    for (let k = A.indptr[i]!; k < A.indptr[i + 1]!; k++) if (A.indices[k]! <= i) cnt++;
    lp[i + 1] = lp[i]! + cnt;
  }
  const li = new Int32Array(lp[n]!);
  const lv = new Float64Array(lanes * lp[n]!);
  for (let i = 0, q = 0; i < n; i++) {
    for (let k = A.indptr[i]!; k < A.indptr[i + 1]!; k++) {
      if (A.indices[k]! > i) continue;
      li[q] = A.indices[k]!;
      for (let l = 0; l < lanes; l++) lv[lanes * q + l] = A.data[lanes * k + l]!;
      q++;
    }
    if (lp[i + 1] === lp[i] || li[lp[i + 1]! - 1] !== i) throw new NotPositiveDefiniteError('ic0', i + 1, undefined, { pivot: 0, detail: `row ${i} has no diagonal entry` });
  }
  // Row-oriented (left-looking) IC(0): l_ij = (a_ij − Σ_{k<j} l_ik conj(l_jk)) / l_jj, l_ii = sqrt(a_ii − Σ |l_ik|²).
  for (let i = 0; i < n; i++) {
    const s = lp[i]!,
      e = lp[i + 1]! - 1; // e: diagonal position
    for (let p = s; p < e; p++) {
      const j = li[p]!;
      // sparse dot of row i (columns < j) and row j (columns < j), both sorted.
      let sr = 0,
        si = 0;
      let a = s,
        b = lp[j]!;
      const bend = lp[j + 1]! - 1;
      while (a < p && b < bend) {
        const ca = li[a]!,
          cb = li[b]!;
        if (ca === cb) {
          if (!cplx) sr += lv[a]! * lv[b]!;
          else {
            // l_ik · conj(l_jk)
            const xr = lv[2 * a]!,
              xi = lv[2 * a + 1]!,
              yr = lv[2 * b]!,
              yi = -lv[2 * b + 1]!;
            sr += xr * yr - xi * yi;
            si += xr * yi + xi * yr;
          }
          a++;
          b++;
        } else if (ca < cb) a++;
        else b++;
      }
      const djj = lv[lanes * bend]!; // l_jj, real positive
      if (!cplx) lv[p] = (lv[p]! - sr) / djj;
      else {
        lv[2 * p] = (lv[2 * p]! - sr) / djj;
        lv[2 * p + 1] = (lv[2 * p + 1]! - si) / djj;
      }
    }
    let sq = 0;
    for (let p = s; p < e; p++) sq += cplx ? lv[2 * p]! ** 2 + lv[2 * p + 1]! ** 2 : lv[p]! ** 2;
    const piv = lv[lanes * e]! - sq;
    if (!(piv > 0)) throw new NotPositiveDefiniteError('ic0', i + 1, undefined, { pivot: piv, detail: 'A is not positive definite, or IC(0) breaks down (try A + αI)' });
    lv[lanes * e] = Math.sqrt(piv);
    if (cplx) lv[2 * e + 1] = 0;
  }
  const y = new Float64Array(lanes * n);
  return {
    shape: [n, n],
    dtype: A.dtype,
    apply(x, out = new Float64Array(x.length)) {
      // L y = x, forward; the diagonal is the last entry of each row.
      for (let i = 0; i < n; i++) {
        const e = lp[i + 1]! - 1;
        if (!cplx) {
          let s = x[i]!;
          for (let k = lp[i]!; k < e; k++) s -= lv[k]! * y[li[k]!]!;
          y[i] = s / lv[e]!;
        } else {
          let sr = x[2 * i]!,
            si = x[2 * i + 1]!;
          for (let k = lp[i]!; k < e; k++) {
            const j = 2 * li[k]!,
              ar = lv[2 * k]!,
              ai = lv[2 * k + 1]!;
            sr -= ar * y[j]! - ai * y[j + 1]!;
            si -= ar * y[j + 1]! + ai * y[j]!;
          }
          y[2 * i] = sr / lv[2 * e]!;
          y[2 * i + 1] = si / lv[2 * e]!;
        }
      }
      // Lᴴ out = y, backward, reading L's rows as Lᴴ's columns (scatter form).
      out.set(y);
      for (let i = n - 1; i >= 0; i--) {
        const e = lp[i + 1]! - 1;
        if (!cplx) {
          const oi = (out[i]! /= lv[e]!);
          for (let k = lp[i]!; k < e; k++) out[li[k]!]! -= lv[k]! * oi;
        } else {
          const d = lv[2 * e]!;
          const or = (out[2 * i]! /= d),
            oi = (out[2 * i + 1]! /= d);
          for (let k = lp[i]!; k < e; k++) {
            const j = 2 * li[k]!,
              ar = lv[2 * k]!,
              ai = -lv[2 * k + 1]!; // conj(l_ik)
            out[j]! -= ar * or - ai * oi;
            out[j + 1]! -= ar * oi + ai * or;
          }
        }
      }
      return out;
    },
  };
}
