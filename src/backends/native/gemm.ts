// GEMM on the native addon: the TS half of the safe boundary. Specs are checked
// here (types, dtypes, shapes, strides, bounds, output overlap) and again in
// C++; matmul kernels (src/compiler/kernel.ts) become specs by resolving their
// loads' view chains, so transposed, sliced and broadcast operands reach BLAS
// as strides and flags, not copies. The plain reference is genMatmul in
// src/backends/js/codegen-loops.ts.

import type { StorageArray } from '../../tensor/dtype.js';
import { DTypeError, ShapeError, ValueError } from '../../tensor/errors.js';
import { fmtShape, resolveShape, type Dim } from '../../tensor/shape.js';
import type { MatmulKernel } from '../../compiler/kernel.js';
import { resolveChain } from '../../compiler/view.js';
import type { DimEnv } from '../backend.js';
import { callNative, nativeError } from './errors.js';
import { requireNativeAddon, type GemmDType, type GemmOperandSpec, type GemmPlanInfo, type GemmSpec } from './addon.js';

export type { GemmDType, GemmSpec, GemmOperandSpec, GemmPlanInfo } from './addon.js';

export const GEMM_DTYPES: readonly GemmDType[] = ['float32', 'float64', 'complex64', 'complex128'];

const isGemmDType = (d: string): d is GemmDType => (GEMM_DTYPES as readonly string[]).includes(d);
const storageOf = (d: GemmDType) => (d === 'float32' || d === 'complex64' ? Float32Array : Float64Array);
const perElement = (d: GemmDType) => (d === 'complex64' || d === 'complex128' ? 2 : 1);
const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);

/** Lowest and highest element a view touches, or null when it is empty. */
function span(offset: number, shape: readonly number[], strides: readonly number[]): [number, number] | null {
  let lo = offset,
    hi = offset;
  for (let i = 0; i < shape.length; i++) {
    if (shape[i] === 0) return null;
    const r = (shape[i]! - 1) * strides[i]!;
    if (r < 0) lo += r;
    else hi += r;
  }
  return [lo, hi];
}

/** Whether no two indices of a view reach the same element (sufficient test: each |stride|, sorted, clears the span of the smaller ones). */
function writesEachElementOnce(shape: readonly number[], strides: readonly number[]): boolean {
  if (shape.includes(0)) return true;
  const dims = shape.map((d, i) => [Math.abs(strides[i]!), d] as const).filter(([, d]) => d > 1).sort((x, y) => x[0] - y[0]);
  let extent = 1;
  for (const [s, d] of dims) {
    if (s < extent) return false;
    extent += s * (d - 1);
  }
  return true;
}

