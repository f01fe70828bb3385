// The fft module's native glue: the FftKernels contract (contract.ts) on the
// addon's FFTW entry points (native/src/fft: fftC2c, fftR2c, fftC2r, their
// n-D forms fftC2cNd, ... and their Async twins), and the choice of what kernels.register.ts puts on 'native'.
//
// FFTW is optional (GPL; CMake links it when libfftw3-dev is installed and
// RLX_NO_FFTW is not 1): an addon without it has no fft* exports, and then
// the js kernels serve 'native' (they read host memory, which both CPU devices
// use); nativeFftStatus() says which and why, as blasInfo().fftw3 does.
//
// This is the TS half of the safe boundary, as src/linalg/kernels/native.ts:
// every call is checked here (dtype: DTypeError; batch, n and array lengths:
// ShapeError; array types: DTypeError; out overlapping x: ValueError) and again
// in C++, so a bad call is a typed error here and never reaches memory there.
// The Async twins (c2cAsync, ...) run the same bodies on the addon's Async
// entry points: the work on a libuv worker, a failed check a rejection (never
// a throw), the addon's errors typed the same way.

import { nativeAddon, type AsyncTwins, type NativeAddon } from '../../backends/native/addon.js';
import { nativeError } from '../../backends/native/errors.js';
import { DeviceError, DTypeError, ShapeError, ValueError } from '../../tensor/errors.js';
import type { ComplexDType, FftKernels, FloatArray, RealDType } from './contract.js';

/** The plan cache's counters (native/src/fft/plans.cc). */
export interface FftInfo {
  library: string;
  /** FFTW's planner effort for new plans: 'estimate' (no trial runs, the default), 'measure', 'patient' or 'exhaustive' (fft.setPlanner). */
  planner: string;
  /** Seconds a plan's search may take, or null for no limit (fft.setPlanner's timeLimit). */
  plannerTimeLimit?: number | null;
  /** Plans cached now, created since load, executions that reused one, plans evicted (LRU past maxPlans). */
  plans: number;
  created: number;
  hits: number;
  evicted: number;
  maxPlans: number;
  /** FFTW threads of a transform with at least threadMin points (the addon pool's size); smaller ones use one. */
  threads: number;
  threadMin: number;
  threadsOk: boolean;
}

type C2c = (dtype: ComplexDType, batch: number, n: number, x: FloatArray, out: FloatArray, inverse: boolean) => void;
type Real = (dtype: RealDType, batch: number, n: number, x: FloatArray, out: FloatArray) => void;
type C2cNd = (dtype: ComplexDType, batch: number, shape: readonly number[], axes: readonly number[], x: FloatArray, out: FloatArray, inverse: boolean) => void;
type RealNd = (dtype: RealDType, batch: number, shape: readonly number[], axes: readonly number[], x: FloatArray, out: FloatArray) => void;

/** The addon's fft exports (present only when it was built with FFTW). */
export interface FftAddon {
  fftC2c: C2c;
  fftR2c: Real;
  fftC2r: Real;
  fftC2cAsync: (...a: Parameters<C2c>) => Promise<void>;
  fftR2cAsync: (...a: Parameters<Real>) => Promise<void>;
  fftC2rAsync: (...a: Parameters<Real>) => Promise<void>;
  fftC2cNd: C2cNd;
  fftR2cNd: RealNd;
  fftC2rNd: RealNd;
  fftC2cNdAsync: (...a: Parameters<C2cNd>) => Promise<void>;
  fftR2cNdAsync: (...a: Parameters<RealNd>) => Promise<void>;
  fftC2rNdAsync: (...a: Parameters<RealNd>) => Promise<void>;
  fftInfo(): FftInfo;
  fftClearPlans(): void;
  // The planner controls (an addon built before them lacks them: planner.ts says so).
  fftSetPlanner?(effort: number, timeLimit: number): void;
  fftExportWisdom?(single: boolean): string;
  fftImportWisdom?(single: boolean, text: string): boolean;
}

