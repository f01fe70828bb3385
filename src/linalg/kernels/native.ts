// The linalg module's native glue: the linalg kernels (contract.ts) on the
// native addon's LAPACKE bindings (native/src/lapack), and their registration
// as the 'native' device's dense linalg kernels when that device exists (the
// addon is built and loaded and RLX_NATIVE is not 0). The module owns this
// glue: the native backend itself knows nothing of linalg.
//
// This is the TS half of the safe boundary. Every call is checked here (dtype,
// sizes, array types, exact lengths, outputs sharing memory with another array)
// and again in C++, so a bad call is a typed error here and never reaches
// memory there.
//
// Every kernel but nrm2 (one memory-bound pass) has an Async twin, svdAsync
// for svd, ...: the same arguments, checks, result and typed errors, as a
// Promise; the work runs on a libuv worker (the addon's linalgSvdAsync, ...,
// native/src/binding/kernel.h), so the event loop keeps turning meanwhile.
// The twins run the very same method bodies below on a view of the addon
// whose entry points are the Async ones.

import { registerKernels } from '../../compiler/kernel-registry.js';
import { deviceNames } from '../../backends/registry.js';
import { nativeAddon, type AsyncTwins, type GemmSpec, type NativeAddon } from '../../backends/native/addon.js';
import { nativeError, typedErrors } from '../../backends/native/errors.js';
import { gemm as gemmNative, gemmAsync as gemmNativeAsync } from '../../backends/native/gemm.js';
import { DeviceError, DTypeError, ShapeError, ValueError } from '../../tensor/errors.js';
import type { FloatArray, LinalgDType, LinalgKernels } from './contract.js';
import { LINALG_KERNELS } from './family.js';

const DTYPES: readonly LinalgDType[] = ['float32', 'float64', 'complex64', 'complex128'];
const FUNCTIONS = ['linalgCholesky', 'linalgTriangularSolve', 'linalgLu', 'linalgSolve', 'linalgDet', 'linalgInv', 'linalgQr', 'linalgEigh', 'linalgSvd', 'linalgEig', 'linalgLstsq', 'linalgNrm2'] as const;
const MAX_DIM = 2 ** 31 - 1;

type Ctor = Float32ArrayConstructor | Float64ArrayConstructor | Int32ArrayConstructor;
type Arr = Float32Array | Float64Array | Int32Array;

const nameOf = (x: unknown): string =>
  x === null ? 'null' : ArrayBuffer.isView(x) ? x.constructor.name : Array.isArray(x) ? 'Array' : typeof x === 'number' ? `number ${x}` : typeof x;

/** Argument checks for one call of kernel `op`. */
class Check {
  // `declare`d fields assigned in the constructor: no field initializer to run per call (see Node).
  private declare readonly arrays: { name: string; a: Arr; out: boolean }[];
  declare readonly storage: Float32ArrayConstructor | Float64ArrayConstructor;
  declare readonly per: number;
  private declare readonly op: string;
  declare readonly dtype: LinalgDType;

  constructor(op: string, dtype: LinalgDType) {
    this.op = op;
    this.dtype = dtype;
    this.arrays = [];
    if (typeof dtype !== 'string' || !DTYPES.includes(dtype)) throw new DTypeError(`${op}: dtype must be one of ${DTYPES.join(', ')}, got ${String(dtype)}`);
    this.storage = dtype === 'float32' || dtype === 'complex64' ? Float32Array : Float64Array;
    this.per = dtype === 'complex64' || dtype === 'complex128' ? 2 : 1;
  }

