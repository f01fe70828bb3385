// Sparse direct factorizations as objects that can be solved with many times:
// splu (UMFPACK), klu (KLU, with refactor for new values of the same pattern)
// and cholesky (CHOLMOD) on the native backend; the TypeScript sparse LU and
// Cholesky (src/sparse/direct) when it is absent or `{device: 'js'}` is asked.
//
// An addon built without UMFPACK (GPL; RLX_NO_UMFPACK=1 or RLX_NO_GPL=1):
// splu factors with KLU (method 'klu', the same solutions; no refactor, as
// UMFPACK's splu has none), unless the call asks for UMFPACK's own controls
// (strategy, ordering or refine given, whatever the value): a caller who set
// them relies on UMFPACK, so that is a DeviceError saying UMFPACK was left out,
// never a silently ignored option.
//
// Memory: native factors own SuiteSparse memory. dispose() frees it at once;
// a forgotten factor is freed after it is garbage collected (N-API finalizer,
// its size reported to V8). Methods after dispose() throw a ValueError.

import { Tensor } from '../tensor/tensor.js';
import { fromStorage, tensor, type TensorData } from '../tensor/create.js';
import { config } from '../compiler/config.js';
import { isTraced } from './tensor-values.js';
import { DeviceError, ShapeError, TransformError, ValueError } from '../tensor/errors.js';
import { defaultDevice, deviceNames } from '../backends/registry.js';
import { cholmodFactor, hasUmfpack, kluFactor, umfpackFactor, umfpackMissing, type KluFactor, type UmfpackFactor } from './kernels/native-direct.js';
import { jsCholesky, jsSplu } from './direct/index.js';
import type { CompressedArrays, SparseDType, ValueArray } from './contract.js';
import type { SparseMatrix } from './base.js';
import { computeDType, solveOperands, tensorOfValues, type SolveOperands } from './graph/api.js';
import { sparseSolveT, sparseSolveAttrs } from './graph/ops.js';
import type { Attrs } from '../compiler/ir.js';
import { registerFactor } from './graph/factors.js';
import { csr, type CsrMatrix } from './csr.js';
import { asDType } from './dtypes.js';
import { checkFiniteCsr } from './finite.js';

export type Trans = 'N' | 'T' | 'H';
const TRANS_CODE: Record<string, 0 | 1 | 2> = { N: 0, T: 1, H: 2 };
const TRANS = ['N', 'T', 'H'] as const;

export interface FactorOptions {
  /** 'native' (SuiteSparse; the default when built) or 'js' (the TypeScript solvers). */
  device?: 'native' | 'js';
}

/**
 * splu's UMFPACK controls (ignored by the js sparse LU, which always orders
 * A+Aᵀ with AMD). On a native addon built without UMFPACK (GPL;
 * RLX_NO_UMFPACK=1 or RLX_NO_GPL=1) splu factors with KLU, and giving any of
 * them (even its default value) is a DeviceError: they ask for UMFPACK. So
 * `refine: 2` is the way to require UMFPACK.
 */
export interface SpluOptions extends FactorOptions {
  /**
   * 'auto' (default: UMFPACK picks 'symmetric' when the pattern is mostly
   * symmetric and the diagonal nonzero, else 'unsymmetric'), 'symmetric' (AMD
   * on A+Aᵀ, diagonal pivots preferred: far less fill for a structurally
   * symmetric A) or 'unsymmetric' (COLAMD on AᵀA, row pivots chosen freely).
   */
  strategy?: 'auto' | 'symmetric' | 'unsymmetric';
  /**
   * Fill-reducing ordering: 'auto' (default: 'nd' for a large matrix, n >=
   * 20000 and at least 1e9 LU flops under AMD, whose pattern the symmetric
   * strategy applies to, when its flop count is at most 1.1x AMD's, else
   * 'amd'), 'nd' (rlx's nested dissection of
   * A+Aᵀ with two-level separators, which also keeps UMFPACK's symbolic
   * analysis of AᵀA cheap; symmetric strategy, so not with 'unsymmetric'),
   * 'amd' (COLAMD under the unsymmetric strategy), 'metis', 'cholmod' (AMD,
   * then METIS if the fill is large), 'best' (tries several) or 'natural'.
   */
  ordering?: 'auto' | 'nd' | 'amd' | 'metis' | 'cholmod' | 'best' | 'natural';
  /**
   * Most steps of iterative refinement per solve (default 2): a step is taken
   * while the componentwise backward error is above 8ε and the last step
   * halved it; 0 never refines.
   */
  refine?: number;
}

