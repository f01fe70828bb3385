// Tensor-level sparse products and solves: the bridge from the matrix classes
// to the IR ops of graph/ops.ts. Results are lazy tensors, so they fuse with
// what follows and are differentiable in the dense operand and in the values.

import { Tensor } from '../../tensor/tensor.js';
import { fromStorage } from '../../tensor/create.js';
import { cat } from '../../tensor/ops/movement.js';
import { type DType, promoteTypes, isComplex } from '../../tensor/dtype.js';
import { DTypeError, ShapeError, TransformError, ValueError } from '../../tensor/errors.js';
import type { CompressedArrays, SparseDType, ValueArray } from '../contract.js';
import { type CsrPattern, csrMatmulT, sparseSolveT } from './ops.js';
import type { SparseSolveOptions } from './contract.js';
import { registerHints, type SolveHints } from './solve-hints.js';
import type { PreconditionerLike } from '../solvers/index.js';
import { tensor } from '../../tensor/create.js';
import { fmtShape } from '../../tensor/shape.js';

const SPARSE: readonly DType[] = ['float32', 'float64', 'complex64', 'complex128'];

/** The values of a tensor as the storage array of a sparse dtype (reads the tensor; `who` names the matrix for the error a vmap/jit input gives). */
export function valuesFromTensor(t: Tensor, d: SparseDType, who = 'matrix'): ValueArray {
  if (t.node.symbolic) throw new TransformError(`sparse: an operation reads the ${who} values as numbers, which a vmap/jit input does not have yet (products, solves with spsolve and the structural operations work on traced values; factorizations, eliminateZeros, fromDense and printing need numbers)`);
  const c = t.dtype === d ? t : t.cast(d);
  return c.toArray() as ValueArray;
}

/** A [nnz] tensor over stored values (no copy: matrices are immutable by convention). */
export function tensorOfValues(data: ValueArray, d: SparseDType | DType): Tensor {
  const lanes = isComplex(d) ? 2 : 1;
  return fromStorage(data, [data.length / lanes], d);
}

type Compressed = CompressedArrays & { format: 'csr' | 'csc'; valuesTensor(): Tensor };

// Pattern tensors per (indices, indptr) pair of arrays: a matrix used in many
// products builds them once. Keyed on indices with indptr checked, because
// matrices may share an indptr array (csr() keeps the caller's arrays) and
// differ in their indices.
const PATTERNS = new WeakMap<Int32Array, { ip: Int32Array; indptr: Tensor; indices: Tensor }>();

/** The CSR pattern the op sees: A's own (CSR) or that of Aᵀ (CSC arrays are CSR of the transpose). */
export function csrPattern(A: Compressed): CsrPattern {
  let p = PATTERNS.get(A.indices);
  if (!p || p.ip !== A.indptr) {
    p = { ip: A.indptr, indptr: fromStorage(A.indptr, [A.indptr.length], 'int32'), indices: fromStorage(A.indices, [A.indices.length], 'int32') };
    PATTERNS.set(A.indices, p);
  }
  const [m, n] = A.shape;
  return A.format === 'csr' ? { indptr: p.indptr, indices: p.indices, rows: m, cols: n } : { indptr: p.indptr, indices: p.indices, rows: n, cols: m };
}

/** The dtype a product or solve of A with x computes in. */
export function computeDType(op: string, a: DType, x: DType): SparseDType {
  let d = promoteTypes(a, x);
  if (d === 'int32' || d === 'bool') d = 'float64';
  if (!SPARSE.includes(d)) throw new DTypeError(`sparse.${op}: cannot compute with ${a} and ${x} (supported: ${SPARSE.join(', ')})`);
  return d as SparseDType;
}

const conj = (x: Tensor) => (isComplex(x.dtype) ? x.conj() : x);

