// Sparse kernels on the native addon (native/src/sparse): threaded CSR
// products and the SuiteSparse direct solvers. The TS half of the boundary:
// every argument is checked here (shapes, dtypes, lengths, indptr) and again in
// C++, so a bad call throws a typed error and never reaches memory it should not.
//
// Products. spmv(A, x, y?, alpha?, beta?) computes y = alpha·A x + beta·y,
// spmm(A, X, k, ...) the same for X [cols, k] row-major, spmvH(A, x, ...)
// y = alpha·Aᴴ x + beta·y (Aᵀ for real dtypes). Vectors use A's storage
// (Float32Array for float32/complex64, Float64Array otherwise; complex
// interleaved); y is written in place and returned (a new zero array when
// omitted). alpha and beta are numbers or [re, im] for complex dtypes.
// Column indices are range-checked in C++ on every call (O(nnz)), `validated:
// true` or not (the addon does not trust it: JS may have written the array
// since it was checked). spmv checks them inside its own loop (about 15%
// faster than a separate scan) when y is fresh (omitted) or `outputScratch` says
// the caller does not need y intact when it throws; a user's y is otherwise
// untouched by a failed call. spmvDot(A, x, y) is y = A x with xᵀy returned,
// for square float64 A and scratch y (CG's q = A p and pᵀq in one pass).
//
// Direct solvers. umfpackFactor / kluFactor (general square A) and
// cholmodFactor (symmetric/Hermitian positive definite A, one triangle read)
// return factor objects owning a native handle. Right-hand sides are
// Float64Array (Float32Array inputs are converted) of length n·k (2·n·k complex),
// row-major [n, k]; solve returns a new Float64Array. dispose() frees the
// SuiteSparse memory at once; a factor that is never disposed is freed when it
// is garbage collected (the handle is a N-API External with a finalizer, and
// its size is reported to V8 as external memory, so no FinalizationRegistry is
// needed); any method after dispose() throws a ValueError. Node runs N-API
// finalizers from the event loop after a GC, so a synchronous loop that never
// yields keeps every factor it forgot until it returns: dispose() in loops.
// Column indices of the factored matrix are always checked (O(nnz), far below
// the factorization's cost); rows are sorted and duplicates summed natively.
//
// Async twins: spmvAsync, umfpackFactorAsync, kluFactorAsync,
// cholmodFactorAsync and a factor's solveAsync take the same arguments and give
// the same result and typed errors as a Promise; the native work runs on a libuv
// worker (native/src/binding/kernel.h) on private copies of the arrays, so the
// event loop keeps turning. A factor may be disposed while a solveAsync runs:
// the SuiteSparse memory is freed when that solve settles.
//
// Errors: a singular matrix -> SingularMatrixError (index: the row of A of the
// first zero pivot, UMFPACK/KLU), not positive definite ->
// NotPositiveDefiniteError (index: the column CHOLMOD stopped at); SuiteSparse
// failures (out of memory, invalid matrix) -> Error from the addon with the
// library's status named.

import type { CompressedArrays, SparseDType, ValueArray } from '../contract.js';
import { NotPositiveDefiniteError, SingularMatrixError } from '../../tensor/errors-linalg.js';
import { DTypeError, DeviceError, ShapeError, ValueError } from '../../tensor/errors.js';
import { setSpmvKernel } from '../spmv.js';
import { setVecKernel } from '../solvers/vec.js';
import { nativeAddon, requireNativeAddon, type DirectHandle, type NativeAddon } from '../../backends/native/addon.js';
import { nativeError, typedAddon } from '../../backends/native/errors.js';

export type Scalar = number | readonly [number, number];
export type Trans = 'N' | 'T' | 'H';

const DTYPES: readonly SparseDType[] = ['float32', 'float64', 'complex64', 'complex128'];
const isComplex = (d: SparseDType) => d === 'complex64' || d === 'complex128';
const storageOf = (d: SparseDType) => (d === 'float32' || d === 'complex64' ? Float32Array : Float64Array);
const perOf = (d: SparseDType) => (isComplex(d) ? 2 : 1);
const MAX_I32 = 2 ** 31 - 1;

