// Loading the C++ addon (native/, built by scripts/build-native.mjs) and its
// typed surface. Importing this file never throws and loads nothing: the addon
// is loaded on the first nativeStatus() / nativeAddon() call, and when it is
// missing the status says why (the build script records why it skipped the
// build in native/build/status.json).
//
// Where the addon comes from, first that loads (NativeSource):
//   1. $RLX_NATIVE_PATH (a .node file) if set — then only that;
//   2. the platform package @rlx/native-linux-x64 (scripts/prebuild.mjs: the
//      addon with OpenBLAS, LAPACK, SuiteSparse and FFTW bundled, found through
//      its $ORIGIN RUNPATH) when it is installed next to rlx, has rlx's version
//      and this is linux-x64 with glibc;
//   3. the local build: Release/rlx_native.node in $RLX_NATIVE_BUILD_DIR or
//      native/build in the package root (postinstall / npm run build:native).
// A candidate that is there but fails to load is noted in the status
// (`skipped`) and the next one is tried; with none, the js backend serves.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { DeviceError } from '../../tensor/errors.js';
import { coreTypeForThisMachine, withCoreType } from './openblas-core.js';
import { chooseThreadTimeout, withThreadTimeout, type ThreadTimeoutChoice } from './openblas-spin.js';
import { interpApiProblem } from './interp-api.js';
import { packageRoot, packageVersion } from '../../package-root.js';

/** Where the loaded addon came from (the load order above). */
export type NativeSource = 'RLX_NATIVE_PATH' | 'platform package' | 'local build';

/** The prebuilt platform package's name (scripts/prebuild.mjs builds it). */
export const PLATFORM_PACKAGE = '@rlx/native-linux-x64';

/** Whether the addon is loaded, and if not, why. */
export interface NativeStatus {
  available: boolean;
  reason?: string;
  /** The .node file loaded (or that failed to load). */
  path?: string;
  /** Which candidate it is (the load order in addon.ts); set when available. */
  source?: NativeSource;
  /** Candidates that were there but not used, each with why (e.g. a platform package for another glibc). */
  skipped?: string[];
  /** Why OpenBLAS runs the kernels it runs (openblas-core.ts); blasInfo().corename says which. */
  blasCoreChoice?: string;
  /** How long OpenBLAS's idle workers spin before sleeping, and why (openblas-spin.ts); set when available. */
  blasThreadTimeout?: string;
}

export type GemmDType = 'float32' | 'float64' | 'complex64' | 'complex128';

/** Storage of a linalg kernel's matrices (complex interleaved re, im). */
export type LinalgArray = Float32Array | Float64Array;

/** One GEMM operand: a strided view over `data`, in elements (complex elements for complex dtypes). */
export interface GemmOperandSpec {
  data: Float32Array | Float64Array;
  offset: number;
  /** [...batchStrides, rowStride, colStride]; a batch stride of 0 broadcasts. */
  strides: number[];
  /** Use conj(x) (complex dtypes; ignored for real ones). Inputs only. */
  conj?: boolean;
}

/** c[...batch, m, n] = a[...batch, m, k] @ b[...batch, k, n]. */
export interface GemmSpec {
  dtype: GemmDType;
  batch: number[];
  m: number;
  n: number;
  k: number;
  a: GemmOperandSpec;
  b: GemmOperandSpec;
  c: Omit<GemmOperandSpec, 'conj'>;
}

/** How BLAS is called (gemmPlan): which operands are taken as they are and which are copied. */
export interface GemmPlanInfo {
  order: 'row' | 'col';
  /** Batch dims left to loop over after folding some into m or n. */
  batch: number[];
  m: number;
  n: number;
  k: number;
  foldedIntoM: number;
  foldedIntoN: number;
  a: { packed: boolean; trans: boolean; conj: boolean; ld: number };
  b: { packed: boolean; trans: boolean; conj: boolean; ld: number };
  cPacked: boolean;
  ldc: number;
  blasCalls: number;
  /**
   * How it runs on the current thread count (native/src/gemm_spread.h): 'blas' (OpenBLAS threads it),
   * 'serial' (one OpenBLAS thread), 'batch' (whole products of the batch on the pool's threads).
   */
  spread: 'blas' | 'serial' | 'batch';
}

