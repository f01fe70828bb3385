// Conversions between dense Tensors (or nested arrays) and raw row-major storage.

import type { SparseDType, ValueArray } from './contract.js';
import { Tensor } from '../tensor/tensor.js';
import { tensor, fromStorage } from '../tensor/create.js';
import type { NestedData } from '../tensor/create.js';
import { isComplexDType, isSingle, sparseDTypeOfTensor } from './dtypes.js';
import { ShapeError } from '../tensor/errors.js';

/** Raw row-major values of a dense operand. `data` is Float64Array, interleaved when complex. */
export interface DenseRaw {
  shape: number[];
  dtype: SparseDType;
  data: Float64Array;
}

/**
 * A Tensor or nested JS array as raw float64 storage. Nested leaves are numbers or
 * {re, im} (as tensor() takes); with `ndim` given, nesting one level deeper whose
 * innermost arrays are [re, im] pairs is read as complex too. int/bool tensors
 * count as float64.
 */
export function denseRaw(op: string, x: Tensor | NestedData | readonly unknown[], ndim?: number): DenseRaw {
  let t: Tensor;
  if (x instanceof Tensor) t = x;
  else {
    const depth = nestedDepth(x);
    t = tensor((ndim !== undefined && depth === ndim + 1 ? pairsToComplex(x, depth) : x) as NestedData);
  }
  if (t.symbolicShape.some((d) => typeof d !== 'number')) throw new ShapeError(`${op}: dynamic shapes are not supported`);
  const dtype = sparseDTypeOfTensor(t);
  const a = t.toArray();
  const data = a instanceof Float64Array ? a : Float64Array.from(a as ArrayLike<number>);
  return { shape: t.shape, dtype, data };
}

function nestedDepth(x: unknown): number {
  let d = 0;
  while (Array.isArray(x)) {
    d++;
    if (x.length === 0) break;
    x = x[0];
  }
  return d;
}

function pairsToComplex(x: unknown, depth: number): unknown {
  if (!Array.isArray(x)) return x;
  if (depth === 1) {
    if (x.length !== 2) throw new ShapeError(`complex values as nested arrays must be [re, im] pairs, got length ${x.length}`);
    return { re: x[0], im: x[1] };
  }
  return x.map((v) => pairsToComplex(v, depth - 1));
}

/** Widens real storage to interleaved complex (zeros in the imaginary lanes). */
export function widenToComplex(d: Float64Array): Float64Array {
  const out = new Float64Array(2 * d.length);
  for (let i = 0; i < d.length; i++) out[2 * i] = d[i]!;
  return out;
}

/** Storage of dtype `d` from float64 (interleaved) values: Float32Array rounds. */
export function storeAs(d: SparseDType, v: Float64Array): ValueArray {
  return isSingle(d) ? Float32Array.from(v) : v;
}

/** A realized Tensor of shape/dtype from float64 (interleaved) values. */
export function tensorFrom(v: Float64Array, shape: number[], d: SparseDType): Tensor {
  return fromStorage(storeAs(d, v), shape, d);
}

/** Float64 values of `raw` converted to `lanes` (1 → must be real; 2 → widened if real). */
export function rawWithLanes(raw: DenseRaw, cplx: boolean): Float64Array {
  if (cplx && !isComplexDType(raw.dtype)) return widenToComplex(raw.data);
  return raw.data;
}

/** A dense operand as a Tensor (nested [re, im] pairs read as complex, as denseRaw does). */
export function denseTensor(op: string, x: Tensor | NestedData | readonly unknown[], ndim?: number): Tensor {
  if (x instanceof Tensor) return x;
  const r = denseRaw(op, x, ndim);
  return tensorFrom(r.data, r.shape, r.dtype);
}
