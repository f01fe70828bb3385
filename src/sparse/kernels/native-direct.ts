// The SuiteSparse direct solvers on the native addon (native/src/sparse),
// checked at the boundary (native-checks.ts) and again in C++.
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
// Async twins: umfpackFactorAsync, kluFactorAsync, cholmodFactorAsync, a
// factor's solveAsync and logDetAsync, and a KLU factor's refactorAsync take the same arguments and give the same result and
// typed errors as a Promise; the native work runs on a libuv worker
// (native/src/binding/kernel.h) on private copies of the arrays, so the event
// loop keeps turning. A factor may be disposed while a solveAsync runs: the
// SuiteSparse memory is freed when that solve settles.
//
// UMFPACK is GPL and optional (native/CMakeLists.txt's RLX_UMFPACK;
// scripts/build-native.mjs: RLX_NO_UMFPACK=1 or RLX_NO_GPL=1): an addon built
// without it exports no umfpack* entry points. hasUmfpack() says whether it is
// there; luFactor / luFactorAsync, the LU of every default path (splu,
// spsolve's 'lu', the sparseSolve kernels, and through splu eigsh's
// shift-invert and the implicit ODE solvers), factor with UMFPACK when it is
// and with KLU otherwise (KLU's factor has the same solve/logDet/dispose).
// umfpackFactor itself is an explicit request: without UMFPACK it throws
// umfpackMissing's DeviceError (the op, why, how to get it). Tests make the
// loaded addon look UMFPACK-less with hideUmfpackForTests(true).
//
// Errors: a singular matrix -> SingularMatrixError (index: the row of A of the
// first zero pivot, UMFPACK/KLU), not positive definite ->
// NotPositiveDefiniteError (index: the column CHOLMOD stopped at); SuiteSparse
// failures (out of memory, invalid matrix) -> Error from the addon with the
// library's status named.

import type { CompressedArrays, SparseDType, ValueArray } from '../contract.js';
import { NotPositiveDefiniteError, SingularMatrixError } from '../../tensor/errors-linalg.js';
import { DeviceError, DTypeError, ShapeError, ValueError } from '../../tensor/errors.js';
import { nativeAddon, type DirectHandle, type NativeAddon } from '../../backends/native/addon.js';
import { checkCompressed, perOf, sparseAddon, typeName, typedRejection, vector } from './native-checks.js';

export type Trans = 'N' | 'T' | 'H';

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
  /** logDet on a libuv worker: the same result and typed errors, as a Promise. */
  logDetAsync(): Promise<LogDet>;
}
export interface KluFactor extends SparseFactor {
  logDet(): LogDet;
  logDetAsync(): Promise<LogDet>;
  /** Factors again with new values of the same pattern (data in the original arrays' order), keeping the pivot order. */
  refactor(data: ValueArray): void;
  /** refactor on a libuv worker: the same checks and typed errors, as a Promise. */
  refactorAsync(data: ValueArray): Promise<void>;
}
export interface CholmodFactor extends SparseFactor {
  logDet(): LogDet;
  logDetAsync(): Promise<LogDet>;
}

const TRANS: Record<Trans, 0 | 1 | 2> = { N: 0, T: 1, H: 2 };

/**
 * A factor's Async calls take effect in call order where order matters:
 * refactorAsync changes the factor, so it starts only after every Async call
 * made before it settled, and every Async call made after it starts only once
 * it settled (a logDetAsync queued behind a refactorAsync sees the new values,
 * whatever order the libuv pool would have picked). Reads between two
 * refactors (solveAsync, logDetAsync) still run side by side.
 */
class AsyncOrder {
  /** The last refactor (settled: never rejects). */
  #barrier: Promise<unknown> = Promise.resolve();
  /** Reads started since that refactor (settled forms). */
  #reads: Promise<unknown>[] = [];
  /** Calls queued or running: dispose() frees the native factor once this is 0. */
  pending = 0;
  #idle: (() => void)[] = [];
  read<T>(start: () => Promise<T>): Promise<T> {
    const p = this.#track(this.#barrier.then(start));
    this.#reads.push(settled(p));
    return p;
  }
  write<T>(start: () => Promise<T>): Promise<T> {
    const p = this.#track(Promise.all([this.#barrier, ...this.#reads]).then(start));
    this.#barrier = settled(p);
    this.#reads = [];
    return p;
  }
  /** Runs `f` when no call is queued or running (at once when none is). */
  whenIdle(f: () => void): void {
    if (this.pending === 0) f();
    else this.#idle.push(f);
  }
  #track<T>(p: Promise<T>): Promise<T> {
    this.pending++;
    const done = () => {
      if (--this.pending === 0) for (const f of this.#idle.splice(0)) f();
    };
    p.then(done, done);
    return p;
  }
}
const settled = (p: Promise<unknown>): Promise<unknown> => p.then(
  () => undefined,
  () => undefined,
);