function addon(op: string): NativeAddon {
  const a = requireNativeAddon();
  if (typeof a.sparseSpmv !== 'function' || typeof a.umfpackFactor !== 'function') {
    throw new DeviceError(`${op}: the native addon has no sparse kernels (stale build? run npm run build:native)`);
  }
  return typedAddon(a); // whatever the addon still throws becomes a typed error (errors.ts)
}

/** `p` with its rejection (an addon error) as a typed error, as typedAddon does for a throw. */
function typedRejection<T>(p: Promise<T>): Promise<T> {
  return p.catch((e: unknown) => {
    throw nativeError('', e);
  });
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (ArrayBuffer.isView(v)) return v.constructor.name;
  return Array.isArray(v) ? 'Array' : typeof v;
}

/**
 * Checks the compressed arrays' shape, dtype, array types and lengths, indptr's
 * ends (indptr[0] = 0, indptr[rows] = indices.length) in O(1); with `full` also
 * that indptr is non-decreasing and every index is in range (O(rows + nnz)).
 * The products pass full = false: the addon checks indptr in O(rows) on every
 * call, and the indices unless `validated`. Returns nnz.
 */
export function checkCompressed(op: string, a: CompressedArrays, full = false): number {
  if (typeof a !== 'object' || a === null) throw new ValueError(`${op}: the matrix must be CompressedArrays, got ${typeName(a)}`);
  const { shape, dtype, indptr, indices, data } = a;
  if (!Array.isArray(shape) || shape.length !== 2 || !shape.every((d) => Number.isInteger(d) && d >= 0 && d <= MAX_I32)) {
    throw new ShapeError(`${op}: shape must be [rows, cols] of integers in [0, 2^31 - 1], got ${JSON.stringify(shape)}`);
  }
  if (!DTYPES.includes(dtype)) throw new DTypeError(`${op}: dtype must be one of ${DTYPES.join(', ')}, got ${String(dtype)}`);
  const [rows, cols] = shape;
  if (rows >= MAX_I32) throw new ShapeError(`${op}: too many rows (${rows})`);
  if (!(indptr instanceof Int32Array)) throw new DTypeError(`${op}: indptr must be an Int32Array, got ${typeName(indptr)}`);
  if (!(indices instanceof Int32Array)) throw new DTypeError(`${op}: indices must be an Int32Array, got ${typeName(indices)}`);
  const Storage = storageOf(dtype);
  if (!(data instanceof Storage)) throw new DTypeError(`${op}: data must be a ${Storage.name} for dtype ${dtype}, got ${typeName(data)}`);
  if (indptr.length !== rows + 1) throw new ShapeError(`${op}: indptr must have length rows + 1 = ${rows + 1}, got ${indptr.length}`);
  if (indptr[0] !== 0) throw new ValueError(`${op}: indptr[0] must be 0, got ${indptr[0]}`);
  const nnz = indptr[rows]!;
  if (indices.length !== nnz) throw new ShapeError(`${op}: indices must have length nnz = indptr[rows] = ${nnz}, got ${indices.length}`);
  if (data.length !== nnz * perOf(dtype)) throw new ShapeError(`${op}: data must have length ${nnz * perOf(dtype)} (nnz${isComplex(dtype) ? ' · 2' : ''}), got ${data.length}`);
  if (full) {
    for (let r = 0; r < rows; r++) {
      if (indptr[r + 1]! < indptr[r]!) throw new ValueError(`${op}: indptr must be non-decreasing: indptr[${r + 1}] = ${indptr[r + 1]} < indptr[${r}] = ${indptr[r]}`);
    }
    for (let k = 0; k < nnz; k++) {
      const j = indices[k]!;
      if (j < 0 || j >= cols) throw new ValueError(`${op}: indices[${k}] = ${j} is outside [0, cols = ${cols})`);
    }
  }
  return nnz;
}