/** Throws unless `spec` is a well-formed GEMM whose views lie inside their arrays and whose output overlaps no input. */
export function checkGemmSpec(spec: GemmSpec): void {
  if (typeof spec !== 'object' || spec === null) throw new ValueError(`gemm: spec must be an object, got ${spec === null ? 'null' : typeof spec}`);
  const { dtype, batch, m, n, k } = spec;
  if (typeof dtype !== 'string' || !isGemmDType(dtype)) throw new DTypeError(`gemm: dtype must be one of ${GEMM_DTYPES.join(', ')}, got ${String(dtype)}`);
  if (!Array.isArray(batch) || !batch.every((d) => isInt(d) && d >= 0)) throw new ShapeError(`gemm: batch must be an array of non-negative integers, got ${JSON.stringify(batch)}`);
  for (const [name, v] of [['m', m], ['n', n], ['k', k]] as const) {
    if (!isInt(v) || v < 0 || v > 2 ** 31 - 1) throw new ShapeError(`gemm: ${name} must be an integer in [0, 2^31 - 1], got ${String(v)}`);
  }
  const Storage = storageOf(dtype);
  const ranges: (readonly [number, number] | null)[] = [];
  for (const [name, op, rows, cols] of [['a', spec.a, m, k], ['b', spec.b, k, n], ['c', spec.c, m, n]] as const) {
    if (typeof op !== 'object' || op === null) throw new ValueError(`gemm: ${name} must be an object {data, offset, strides}, got ${op === null ? 'null' : typeof op}`);
    if (!(op.data instanceof Storage)) {
      const got = ArrayBuffer.isView(op.data) ? op.data.constructor.name : op.data === null ? 'null' : typeof op.data;
      throw new DTypeError(`gemm: ${name}.data must be a ${Storage.name} for dtype ${dtype}, got ${got}`);
    }
    if (!isInt(op.offset) || op.offset < 0) throw new ValueError(`gemm: ${name}.offset must be a non-negative integer, got ${String(op.offset)}`);
    const conj = (op as GemmOperandSpec).conj;
    if (conj !== undefined && typeof conj !== 'boolean') throw new ValueError(`gemm: ${name}.conj must be a boolean, got ${typeof conj}`);
    const shape = [...batch, rows, cols];
    if (!Array.isArray(op.strides) || op.strides.length !== shape.length || !op.strides.every(isInt)) {
      throw new ShapeError(`gemm: ${name}.strides must be ${shape.length} integers (batch strides, row stride, col stride), got ${JSON.stringify(op.strides)}`);
    }
    const length = Math.floor(op.data.length / perElement(dtype));
    const s = span(op.offset, shape, op.strides);
    if (s && (s[0] < 0 || s[1] >= length || !Number.isSafeInteger(s[0]) || !Number.isSafeInteger(s[1]))) {
      throw new ShapeError(`gemm: ${name}: view of shape ${fmtShape(shape)}, strides ${fmtShape(op.strides)}, offset ${op.offset} reads elements ${s[0]}..${s[1]} of an array of ${length}`);
    }
    const bytes = op.data.BYTES_PER_ELEMENT * perElement(dtype);
    ranges.push(s && [op.data.byteOffset + s[0] * bytes, op.data.byteOffset + (s[1] + 1) * bytes]);
  }
  if (!writesEachElementOnce([...batch, m, n], spec.c.strides)) throw new ValueError(`gemm: c: the output view (strides ${fmtShape(spec.c.strides)}) would write some elements more than once`);
  if ('conj' in spec.c && (spec.c as GemmOperandSpec).conj !== undefined) throw new ValueError('gemm: c.conj is not allowed (conjugation applies to inputs)');
  const rc = ranges[2];
  for (const [i, name] of [[0, 'a'], [1, 'b']] as const) {
    const r = ranges[i];
    const op = i === 0 ? spec.a : spec.b;
    if (rc && r && op.data.buffer === spec.c.data.buffer && r[0] < rc[1] && rc[0] < r[1]) throw new ValueError(`gemm: c shares memory with ${name}; the output must not overlap an input`);
  }
}

/** c = a @ b on the native addon (validated here and in C++); returns c.data. */
export function gemm(spec: GemmSpec): Float32Array | Float64Array {
  checkGemmSpec(spec);
  return callNative('gemm', () => requireNativeAddon().gemm(spec));
}

/**
 * gemm on the libuv thread pool. A failure rejects with a typed error carrying
 * the caller's stack. The addon works on copies of the views, so transferring
 * an array while the product runs is safe: the output's transfer rejects with
 * a ValueError instead of writing into memory now owned elsewhere.
 */
export async function gemmAsync(spec: GemmSpec): Promise<Float32Array | Float64Array> {
  const here = new Error('gemmAsync');
  checkGemmSpec(spec);
  try {
    return await callNative('gemmAsync', () => requireNativeAddon().gemmAsync(spec));
  } catch (e) {
    const err = nativeError('gemmAsync', e);
    if (here.stack && err.stack) err.stack = `${err.name}: ${err.message}\n${here.stack.split('\n').slice(1).join('\n')}`;
    throw err;
  }
}

