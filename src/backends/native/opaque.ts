// The data-movement kernels (cumsum, gather, scatterAdd, concat, constant pad)
// on the native addon (native/src/opaque): the TS half of the safe boundary.
// Shapes are resolved per binding and checked against the kernel and the
// buffers here; the addon checks lengths, types and overlap again. The js
// kernels in src/backends/js/opaque.ts are the reference: same bits, same
// IndexError messages. Control flow runs the host loops shared with js.

import { DTYPE_INFO, type DType, type StorageArray } from '../../tensor/dtype.js';
import { DTypeError, DeviceError, IndexError, LegalizationError, ShapeError } from '../../tensor/errors.js';
import { fmtShape, resolveShape } from '../../tensor/shape.js';
import { encodeValues } from '../../tensor/storage.js';
import type { OpaqueKernel } from '../../compiler/kernel.js';
import type { CompiledKernel, DimEnv } from '../backend.js';
import { opaqueKernel } from '../js/index.js';
import { scanKernel, whileKernel, condKernel, CONTROL_FLOW_ASYNC } from '../js/control-flow.js';
import type { OpaqueArgs } from '../js/opaque.js';
import { nativeError, typedAddon } from './errors.js';
import type { SlotShapes } from './program.js';

/** The data-movement exports of the addon (native/src/opaque/napi.cc). Sizes count storage scalars. */
export interface OpaqueAddon {
  /** carry (outer = 1 only): the running sum before x's first row (length inner), so a long scan can be cut into pieces. */
  opaqueCumsum(x: StorageArray, out: StorageArray, outer: number, n: number, inner: number, carry?: StorageArray): void;
  /** opaqueCumsum on a libuv worker over private copies (binding/kernel.h); optional: older builds lack it. */
  opaqueCumsumAsync?(x: StorageArray, out: StorageArray, outer: number, n: number, inner: number, carry?: StorageArray): Promise<void>;
  /** -1, or the position in idx of the first out-of-range index (then nothing is written). */
  opaqueGather(x: StorageArray, idx: Int32Array, out: StorageArray, outer: number, n: number, inner: number): number;
  opaqueScatterAdd(x: StorageArray, idx: Int32Array, upd: StorageArray, out: StorageArray, outer: number, n: number, inner: number): number;
  opaqueConcat(ins: StorageArray[], widths: number[], out: StorageArray, outer: number): void;
  /** shape, before, after in elements; fill holds one element (lanes scalars). */
  opaquePad(x: StorageArray, out: StorageArray, shape: number[], before: number[], after: number[], fill: StorageArray): void;
  /** Bytes moved from which a kernel is split across the kernel pool. */
  opaqueSetThreshold(bytes: number): void;
  opaqueGetThreshold(): number;
}

/** Opaque kernels the addon runs. */
export const NATIVE_OPAQUE: readonly string[] = ['cumsum', 'gather', 'scatterAdd', 'concat', 'pad'];

/** The control-flow kernels (host loops over compiled bodies), shared with the js backend. */
const CONTROL_FLOW_KERNELS: Readonly<Record<string, (a: OpaqueArgs) => void>> = { scan: scanKernel, while: whileKernel, cond: condKernel };

const prod = (s: readonly number[], a = 0, b = s.length): number => {
  let p = 1;
  for (let i = a; i < b; i++) p *= s[i]!;
  return p;
};

/** buf as exactly n scalars of dtype d's storage (a longer buffer is viewed, a shorter one refused). */
function fit(buf: StorageArray | undefined, d: DType, n: number, what: string): StorageArray {
  const S = DTYPE_INFO[d].storage;
  if (!(buf instanceof S)) {
    throw new DTypeError(`native ${what}: expected a ${S.name} for ${d}, got ${buf === undefined ? 'undefined' : buf.constructor.name}`);
  }
  if (buf.length < n) throw new ShapeError(`native ${what}: buffer of ${buf.length} scalars, the kernel needs ${n}`);
  return asAddonStorage(buf.length === n ? buf : buf.subarray(0, n));
}

/**
 * The addon's data-movement kernels know the storage classes Uint8Array,
 * Uint16Array, Int32Array, Float32Array and Float64Array; an Int8Array (int8)
 * is handed over as the Uint8Array of the same bytes. gather, concat and pad
 * move bits, so the bytes are the same; cumsum and scatterAdd never see int8
 * (legalization computes int8 arithmetic in int32).
 */
function asAddonStorage(buf: StorageArray): StorageArray {
  return buf instanceof Int8Array ? new Uint8Array(buf.buffer, buf.byteOffset, buf.length) : buf;
}

function checkAxis(name: string, ax: unknown, rank: number): number {
  if (typeof ax !== 'number' || !Number.isInteger(ax) || ax < 0 || ax >= rank) throw new ShapeError(`native ${name}: axis ${String(ax)} is not in [0, ${rank})`);
  return ax;
}

const outOfRange = (op: string, i: number, n: number) => new IndexError(`${op}: index ${i} is out of range for an axis of size ${n}`);