/** The addon's FFTW exports, or undefined when the addon is absent or was built without FFTW. */
export function nativeFftAddon(): FftAddon | undefined {
  const addon = nativeAddon();
  return hasNativeFft(addon) ? (addon as unknown as FftAddon) : undefined;
}

const FUNCTIONS = ['fftC2c', 'fftR2c', 'fftC2r', 'fftC2cAsync', 'fftR2cAsync', 'fftC2rAsync', 'fftC2cNd', 'fftR2cNd', 'fftC2rNd', 'fftC2cNdAsync', 'fftR2cNdAsync', 'fftC2rNdAsync', 'fftInfo', 'fftClearPlans'] as const;
const MAX_INT = 2 ** 31 - 1;

/** Whether `addon` was built with FFTW (exports every fft entry point). */
export function hasNativeFft(addon: NativeAddon | undefined): boolean {
  return addon !== undefined && FUNCTIONS.every((f) => typeof addon[f] === 'function');
}

const nameOf = (x: unknown): string =>
  x === null ? 'null' : ArrayBuffer.isView(x) ? x.constructor.name : Array.isArray(x) ? 'Array' : typeof x === 'number' ? `number ${x}` : typeof x;

/**
 * Checks one call (throws the typed error of the first problem). `xLen` and
 * `outLen` map n to a row's scalars in x and out.
 */
function check(op: string, dtype: string, batch: number, n: number, x: FloatArray, out: FloatArray, xLen: (n: number) => number, outLen: (n: number) => number): void {
  const complex = op.startsWith('c2c');
  const lo = complex ? 'complex64' : 'float32',
    hi = complex ? 'complex128' : 'float64';
  if (dtype !== lo && dtype !== hi) throw new DTypeError(`fft ${op}: dtype must be '${lo}' or '${hi}', got ${typeof dtype === 'string' ? `'${dtype}'` : nameOf(dtype)}`);
  if (typeof batch !== 'number' || !Number.isInteger(batch) || batch < 0 || batch > MAX_INT) throw new ShapeError(`fft ${op}: batch must be an integer in [0, 2^31 - 1], got ${nameOf(batch)}`);
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_INT) throw new ShapeError(`fft ${op}: n must be an integer in [1, 2^31 - 1], got ${nameOf(n)}`);
  const Want = dtype === lo ? Float32Array : Float64Array;
  // Two calls rather than a loop over [name, array, length] tuples: this runs on every transform, and a small one takes microseconds.
  checkArray(op, dtype, Want, 'x', x, batch * xLen(n), batch, n);
  checkArray(op, dtype, Want, 'out', out, batch * outLen(n), batch, n);
  if (x.buffer === out.buffer && x.length > 0 && out.length > 0 && x.byteOffset < out.byteOffset + out.byteLength && out.byteOffset < x.byteOffset + x.byteLength)
    throw new ValueError(`fft ${op}: out shares memory with x; the output must not overlap the input`);
}

function checkArray(op: string, dtype: string, Want: Float32ArrayConstructor | Float64ArrayConstructor, name: string, a: FloatArray, len: number, batch: number, n: number): void {
  if (!(a instanceof Want)) throw new DTypeError(`fft ${op}: ${name} must be a ${Want.name} for dtype ${dtype}, got ${nameOf(a)}`);
  if (a.length !== len) throw new ShapeError(`fft ${op}: ${name} must have length ${len} (batch ${batch}, n ${n}), got ${a.length}`);
}

const full = (n: number) => 2 * n;
const real = (n: number) => n;
const half = (n: number) => 2 * (Math.floor(n / 2) + 1);