/** What the addon would do for `spec` (which operands BLAS takes as views, which it copies). */
export function gemmPlan(spec: GemmSpec): GemmPlanInfo {
  checkGemmSpec(spec);
  return callNative('gemmPlan', () => requireNativeAddon().gemmPlan(spec));
}

/**
 * The GEMM spec of a matmul kernel for one binding of the dims: the loads'
 * view chains resolved into strides over their slots, the output contiguous
 * [...batch, m, n] in its slot. Kernels with an epilogue are not GEMMs alone.
 */
export function matmulSpec(k: MatmulKernel, buffers: readonly StorageArray[], slotShapes: readonly (readonly Dim[])[], env: DimEnv): GemmSpec {
  const dtype = k.a.dtype;
  if (!isGemmDType(dtype) || k.b.dtype !== dtype || k.outDType !== dtype) {
    throw new DTypeError(`native matmul: dtypes ${k.a.dtype} @ ${k.b.dtype} -> ${k.outDType} are not supported (${GEMM_DTYPES.join(', ')}, all equal)`);
  }
  if (k.epilogue) throw new ValueError('native matmul: kernels with an epilogue are not supported here (the epilogue runs as its own kernel)');
  const aShape = resolveShape(k.aShape, env),
    bShape = resolveShape(k.bShape, env),
    outShape = resolveShape(k.outShape, env);
  const nb = aShape.length - 2;
  const batch = aShape.slice(0, nb);
  const [m, kk] = aShape.slice(nb) as [number, number];
  const n = bShape[nb + 1]!;
  if (bShape.length !== nb + 2 || bShape[nb] !== kk || fmtShape(bShape.slice(0, nb)) !== fmtShape(batch) || fmtShape(outShape) !== fmtShape([...batch, m, n])) {
    throw new ShapeError(`native matmul: shapes ${fmtShape(aShape)} @ ${fmtShape(bShape)} -> ${fmtShape(outShape)} are not [...b, m, k] @ [...b, k, n] -> [...b, m, n]`);
  }
  const operand = (name: string, load: MatmulKernel['a'], want: number[], conj: boolean | undefined): GemmOperandSpec => {
    const v = resolveChain(slotShapes[load.slot]!, load.chain, env);
    if (fmtShape(v.shape) !== fmtShape(want)) throw new ShapeError(`native matmul: ${name}'s view has shape ${fmtShape(v.shape)}, the kernel says ${fmtShape(want)}`);
    return { data: buffers[load.slot] as Float32Array | Float64Array, offset: v.offset, strides: v.strides, ...(conj ? { conj: true } : {}) };
  };
  const cStrides = [...batch, m, n].map((_, i, s) => s.slice(i + 1).reduce((x, y) => x * y, 1));
  return {
    dtype,
    batch,
    m,
    n,
    k: kk,
    a: operand('a', k.a, aShape, k.aConj),
    b: operand('b', k.b, bShape, k.bConj),
    c: { data: buffers[k.out] as Float32Array | Float64Array, offset: 0, strides: cStrides },
  };
}

const DTYPE_CODE: Record<GemmDType, number> = { float32: 0, float64: 1, complex64: 2, complex128: 3 };

/** A matmul kernel's GEMM for one binding of the dims, in the form gemmFlat takes, plus what each call must check. */
interface FlatGemm {
  meta: Float64Array;
  Storage: typeof Float32Array | typeof Float64Array;
  /** Elements (complex: reals) each slot's array must hold: one past the highest element its view reaches. */
  need: [number, number, number];
  /** Each view's byte range relative to its array's byteOffset, for the overlap check. */
  bytes: [readonly [number, number] | null, readonly [number, number] | null, readonly [number, number] | null];
}