/** A CompiledKernel running opaque kernel k on the addon (control flow: the shared host loops); a LegalizationError for any other op. */
export function compileOpaque(addonAny: unknown, k: OpaqueKernel, slotShapes: SlotShapes): CompiledKernel {
  const addon = addonAny as Partial<OpaqueAddon>;
  // Control flow is host orchestration of compiled bodies (each body compiled
  // for its own device): the same loop on every CPU device, so native runs it too.
  const control = CONTROL_FLOW_KERNELS[k.name];
  if (control !== undefined) return opaqueKernel(k, control, CONTROL_FLOW_ASYNC[k.name]);
  if (!NATIVE_OPAQUE.includes(k.name)) throw new LegalizationError(k.name, k.outDType, 'native', 'no native kernel for this opaque op');
  if (typeof addon.opaquePad !== 'function') throw new DeviceError('the native addon does not export the data-movement kernels (stale build? run npm run build:native)');
  // What C++ still throws (its checks repeat the ones below) leaves as a typed error (errors.ts).
  return nativeOpaque(typedAddon(addon as OpaqueAddon), k);
}

/**
 * Bytes of x an awaited cumsum hands the addon per call. The async call copies
 * its piece in and its result back on the main thread (the binding's private
 * copies, pins.h: a buffer may be transferred while a worker runs, so the
 * worker never touches JS memory); one call over 12e6 float64 held the main
 * thread ~78 ms (more than the sync cumsum, 68 ms). Pieces of 4 MiB keep each
 * copy around a millisecond, and the event loop turns between them.
 */
export const CUMSUM_PIECE_BYTES = 4 << 20;

/**
 * cumsum of x [outer, n, inner] into out, awaited piece by piece: whole outer
 * rows when a row fits in a piece, else runs of the scanned axis, each
 * continuing from the previous piece's last output row (the addon's `carry`:
 * the same recurrence, so the same bits as one call).
 */
async function cumsumPieces(a: Required<OpaqueAddon>, x: StorageArray, out: StorageArray, outer: number, n: number, inner: number): Promise<void> {
  const rowLen = n * inner;
  const eb = x.BYTES_PER_ELEMENT;
  const call = (p: Promise<void>) =>
    p.catch((e: unknown) => {
      throw nativeError('', e);
    });
  if (rowLen * eb <= CUMSUM_PIECE_BYTES) {
    const rows = Math.max(1, Math.floor(CUMSUM_PIECE_BYTES / (rowLen * eb)));
    for (let o0 = 0; o0 < outer; o0 += rows) {
      const o1 = Math.min(outer, o0 + rows);
      await call(a.opaqueCumsumAsync(x.subarray(o0 * rowLen, o1 * rowLen), out.subarray(o0 * rowLen, o1 * rowLen), o1 - o0, n, inner));
    }
    return;
  }
  const step = Math.max(1, Math.floor(CUMSUM_PIECE_BYTES / (inner * eb)));
  for (let o = 0; o < outer; o++) {
    const base = o * rowLen;
    for (let n0 = 0; n0 < n; n0 += step) {
      const n1 = Math.min(n, n0 + step);
      const [lo, hi] = [base + n0 * inner, base + n1 * inner];
      const carry = n0 === 0 ? undefined : out.subarray(lo - inner, lo);
      await call(a.opaqueCumsumAsync(x.subarray(lo, hi), out.subarray(lo, hi), 1, n1 - n0, inner, carry));
    }
  }
}