export interface BlasInfo {
  vendor: string;
  headerVersion?: string;
  /** openblas_get_config(), e.g. "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64". */
  config: string;
  corename: string;
  threads: number;
  procs: number;
  parallel: 'sequential' | 'pthreads' | 'openmp' | 'unknown';
  fftw3: boolean;
  /** Whether UMFPACK is linked (false: built with RLX_NO_UMFPACK=1 / RLX_NO_GPL=1; undefined: an addon older than the flag). */
  umfpack?: boolean;
}

/** An opaque SuiteSparse factorization handle (a JS External; freed by directDispose or when collected). */
export type DirectHandle = object & { readonly __rlxDirectHandle?: never };
/** Sparse dtype names as the addon takes them. */
export type SparseAddonDType = 'float32' | 'float64' | 'complex64' | 'complex128';
type Vals = Float32Array | Float64Array;

/**
 * The sparse kernels (native/src/sparse). A CSR matrix is passed as
 * (dtype, rows, cols, indptr, indices, data); `check` says when the O(nnz)
 * column-index check runs: false/0 before the product (the output untouched
 * when it throws), true/1 never (matrices checked when they were built), 2
 * during the product (sparseSpmv only; the output may be partly written when
 * it throws: for fresh or scratch outputs). Products
 * write their output in place and return it; factors return a handle and a
 * status the TS side turns into typed errors (src/backends/native/sparse.ts).
 */
/** The Async twin of an entry point (native/src/binding/kernel.h): the same arguments, a Promise of the same result, the work on a libuv worker. */
export type Promised<F> = F extends (...a: infer A) => infer R ? (...a: A) => Promise<R> : never;

/** `fooAsync` for each method `foo` of T (the kernel sets' twins): the same arguments, a Promise of the same result. */
export type AsyncTwins<T> = { [K in keyof T & string as `${K}Async`]: T[K] extends (...a: infer A) => infer R ? (...a: A) => Promise<Awaited<R>> : never };