class Factor implements SparseFactor {
  #handle: DirectHandle | undefined;
  /** The order the Async calls take effect in (AsyncOrder). */
  protected readonly order = new AsyncOrder();
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
    return this.order.read(() => typedRejection(this.native.directSolveAsync(h, b64, out, nrhs, trans)));
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
  async logDetAsync(): Promise<LogDet> {
    const h = this.handle('logDetAsync');
    const [sign, signIm, logabsdet] = await this.order.read(() => typedRejection(this.native.directLogDetAsync(h)));
    return { sign, signIm, logabsdet };
  }
  /** Refuses new calls at once; the native factor is freed now, or once the Async calls already made have settled. */
  dispose(): void {
    if (this.#handle === undefined) return;
    const h = this.#handle;
    this.#handle = undefined;
    this.order.whenIdle(() => this.native.directDispose(h));
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
  async refactorAsync(data: ValueArray): Promise<void> {
    const h = this.handle('refactorAsync');
    const v = vector('kluFactor: refactor', 'data', data, this.dtype, this.nnz * perOf(this.dtype));
    const r = await this.order.write(() => typedRejection(this.native.kluRefactorAsync(h, v)));
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

let umfpackHidden = false;

/**
 * Whether the loaded native addon has UMFPACK: false without the addon, and
 * for an addon built without it (UMFPACK is GPL; RLX_NO_UMFPACK=1 or
 * RLX_NO_GPL=1), whose default sparse LU is then KLU.
 */
export function hasUmfpack(): boolean {
  if (umfpackHidden) return false;
  const a = nativeAddon();
  return a !== undefined && typeof a.umfpackFactor === 'function' && typeof a.umfpackFactorAsync === 'function';
}

/**
 * Tests only: hide (true) or show again (false) the loaded addon's UMFPACK, so
 * that hasUmfpack() is false and every UMFPACK path behaves as with an addon
 * built without it (the default LU is KLU, explicit requests throw).
 */
export function hideUmfpackForTests(hide: boolean): void {
  umfpackHidden = hide;
}

/** The DeviceError of an explicit UMFPACK request to an addon without it; `alternative` says how to do without. */
export function umfpackMissing(op: string, alternative = ''): DeviceError {
  return new DeviceError(
    `${op}: this build of the native addon left UMFPACK out (it is GPL; built with RLX_NO_UMFPACK=1 or RLX_NO_GPL=1)${alternative ? `; ${alternative}` : ''}. ` +
      'To get UMFPACK, rebuild without those variables: npm run build:native (needs libsuitesparse-dev)',
  );
}

/** The addon and its UMFPACK entry points, or umfpackMissing's DeviceError. */
function umfpackAddon(op: string): NativeAddon & Required<Pick<NativeAddon, 'umfpackFactor' | 'umfpackFactorAsync'>> {
  const native = sparseAddon(op);
  if (!hasUmfpack()) throw umfpackMissing(op, 'kluFactor is the LU this build has');
  return native as NativeAddon & Required<Pick<NativeAddon, 'umfpackFactor' | 'umfpackFactorAsync'>>;
}

/**
 * LU of a general square CSR matrix with UMFPACK (float64/complex128
 * arithmetic). An explicit request: a DeviceError when the addon was built
 * without UMFPACK (luFactor falls back to KLU instead).
 */
export function umfpackFactor(a: CompressedArrays, opts?: UmfpackOptions): UmfpackFactor {
  const op = 'umfpackFactor';
  const native = umfpackAddon(op);
  squareCheck(op, a);
  return umfpackResult(native, a, opts, native.umfpackFactor(a.dtype, a.shape[0], a.shape[1], a.indptr, a.indices, a.data, opts?.strategy ?? 0, opts?.ordering ?? 7, opts?.refine ?? 2));
}

/** umfpackFactor on a libuv worker: the same arguments, result and typed errors, as a Promise. */
export async function umfpackFactorAsync(a: CompressedArrays, opts?: UmfpackOptions): Promise<UmfpackFactor> {
  const native = umfpackAddon('umfpackFactor');
  squareCheck('umfpackFactor', a);
  const r = await typedRejection(native.umfpackFactorAsync(a.dtype, a.shape[0], a.shape[1], a.indptr, a.indices, a.data, opts?.strategy ?? 0, opts?.ordering ?? 7, opts?.refine ?? 2));
  return umfpackResult(native, a, opts, r);
}

/**
 * The LU of the default paths (splu, spsolve's 'lu', the sparseSolve
 * kernels): UMFPACK with its default controls when the addon has it, else
 * KLU (an addon built without UMFPACK, which is GPL). Both solve to the
 * backward error of a stable LU; UMFPACK also refines (see UmfpackOptions).
 */
export function luFactor(a: CompressedArrays): UmfpackFactor | KluFactor {
  return hasUmfpack() ? umfpackFactor(a) : kluFactor(a);
}

/** luFactor on a libuv worker: the same choice, result and typed errors, as a Promise. */
export function luFactorAsync(a: CompressedArrays): Promise<UmfpackFactor | KluFactor> {
  return hasUmfpack() ? umfpackFactorAsync(a) : kluFactorAsync(a);
}

function umfpackResult(native: NativeAddon, a: CompressedArrays, opts: UmfpackOptions | undefined, r: ReturnType<NonNullable<NativeAddon['umfpackFactor']>>): UmfpackFactor {
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
  const native = sparseAddon(op);
  const nnz = squareCheck(op, a);
  return kluResult(native, a, nnz, native.kluFactor(a.dtype, a.shape[0], a.shape[1], a.indptr, a.indices, a.data));
}

/** kluFactor on a libuv worker: the same arguments, result and typed errors, as a Promise. */
export async function kluFactorAsync(a: CompressedArrays): Promise<KluFactor> {
  const native = sparseAddon('kluFactor');
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
  const native = sparseAddon(op);
  squareCheck(op, a);
  const lower = opts?.lower ?? true;
  if (typeof lower !== 'boolean') throw new ValueError(`${op}: lower must be a boolean, got ${typeName(lower)}`);
  return cholmodResult(native, a, native.cholmodFactor(a.dtype, a.shape[0], a.shape[1], a.indptr, a.indices, a.data, lower));
}

/** cholmodFactor on a libuv worker: the same arguments, result and typed errors, as a Promise. */
export async function cholmodFactorAsync(a: CompressedArrays, opts?: CholmodOptions): Promise<CholmodFactor> {
  const op = 'cholmodFactor';
  const native = sparseAddon(op);
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