function nativeOpaque(a: OpaqueAddon, k: OpaqueKernel): CompiledKernel {
  const d = k.outDType;
  const L = DTYPE_INFO[d].lanes;
  const shapesOf = (env: DimEnv) => ({ ins: k.inShapes.map((s) => resolveShape(s, env)), out: resolveShape(k.outShape, env) });
  const sameShape = (x: readonly number[], y: readonly number[]) => x.length === y.length && x.every((v, i) => v === y[i]);

  switch (k.name) {
    case 'cumsum': {
      const args = (bufs: StorageArray[], env: DimEnv): [StorageArray, StorageArray, number, number, number] => {
        const { ins: [s], out: os } = shapesOf(env);
        if (k.inDTypes[0] !== d || !sameShape(s!, os)) throw new ShapeError(`native cumsum: input ${fmtShape(s!)} ${k.inDTypes[0]} -> output ${fmtShape(os)} ${d}`);
        const ax = checkAxis('cumsum', k.attrs['axis'], s!.length);
        const size = prod(s!) * L;
        return [fit(bufs[k.inputs[0]!], d, size, 'cumsum x'), fit(bufs[k.out], d, size, 'cumsum out'), prod(s!, 0, ax), s![ax]!, prod(s!, ax + 1) * L];
      };
      return {
        run(bufs, env) {
          a.opaqueCumsum(...args(bufs, env));
        },
        runAsync(bufs, env) {
          const [x, out, outer, n, inner] = args(bufs, env);
          if (x.byteLength < CUMSUM_PIECE_BYTES || typeof a.opaqueCumsumAsync !== 'function') {
            a.opaqueCumsum(x, out, outer, n, inner);
            return undefined;
          }
          return cumsumPieces(a as Required<OpaqueAddon>, x, out, outer, n, inner);
        },
      };
    }
    case 'gather':
      return {
        run(bufs, env) {
          const { ins: [s, is], out: os } = shapesOf(env);
          const ax = checkAxis('gather', k.attrs['axis'], s!.length);
          const want = [...s!.slice(0, ax), ...is!, ...s!.slice(ax + 1)];
          if (k.inDTypes[0] !== d || k.inDTypes[1] !== 'int32' || !sameShape(want, os)) throw new ShapeError(`native gather: ${fmtShape(s!)} taking ${fmtShape(is!)} along ${ax} is ${fmtShape(want)}, not ${fmtShape(os)}`);
          const idx = fit(bufs[k.inputs[1]!], 'int32', prod(is!), 'gather indices') as Int32Array;
          const n = s![ax]!;
          const bad = a.opaqueGather(fit(bufs[k.inputs[0]!], d, prod(s!) * L, 'gather x'), idx, fit(bufs[k.out], d, prod(os) * L, 'gather out'), prod(s!, 0, ax), n, prod(s!, ax + 1) * L);
          if (bad >= 0) throw outOfRange('gather', idx[bad]!, n);
        },
      };
    case 'scatterAdd':
      return {
        run(bufs, env) {
          const { ins: [s, is, us], out: os } = shapesOf(env);
          const ax = checkAxis('scatterAdd', k.attrs['axis'], s!.length);
          const want = [...s!.slice(0, ax), ...is!, ...s!.slice(ax + 1)];
          if (k.inDTypes[0] !== d || k.inDTypes[2] !== d || k.inDTypes[1] !== 'int32' || !sameShape(s!, os) || !sameShape(want, us!)) {
            throw new ShapeError(`native scatterAdd: x ${fmtShape(s!)}, indices ${fmtShape(is!)}, updates ${fmtShape(us!)} along ${ax} -> ${fmtShape(os)}`);
          }
          const idx = fit(bufs[k.inputs[1]!], 'int32', prod(is!), 'scatterAdd indices') as Int32Array;
          const n = s![ax]!,
            size = prod(s!) * L;
          const bad = a.opaqueScatterAdd(fit(bufs[k.inputs[0]!], d, size, 'scatterAdd x'), idx, fit(bufs[k.inputs[2]!], d, prod(us!) * L, 'scatterAdd updates'), fit(bufs[k.out], d, size, 'scatterAdd out'), prod(s!, 0, ax), n, prod(s!, ax + 1) * L);
          if (bad >= 0) throw outOfRange('scatterAdd', idx[bad]!, n);
        },
      };
    case 'concat':
      return {
        run(bufs, env) {
          const { ins, out: os } = shapesOf(env);
          const ax = checkAxis('concat', k.attrs['axis'], os.length);
          let total = 0;
          for (const [i, s] of ins.entries()) {
            if (k.inDTypes[i] !== d || s.length !== os.length || s.some((v, j) => j !== ax && v !== os[j])) throw new ShapeError(`native concat: input ${i} ${fmtShape(s)} ${k.inDTypes[i]} does not fit output ${fmtShape(os)} ${d} along ${ax}`);
            total += s[ax]!;
          }
          if (total !== os[ax]) throw new ShapeError(`native concat: inputs sum to ${total} along axis ${ax}, the output has ${os[ax]}`);
          const widths = ins.map((s) => prod(s, ax) * L);
          a.opaqueConcat(
            ins.map((s, i) => fit(bufs[k.inputs[i]!], d, prod(s) * L, `concat input ${i}`)),
            widths,
            fit(bufs[k.out], d, prod(os) * L, 'concat out'),
            prod(os, 0, ax),
          );
        },
      };
    default: {
      // pad: the fill element is encoded once ([value, 0] for complex), like the js kernel.
      const fill = asAddonStorage(encodeValues(L === 2 ? [k.attrs['value'] as number, 0] : [k.attrs['value'] as number], d));
      const w = k.attrs['widths'] as [number, number][];
      return {
        run(bufs, env) {
          const { ins: [s], out: os } = shapesOf(env);
          if (k.inDTypes[0] !== d || !Array.isArray(w) || w.length !== s!.length || s!.some((v, i) => v + w[i]![0] + w[i]![1] !== os[i])) {
            throw new ShapeError(`native pad: ${fmtShape(s!)} padded by ${JSON.stringify(w)} is not ${fmtShape(os)}`);
          }
          a.opaquePad(fit(bufs[k.inputs[0]!], d, prod(s!) * L, 'pad x'), fit(bufs[k.out], d, prod(os) * L, 'pad out'), s!, w.map((p) => p[0]), w.map((p) => p[1]), fill);
        },
      };
    }
  }
}
