// The js reference kernels of the sparse IR ops (graph/ops.ts): CSR products
// with k right-hand columns in both directions, the sampled product, and
// solves through the TypeScript Krylov solvers or sparse direct factorizations.
// Values are read as doubles and stored into the output's own array type.

import type { SparseDType, ValueArray, RawOperator } from '../contract.js';
import type { CsrView, SparseGraphKernels, SparseSolveOptions } from './contract.js';
import { cg, bicgstab, gmres, minres } from '../solvers/index.js';
import type { CsrLike } from '../solvers/index.js';
import { ConvergenceError } from '../../tensor/errors-linalg.js';
import { kernelsFor } from '../../compiler/kernel-registry.js';
import { SPARSE_DIRECT } from './family.js';
import { hintsById } from './solve-hints.js';

const cplx = (d: SparseDType) => d === 'complex64' || d === 'complex128';

/** out = op(A) x for k columns; op = A, Aᵀ or Aᴴ. */
function csrMatmul(dtype: SparseDType, a: CsrView, x: ValueArray, k: number, out: ValueArray, trans: 0 | 1 | 2): void {
  const { rows, indptr: ip, indices: ix, data: v } = a;
  const c = cplx(dtype);
  if (trans === 0) {
    if (!c) {
      for (let i = 0; i < rows; i++)
        for (let j = 0; j < k; j++) {
          let s = 0;
          for (let p = ip[i]!; p < ip[i + 1]!; p++) s += v[p]! * x[ix[p]! * k + j]!;
          out[i * k + j] = s;
        }
      return;
    }
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < k; j++) {
        let sr = 0,
          si = 0;
        for (let p = ip[i]!; p < ip[i + 1]!; p++) {
          const ar = v[2 * p]!,
            ai = v[2 * p + 1]!,
            q = 2 * (ix[p]! * k + j);
          sr += ar * x[q]! - ai * x[q + 1]!;
          si += ar * x[q + 1]! + ai * x[q]!;
        }
        out[2 * (i * k + j)] = sr;
        out[2 * (i * k + j) + 1] = si;
      }
    return;
  }
  // Transposed products scatter into a zeroed double accumulator (float32 outputs round once at the end).
  const lanes = c ? 2 : 1;
  const acc = new Float64Array(a.cols * k * lanes);
  const sgn = trans === 2 ? -1 : 1;
  for (let i = 0; i < rows; i++)
    for (let p = ip[i]!; p < ip[i + 1]!; p++) {
      const col = ix[p]!;
      if (!c) {
        const ar = v[p]!;
        for (let j = 0; j < k; j++) acc[col * k + j] += ar * x[i * k + j]!;
      } else {
        const ar = v[2 * p]!,
          ai = sgn * v[2 * p + 1]!;
        for (let j = 0; j < k; j++) {
          const q = 2 * (i * k + j),
            o = 2 * (col * k + j);
          acc[o] += ar * x[q]! - ai * x[q + 1]!;
          acc[o + 1] += ar * x[q + 1]! + ai * x[q]!;
        }
      }
    }
  out.set(acc);
}

/** out[e] = Σ_j g[row(e), j] · x[col(e), j]. */
function csrSddmm(dtype: SparseDType, a: Omit<CsrView, 'data'>, g: ValueArray, x: ValueArray, k: number, out: ValueArray): void {
  const { rows, indptr: ip, indices: ix } = a;
  const c = cplx(dtype);
  for (let i = 0; i < rows; i++)
    for (let p = ip[i]!; p < ip[i + 1]!; p++) {
      const col = ix[p]!;
      if (!c) {
        let s = 0;
        for (let j = 0; j < k; j++) s += g[i * k + j]! * x[col * k + j]!;
        out[p] = s;
      } else {
        let sr = 0,
          si = 0;
        for (let j = 0; j < k; j++) {
          const q = 2 * (i * k + j),
            o = 2 * (col * k + j);
          sr += g[q]! * x[o]! - g[q + 1]! * x[o + 1]!;
          si += g[q]! * x[o + 1]! + g[q + 1]! * x[o]!;
        }
        out[2 * p] = sr;
        out[2 * p + 1] = si;
      }
    }
}