function flatGemm(spec: GemmSpec): FlatGemm {
  const nb = spec.batch.length;
  const meta = new Float64Array(16 + 4 * nb);
  const ops = [spec.a, spec.b, spec.c] as const;
  meta.set([DTYPE_CODE[spec.dtype], nb, spec.m, spec.n, spec.k, spec.a.offset, spec.b.offset, spec.c.offset, spec.a.conj ? 1 : 0, spec.b.conj ? 1 : 0]);
  meta.set(spec.batch, 10);
  ops.forEach((o, i) => meta.set(o.strides, 10 + nb + i * (nb + 2)));
  const per = perElement(spec.dtype);
  const dims = [[spec.m, spec.k], [spec.k, spec.n], [spec.m, spec.n]] as const;
  const spans = ops.map((o, i) => span(o.offset, [...spec.batch, ...dims[i]!], o.strides));
  const bpe = storageOf(spec.dtype).BYTES_PER_ELEMENT * per;
  return {
    meta,
    Storage: storageOf(spec.dtype),
    need: spans.map((s) => (s ? (s[1] + 1) * per : 0)) as FlatGemm['need'],
    bytes: spans.map((s) => s && ([s[0] * bpe, (s[1] + 1) * bpe] as const)) as FlatGemm['bytes'],
  };
}

/**
 * A matmul kernel (no epilogue) compiled for repeated runs: the GEMM's
 * geometry is resolved and checked in full (checkGemmSpec) once per binding
 * of the dims; each run then checks only what can change between runs (the
 * arrays' types, lengths and overlap) and calls gemmFlat, which checks
 * everything again in C++. A cache hit on a small matmul was ~8 µs, half of
 * it building, checking and reading back the spec object.
 */
export function compiledMatmulRun(k: MatmulKernel, slotShapes: readonly (readonly Dim[])[]): (buffers: readonly StorageArray[], env: DimEnv) => void {
  const addon = requireNativeAddon();
  let staticGemm: FlatGemm | undefined; // env without dims (the usual case)
  const byEnv = new Map<string, FlatGemm>();
  const slots = [k.a.slot, k.b.slot, k.out] as const;
  return (buffers, env) => {
    let g = env.size === 0 ? staticGemm : byEnv.get([...env].join(';'));
    if (g === undefined) {
      const spec = matmulSpec(k, buffers, slotShapes, env);
      checkGemmSpec(spec);
      g = flatGemm(spec);
      if (env.size === 0) staticGemm = g;
      else {
        if (byEnv.size >= 64) byEnv.clear(); // dims bound to many values: keep the memo small
        byEnv.set([...env].join(';'), g);
      }
    }
    const a = buffers[slots[0]],
      b = buffers[slots[1]],
      c = buffers[slots[2]];
    const { Storage, need, bytes } = g;
    if (!(a instanceof Storage) || !(b instanceof Storage) || !(c instanceof Storage)) {
      throw new DTypeError(`native matmul: arrays must be ${Storage.name}s, got ${[a, b, c].map((x) => x?.constructor.name).join(', ')}`);
    }
    if (a.length < need[0] || b.length < need[1] || c.length < need[2]) {
      throw new ShapeError(`native matmul: arrays of ${a.length}, ${b.length}, ${c.length} elements are shorter than the views need (${need.join(', ')})`);
    }
    const rc = bytes[2];
    if (rc) {
      for (const [x, r, name] of [[a, bytes[0], 'a'], [b, bytes[1], 'b']] as const) {
        if (r && x.buffer === c.buffer && x.byteOffset + r[0] < c.byteOffset + rc[1] && c.byteOffset + rc[0] < x.byteOffset + r[1]) {
          throw new ValueError(`native matmul: the output shares memory with ${name}; it must not overlap an input`);
        }
      }
    }
    try {
      addon.gemmFlat(a, b, c, g.meta);
    } catch (e) {
      throw nativeError('native matmul', e); // e.g. an array detached or shrunk between the checks above and C++'s
    }
  };
}