/** A x (or Aᴴ x) for x [n] or [n, k], as a lazy tensor. */
export function sparseProduct(A: Compressed, x: Tensor, adjoint: boolean): Tensor {
  const d = computeDType(adjoint ? 'rmatvec' : 'matmul', A.dtype, x.dtype);
  const inner = adjoint ? A.shape[0] : A.shape[1];
  if (x.shape[0] !== inner) throw new ShapeError(`sparse.${adjoint ? 'rmatvec' : 'matmul'}: a ${A.shape[0]}x${A.shape[1]} matrix${adjoint ? ' (adjoint)' : ''} and x [${x.shape.join(', ')}]: x needs ${inner} rows`);
  const vec = x.ndim === 1;
  const X = (vec ? x.reshape([x.shape[0]!, 1]) : x).cast(d);
  const v = A.valuesTensor().cast(d);
  const p = csrPattern(A);
  let y: Tensor;
  if (A.format === 'csr') y = csrMatmulT(p, v, X, adjoint ? 2 : 0);
  else y = adjoint ? conj(csrMatmulT(p, v, conj(X), 0)) : csrMatmulT(p, v, X, 1);
  return vec ? y.reshape([y.shape[0]!]) : y;
}

export interface SpsolveOptions {
  /** 'lu' (default; UMFPACK on native, KLU where the addon was built without UMFPACK (GPL), the js sparse LU otherwise), 'cholesky' (SPD/HPD: CHOLMOD; reads the lower triangle, any format, so derivatives go to the lower-triangle values), or an iterative method. */
  method?: SparseSolveOptions['method'];
  /** Solve with A ('N', default), Aᵀ ('T') or Aᴴ ('H'), as factor objects' solve. */
  trans?: 'N' | 'T' | 'H';
  /** Iterative methods: tolerances (‖b − A x‖ ≤ max(rtol‖b‖, atol)) and iteration limit. */
  rtol?: number;
  atol?: number;
  maxiter?: number;
  /** Iterative methods: a preconditioner M ≈ op(A)⁻¹ (jacobi(A), ic0(A), ...; not used by the derivative's adjoint solves). */
  M?: PreconditionerLike;
  /** Iterative methods: a start vector shaped like b (read when spsolve is called; no derivative flows to it). */
  x0?: Tensor;
}

const TRANS_CODE = { N: 0, T: 1, H: 2 } as const;
const METHODS: readonly string[] = ['lu', 'cholesky', 'cg', 'bicgstab', 'gmres', 'minres'];

/** Options are checked when spsolve is called, not when the lazy result is first read. */
function checkSolveOptions(o: SpsolveOptions): void {
  if (o.method !== undefined && !METHODS.includes(o.method)) throw new ValueError(`sparse.spsolve: method must be one of ${METHODS.map((m) => `'${m}'`).join(', ')}, got ${JSON.stringify(o.method)}`);
  if (o.trans !== undefined && o.trans !== 'N' && o.trans !== 'T' && o.trans !== 'H') throw new ValueError(`sparse.spsolve: trans must be 'N' (A), 'T' (Aᵀ) or 'H' (Aᴴ), got ${JSON.stringify(o.trans)}`);
  if (o.maxiter !== undefined && !(Number.isInteger(o.maxiter) && o.maxiter >= 0)) throw new ValueError(`sparse.spsolve: maxiter must be a non-negative integer (0: the method's default), got ${o.maxiter}`);
  for (const k of ['rtol', 'atol'] as const) {
    const v = o[k];
    if (v !== undefined && !(typeof v === 'number' && v >= 0 && Number.isFinite(v))) throw new ValueError(`sparse.spsolve: ${k} must be a finite non-negative number, got ${v}`);
  }
}