const STRATEGIES = { auto: 0, unsymmetric: 1, symmetric: 3 } as const;
// 0-5 are UMFPACK_ORDERING_* codes; 6 (nd) and 7 (auto) are the addon's own (native/src/sparse/umfpack.cc).
const ORDERINGS = { auto: 7, nd: 6, amd: 1, metis: 3, cholmod: 0, best: 4, natural: 5 } as const;

function umfpackControls(o: SpluOptions): { strategy: number; ordering: number; refine: number } {
  const pick = <T extends Record<string, number>>(name: string, table: T, v: unknown, dflt: keyof T): number => {
    if (v === undefined) return table[dflt]!;
    if (typeof v !== 'string' || !Object.hasOwn(table, v)) throw new ValueError(`sparse.splu: ${name} must be one of ${Object.keys(table).map((k) => `'${k}'`).join(', ')}, got ${JSON.stringify(v)}`);
    return table[v]!;
  };
  const refine = o.refine ?? 2;
  if (!Number.isInteger(refine) || refine < 0 || refine > 100) throw new ValueError(`sparse.splu: refine must be an integer in [0, 100], got ${String(o.refine)}`);
  const strategy = pick('strategy', STRATEGIES, o.strategy, 'auto');
  const ordering = pick('ordering', ORDERINGS, o.ordering, 'auto');
  if (ordering === ORDERINGS.nd && strategy === STRATEGIES.unsymmetric)
    throw new ValueError(`sparse.splu: ordering 'nd' needs strategy 'auto' or 'symmetric' (it is given to UMFPACK's symmetric strategy), got 'unsymmetric'`);
  return { strategy, ordering, refine };
}

export interface LogDet {
  /** ±1 (0 when singular) for real matrices; [re, im] of the unit phase for complex ones. */
  sign: number | [number, number];
  logabsdet: number;
}

interface Backing {
  /** x = op(A)⁻¹ b, written to `out` when the backing can (the native factors), else a new array. */
  solve(b: Float64Array, trans: Trans, out?: Float64Array): Float64Array;
  /** KLU: the canonical values last factored. */
  values?(): ValueArray;
  logDet?(): LogDet;
  refactor?(values: SparseMatrix | ValueArray): void;
  dispose(): void;
}

const isCplx = (d: SparseDType) => d === 'complex64' || d === 'complex128';

function pickDevice(op: string, opts: FactorOptions): 'native' | 'js' {
  const d = opts.device ?? (defaultDevice() === 'native' ? 'native' : 'js');
  if (d !== 'native' && d !== 'js') throw new DeviceError(`sparse.${op}: device must be 'native' or 'js', got '${String(d)}'`);
  if (d === 'native' && !deviceNames().includes('native')) throw new DeviceError(`sparse.${op}: the native backend is not available (build the addon: npm run build:native)`);
  return d;
}

function csrArrays(op: string, A: SparseMatrix): CompressedArrays {
  const M = A.tocsr();
  if (M.tensorValued && M.valuesTensor().node.symbolic)
    throw new TransformError(`sparse.${op}: factors the values as numbers, which a vmap/jit input does not have yet; use sparse.spsolve(A, b) (a lazy op) inside vmap/jit`);
  if (M.shape[0] !== M.shape[1]) throw new ShapeError(`sparse.${op}: the matrix must be square, got ${M.shape[0]}x${M.shape[1]}`);
  const c = M.sumDuplicates();
  const a: CompressedArrays = { shape: c.shape, dtype: c.dtype, indptr: c.indptr, indices: c.indices, data: c.data };
  checkFiniteCsr(op, a);
  return a;
}


/**
 * A factorization of a square sparse matrix: solve as often as needed, then dispose.
 * @example
 * ```ts
 * const F = sparse.splu(sparse.fromDense([[2, 1], [0, 2]]));   // a SparseFactorization
 * F.solve(tensor([3, 2])).tolist();                  // ≈ [1, 1]
 * F.solve(tensor([2, 3]), { trans: 'T' }).tolist();  // ≈ [1, 1]  (Aᵀx = b)
 * F.logDet().logabsdet;                              // ≈ 1.3863 (log 4)
 * F.dispose();
 * ```
 */