export interface SparseNativeAddon {
  sparseSpmv(dtype: SparseAddonDType, rows: number, cols: number, indptr: Int32Array, indices: Int32Array, data: Vals, check: boolean | 0 | 1 | 2,
    x: Vals, y: Vals, alphaRe: number, alphaIm: number, betaRe: number, betaIm: number): Vals;
  /** y = A x for square float64 A, returning xᵀy (indices checked during the product; optional: older builds lack it). */
  sparseSpmvDot?(dtype: 'float64', rows: number, cols: number, indptr: Int32Array, indices: Int32Array, data: Float64Array, x: Float64Array, y: Float64Array): number;
  sparseSpmm(dtype: SparseAddonDType, rows: number, cols: number, indptr: Int32Array, indices: Int32Array, data: Vals, validated: boolean,
    X: Vals, k: number, Y: Vals, alphaRe: number, alphaIm: number, betaRe: number, betaIm: number): Vals;
  sparseSpmvH(dtype: SparseAddonDType, rows: number, cols: number, indptr: Int32Array, indices: Int32Array, data: Vals, validated: boolean,
    x: Vals, y: Vals, alphaRe: number, alphaIm: number, betaRe: number, betaIm: number): Vals;
  /**
   * strategy / ordering: UMFPACK_STRATEGY_* / UMFPACK_ORDERING_* codes; refine: most refinement steps per solve (native/src/sparse/umfpack.cc).
   * Absent from an addon built without UMFPACK (GPL; RLX_NO_UMFPACK=1 or RLX_NO_GPL=1).
   */
  umfpackFactor?(dtype: SparseAddonDType, rows: number, cols: number, indptr: Int32Array, indices: Int32Array, data: Vals,
    strategy?: number, ordering?: number, refine?: number): { handle: DirectHandle; singular: boolean; index: number };
  kluFactor(dtype: SparseAddonDType, rows: number, cols: number, indptr: Int32Array, indices: Int32Array, data: Vals):
    { handle: DirectHandle; singular: boolean; index: number };
  kluRefactor(handle: DirectHandle, data: Vals): { singular: boolean; index: number };
  cholmodFactor(dtype: SparseAddonDType, rows: number, cols: number, indptr: Int32Array, indices: Int32Array, data: Vals, lower: boolean):
    { handle: DirectHandle; notPosDef: boolean; index: number };
  /** x[n, nrhs] = op(A)⁻¹ b (row-major, Float64Array, complex interleaved); trans 0: A, 1: Aᵀ, 2: Aᴴ. */
  directSolve(handle: DirectHandle, b: Float64Array, x: Float64Array, nrhs: number, trans: 0 | 1 | 2): Float64Array;
  /** [signRe, signIm, log|det|]. */
  directLogDet(handle: DirectHandle): [number, number, number];
  directDispose(handle: DirectHandle): void;
  /** Dense float64 vector kernels for the Krylov solvers and Lanczos (native/src/sparse/vec.cc); optional: older builds lack them. */
  sparseVecDot?(x: Float64Array, y: Float64Array): number;
  sparseVecAxpy?(a: number, x: Float64Array, y: Float64Array): void;
  sparseVecXpby?(x: Float64Array, b: number, y: Float64Array): void;
  sparseVecCgStep?(a: number, p: Float64Array, q: Float64Array, x: Float64Array, r: Float64Array): number;
  sparseVecGemv?(trans: boolean, rows: number, cols: number, A: Float64Array, x: Float64Array, y: Float64Array, alpha: number, beta: number): void;
  sparseVecGemmTN?(rows: number, p: number, cols: number, S: Float64Array, A: Float64Array, C: Float64Array, alpha: number, beta: number): void;
  directInfo(handle: DirectHandle): { kind: string; dtype: SparseAddonDType; n: number; disposed: boolean; bytes: number; method: string; solves: string };
  // Async twins. A factorization in use by directSolveAsync stays alive until it settles (directDispose meanwhile refuses new calls at once and frees it then).
  sparseSpmvAsync: Promised<SparseNativeAddon['sparseSpmv']>;
  sparseSpmmAsync: Promised<SparseNativeAddon['sparseSpmm']>;
  sparseSpmvHAsync: Promised<SparseNativeAddon['sparseSpmvH']>;
  sparseSpmvDotAsync?: Promised<NonNullable<SparseNativeAddon['sparseSpmvDot']>>;
  kluRefactorAsync: Promised<SparseNativeAddon['kluRefactor']>;
  directLogDetAsync: Promised<SparseNativeAddon['directLogDet']>;
  umfpackFactorAsync?: Promised<NonNullable<SparseNativeAddon['umfpackFactor']>>;
  kluFactorAsync: Promised<SparseNativeAddon['kluFactor']>;
  cholmodFactorAsync: Promised<SparseNativeAddon['cholmodFactor']>;
  directSolveAsync: Promised<SparseNativeAddon['directSolve']>;
}