function scalar(op: string, name: string, v: Scalar | undefined, dflt: number, complex: boolean): [number, number] {
  if (v === undefined) return [dflt, 0];
  if (typeof v === 'number') return [v, 0];
  if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number') {
    const [re, im] = v as readonly [number, number];
    if (!complex && im !== 0) throw new DTypeError(`${op}: ${name} must be real for a real dtype, got [${re}, ${im}]`);
    return [re, im];
  }
  throw new ValueError(`${op}: ${name} must be a number or [re, im], got ${typeName(v)}`);
}

function vector(op: string, name: string, v: unknown, dtype: SparseDType, length: number): ValueArray {
  const Storage = storageOf(dtype);
  if (!(v instanceof Storage)) throw new DTypeError(`${op}: ${name} must be a ${Storage.name} for dtype ${dtype}, got ${typeName(v)}`);
  if (v.length !== length) throw new ShapeError(`${op}: ${name} must have length ${length}, got ${v.length}`);
  return v;
}

function overlapsBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  if (a.buffer !== b.buffer) return false;
  return a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength && a.byteLength > 0 && b.byteLength > 0;
}

export interface ProductOptions {
  /** The matrix's indices were checked when it was built and have not changed: skip the O(nnz) check. */
  validated?: boolean;
  /** spmv: y is the caller's scratch, so it may be left partly written when a bad index throws (the check then runs inside the product). */
  outputScratch?: boolean;
}

function product(op: 'spmv' | 'spmvH' | 'spmm', a: CompressedArrays, x: ValueArray, k: number, y: ValueArray | undefined, alpha: Scalar | undefined,
  beta: Scalar | undefined, opts: ProductOptions | undefined): ValueArray;
function product(op: 'spmv', a: CompressedArrays, x: ValueArray, k: number, y: ValueArray | undefined, alpha: Scalar | undefined,
  beta: Scalar | undefined, opts: ProductOptions | undefined, async: true): Promise<ValueArray>;
function product(op: 'spmv' | 'spmvH' | 'spmm', a: CompressedArrays, x: ValueArray, k: number, y: ValueArray | undefined, alpha: Scalar | undefined,
  beta: Scalar | undefined, opts: ProductOptions | undefined, async = false): ValueArray | Promise<ValueArray> {
  const native = addon(op);
  checkCompressed(op, a);
  const { dtype } = a;
  const [rows, cols] = a.shape;
  const per = perOf(dtype);
  const cplx = isComplex(dtype);
  const [inLen, outLen] = op === 'spmvH' ? [rows, cols] : [cols, rows];
  const X = vector(op, op === 'spmm' ? 'X' : 'x', x, dtype, inLen * k * per);
  const Y = y === undefined ? new (storageOf(dtype))(outLen * k * per) : vector(op, op === 'spmm' ? 'Y' : 'y', y, dtype, outLen * k * per);
  for (const arr of [X, a.data, a.indices, a.indptr]) if (overlapsBytes(Y, arr)) throw new ValueError(`${op}: the output overlaps an input`);
  const [ar, ai] = scalar(op, 'alpha', alpha, 1, cplx);
  const [br, bi] = scalar(op, 'beta', beta, 0, cplx);
  const validated = opts?.validated === true;
  if (op === 'spmm') return native.sparseSpmm(dtype, rows, cols, a.indptr, a.indices, a.data, validated, X, k, Y, ar, ai, br, bi);
  if (op === 'spmvH') return native.sparseSpmvH(dtype, rows, cols, a.indptr, a.indices, a.data, validated, X, Y, ar, ai, br, bi);
  const check = validated ? 1 : y === undefined || opts?.outputScratch === true ? 2 : 0;
  if (async) return typedRejection(native.sparseSpmvAsync(dtype, rows, cols, a.indptr, a.indices, a.data, check, X, Y, ar, ai, br, bi));
  return native.sparseSpmv(dtype, rows, cols, a.indptr, a.indices, a.data, check, X, Y, ar, ai, br, bi);
}

