// The quant module's native glue: the QuantKernels contract (contract.ts) on
// the addon's entry points (native/src/quant: quantInt8Matmul,
// quantInt4Matmul and their Async twins), threaded over the addon pool with
// an AVX-512 VNNI, AVX2 or scalar path chosen at run time (native/src/quant/qgemm.cc),
// bit for bit the js kernels' results.
//
// As src/fft/kernels/native.ts, the TS half of a safe boundary: every call is
// checked here (sizes: ShapeError; array types: DTypeError; lengths:
// ShapeError; out overlapping an input: ValueError) and again in C++, so a bad
// call is a typed error and never reaches memory. An addon built before these
// kernels existed has no quant* exports; kernels/register.ts then keeps the js
// kernels on 'native'.

import { nativeAddon, type AsyncTwins, type NativeAddon } from '../../backends/native/addon.js';
import { nativeError } from '../../backends/native/errors.js';
import { DeviceError, DTypeError, ShapeError, ValueError } from '../../tensor/errors.js';
import { INT8_MATMUL_MAX_K, type QuantKernels } from './contract.js';

type Int8Fn = QuantKernels['int8Matmul'];
type Int4Fn = QuantKernels['int4Matmul'];

/** The addon's quant exports. */
interface QuantAddon {
  quantInt8Matmul: Int8Fn;
  quantInt4Matmul: Int4Fn;
  quantInt8MatmulAsync: (...a: Parameters<Int8Fn>) => Promise<void>;
  quantInt4MatmulAsync: (...a: Parameters<Int4Fn>) => Promise<void>;
  quantInfo(): { isa: QuantIsa; best: QuantIsa };
  quantSetIsa(isa: QuantIsa): QuantIsa;
}

/** The SIMD paths of the native kernels, best first. */
export type QuantIsa = 'avx512vnni' | 'avx2' | 'scalar';

const FUNCTIONS = ['quantInt8Matmul', 'quantInt4Matmul', 'quantInt8MatmulAsync', 'quantInt4MatmulAsync', 'quantInfo', 'quantSetIsa'] as const;
const MAX_INT = 2 ** 31 - 1;

/** Whether `addon` exports the quant kernels. */
export function hasNativeQuant(addon: NativeAddon | undefined): boolean {
  const a = addon as unknown as Record<string, unknown> | undefined;
  return a !== undefined && FUNCTIONS.every((f) => typeof a[f] === 'function');
}

const nameOf = (x: unknown): string =>
  x === null ? 'null' : ArrayBuffer.isView(x) ? x.constructor.name : Array.isArray(x) ? 'Array' : typeof x === 'number' ? `number ${x}` : typeof x;

function size(op: string, name: string, v: unknown, hi = MAX_INT, lo = 0): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) throw new ShapeError(`native quant ${op}: ${name} must be an integer in [${lo}, ${hi}], got ${nameOf(v)}`);
  return v;
}

type Ctor = Int8ArrayConstructor | Uint8ArrayConstructor | Int32ArrayConstructor | Float32ArrayConstructor;
function array(op: string, name: string, a: unknown, Want: Ctor, len: number): void {
  if (!(a instanceof Want)) throw new DTypeError(`native quant ${op}: ${name} must be a ${Want.name}, got ${nameOf(a)}`);
  if (a.length !== len) throw new ShapeError(`native quant ${op}: ${name} must have length ${len}, got ${a.length}`);
}

function noOverlap(op: string, out: ArrayBufferView, ins: ArrayBufferView[]): void {
  for (const x of ins)
    if (x.buffer === out.buffer && x.byteLength > 0 && out.byteLength > 0 && x.byteOffset < out.byteOffset + out.byteLength && out.byteOffset < x.byteOffset + x.byteLength)
      throw new ValueError(`native quant ${op}: out shares memory with an input; the output must not overlap them`);
}