  size(name: string, v: number): number {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > MAX_DIM) throw new ShapeError(`${this.op}: ${name} must be an integer in [0, 2^31 - 1], got ${nameOf(v)}`);
    return v;
  }

  flag(name: string, v: boolean): void {
    if (typeof v !== 'boolean') throw new ValueError(`${this.op}: ${name} must be a boolean, got ${nameOf(v)}`);
  }

  /** `a` must be a `ctor` of exactly `length` elements (null allowed when `nullable`). */
  array(name: string, a: Arr | null, ctor: Ctor, length: number, out: boolean, nullable = false): void {
    if (a === null && nullable) return;
    if (!(a instanceof ctor)) throw new DTypeError(`${this.op}: ${name} must be a ${ctor.name}${nullable ? ' or null' : ''} for dtype ${this.dtype}, got ${nameOf(a)}`);
    if (!Number.isSafeInteger(length) || a.length !== length) throw new ShapeError(`${this.op}: ${name} must have length ${length}, got ${a.length}`);
    this.arrays.push({ name, a, out });
  }

  /** A matrix array: `elements` (complex) elements of the dtype. */
  mat(name: string, a: FloatArray | null, elements: number, out: boolean, nullable = false): void {
    this.array(name, a, this.storage, elements * this.per, out, nullable);
  }

  /** No output shares memory with any other array. */
  disjoint(): void {
    const xs = this.arrays;
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i]!;
      if (!x.out || x.a.length === 0) continue;
      for (let j = 0; j < xs.length; j++) {
        const y = xs[j]!;
        if (i === j || y.a.length === 0 || x.a.buffer !== y.a.buffer) continue;
        const x0 = x.a.byteOffset,
          y0 = y.a.byteOffset;
        if (x0 < y0 + y.a.byteLength && y0 < x0 + x.a.byteLength) throw new ValueError(`${this.op}: ${x.name} shares memory with ${y.name}; outputs must not overlap any other array`);
      }
    }
  }
}

// The common call passes every check: sizes are plain integers, each array is
// exactly its dtype's storage of the expected length, and each output lies in an
// ArrayBuffer that no other array of the call uses. The quick tests below
// recognize that case in a few comparisons and skip Check, which exists to name
// what is wrong and costs ~1 µs a call while V8 still interprets it; any other
// call (slab-allocated outputs sharing a buffer included) goes through Check.
// C++ checks everything again either way.
const okSize = (v: number): boolean => Number.isSafeInteger(v) && v >= 0 && v <= MAX_DIM;
function isMat(dtype: LinalgDType, x: FloatArray | null, elements: number): boolean {
  if (dtype === 'float64') return x instanceof Float64Array && x.length === elements;
  if (dtype === 'complex128') return x instanceof Float64Array && x.length === 2 * elements;
  if (dtype === 'float32') return x instanceof Float32Array && x.length === elements;
  if (dtype === 'complex64') return x instanceof Float32Array && x.length === 2 * elements;
  return false;
}


/** The kernels with an Async twin (all but nrm2, a single memory-bound pass). */
const ASYNC = ['cholesky', 'triangularSolve', 'lu', 'solve', 'det', 'inv', 'qr', 'eigh', 'svd', 'eig', 'lstsq', 'gemm'] as const;
type AsyncKernel = (typeof ASYNC)[number];

/** The native linalg kernel set: the contract's methods and their Async twins. */
export type NativeLinalgKernels = LinalgKernels & AsyncTwins<Pick<LinalgKernels, AsyncKernel>>;

/** The linalg kernels on a loaded addon; throws DeviceError when the addon predates them. */
export function nativeLinalgKernels(addon: NativeAddon): NativeLinalgKernels {
  for (const f of FUNCTIONS) {
    if (typeof addon[f] !== 'function' || (f !== 'linalgNrm2' && typeof addon[`${f}Async`] !== 'function')) {
      throw new DeviceError(`the native addon does not export ${f}() and ${f}Async() (stale build? run npm run build:native)`);
    }
  }
  // What C++ still throws (its own checks repeat these) leaves as a typed error (errors.ts).
  const sync = typedErrors('native linalg ', methods(addon, gemmNative));
  // The same bodies on the Async entry points: each returns the addon's Promise (typed as its result here).
  const viaAsync = methods(asyncView(addon), gemmNativeAsync);
  const twins: Record<string, unknown> = {};
  for (const name of ASYNC) {
    const op = `native linalg ${name}`;
    const body = viaAsync[name] as (...args: unknown[]) => unknown;
    // async: a failed TS check rejects (never throws); the addon's rejections become typed errors.
    twins[`${name}Async`] = async (...args: unknown[]) => {
      try {
        return await body(...args);
      } catch (e) {
        throw nativeError(op, e);
      }
    };
  }
  return Object.assign(sync, twins) as unknown as NativeLinalgKernels;
}

/** `addon` with each linalgX replaced by linalgXAsync (so methods() returns the Promises). */
function asyncView(addon: NativeAddon): NativeAddon {
  const view: Record<string, unknown> = Object.create(addon) as Record<string, unknown>;
  for (const f of FUNCTIONS) if (f !== 'linalgNrm2') view[f] = (addon[`${f}Async`] as (...a: unknown[]) => unknown).bind(addon);
  return view as unknown as NativeAddon;
}