/** Checks an n-D call's shape and axes (ShapeError); returns [full size, size halved along the last of axes]. */
function checkNd(op: string, shape: readonly number[], axes: readonly number[]): [number, number] {
  if (!Array.isArray(shape) || shape.length === 0 || shape.some((d) => !Number.isInteger(d) || d < 1 || d > MAX_INT))
    throw new ShapeError(`fft ${op}: shape must be a non-empty array of integers in [1, 2^31 - 1], got ${Array.isArray(shape) ? JSON.stringify(shape) : nameOf(shape)}`);
  if (!Array.isArray(axes) || axes.length === 0 || axes.some((a, i) => !Number.isInteger(a) || a < 0 || a >= shape.length || axes.indexOf(a) !== i))
    throw new ShapeError(`fft ${op}: axes must be distinct indices into a shape of rank ${shape.length}, got ${Array.isArray(axes) ? JSON.stringify(axes) : nameOf(axes)}`);
  const h = axes[axes.length - 1]!;
  let full = 1,
    half = 1;
  shape.forEach((d, i) => {
    full *= d;
    half *= i === h ? Math.floor(d / 2) + 1 : d;
  });
  return [full, half];
}

/** The checked kernel bodies on the given entry points (the sync ones or the Async ones). */
function methods(c2c: C2c, r2c: Real, c2r: Real, c2cNd: C2cNd, r2cNd: RealNd, c2rNd: RealNd): FftKernels {
  return {
    c2c(dtype, batch, n, x, out, inverse) {
      check('c2c', dtype, batch, n, x, out, full, full);
      if (typeof inverse !== 'boolean') throw new ValueError(`fft c2c: inverse must be a boolean, got ${nameOf(inverse)}`);
      return c2c(dtype, batch, n, x, out, inverse);
    },
    r2c(dtype, batch, n, x, out) {
      check('r2c', dtype, batch, n, x, out, real, half);
      return r2c(dtype, batch, n, x, out);
    },
    c2r(dtype, batch, n, x, out) {
      check('c2r', dtype, batch, n, x, out, half, real);
      return c2r(dtype, batch, n, x, out);
    },
    // The n-D forms: the sizes of one block stand for n in check().
    c2cNd(dtype, batch, shape, axes, x, out, inverse) {
      const [f] = checkNd('c2cNd', shape, axes);
      check('c2cNd', dtype, batch, f, x, out, full, full);
      if (typeof inverse !== 'boolean') throw new ValueError(`fft c2cNd: inverse must be a boolean, got ${nameOf(inverse)}`);
      return c2cNd(dtype, batch, shape, axes, x, out, inverse);
    },
    r2cNd(dtype, batch, shape, axes, x, out) {
      const [f, h] = checkNd('r2cNd', shape, axes);
      check('r2cNd', dtype, batch, f, x, out, real, () => 2 * h);
      return r2cNd(dtype, batch, shape, axes, x, out);
    },
    c2rNd(dtype, batch, shape, axes, x, out) {
      const [f, h] = checkNd('c2rNd', shape, axes);
      check('c2rNd', dtype, batch, f, x, out, () => 2 * h, real);
      return c2rNd(dtype, batch, shape, axes, x, out);
    },
  };
}

/** The FFTW kernel set: the contract's methods and their Async twins. */
export type NativeFftKernels = FftKernels & AsyncTwins<FftKernels>;