/** x = A⁻¹ b as a lazy, differentiable tensor (in b and in A's values); b [n] or [n, k]. */
export function solveTensor(A: Compressed, b: Tensor, opts: SpsolveOptions = {}): Tensor {
  const d = computeDType('spsolve', A.dtype, b.dtype);
  if (A.shape[0] !== A.shape[1]) throw new ShapeError(`sparse.spsolve: the matrix must be square, got ${A.shape[0]}x${A.shape[1]}`);
  if (b.ndim !== 1 && b.ndim !== 2) throw new ShapeError(`sparse.spsolve: b must be [n] or [n, k], got [${b.shape.join(', ')}]`);
  // checked here on the caller's b; the op's own check sees b reshaped to [n, 1] and named that shape.
  if (b.shape[0] !== A.shape[0]) throw new ShapeError(`sparse.spsolve: a ${A.shape[0]}x${A.shape[1]} matrix and b [${b.shape.join(', ')}]: b needs ${A.shape[0]} rows`);
  const vec = b.ndim === 1;
  const B = (vec ? b.reshape([b.shape[0]!, 1]) : b).cast(d);
  checkSolveOptions(opts);
  const trans = TRANS_CODE[opts.trans ?? 'N'];
  // CSC arrays are the CSR arrays of B = Aᵀ: A = Bᵀ, Aᵀ = B, Aᴴ = conj(B).
  const o: SparseSolveOptions = { method: opts.method ?? 'lu', trans, rtol: opts.rtol ?? 1e-5, atol: opts.atol ?? 0, maxiter: opts.maxiter ?? 0 };
  const hints = solveHints(o.method, opts, b, d);
  if (hints) o.hints = hints.id;
  const v = A.valuesTensor().cast(d);
  if (o.method === 'cholesky') {
    const c = choleskyOperands(A, v);
    const x = sparseSolveT(c.pattern, c.values, B, o);
    return vec ? x.reshape([x.shape[0]!]) : x;
  }
  const p = csrPattern(A);
  let x: Tensor;
  if (A.format === 'csr') x = sparseSolveT(p, v, B, o);
  else if (trans === 0) x = sparseSolveT(p, v, B, { ...o, trans: 1 });
  else if (trans === 1) x = sparseSolveT(p, v, B, { ...o, trans: 0 });
  else x = conj(sparseSolveT(p, v, conj(B), { ...o, trans: 0 }));
  hints?.bind(x.node);
  return vec ? x.reshape([x.shape[0]!]) : x;
}

/** M and x0 of an iterative spsolve, registered for its kernel (graph/solve-hints.ts); undefined when neither is given. */
function solveHints(method: string, opts: SpsolveOptions, b: Tensor, d: SparseDType) {
  if (opts.M === undefined && opts.x0 === undefined) return undefined;
  if (method === 'lu' || method === 'cholesky') throw new ValueError(`sparse.spsolve: M and x0 are options of the iterative methods, not of '${method}'`);
  const h: SolveHints = {};
  if (opts.M !== undefined) h.M = opts.M; // a sparse matrix is read as CSR arrays by the solvers (aslinearoperator)
  if (opts.x0 !== undefined) {
    const x0 = opts.x0 instanceof Tensor ? opts.x0 : tensor(opts.x0 as never);
    if (x0.size !== b.size) throw new ShapeError(`sparse.spsolve: x0 ${fmtShape(x0.shape)} must have b's shape ${fmtShape(b.shape)}`);
    h.x0 = x0.cast(isComplex(d) ? 'complex128' : 'float64').toArray() as Float64Array;
  }
  return registerHints(h);
}

/**
 * The Cholesky kernels (CHOLMOD, the js one) read only the lower triangle of
 * the CSR arrays they get. So a Cholesky solve sees H = tril(A) + tril(A, −1)ᴴ
 * (real diagonal) stored in full, its values gathered from A's: H is exactly
 * what is factored whatever A's format, and gradients flow back to the
 * lower-triangle values only (the ignored triangle has zero derivative).
 */
function choleskyOperands(A: Compressed, v: Tensor): SolveOperands {
  const h = hermitianCompletion(A);
  const re = isComplex(v.dtype) ? v.real().cast(v.dtype) : v;
  return { pattern: h, values: cat([v, conj(v), re]).gather(h.src) };
}

/** A sparse matrix as a solve op's operands: CSR pattern and values. */
export interface SolveOperands {
  pattern: CsrPattern;
  values: Tensor;
}