/** The addon's exports. Other features (the kernel interpreter) add their own entries. */
export interface NativeAddon extends SparseNativeAddon {
  version(): string;
  blasInfo(): BlasInfo;
  /** Sets OpenBLAS's thread count (1..1024); returns the count now in effect. */
  setNumThreads(n: number): number;
  /** Runs the GEMM on the calling thread and returns spec.c.data. */
  gemm(spec: GemmSpec): Float32Array | Float64Array;
  /** gemm with the spec's numbers packed in `meta` (layout: native/src/gemm_binding.cc); checked again in C++. */
  gemmFlat(a: Float32Array | Float64Array, b: Float32Array | Float64Array, c: Float32Array | Float64Array, meta: Float64Array): void;
  /** Runs it on the libuv pool; the arrays must not be transferred or detached until it settles. */
  gemmAsync(spec: GemmSpec): Promise<Float32Array | Float64Array>;
  gemmPlan(spec: GemmSpec): GemmPlanInfo;
  // Dense linalg kernels (native/src/lapack; the contract is src/linalg/kernels/contract.ts,
  // the checked wrapper src/linalg/kernels/native.ts). Each returns b LAPACK infos.
  linalgCholesky(dtype: GemmDType, b: number, n: number, a: LinalgArray, out: LinalgArray, lower: boolean): Int32Array;
  linalgTriangularSolve(dtype: GemmDType, b: number, n: number, k: number, a: LinalgArray, rhs: LinalgArray, out: LinalgArray, lower: boolean, trans: 0 | 1 | 2, unitDiagonal: boolean): Int32Array;
  linalgLu(dtype: GemmDType, b: number, m: number, n: number, a: LinalgArray, lu: LinalgArray, piv: Int32Array, perm: Int32Array): Int32Array;
  linalgSolve(dtype: GemmDType, b: number, n: number, k: number, a: LinalgArray, rhs: LinalgArray, out: LinalgArray): Int32Array;
  linalgDet(dtype: GemmDType, b: number, n: number, a: LinalgArray, out: LinalgArray, logabs: LinalgArray | null): Int32Array;
  linalgInv(dtype: GemmDType, b: number, n: number, a: LinalgArray, out: LinalgArray): Int32Array;
  linalgQr(dtype: GemmDType, b: number, m: number, n: number, a: LinalgArray, q: LinalgArray | null, r: LinalgArray, complete: boolean): Int32Array;
  linalgEigh(dtype: GemmDType, b: number, n: number, a: LinalgArray, w: LinalgArray, v: LinalgArray | null, lower: boolean): Int32Array;
  linalgSvd(dtype: GemmDType, b: number, m: number, n: number, a: LinalgArray, s: LinalgArray, u: LinalgArray | null, vh: LinalgArray | null, full: boolean): Int32Array;
  linalgEig(dtype: GemmDType, b: number, n: number, a: LinalgArray, w: LinalgArray, vr: LinalgArray | null): Int32Array;
  linalgLstsq(dtype: GemmDType, b: number, m: number, n: number, k: number, a: LinalgArray, rhs: LinalgArray, x: LinalgArray, s: LinalgArray, rank: Int32Array, rcond: number): Int32Array;
  /** Row 2-norms of x [b, n] (float64 / complex128) into out [b] (native/src/lapack/nrm2.cc). */
  linalgNrm2(dtype: 'float64' | 'complex128', b: number, n: number, x: Float64Array, out: Float64Array): void;
  // The Async twins of the linalg kernels (all but nrm2).
  linalgCholeskyAsync: Promised<NativeAddon['linalgCholesky']>;
  linalgTriangularSolveAsync: Promised<NativeAddon['linalgTriangularSolve']>;
  linalgLuAsync: Promised<NativeAddon['linalgLu']>;
  linalgSolveAsync: Promised<NativeAddon['linalgSolve']>;
  linalgDetAsync: Promised<NativeAddon['linalgDet']>;
  linalgInvAsync: Promised<NativeAddon['linalgInv']>;
  linalgQrAsync: Promised<NativeAddon['linalgQr']>;
  linalgEighAsync: Promised<NativeAddon['linalgEigh']>;
  linalgSvdAsync: Promised<NativeAddon['linalgSvd']>;
  linalgEigAsync: Promised<NativeAddon['linalgEig']>;
  linalgLstsqAsync: Promised<NativeAddon['linalgLstsq']>;
  readonly [feature: string]: unknown;
}

const ADDON_FILE = join('Release', 'rlx_native.node');
const INSTALL_HINT = 'run scripts/install-system-deps.sh, then npm run build:native';

/** The build directory (scripts/build-native.mjs writes status.json and Release/ there). */
function buildDir(root: string): string {
  const d = process.env['RLX_NATIVE_BUILD_DIR'];
  return d ? resolve(d) : join(root, 'native', 'build');
}

/** Why the build script did not build the addon, from status.json in the build directory. */
function buildReason(dir: string): string {
  const p = join(dir, 'status.json');
  try {
    const s = JSON.parse(readFileSync(p, 'utf8')) as { built?: boolean; reason?: string };
    if (s.built) return `not built: status.json says built but ${join(dir, ADDON_FILE)} is missing (run npm run build:native)`;
    return `not built: ${s.reason ?? 'no reason recorded'}`;
  } catch {
    return `not built: no build was attempted (${INSTALL_HINT})`;
  }
}

let loaded: { addon?: NativeAddon; status: NativeStatus } | undefined;

/** Loads one .node file and checks it is the addon this build of rlx expects; throws why not. */
function loadFile(path: string, core: ReturnType<typeof coreTypeForThisMachine>, spin: ThreadTimeoutChoice): NativeAddon {
  // A require() rooted at the package: the ESM and CommonJS builds share
  // Node's one CommonJS module cache, keyed by the .node file's path, so a
  // process that loads both builds gets the one addon instance, not two.
  const addon = withCoreType(core, () => withThreadTimeout(spin, () => createRequire(join(packageRoot(), 'package.json'))(path) as NativeAddon));
  for (const fn of ['version', 'blasInfo', 'setNumThreads', 'gemm', 'gemmAsync', 'gemmPlan'] as const) {
    if (typeof addon[fn] !== 'function') throw new Error(`it does not export ${fn}() (stale build? run npm run build:native)`);
  }
  const stale = interpApiProblem(addon);
  if (stale) throw new Error(stale);
  return addon;
}