/** y = alpha·A x + beta·y for CSR A (written into y, which is returned; a new array when omitted). */
export function spmv(a: CompressedArrays, x: ValueArray, y?: ValueArray, alpha?: Scalar, beta?: Scalar, opts?: ProductOptions): ValueArray {
  return product('spmv', a, x, 1, y, alpha, beta, opts);
}

/** spmv on a libuv worker: the same arguments, checks and typed errors; a Promise of y. */
export async function spmvAsync(a: CompressedArrays, x: ValueArray, y?: ValueArray, alpha?: Scalar, beta?: Scalar, opts?: ProductOptions): Promise<ValueArray> {
  return product('spmv', a, x, 1, y, alpha, beta, opts, true);
}

/** y = A x for square float64 CSR A, returning xᵀy in the same pass; y is scratch (partly written when a bad index throws). Needs a build with sparseSpmvDot. */
export function spmvDot(a: CompressedArrays, x: Float64Array, y: Float64Array): number {
  const op = 'spmvDot';
  const native = addon(op);
  if (typeof native.sparseSpmvDot !== 'function') throw new DeviceError(`${op}: the native addon has no sparseSpmvDot (stale build? run npm run build:native)`);
  checkCompressed(op, a);
  if (a.dtype !== 'float64') throw new DTypeError(`${op}: dtype must be float64, got ${a.dtype}`);
  const [rows, cols] = a.shape;
  if (rows !== cols) throw new ShapeError(`${op}: A must be square, got ${rows}x${cols}`);
  const X = vector(op, 'x', x, 'float64', cols) as Float64Array;
  const Y = vector(op, 'y', y, 'float64', rows) as Float64Array;
  for (const arr of [X, a.data, a.indices, a.indptr]) if (overlapsBytes(Y, arr)) throw new ValueError(`${op}: the output overlaps an input`);
  return native.sparseSpmvDot('float64', rows, cols, a.indptr, a.indices, a.data as Float64Array, X, Y);
}

/** Y = alpha·A X + beta·Y for CSR A, X [cols, k] and Y [rows, k] row-major. */
export function spmm(a: CompressedArrays, X: ValueArray, k: number, Y?: ValueArray, alpha?: Scalar, beta?: Scalar, opts?: ProductOptions): ValueArray {
  if (!Number.isInteger(k) || k < 0 || k > MAX_I32) throw new ShapeError(`spmm: k must be a non-negative integer, got ${String(k)}`);
  return product('spmm', a, X, k, Y, alpha, beta, opts);
}

/** y = alpha·Aᴴ x + beta·y for CSR A (Aᵀ for real dtypes); x has length rows, y cols. */
export function spmvH(a: CompressedArrays, x: ValueArray, y?: ValueArray, alpha?: Scalar, beta?: Scalar, opts?: ProductOptions): ValueArray {
  return product('spmvH', a, x, 1, y, alpha, beta, opts);
}

// ---- the raw-vector kernels of the sparse module ----------------------------------

/**
 * Installs the native SpMV behind the matrix classes' raw products and the
 * Krylov solvers (setSpmvKernel), and the SIMD vector kernels of the solvers
 * and Lanczos (setVecKernel). Called by registerNativeSparse (sparse-graph.ts).
 */
export function registerNativeRawKernels(): void {
  const raw = nativeAddon();
  if (!raw || typeof raw.sparseSpmv !== 'function') return;
  const a = typedAddon(raw);
  const hasDot = typeof a.sparseSpmvDot === 'function';
  setSpmvKernel({
    name: 'native',
    csrMatvec(m, x, y, scratch) {
      // The raw vectors are float64 (interleaved complex); the native kernel wants A's storage type.
      if (m.dtype !== 'float64' && m.dtype !== 'complex128') return false;
      spmv(m, x, y, 1, 0, { validated: false, outputScratch: scratch === true });
      return true;
    },
    csrRmatvec(m, x, y) {
      if (m.dtype !== 'float64' && m.dtype !== 'complex128') return false;
      spmvH(m, x, y, 1, 0, { validated: false });
      return true;
    },
    csrMatvecDot(m, x, y) {
      if (!hasDot || m.dtype !== 'float64' || m.shape[0] !== m.shape[1]) return null;
      return spmvDot(m, x, y);
    },
  });
  if (a.sparseVecDot && a.sparseVecAxpy && a.sparseVecXpby && a.sparseVecCgStep && a.sparseVecGemv && a.sparseVecGemmTN) {
    setVecKernel({
      name: 'native',
      dot: a.sparseVecDot.bind(a),
      axpy: a.sparseVecAxpy.bind(a),
      xpby: a.sparseVecXpby.bind(a),
      cgStep: a.sparseVecCgStep.bind(a),
      gemv: a.sparseVecGemv.bind(a),
      gemmTN: a.sparseVecGemmTN.bind(a),
    });
  }
}