/** The FFTW kernels on a loaded addon; DeviceError when it was built without FFTW. */
export function nativeFftKernels(addon: NativeAddon): NativeFftKernels {
  if (!hasNativeFft(addon)) throw new DeviceError('the native addon was built without FFTW (no fftC2c(); install libfftw3-dev and run npm run build:native)');
  const a = addon as unknown as FftAddon;
  const sync = methods(a.fftC2c.bind(a), a.fftR2c.bind(a), a.fftC2r.bind(a), a.fftC2cNd.bind(a), a.fftR2cNd.bind(a), a.fftC2rNd.bind(a));
  const viaAsync = methods(
    a.fftC2cAsync.bind(a) as unknown as C2c,
    a.fftR2cAsync.bind(a) as unknown as Real,
    a.fftC2rAsync.bind(a) as unknown as Real,
    a.fftC2cNdAsync.bind(a) as unknown as C2cNd,
    a.fftR2cNdAsync.bind(a) as unknown as RealNd,
    a.fftC2rNdAsync.bind(a) as unknown as RealNd,
  );
  // The sync methods with their fixed arities (no rest parameters or spread calls on the path of every transform).
  const set: Record<string, unknown> = {
    c2c: ((dtype, batch, n, x, out, inverse) => {
      try {
        sync.c2c(dtype, batch, n, x, out, inverse);
      } catch (e) {
        throw nativeError('native fft c2c', e);
      }
    }) satisfies C2c,
    r2c: ((dtype, batch, n, x, out) => {
      try {
        sync.r2c(dtype, batch, n, x, out);
      } catch (e) {
        throw nativeError('native fft r2c', e);
      }
    }) satisfies Real,
    c2r: ((dtype, batch, n, x, out) => {
      try {
        sync.c2r(dtype, batch, n, x, out);
      } catch (e) {
        throw nativeError('native fft c2r', e);
      }
    }) satisfies Real,
    c2cNd: ((dtype, batch, shape, axes, x, out, inverse) => {
      try {
        sync.c2cNd(dtype, batch, shape, axes, x, out, inverse);
      } catch (e) {
        throw nativeError('native fft c2cNd', e);
      }
    }) satisfies C2cNd,
    r2cNd: ((dtype, batch, shape, axes, x, out) => {
      try {
        sync.r2cNd(dtype, batch, shape, axes, x, out);
      } catch (e) {
        throw nativeError('native fft r2cNd', e);
      }
    }) satisfies RealNd,
    c2rNd: ((dtype, batch, shape, axes, x, out) => {
      try {
        sync.c2rNd(dtype, batch, shape, axes, x, out);
      } catch (e) {
        throw nativeError('native fft c2rNd', e);
      }
    }) satisfies RealNd,
  };
  for (const name of ['c2c', 'r2c', 'c2r', 'c2cNd', 'r2cNd', 'c2rNd'] as const) {
    const op = `native fft ${name}`;
    const g = viaAsync[name] as (...args: unknown[]) => unknown;
    // async: a failed TS check rejects (never throws); the addon's rejections become typed errors.
    set[`${name}Async`] = async (...args: unknown[]) => {
      try {
        await g(...args);
      } catch (e) {
        throw nativeError(op, e);
      }
    };
  }
  return set as unknown as NativeFftKernels;
}

/** The FFTW plan cache's counters, or undefined when the addon is absent or has no FFTW. */
export function nativeFftInfo(): FftInfo | undefined {
  return nativeFftAddon()?.fftInfo();
}

/** Drops FFTW's cached plans that no call is using (a no-op without FFTW). */
export function clearNativeFftPlans(): void {
  nativeFftAddon()?.fftClearPlans();
}

/**
 * Which fft kernels the 'native' device runs, and why.
 * @example
 * ```ts
 * const st = nativeFftStatus();
 * st.kernels;   // 'fftw' with an addon built with FFTW 3 ('js' without FFTW, 'none' without the addon)
 * st.reason;    // e.g. 'the addon was built with FFTW 3'
 * ```
 */
export function nativeFftStatus(): { kernels: 'fftw' | 'js' | 'none'; reason: string } {
  const addon = nativeAddon();
  if (addon === undefined) return { kernels: 'none', reason: 'the native addon is not loaded (nativeStatus() says why)' };
  if (hasNativeFft(addon)) return { kernels: 'fftw', reason: 'the addon was built with FFTW 3' };
  return { kernels: 'js', reason: "the addon was built without FFTW (libfftw3-dev not found, or RLX_NO_FFTW=1); the TS kernels run on 'native'" };
}