function checkInt8(batch: number, m: number, n: number, k: number, a: Int8Array, b: Int8Array, out: Int32Array): void {
  const op = 'int8Matmul';
  size(op, 'batch', batch);
  size(op, 'm', m);
  size(op, 'n', n);
  size(op, 'k', k, INT8_MATMUL_MAX_K);
  array(op, 'a', a, Int8Array, batch * m * k);
  array(op, 'b', b, Int8Array, batch * n * k);
  array(op, 'out', out, Int32Array, batch * m * n);
  noOverlap(op, out, [a, b]);
}

function checkInt4(batch: number, m: number, n: number, k: number, gs: number, a: Int8Array, as: Float32Array, w: Uint8Array, ws: Float32Array, out: Float32Array): void {
  const op = 'int4Matmul';
  size(op, 'batch', batch);
  size(op, 'm', m);
  size(op, 'n', n);
  size(op, 'k', k);
  size(op, 'groupSize', gs, 2 ** 20, 2);
  if (gs % 2 !== 0 || k % gs !== 0) throw new ShapeError(`native quant ${op}: groupSize must be even and divide k, got groupSize ${gs}, k ${k}`);
  array(op, 'a', a, Int8Array, batch * m * k);
  array(op, 'aScale', as, Float32Array, batch * m);
  array(op, 'w', w, Uint8Array, (batch * n * k) / 2);
  array(op, 'wScale', ws, Float32Array, (batch * n * k) / gs);
  array(op, 'out', out, Float32Array, batch * m * n);
  noOverlap(op, out, [a, as, w, ws]);
}

/** The native kernel set: the contract's methods and their Async twins. */
export type NativeQuantKernels = QuantKernels & AsyncTwins<QuantKernels>;

/** The native quant kernels on a loaded addon; DeviceError when it has none (a stale build). */
export function nativeQuantKernels(addon: NativeAddon): NativeQuantKernels {
  if (!hasNativeQuant(addon)) throw new DeviceError('the native addon has no quant kernels (no quantInt8Matmul(); stale build? run npm run build:native)');
  const q = addon as unknown as QuantAddon;
  return {
    int8Matmul(...args) {
      checkInt8(...args);
      try {
        q.quantInt8Matmul(...args);
      } catch (e) {
        throw nativeError('native quant int8Matmul', e);
      }
    },
    int4Matmul(...args) {
      checkInt4(...args);
      try {
        q.quantInt4Matmul(...args);
      } catch (e) {
        throw nativeError('native quant int4Matmul', e);
      }
    },
    // A failed TS check rejects (never throws); the addon's rejections become typed errors.
    async int8MatmulAsync(...args) {
      checkInt8(...args);
      try {
        await q.quantInt8MatmulAsync(...args);
      } catch (e) {
        throw nativeError('native quant int8Matmul', e);
      }
    },
    async int4MatmulAsync(...args) {
      checkInt4(...args);
      try {
        await q.quantInt4MatmulAsync(...args);
      } catch (e) {
        throw nativeError('native quant int4Matmul', e);
      }
    },
  };
}

/**
 * Which SIMD path the native quant kernels take, and the best this CPU has;
 * undefined without an addon that has them.
 * @example
 * ```ts
 * nativeQuantInfo()?.best;   // e.g. 'avx512vnni'
 * ```
 */
export function nativeQuantInfo(): { isa: QuantIsa; best: QuantIsa } | undefined {
  const addon = nativeAddon();
  return hasNativeQuant(addon) ? (addon as unknown as QuantAddon).quantInfo() : undefined;
}

/**
 * Makes the native kernels take `isa` (or the best this CPU has, if lower) and
 * returns the one in use: for tests that compare every path with the js kernels.
 */
export function setNativeQuantIsa(isa: QuantIsa): QuantIsa | undefined {
  const addon = nativeAddon();
  if (!hasNativeQuant(addon)) return undefined;
  if (isa !== 'avx512vnni' && isa !== 'avx2' && isa !== 'scalar') throw new ValueError(`setNativeQuantIsa: isa must be 'avx512vnni', 'avx2' or 'scalar', got ${nameOf(isa)}`);
  return (addon as unknown as QuantAddon).quantSetIsa(isa);
}