export class SparseFactorization {
  #backing: Backing | undefined;
  #id: number;
  /** The factored matrix as the solve op sees it (pattern and values): derivatives with respect to its values. */
  #operands: SolveOperands;
  /** The solve op's attrs per trans (built once: frozen attrs make repeated solves cheap to bind). */
  #attrs = new Map<string, Attrs>();
  constructor(
    readonly method: 'umfpack' | 'klu' | 'cholmod' | 'js-lu' | 'js-cholesky',
    readonly n: number,
    readonly dtype: SparseDType,
    backing: Backing,
    operands: SolveOperands,
  ) {
    this.#backing = backing;
    this.#operands = operands;
    this.#id = registerFactor(this);
  }
  get disposed(): boolean {
    return this.#backing === undefined;
  }
  private backing(what: string): Backing {
    if (!this.#backing) throw new ValueError(`sparse.${this.method}: ${what}() on a factorization that has been disposed`);
    return this.#backing;
  }
  /**
   * x = op(A)⁻¹ b for b [n] or [n, k] as a lazy tensor; trans 'N' (A), 'T' (Aᵀ)
   * or 'H' (Aᴴ). Differentiable in b (the adjoint solve with this factor) and,
   * when A was built from traced values, in them. Read the result before
   * dispose(): a pending solve of a disposed factor is a ValueError.
   */
  solve(b: Tensor | TensorData, opts: { trans?: Trans } = {}): Tensor {
    const t = b instanceof Tensor ? b : tensor(b);
    const d = computeDType('solve', this.dtype, t.dtype);
    if ((t.ndim !== 1 && t.ndim !== 2) || t.shape[0] !== this.n) throw new ShapeError(`sparse.${this.method}.solve: b must be [${this.n}] or [${this.n}, k], got [${t.shape.join(', ')}]`);
    const letter = opts.trans ?? 'N';
    const trans = typeof letter === 'string' && Object.hasOwn(TRANS_CODE, letter) ? TRANS_CODE[letter] : undefined;
    if (trans === undefined) throw new ValueError(`sparse.${this.method}.solve: trans must be 'N', 'T' or 'H', got ${String(opts.trans)}`);
    const backing = this.backing('solve');
    const { pattern, values } = this.#operands;
    // Concrete float64 numbers that nothing traces: solved at once, as a lone linalg op is realized
    // (compiler/direct-linalg.ts), without building and realizing three nodes. The result is the
    // same, and a derivative would see a constant either way. (Half the cost of a small solve.)
    if (config.directOp && (d === 'float64' || d === 'complex128') && t.node.op === 'buffer' && t.dtype === d && !t.node.tracked && !isTraced(values)) {
      const b64 = t.node.data as Float64Array;
      const out = new Float64Array(b64.length);
      const x = backing.solve(b64, TRANS[trans], out);
      return fromStorage(x === out || x !== b64 ? x : x.slice(), t.shape as number[], d, t.node.device);
    }
    const vec = t.ndim === 1;
    const B = (vec ? t.reshape([this.n, 1]) : t).cast(d);
    const key = `${trans}`;
    let attrs = this.#attrs.get(key);
    if (attrs === undefined) {
      attrs = sparseSolveAttrs(pattern, { method: this.method.endsWith('cholesky') || this.method === 'cholmod' ? 'cholesky' : 'lu', trans, rtol: 0, atol: 0, maxiter: 0, factor: this.#id });
      this.#attrs.set(key, attrs);
    }
    const x = sparseSolveT(pattern, values.dtype === d ? values : values.cast(d), B, attrs);
    return vec ? x.reshape([this.n]) : x;
  }
  /**
   * The same on raw row-major Float64Array data (interleaved complex); into
   * `out` (b's length, not overlapping b) when given, which is returned.
   */
  solveRaw(b: Float64Array, trans: Trans = 'N', out?: Float64Array): Float64Array {
    if (trans !== 'N' && trans !== 'T' && trans !== 'H') throw new ValueError(`sparse.${this.method}.solve: trans must be 'N', 'T' or 'H', got ${String(trans)}`);
    if (out === undefined) return this.backing('solve').solve(b, trans);
    if (!(out instanceof Float64Array) || out.length !== b.length) throw new ShapeError(`sparse.${this.method}.solveRaw: out must be a Float64Array of length ${b.length}`);
    const x = this.backing('solve').solve(b, trans, out);
    if (x !== out) out.set(x);
    return out;
  }
  /** log|det A| and the sign (phase for complex); sign 0 and −inf for a singular matrix. */
  logDet(): LogDet {
    const f = this.backing('logDet');
    if (!f.logDet) throw new ValueError(`sparse.${this.method}: logDet is not available for this factorization`);
    return f.logDet();
  }
  /** KLU: factors new values of the same pattern (a matrix with the same indptr/indices, or its data array). */
  refactor(values: SparseMatrix | ValueArray): void {
    const f = this.backing('refactor');
    if (!f.refactor) throw new ValueError(`sparse.${this.method}: refactor() is only available on factorizations made by sparse.klu (splu and cholesky factor again instead)`);
    f.refactor(values);
    // Solves bound before refactor referred to the old values: they become an error rather than silently use the new ones.
    this.#id = registerFactor(this);
    this.#attrs.clear();
    this.#operands = { pattern: this.#operands.pattern, values: ArrayBuffer.isView(values) ? tensorOfValues(f.values!(), this.dtype) : solveOperands(values as SparseMatrix, 'lu').values };
  }
  /** Frees the factorization now (idempotent). */
  dispose(): void {
    this.#backing?.dispose();
    this.#backing = undefined;
  }
}

const nativeLogDet = (f: { logDet(): { sign: number; signIm: number; logabsdet: number } }, cplx: boolean) => (): LogDet => {
  const r = f.logDet();
  return { sign: cplx ? [r.sign, r.signIm] : r.sign, logabsdet: r.logabsdet };
};

/**
 * Sparse LU factorization (scipy.sparse.linalg.splu): UMFPACK on native (KLU
 * when the addon was built without UMFPACK, which is GPL: then `method` is
 * 'klu', and strategy/ordering/refine are a DeviceError); the js sparse LU with
 * AMD ordering otherwise.
 * @example
 * ```ts
 * const lu = sparse.splu(sparse.poisson1d(3));    // factor once (scipy.sparse.linalg.splu)
 * lu.solve(tensor([1, 0, 1])).tolist();           // [1, 1, 1]; reuse lu for more right-hand sides
 * ```
 */
export function splu(A: SparseMatrix, opts: SpluOptions = {}): SparseFactorization {
  const controls = umfpackControls(opts);
  const a = csrArrays('splu', A);
  const cplx = isCplx(a.dtype);
  const ops = solveOperands(A, 'lu');
  if (pickDevice('splu', opts) === 'native') {
    const umf = hasUmfpack();
    let f: UmfpackFactor | KluFactor;
    if (umf) f = umfpackFactor(a, controls);
    else {
      const asked = (['strategy', 'ordering', 'refine'] as const).filter((k) => opts[k] !== undefined);
      if (asked.length) throw umfpackMissing('sparse.splu', `${asked.join(', ')} ${asked.length > 1 ? 'are UMFPACK controls' : 'is a UMFPACK control'}: leave ${asked.length > 1 ? 'them' : 'it'} out and splu factors with KLU, or pass device: 'js'`);
      f = kluFactor(a);
    }
    return new SparseFactorization(umf ? 'umfpack' : 'klu', a.shape[0], a.dtype, { solve: (b, t, out) => f.solve(b, out ? { trans: t, out } : { trans: t }), logDet: nativeLogDet(f, cplx), dispose: () => f.dispose() }, ops);
  }
  const f = jsSplu({ ...a, format: 'csr' });
  return new SparseFactorization('js-lu', a.shape[0], a.dtype, { solve: (b, t) => f.solve(b, { trans: t }), logDet: () => f.logDet() as LogDet, dispose: () => f.dispose() }, ops);
}

/**
 * KLU (native), whose refactor() reuses the analysis for new values; the js sparse LU (refactor = factor again) otherwise.
 * @example
 * ```ts
 * const F = sparse.klu(sparse.fromDense([[4, 1], [2, 3]]));
 * F.solve(tensor([5, 5])).tolist();                 // ≈ [1, 1]
 * F.refactor(sparse.fromDense([[2, 1], [1, 3]]));   // same pattern, new values
 * F.solve(tensor([3, 4])).tolist();                 // ≈ [1, 1]
 * F.dispose();
 * ```
 */
export function klu(A: SparseMatrix, opts: FactorOptions = {}): SparseFactorization {
  const a = csrArrays('klu', A);
  const values = refactorValues(A.tocsr(), a);
  const ops = solveOperands(A, 'lu');
  let current = a.data;
  if (pickDevice('klu', opts) === 'native') {
    const f = kluFactor(a);
    return new SparseFactorization(
      'klu',
      a.shape[0],
      a.dtype,
      {
        solve: (b, t, out) => f.solve(b, out ? { trans: t, out } : { trans: t }),
        logDet: nativeLogDet(f, isCplx(a.dtype)),
        refactor: (v) => f.refactor((current = values(v))),
        values: () => current,
        dispose: () => f.dispose(),
      },
      ops,
    );
  }
  let f = jsSplu({ ...a, format: 'csr' });
  return new SparseFactorization(
    'js-lu',
    a.shape[0],
    a.dtype,
    {
      solve: (b, t) => f.solve(b, { trans: t }),
      logDet: () => f.logDet() as LogDet,
      refactor: (v) => {
        const g = jsSplu({ ...a, data: (current = values(v)), format: 'csr' });
        f.dispose();
        f = g;
      },
      values: () => current,
      dispose: () => f.dispose(),
    },
    ops,
  );
}

const samePattern = (x: CompressedArrays, y: CompressedArrays) =>
  x.shape[0] === y.shape[0] && x.shape[1] === y.shape[1] && x.indices.length === y.indices.length && x.indptr.every((v, i) => v === y.indptr[i]) && x.indices.every((v, i) => v === y.indices[i]);

/**
 * refactor's new values as the canonical data the factor was built from: a
 * matrix must have the factored pattern (same entry count is not enough), and
 * the factored matrix's own data array is accepted even with duplicates (the
 * factor holds the summed, canonical pattern).
 */
function refactorValues(orig: CsrMatrix, canon: CompressedArrays): (v: SparseMatrix | ValueArray) => ValueArray {
  const L = isCplx(canon.dtype) ? 2 : 1;
  return (v) => {
    if (!ArrayBuffer.isView(v)) {
      const c = csrArrays('refactor', v as SparseMatrix);
      if (!samePattern(c, canon)) throw new ValueError(`sparse.klu.refactor: the new matrix (shape [${c.shape.join(', ')}], ${c.indices.length} entries) does not have the sparsity pattern of the factored one ([${canon.shape.join(', ')}], ${canon.indices.length} entries)`);
      return c.dtype === canon.dtype ? c.data : asDType('refactor', c.data, c.dtype, canon.dtype);
    }
    const d = v as ValueArray;
    const Storage = canon.dtype === 'float32' || canon.dtype === 'complex64' ? Float32Array : Float64Array;
    const typed = (x: ValueArray) => (x instanceof Storage ? x : Storage.from(x));
    if (d.length === canon.indices.length * L) return typed(d);
    if (d.length === orig.nnz * L) return typed(csr({ indptr: orig.indptr, indices: orig.indices, data: typed(d), shape: orig.shape, dtype: canon.dtype }).sumDuplicates().data);
    throw new ShapeError(`sparse.klu.refactor: ${d.length / L} values for a pattern of ${orig.nnz} stored entries${orig.nnz !== canon.indices.length ? ` (${canon.indices.length} without duplicates)` : ''}`);
  };
}

/**
 * Sparse Cholesky of a symmetric (Hermitian) positive-definite matrix; reads the lower triangle.
 * @example
 * ```ts
 * const F = sparse.cholesky(sparse.poisson1d(3));   // scipy: sksparse.cholmod.cholesky
 * F.solve(tensor([1, 0, 1])).tolist();              // ≈ [1, 1, 1]
 * F.logDet().logabsdet;                             // ≈ 1.3863 (log 4: det poisson1d(n) = n + 1)
 * F.dispose();
 * ```
 */
export function cholesky(A: SparseMatrix, opts: FactorOptions = {}): SparseFactorization {
  const a = csrArrays('cholesky', A);
  const cplx = isCplx(a.dtype);
  const ops = solveOperands(A, 'cholesky');
  // Aᵀ of a Hermitian A is conj(A): Aᵀ x = b is x = conj(A⁻¹ conj(b)); Aᴴ = A.
  const conjugated = (v: Float64Array) => (cplx ? v.map((x, i) => (i % 2 ? -x : x)) : v);
  const viaA = (solveA: (b: Float64Array) => Float64Array) => (b: Float64Array, t: Trans) => (t === 'T' && cplx ? conjugated(solveA(conjugated(b))) : solveA(b));
  if (pickDevice('cholesky', opts) === 'native') {
    const f = cholmodFactor(a);
    return new SparseFactorization('cholmod', a.shape[0], a.dtype, { solve: viaA((b) => f.solve(b)), logDet: nativeLogDet(f, cplx), dispose: () => f.dispose() }, ops);
  }
  const f = jsCholesky({ ...a, format: 'csr' });
  return new SparseFactorization('js-cholesky', a.shape[0], a.dtype, { solve: viaA((b) => f.solve(b)), logDet: () => f.logDet() as LogDet, dispose: () => f.dispose() }, ops);
}