// ---- direct solvers ------------------------------------------------------------

export interface LogDet {
  /** ±1 for real matrices, 0 when singular; for complex, (sign, signIm) is the unit phase of det. */
  sign: number;
  signIm: number;
  /** log|det A| (-Infinity when singular). */
  logabsdet: number;
}

export interface SolveOptions {
  /** 'N': A x = b (default), 'T': Aᵀ x = b, 'H': Aᴴ x = b. */
  trans?: Trans;
  /** Where x is written (length of b, not overlapping it): saves allocating the result, a large part of a small solve. */
  out?: Float64Array;
}

/** What every factor object has. */
export interface SparseFactor {
  readonly n: number;
  readonly dtype: SparseDType;
  readonly disposed: boolean;
  /** x = op(A)⁻¹ b for b of length n·k (2·n·k complex), row-major [n, k]. */
  solve(b: Float64Array | Float32Array, opts?: SolveOptions): Float64Array;
  /** solve on a libuv worker: the same arguments, result and typed errors, as a Promise. */
  solveAsync(b: Float64Array | Float32Array, opts?: SolveOptions): Promise<Float64Array>;
  /** Frees the native factorization now (idempotent). */
  dispose(): void;
}

export interface UmfpackFactor extends SparseFactor {
  logDet(): LogDet;
}
export interface KluFactor extends SparseFactor {
  logDet(): LogDet;
  /** Factors again with new values of the same pattern (data in the original arrays' order), keeping the pivot order. */
  refactor(data: ValueArray): void;
}
export interface CholmodFactor extends SparseFactor {
  logDet(): LogDet;
}

const TRANS: Record<Trans, 0 | 1 | 2> = { N: 0, T: 1, H: 2 };