/** The kernel bodies: checks, then one addon call (or gemm). */
function methods(addon: NativeAddon, gemmNative: (spec: GemmSpec) => unknown): LinalgKernels {
  return {
    cholesky(dtype, b, n, a, out, lower) {
      if (okSize(b) && okSize(n) && typeof lower === 'boolean' && isMat(dtype, a, b * n * n) && isMat(dtype, out, b * n * n) && out.buffer !== a.buffer) {
        return addon.linalgCholesky(dtype, b, n, a, out, lower);
      }
      const c = new Check('cholesky', dtype);
      c.size('b', b), c.size('n', n), c.flag('lower', lower);
      c.mat('a', a, b * n * n, false), c.mat('out', out, b * n * n, true);
      c.disjoint();
      return addon.linalgCholesky(dtype, b, n, a, out, lower);
    },

    triangularSolve(dtype, b, n, k, a, rhs, out, lower, trans, unitDiagonal) {
      const c = new Check('triangularSolve', dtype);
      c.size('b', b), c.size('n', n), c.size('k', k), c.flag('lower', lower), c.flag('unitDiagonal', unitDiagonal);
      if (trans !== 0 && trans !== 1 && trans !== 2) throw new ValueError(`triangularSolve: trans must be 0, 1 or 2, got ${nameOf(trans)}`);
      c.mat('a', a, b * n * n, false), c.mat('rhs', rhs, b * n * k, false), c.mat('out', out, b * n * k, true);
      c.disjoint();
      return addon.linalgTriangularSolve(dtype, b, n, k, a, rhs, out, lower, trans, unitDiagonal);
    },

    lu(dtype, b, m, n, a, lu, piv, perm) {
      const c = new Check('lu', dtype);
      c.size('b', b), c.size('m', m), c.size('n', n);
      c.mat('a', a, b * m * n, false), c.mat('lu', lu, b * m * n, true);
      c.array('piv', piv, Int32Array, b * Math.min(m, n), true), c.array('perm', perm, Int32Array, b * m, true);
      c.disjoint();
      return addon.linalgLu(dtype, b, m, n, a, lu, piv, perm);
    },

    solve(dtype, b, n, k, a, rhs, out) {
      if (okSize(b) && okSize(n) && okSize(k) && isMat(dtype, a, b * n * n) && isMat(dtype, rhs, b * n * k) && isMat(dtype, out, b * n * k) && out.buffer !== a.buffer && out.buffer !== rhs.buffer) {
        return addon.linalgSolve(dtype, b, n, k, a, rhs, out);
      }
      const c = new Check('solve', dtype);
      c.size('b', b), c.size('n', n), c.size('k', k);
      c.mat('a', a, b * n * n, false), c.mat('rhs', rhs, b * n * k, false), c.mat('out', out, b * n * k, true);
      c.disjoint();
      return addon.linalgSolve(dtype, b, n, k, a, rhs, out);
    },

    det(dtype, b, n, a, out, logabs) {
      if (logabs === null && okSize(b) && okSize(n) && isMat(dtype, a, b * n * n) && isMat(dtype, out, b) && out.buffer !== a.buffer) {
        return addon.linalgDet(dtype, b, n, a, out, null);
      }
      const c = new Check('det', dtype);
      c.size('b', b), c.size('n', n);
      c.mat('a', a, b * n * n, false), c.mat('out', out, b, true), c.array('logabs', logabs, c.storage, b, true, true);
      c.disjoint();
      return addon.linalgDet(dtype, b, n, a, out, logabs);
    },

    inv(dtype, b, n, a, out) {
      if (okSize(b) && okSize(n) && isMat(dtype, a, b * n * n) && isMat(dtype, out, b * n * n) && out.buffer !== a.buffer) {
        return addon.linalgInv(dtype, b, n, a, out);
      }
      const c = new Check('inv', dtype);
      c.size('b', b), c.size('n', n);
      c.mat('a', a, b * n * n, false), c.mat('out', out, b * n * n, true);
      c.disjoint();
      return addon.linalgInv(dtype, b, n, a, out);
    },

    qr(dtype, b, m, n, a, q, r, complete) {
      const c = new Check('qr', dtype);
      c.size('b', b), c.size('m', m), c.size('n', n), c.flag('complete', complete);
      const rows = complete ? m : Math.min(m, n);
      c.mat('a', a, b * m * n, false), c.mat('q', q, b * m * rows, true, true), c.mat('r', r, b * rows * n, true);
      c.disjoint();
      return addon.linalgQr(dtype, b, m, n, a, q, r, complete);
    },

    eigh(dtype, b, n, a, w, v, lower) {
      const c = new Check('eigh', dtype);
      c.size('b', b), c.size('n', n), c.flag('lower', lower);
      c.mat('a', a, b * n * n, false), c.array('w', w, c.storage, b * n, true), c.mat('v', v, b * n * n, true, true);
      c.disjoint();
      return addon.linalgEigh(dtype, b, n, a, w, v, lower);
    },

    svd(dtype, b, m, n, a, s, u, vh, full) {
      const c = new Check('svd', dtype);
      c.size('b', b), c.size('m', m), c.size('n', n), c.flag('full', full);
      const kk = Math.min(m, n);
      if ((u === null) !== (vh === null)) throw new ValueError('svd: u and vh must both be arrays or both be null');
      c.mat('a', a, b * m * n, false), c.array('s', s, c.storage, b * kk, true);
      c.mat('u', u, b * m * (full ? m : kk), true, true), c.mat('vh', vh, b * (full ? n : kk) * n, true, true);
      c.disjoint();
      return addon.linalgSvd(dtype, b, m, n, a, s, u, vh, full);
    },

    eig(dtype, b, n, a, w, vr) {
      const c = new Check('eig', dtype);
      c.size('b', b), c.size('n', n);
      c.mat('a', a, b * n * n, false), c.array('w', w, c.storage, 2 * b * n, true), c.array('vr', vr, c.storage, 2 * b * n * n, true, true);
      c.disjoint();
      return addon.linalgEig(dtype, b, n, a, w, vr);
    },

    lstsq(dtype, b, m, n, k, a, rhs, x, s, rank, rcond) {
      const c = new Check('lstsq', dtype);
      c.size('b', b), c.size('m', m), c.size('n', n), c.size('k', k);
      if (typeof rcond !== 'number' || Number.isNaN(rcond)) throw new ValueError(`lstsq: rcond must be a number (negative: machine epsilon · max(m, n)), got ${nameOf(rcond)}`);
      c.mat('a', a, b * m * n, false), c.mat('rhs', rhs, b * m * k, false), c.mat('x', x, b * n * k, true);
      c.array('s', s, c.storage, b * Math.min(m, n), true), c.array('rank', rank, Int32Array, b, true);
      c.disjoint();
      return addon.linalgLstsq(dtype, b, m, n, k, a, rhs, x, s, rank, rcond);
    },

    nrm2(dtype, b, n, x, out) {
      if (okSize(b) && okSize(n) && (dtype === 'float64' || dtype === 'complex128') && isMat(dtype, x, b * n) && isMat('float64', out, b) && out.buffer !== x.buffer) {
        return addon.linalgNrm2(dtype, b, n, x as Float64Array, out as Float64Array);
      }
      const c = new Check('nrm2', dtype);
      if (dtype !== 'float64' && dtype !== 'complex128') throw new DTypeError(`nrm2: dtype must be float64 or complex128, got ${dtype}`);
      c.size('b', b), c.size('n', n);
      c.mat('x', x, b * n, false), c.array('out', out, Float64Array, b, true);
      c.disjoint();
      return addon.linalgNrm2(dtype, b, n, x as Float64Array, out as Float64Array);
    },

    gemm(dtype, m, k, n, a, b, out) {
      const c = new Check('gemm', dtype);
      c.size('m', m), c.size('k', k), c.size('n', n);
      c.mat('a', a, m * k, false), c.mat('b', b, k * n, false), c.mat('out', out, m * n, true);
      c.disjoint();
      const row = (cols: number) => [cols, 1];
      // The Async view returns gemmAsync's Promise (of out): settle with nothing, as gemm.
      const r = gemmNative({ dtype, batch: [], m, n, k, a: { data: a, offset: 0, strides: row(k) }, b: { data: b, offset: 0, strides: row(n) }, c: { data: out, offset: 0, strides: row(n) } });
      return (r instanceof Promise ? r.then(() => undefined) : undefined) as void;
    },
  } satisfies LinalgKernels;
}

/** Registers the LAPACKE kernels on 'native' when that device is available. */
export function registerNativeLinalg(): void {
  const addon = nativeAddon();
  if (addon === undefined || !deviceNames().includes('native')) return;
  registerKernels('native', LINALG_KERNELS, nativeLinalgKernels(addon));
}