const firstLine = (e: unknown): string => (e instanceof Error ? e.message.split('\n')[0]! : String(e));

/**
 * The platform package's addon when it is installed (resolved from `root`,
 * rlx's package root) and made for this process, else why not (undefined:
 * not installed, nothing to report).
 */
export function platformPackageAddon(root = packageRoot()): { path: string } | { skip: string } | undefined {
  let dir: string;
  try {
    dir = dirname(createRequire(join(root, 'package.json')).resolve(`${PLATFORM_PACKAGE}/package.json`));
  } catch {
    return undefined;
  }
  const where = `${PLATFORM_PACKAGE} (${dir})`;
  if (process.platform !== 'linux' || process.arch !== 'x64') return { skip: `${where}: built for linux-x64, this is ${process.platform}-${process.arch}` };
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  if (!header?.glibcVersionRuntime) return { skip: `${where}: built for glibc, and this process does not run on glibc (musl?)` };
  let version: string | undefined;
  try {
    version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch (e) {
    return { skip: `${where}: unreadable package.json: ${firstLine(e)}` };
  }
  if (version !== packageVersion()) return { skip: `${where}: version ${version ?? '?'} is not rlx's ${packageVersion()}` };
  const path = join(dir, 'rlx_native.node');
  if (!existsSync(path)) return { skip: `${where}: rlx_native.node is missing` };
  return { path };
}

function load(): { addon?: NativeAddon; status: NativeStatus } {
  const core = coreTypeForThisMachine();
  const spin = chooseThreadTimeout(process.env);
  const override = process.env['RLX_NATIVE_PATH'];
  const candidates: { source: NativeSource; path: string }[] = [];
  const skipped: string[] = [];
  let missing: string;
  if (override) {
    candidates.push({ source: 'RLX_NATIVE_PATH', path: resolve(override) });
    missing = `RLX_NATIVE_PATH=${override}: no such file`;
  } else {
    const platform = platformPackageAddon();
    if (platform && 'path' in platform) candidates.push({ source: 'platform package', path: platform.path });
    else if (platform) skipped.push(platform.skip);
    const dir = buildDir(packageRoot());
    candidates.push({ source: 'local build', path: join(dir, ADDON_FILE) });
    missing = buildReason(dir);
  }
  // Why each candidate was not used, in order; the status's reason when none loads.
  const failures: string[] = [];
  for (const { source, path } of candidates) {
    if (!existsSync(path)) {
      if (source !== 'platform package') failures.push(missing);
      continue;
    }
    try {
      const addon = loadFile(path, core, spin);
      const status: NativeStatus = { available: true, path, source, blasCoreChoice: core.reason, blasThreadTimeout: spin.reason };
      const notUsed = [...skipped, ...failures];
      if (notUsed.length) status.skipped = notUsed;
      return { addon, status };
    } catch (e) {
      failures.push(source === 'platform package' ? `${PLATFORM_PACKAGE} failed to load ${path}: ${firstLine(e)}` : `built but failed to load ${path}: ${firstLine(e)}`);
    }
  }
  const status: NativeStatus = { available: false, path: candidates[candidates.length - 1]!.path, reason: failures.join('; ') };
  if (skipped.length) status.skipped = skipped;
  return { status };
}

/**
 * Whether the native addon is available and, if not, why (never throws).
 * @example
 * ```ts
 * const st = nativeStatus();
 * st.available ? 'native kernels' : `js only: ${st.reason}`;   // 'native kernels' when the addon is built
 * ```
 */
export function nativeStatus(): NativeStatus {
  loaded ??= load();
  return { ...loaded.status };
}

/** The loaded addon, or undefined when it is not available. */
export function nativeAddon(): NativeAddon | undefined {
  loaded ??= load();
  return loaded.addon;
}

/** The loaded addon; throws DeviceError with the reason when it is not available. */
export function requireNativeAddon(): NativeAddon {
  const a = nativeAddon();
  if (!a) throw new DeviceError(`the native addon is not available: ${loaded!.status.reason}`);
  return a;
}