/**
 * The operands of a factorization of A (canonical CSR, as factored; Cholesky:
 * its Hermitian completion), so that solves with the factor differentiate with
 * respect to A's values when they are traced.
 */
export function solveOperands(A: { tocsr(): { sumDuplicates(): Compressed } }, method: 'lu' | 'cholesky'): SolveOperands {
  const M = A.tocsr().sumDuplicates();
  const v = M.valuesTensor();
  return method === 'cholesky' ? choleskyOperands(M, v) : { pattern: csrPattern(M), values: v };
}

// Hermitian completions per indices array (see solveTensor's 'cholesky' branch; keyed like PATTERNS).
type Completion = CsrPattern & { src: Tensor; ip: Int32Array; format: 'csr' | 'csc' };
const HERMITIAN = new WeakMap<Int32Array, Completion>();

/**
 * The CSR pattern of H = tril(A) + tril(A, −1)ᴴ and, per entry of H, where its
 * value comes from in cat([v, conj(v), re(v)]) (v: A's stored values): a lower
 * entry e of A gives H(i, j) ← v[e] and H(j, i) ← conj(v[e]), a diagonal one
 * H(i, i) ← re(v[e]); entries above the diagonal are not read.
 */
function hermitianCompletion(A: Compressed): Completion {
  const hit = HERMITIAN.get(A.indices);
  if (hit && hit.ip === A.indptr && hit.format === A.format && hit.rows === A.shape[0]) return hit;
  const n = A.shape[0];
  const nnz = A.indices.length;
  const ri: number[] = [],
    ci: number[] = [],
    si: number[] = [];
  for (let a = 0; a + 1 < A.indptr.length; a++)
    for (let q = A.indptr[a]!; q < A.indptr[a + 1]!; q++) {
      const [i, j] = A.format === 'csr' ? [a, A.indices[q]!] : [A.indices[q]!, a];
      if (i > j) ri.push(i, j), ci.push(j, i), si.push(q, nnz + q);
      else if (i === j) ri.push(i), ci.push(i), si.push(2 * nnz + q);
    }
  const indptr = new Int32Array(n + 1);
  for (const i of ri) indptr[i + 1]!++;
  for (let i = 0; i < n; i++) indptr[i + 1]! += indptr[i]!;
  const fill = indptr.slice(0, n);
  const indices = new Int32Array(ri.length),
    src = new Int32Array(ri.length);
  ri.forEach((i, e) => {
    const q = fill[i]!++;
    indices[q] = ci[e]!;
    src[q] = si[e]!;
  });
  const h: Completion = {
    indptr: fromStorage(indptr, [n + 1], 'int32'),
    indices: fromStorage(indices, [indices.length], 'int32'),
    rows: n,
    cols: n,
    src: fromStorage(src, [src.length], 'int32'),
    ip: A.indptr,
    format: A.format,
  };
  HERMITIAN.set(A.indices, h);
  return h;
}

/**
 * x = A⁻¹ b already computed (by a raw solver, in float64 storage): bound as the
 * sparseSolve op with options `o` and realized in place with x, so its value is
 * the given solve and its derivatives are the op's rules (the same method and
 * tolerances). For b [n] and a tensor-valued or traced operand.
 */
export function seededSolve(A: Compressed, b: Tensor, d: SparseDType, o: SparseSolveOptions, x: Float64Array): Tensor {
  const n = A.shape[0];
  const B = b.reshape([n, 1]).cast(d);
  const v = A.valuesTensor().cast(d);
  // CSC arrays are the CSR arrays of Aᵀ: A x = b is the transposed solve of that pattern.
  const t = sparseSolveT(csrPattern(A), v, B, { ...o, trans: A.format === 'csr' ? 0 : 1 });
  if (t.node.op !== 'registered') throw new Error('internal: seededSolve expects the sparseSolve call node');
  t.node.realize(d === 'float32' || d === 'complex64' ? Float32Array.from(x) : x);
  return t.reshape([n]);
}