/** op(A) as a RawOperator on float64 vectors (one column). */
export function csrOperator(dtype: SparseDType, a: CsrView, trans: 0 | 1 | 2, matmul = csrMatmul): RawOperator {
  const c = cplx(dtype);
  const wide = a.data instanceof Float64Array ? a.data : Float64Array.from(a.data);
  const A64: CsrView = { ...a, data: wide };
  const d64: SparseDType = c ? 'complex128' : 'float64';
  return {
    shape: [a.rows, a.cols],
    dtype: d64,
    matvec: (x, out = new Float64Array(x.length)) => (matmul(d64, A64, x, 1, out, trans), out),
    rmatvec: (x, out = new Float64Array(x.length)) => (matmul(d64, A64, x, 1, out, trans === 0 ? 2 : trans === 2 ? 0 : 1), out),
  };
}

const KRYLOV = { cg, bicgstab, gmres, minres } as const;

/**
 * op(A) for the Krylov solvers: A itself (trans 0, float64 storage) as CSR
 * arrays, which the solvers apply with the raw CSR kernels (the native
 * threaded SpMV, CG's fused A·p + pᵀAp pass), else csrOperator's product.
 */
export function krylovOperand(dtype: SparseDType, a: CsrView, trans: 0 | 1 | 2, matmul = csrMatmul): RawOperator | CsrLike {
  if (trans === 0 && a.data instanceof Float64Array) return { shape: [a.rows, a.cols], dtype, indptr: a.indptr, indices: a.indices, data: a.data, format: 'csr' };
  return csrOperator(dtype, a, trans, matmul);
}

/** Column-by-column Krylov solve of op(A) X = B. */
export function krylovSolve(dtype: SparseDType, op: RawOperator | CsrLike, b: ValueArray, k: number, out: ValueArray, o: SparseSolveOptions): void {
  const n = op.shape[0]!;
  const lanes = cplx(dtype) ? 2 : 1;
  const solver = KRYLOV[o.method as keyof typeof KRYLOV];
  const hints = o.hints !== undefined ? hintsById(o.hints) : {};
  const col = new Float64Array(n * lanes);
  const column = (v: ArrayLike<number>, j: number) => {
    const c = new Float64Array(n * lanes);
    for (let i = 0; i < n; i++) for (let l = 0; l < lanes; l++) c[i * lanes + l] = v[(i * k + j) * lanes + l]!;
    return c;
  };
  for (let j = 0; j < k; j++) {
    for (let i = 0; i < n; i++) for (let l = 0; l < lanes; l++) col[i * lanes + l] = b[(i * k + j) * lanes + l]!;
    const extra = { ...(hints.M !== undefined ? { M: hints.M } : {}), ...(hints.x0 !== undefined ? { x0: column(hints.x0, j) } : {}) };
    const r = solver(op, col, { rtol: o.rtol, atol: o.atol, ...(o.maxiter > 0 ? { maxiter: o.maxiter } : {}), ...extra });
    if (!r.converged) throw new ConvergenceError(`sparse.${o.method}`, undefined, `column ${j}: ${r.message ?? `residual ${r.residualNorm.toExponential(3)} after ${r.iterations} iterations (info ${r.info})`}`);
    for (let i = 0; i < n; i++) for (let l = 0; l < lanes; l++) out[(i * k + j) * lanes + l] = r.x[i * lanes + l]!;
  }
}

function solve(dtype: SparseDType, a: CsrView, b: ValueArray, k: number, out: ValueArray, o: SparseSolveOptions): void {
  if (o.method === 'lu' || o.method === 'cholesky') return kernelsFor('js', SPARSE_DIRECT, 'sparse.spsolve', dtype)(dtype, a, b, k, out, o);
  krylovSolve(dtype, krylovOperand(dtype, a, o.trans), b, k, out, o);
}

export const jsSparseGraphKernels: SparseGraphKernels = { csrMatmul, csrSddmm, solve };