class Factor implements SparseFactor {
  #handle: DirectHandle | undefined;
  /** Set for a singular factor kept by allowSingular: solve throws this. */
  singularIndex: number | undefined;
  constructor(
    readonly op: string,
    readonly n: number,
    readonly dtype: SparseDType,
    handle: DirectHandle,
    protected readonly native: NativeAddon,
  ) {
    this.#handle = handle;
  }
  get disposed(): boolean {
    return this.#handle === undefined;
  }
  protected handle(method: string): DirectHandle {
    if (this.#handle === undefined) throw new ValueError(`${this.op}: ${method}() on a factorization that has been disposed`);
    return this.#handle;
  }
  solve(b: Float64Array | Float32Array, opts?: SolveOptions): Float64Array {
    const [h, b64, out, nrhs, trans] = this.solveArgs('solve', b, opts);
    return this.native.directSolve(h, b64, out, nrhs, trans);
  }
  async solveAsync(b: Float64Array | Float32Array, opts?: SolveOptions): Promise<Float64Array> {
    const [h, b64, out, nrhs, trans] = this.solveArgs('solveAsync', b, opts);
    return typedRejection(this.native.directSolveAsync(h, b64, out, nrhs, trans));
  }
  /** solve's checked arguments. */
  private solveArgs(method: string, b: Float64Array | Float32Array, opts: SolveOptions | undefined): [DirectHandle, Float64Array, Float64Array, number, 0 | 1 | 2] {
    const h = this.handle(method);
    if (this.singularIndex !== undefined) throw new SingularMatrixError(`${this.op}: solve`, this.singularIndex);
    const trans = opts?.trans ?? 'N';
    if (!(trans in TRANS)) throw new ValueError(`${this.op}: solve: trans must be 'N', 'T' or 'H', got ${String(trans)}`);
    if (!(b instanceof Float64Array) && !(b instanceof Float32Array)) throw new DTypeError(`${this.op}: solve: b must be a Float64Array or Float32Array, got ${typeName(b)}`);
    const per = perOf(this.dtype);
    const col = this.n * per;
    if (col === 0 ? b.length !== 0 : b.length === 0 || b.length % col !== 0) {
      throw new ShapeError(`${this.op}: solve: b must have length n·k${per === 2 ? '·2' : ''} (n = ${this.n}, k >= 1), got ${b.length}`);
    }
    const nrhs = col === 0 ? 1 : b.length / col;
    const b64 = b instanceof Float64Array ? b : Float64Array.from(b);
    const out = opts?.out;
    if (out !== undefined && (!(out instanceof Float64Array) || out.length !== b.length)) throw new ShapeError(`${this.op}: solve: out must be a Float64Array of length ${b.length}, got ${typeName(out)}${ArrayBuffer.isView(out) ? ` of length ${(out as Float64Array).length}` : ''}`);
    return [h, b64, out ?? new Float64Array(b.length), nrhs, TRANS[trans]];
  }
  logDet(): LogDet {
    const [sign, signIm, logabsdet] = this.native.directLogDet(this.handle('logDet'));
    return { sign, signIm, logabsdet };
  }
  dispose(): void {
    if (this.#handle === undefined) return;
    this.native.directDispose(this.#handle);
    this.#handle = undefined;
  }
}

class Klu extends Factor implements KluFactor {
  constructor(
    n: number,
    dtype: SparseDType,
    handle: DirectHandle,
    native: NativeAddon,
    private readonly nnz: number,
  ) {
    super('kluFactor', n, dtype, handle, native);
  }
  refactor(data: ValueArray): void {
    const h = this.handle('refactor');
    const v = vector('kluFactor: refactor', 'data', data, this.dtype, this.nnz * perOf(this.dtype));
    const r = this.native.kluRefactor(h, v);
    if (r.singular) throw new SingularMatrixError('kluFactor: refactor', r.index);
  }
}

function squareCheck(op: string, a: CompressedArrays): number {
  checkCompressed(op, a, true);
  if (a.shape[0] !== a.shape[1]) throw new ShapeError(`${op}: the matrix must be square, got ${a.shape[0]}x${a.shape[1]}`);
  return a.indptr[a.shape[0]]!;
}

export interface UmfpackOptions {
  /** Return the factor of a singular matrix instead of throwing (logDet gives sign 0; solve throws). */
  allowSingular?: boolean;
  /**
   * UMFPACK_STRATEGY_* and UMFPACK_ORDERING_* codes (plus the addon's 6 = nested
   * dissection and 7 = auto, the default), most refinement steps per solve
   * (src/sparse/factor.ts names them).
   */
  strategy?: number;
  ordering?: number;
  refine?: number;
}

/** LU of a general square CSR matrix with UMFPACK (float64/complex128 arithmetic). */
export function umfpackFactor(a: CompressedArrays, opts?: UmfpackOptions): UmfpackFactor {
  const op = 'umfpackFactor';
  const native = addon(op);
  squareCheck(op, a);
  return umfpackResult(native, a, opts, native.umfpackFactor(a.dtype, a.shape[0], a.shape[1], a.indptr, a.indices, a.data, opts?.strategy ?? 0, opts?.ordering ?? 7, opts?.refine ?? 2));
}

/** umfpackFactor on a libuv worker: the same arguments, result and typed errors, as a Promise. */
export async function umfpackFactorAsync(a: CompressedArrays, opts?: UmfpackOptions): Promise<UmfpackFactor> {
  const native = addon('umfpackFactor');
  squareCheck('umfpackFactor', a);
  const r = await typedRejection(native.umfpackFactorAsync(a.dtype, a.shape[0], a.shape[1], a.indptr, a.indices, a.data, opts?.strategy ?? 0, opts?.ordering ?? 7, opts?.refine ?? 2));
  return umfpackResult(native, a, opts, r);
}

function umfpackResult(native: NativeAddon, a: CompressedArrays, opts: UmfpackOptions | undefined, r: ReturnType<NativeAddon['umfpackFactor']>): UmfpackFactor {
  const op = 'umfpackFactor';
  const f = new Factor(op, a.shape[0], a.dtype, r.handle, native);
  if (r.singular) {
    if (!opts?.allowSingular) {
      f.dispose();
      throw new SingularMatrixError(op, r.index);
    }
    f.singularIndex = r.index;
  }
  return f as UmfpackFactor;
}

/** LU of a general square CSR matrix with KLU; refactor() reuses the analysis and pivot order. */
export function kluFactor(a: CompressedArrays): KluFactor {
  const op = 'kluFactor';
  const native = addon(op);
  const nnz = squareCheck(op, a);
  return kluResult(native, a, nnz, native.kluFactor(a.dtype, a.shape[0], a.shape[1], a.indptr, a.indices, a.data));
}

/** kluFactor on a libuv worker: the same arguments, result and typed errors, as a Promise. */
export async function kluFactorAsync(a: CompressedArrays): Promise<KluFactor> {
  const native = addon('kluFactor');
  const nnz = squareCheck('kluFactor', a);
  return kluResult(native, a, nnz, await typedRejection(native.kluFactorAsync(a.dtype, a.shape[0], a.shape[1], a.indptr, a.indices, a.data)));
}

function kluResult(native: NativeAddon, a: CompressedArrays, nnz: number, r: ReturnType<NativeAddon['kluFactor']>): KluFactor {
  const op = 'kluFactor';
  const f = new Klu(a.shape[0], a.dtype, r.handle, native, nnz);
  if (r.singular) {
    f.dispose();
    throw new SingularMatrixError(op, r.index);
  }
  return f;
}

export interface CholmodOptions {
  /** Read the lower triangle (col <= row; default) or the upper one (col >= row); the other is ignored. */
  lower?: boolean;
}

/** Cholesky of a symmetric (Hermitian for complex) positive definite CSR matrix with CHOLMOD. */
export function cholmodFactor(a: CompressedArrays, opts?: CholmodOptions): CholmodFactor {
  const op = 'cholmodFactor';
  const native = addon(op);
  squareCheck(op, a);
  const lower = opts?.lower ?? true;
  if (typeof lower !== 'boolean') throw new ValueError(`${op}: lower must be a boolean, got ${typeName(lower)}`);
  return cholmodResult(native, a, native.cholmodFactor(a.dtype, a.shape[0], a.shape[1], a.indptr, a.indices, a.data, lower));
}

/** cholmodFactor on a libuv worker: the same arguments, result and typed errors, as a Promise. */
export async function cholmodFactorAsync(a: CompressedArrays, opts?: CholmodOptions): Promise<CholmodFactor> {
  const op = 'cholmodFactor';
  const native = addon(op);
  squareCheck(op, a);
  const lower = opts?.lower ?? true;
  if (typeof lower !== 'boolean') throw new ValueError(`${op}: lower must be a boolean, got ${typeName(lower)}`);
  return cholmodResult(native, a, await typedRejection(native.cholmodFactorAsync(a.dtype, a.shape[0], a.shape[1], a.indptr, a.indices, a.data, lower)));
}

function cholmodResult(native: NativeAddon, a: CompressedArrays, r: ReturnType<NativeAddon['cholmodFactor']>): CholmodFactor {
  const op = 'cholmodFactor';
  const f = new Factor(op, a.shape[0], a.dtype, r.handle, native);
  if (r.notPosDef) {
    f.dispose();
    throw new NotPositiveDefiniteError(op, r.index + 1);
  }
  return f as CholmodFactor;
}
