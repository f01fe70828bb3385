// Turning what users pass to a builder (a Tensor of any dtype, a typed array, a
// possibly nested JS array) into one flat float typed array and a shape, which
// the builders check and slice into the arrays plotly wants.
//
// Why typed arrays all the way: a 1024×1024 heatmap is a million numbers, and
// the figure keeps them as typed-array rows (no per-element boxing); HTML output
// then ships them to plotly as base64 binary (html.ts). float32 data (and
// float16/bfloat16, which decode to float32) stays Float32Array; everything else
// becomes Float64Array (exact for int32 and bool). Complex tensors are reduced
// to one real number per element by a ComplexPart. Non-finite values are kept
// as they are: serialization turns them into plotly gaps (null in JSON, NaN in binary).

import { Tensor } from '../tensor/tensor.js';
import { isComplex } from '../tensor/dtype.js';
import { DTypeError, ShapeError, ValueError } from '../tensor/errors.js';
import type { ComplexPart } from './types.js';

export type FloatArray = Float64Array | Float32Array;

type TypedNumbers = Float64Array | Float32Array | Int32Array | Int16Array | Int8Array | Uint32Array | Uint16Array | Uint8Array | Uint8ClampedArray;
type Nested = number | null | readonly Nested[];

/** What a builder accepts as data: a Tensor (any dtype), a typed array, or a (nested, rectangular) array of numbers (null = gap). */
export type PlotInput = Tensor | TypedNumbers | readonly Nested[];

/** Flat values in row-major order and their shape. */
export interface Values {
  data: FloatArray;
  shape: number[];
}

const PARTS: readonly ComplexPart[] = ['abs', 'real', 'imag', 'angle'];

function fmtShape(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}

function complexPart(op: string, z: FloatArray, part: ComplexPart): FloatArray {
  if (!PARTS.includes(part)) throw new ValueError(`${op}: unknown complex part '${String(part)}'; expected one of ${PARTS.join(', ')}`);
  const n = z.length / 2;
  const out = z instanceof Float32Array ? new Float32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const re = z[2 * i]!, im = z[2 * i + 1]!;
    out[i] = part === 'abs' ? Math.hypot(re, im) : part === 'real' ? re : part === 'imag' ? im : Math.atan2(im, re);
  }
  return out;
}

function nestedValues(op: string, x: readonly Nested[]): Values {
  const shape: number[] = [];
  for (let v: Nested = x; Array.isArray(v); v = (v as readonly Nested[])[0] ?? null) shape.push((v as readonly Nested[]).length);
  const size = shape.reduce((a, b) => a * b, 1);
  const data = new Float64Array(size);
  let k = 0;
  const walk = (v: Nested, d: number): void => {
    if (d === shape.length) {
      if (v === null) data[k++] = NaN;
      else if (typeof v === 'number') data[k++] = v;
      else throw new ValueError(`${op}: expected numbers (or null for a gap) in the array, got ${Array.isArray(v) ? 'an array at a number position (ragged array)' : typeof v}`);
      return;
    }
    if (!Array.isArray(v) || v.length !== shape[d]) throw new ShapeError(`${op}: ragged array: expected length ${shape[d]} at depth ${d} (shape ${fmtShape(shape)}), got ${Array.isArray(v) ? `length ${v.length}` : typeof v}`);
    for (const e of v as readonly Nested[]) walk(e, d + 1);
  };
  walk(x, 0);
  return { data, shape };
}

/** Any accepted input as flat float values and a shape. `what` names the argument in errors ('plot.heatmap: z ...'). */
export function toValues(op: string, x: PlotInput, part: ComplexPart = 'abs'): Values {
  if (x instanceof Tensor) {
    const shape = x.shape;
    const a = x.toArray() as ArrayLike<number>;
    if (isComplex(x.dtype)) return { data: complexPart(op, a as FloatArray, part), shape };
    if (a instanceof Float32Array || a instanceof Float64Array) return { data: a, shape };
    return { data: Float64Array.from(a), shape }; // int32, bool
  }
  if (ArrayBuffer.isView(x)) {
    if (x instanceof Float32Array || x instanceof Float64Array) return { data: x, shape: [x.length] };
    if (x instanceof DataView || typeof (x as { length?: unknown }).length !== 'number' || x instanceof BigInt64Array || x instanceof BigUint64Array)
      throw new DTypeError(`${op}: expected a Tensor, a numeric typed array or an array of numbers, got ${x.constructor.name}`);
    return { data: Float64Array.from(x as ArrayLike<number>), shape: [(x as ArrayLike<number>).length] };
  }
  if (Array.isArray(x)) return nestedValues(op, x as readonly Nested[]);
  throw new DTypeError(`${op}: expected a Tensor, a typed array or an array of numbers, got ${x === null ? 'null' : typeof x}`);
}

/** toValues, then checks the number of dimensions (`dims` lists the accepted ones). */
export function valuesOfRank(op: string, arg: string, x: PlotInput, dims: readonly number[], part?: ComplexPart): Values {
  const v = toValues(`${op}: ${arg}`, x, part);
  if (!dims.includes(v.shape.length)) throw new ShapeError(`${op}: expected ${arg} with ${dims.join(' or ')} dimension(s), got shape ${fmtShape(v.shape)}`);
  return v;
}

/** Row views [H][W] of a 2-D value array (no copy). */
export function rowsOf(v: Values): FloatArray[] {
  const [h, w] = v.shape as [number, number];
  return Array.from({ length: h }, (_, i) => v.data.subarray(i * w, (i + 1) * w));
}

/** [lo, hi] over the finite values ([NaN, NaN] when there are none). */
export function finiteRange(data: ArrayLike<number>): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  // ±Infinity are not plotted, so they do not stretch the range either.
  if (lo === -Infinity || hi === Infinity) {
    lo = Infinity; hi = -Infinity;
    for (let i = 0; i < data.length; i++) {
      const v = data[i]!;
      if (Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; }
    }
  }
  return lo <= hi ? [lo, hi] : [NaN, NaN];
}

/** 0, 1, ..., n-1. */
export function indices(n: number): Float64Array {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

export { fmtShape };
