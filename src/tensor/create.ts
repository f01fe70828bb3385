// Creating tensors: from JS data, and the NumPy constructors (zeros, arange, eye...).

import { Node } from '../compiler/ir.js';
import { constNode } from '../compiler/primitives.js';
import { type DType, type DTypeLike, toDType, isComplex, DTYPE_INFO, defaultDTypeFor, type StorageArray } from './dtype.js';
import { ShapeError, ValueError, DTypeError, DeviceError } from './errors.js';
import { deviceNames, ensureDevice, unavailableReason } from '../backends/registry.js';
import { checkShape, fmtShape } from './shape.js';
import { encodeValues } from './storage.js';
import { Tensor } from './tensor.js';
import { type TensorLike, toTensor } from './ops/operand.js';
import type { DTypeOf } from './dtype-types.js';

/** A complex literal in nested data. */
export interface ComplexValue { re: number; im: number }
export type NestedData = number | boolean | ComplexValue | readonly NestedData[];
export type TensorData = NestedData | ArrayBufferView | Tensor;

export interface TensorOptions {
  dtype?: DTypeLike;
  shape?: readonly number[];
  device?: string;
}

/** A {re, im} literal (a complex scalar in nested data). */
export const isComplexValue = (v: unknown): v is ComplexValue =>
  typeof v === 'object' && v !== null && typeof (v as ComplexValue).re === 'number' && typeof (v as ComplexValue).im === 'number';

/**
 * Wraps storage that the caller gives up (no copy) as a realized tensor.
 * @example
 * ```ts
 * fromStorage(new Float64Array([1, 2, 3, 4]), [2, 2], 'float64').tolist();   // [[1, 2], [3, 4]]
 * ```
 */
export function fromStorage(data: StorageArray, shape: readonly number[], dtype: DType, device?: string): Tensor {
  checkShape('fromStorage', shape);
  const n = shape.reduce((a, b) => a * b, 1);
  if (data.length !== n * DTYPE_INFO[dtype].lanes) throw new ShapeError(`tensor: ${data.length} storage values do not fill shape ${fmtShape(shape)} of ${dtype}`);
  const node = new Node('buffer', [], {}, shape, dtype, data);
  node.device = device;
  return new Tensor(node);
}

function typedArrayDType(op: string, a: ArrayBufferView): DType {
  if (a instanceof Float64Array) return 'float64';
  if (a instanceof Float32Array) return 'float32';
  if (a instanceof Int8Array) return 'int8';
  if (a instanceof Uint8Array || a instanceof Uint8ClampedArray) return 'uint8';
  // No int16/uint16 dtype: the smallest rlx dtype holding their values.
  if (a instanceof Int32Array || a instanceof Int16Array || a instanceof Uint16Array) return 'int32';
  throw new DTypeError(`${op}: unsupported TypedArray ${a.constructor.name}; expected Float64Array, Float32Array, Int32Array or a smaller integer array`);
}

/**
 * tensor(data, {dtype, shape, device}): nested arrays of numbers/booleans/{re, im},
 * or a TypedArray (keeps its dtype: Float32Array → float32, Int8Array → int8,
 * Uint8Array → uint8; Int16Array/Uint16Array → int32).
 * Plain numbers default to float64. For complex dtypes a TypedArray holds
 * interleaved (re, im) pairs. With `shape`, flat data is laid out row-major.
 * @example
 * ```ts
 * const a = tensor([[1, 2], [3, 4]]);          // float64 [2, 2]
 * const b = tensor([1, 2], { dtype: 'float32' });
 * a.tolist();                                   // [[1, 2], [3, 4]]
 * ```
 */
export function tensor<T extends DTypeLike>(data: TensorData, opts: TensorOptions & { dtype: T }): Tensor<DTypeOf<T>>;
export function tensor(data: TensorData, opts?: TensorOptions): Tensor;
export function tensor(data: TensorData, opts: TensorOptions = {}): Tensor {
  return tensorFrom('tensor', data, opts);
}

/**
 * tensor() with `op` naming the caller in every error: the one conversion of
 * JS data, also used for the array-like operands of the tensor API
 * (ops/operand.ts), like NumPy's asarray.
 */
export function tensorFrom(op: string, data: TensorData, opts: TensorOptions = {}): Tensor {
  checkDevice(op, opts.device);
  if (opts.shape !== undefined) checkShape(op, opts.shape);
  if (data instanceof Tensor) return opts.dtype !== undefined ? data.cast(opts.dtype) : data;
  let dtype = opts.dtype !== undefined ? toDType(opts.dtype) : undefined;
  let values: ArrayLike<number>;
  let shape: number[];
  if (ArrayBuffer.isView(data)) {
    if (data instanceof DataView || typeof (data as unknown as { length?: unknown }).length !== 'number') throw new DTypeError(`${op}: DataView is not supported; pass a TypedArray`);
    if (data instanceof BigInt64Array || data instanceof BigUint64Array) throw new DTypeError(`${op}: BigInt arrays are not supported; convert to Int32Array or Float64Array`);
    const arr = data as unknown as ArrayLike<number>;
    if (dtype === 'float16' || dtype === 'bfloat16') {
      if (data instanceof Uint16Array) return fromStorage(data.slice(), opts.shape ?? [data.length], dtype, opts.device);
    }
    dtype ??= typedArrayDType(op, data);
    values = arr;
    const lanes = DTYPE_INFO[dtype].lanes;
    if (arr.length % lanes !== 0) throw new ShapeError(`${op}: complex data needs interleaved (re, im) pairs, got ${arr.length} values`);
    shape = [arr.length / lanes];
  } else {
    const inferred = inferShape(op, data as NestedData);
    shape = inferred.shape;
    const flat: number[] = [];
    const cplx = inferred.kind === 'c' || (dtype !== undefined && isComplex(dtype));
    flatten(data as NestedData, flat, cplx);
    dtype ??= defaultDTypeFor(inferred.kind);
    if (cplx && !isComplex(dtype)) throw new DTypeError(`${op}: complex data cannot be stored as ${dtype}`);
    values = flat;
  }
  let storage = encodeValues(values, dtype);
  if (storage === values) storage = storage.slice();
  if (opts.shape) {
    const n = opts.shape.reduce((a, b) => a * b, 1);
    const have = shape.reduce((a, b) => a * b, 1);
    if (n !== have) throw new ShapeError(`${op}: ${have} values cannot fill shape ${fmtShape(opts.shape)} (${n} elements)`);
    shape = [...opts.shape];
  }
  return fromStorage(storage, shape, dtype, opts.device);
}

function inferShape(op: string, data: NestedData): { shape: number[]; kind: 'b' | 'i' | 'f' | 'c' } {
  const shape: number[] = [];
  let d: NestedData = data;
  while (Array.isArray(d)) {
    shape.push(d.length);
    if (d.length === 0) break;
    d = d[0] as NestedData;
  }
  let kind: 'b' | 'i' | 'f' | 'c' = 'b';
  let leaves = 0;
  const visit = (v: NestedData, depth: number, path: number[]): void => {
    if (depth < shape.length) {
      if (!Array.isArray(v) || v.length !== shape[depth]) {
        throw new ValueError(`${op}: ragged nested data at index [${path.join(', ')}]: expected ${Array.isArray(v) ? 'length ' + shape[depth] : 'a list'} (shape ${fmtShape(shape)}), got ${Array.isArray(v) ? 'length ' + v.length : typeof v}`);
      }
      v.forEach((x, i) => visit(x as NestedData, depth + 1, [...path, i]));
      return;
    }
    leaves++;
    if (typeof v === 'boolean') return;
    if (typeof v === 'number') {
      if (kind === 'b') kind = 'f';
      return;
    }
    if (isComplexValue(v)) {
      kind = 'c';
      return;
    }
    throw new ValueError(`${op}: element at [${path.join(', ')}] is ${Array.isArray(v) ? 'a list (ragged data)' : typeof v}; expected a number, boolean or {re, im}`);
  };
  visit(data, 0, []);
  // No elements at all: float64, as np.array([]) (not bool, which only booleans make).
  return { shape, kind: leaves === 0 ? 'f' : kind };
}

function flatten(d: NestedData, out: number[], cplx: boolean): void {
  if (Array.isArray(d)) {
    for (const x of d) flatten(x as NestedData, out, cplx);
    return;
  }
  const v = d as number | boolean | ComplexValue;
  if (isComplexValue(v)) out.push(v.re, v.im);
  else {
    out.push(typeof v === 'boolean' ? (v ? 1 : 0) : v);
    if (cplx) out.push(0);
  }
}

/**
 * A tensor of `shape` filled with `value` (a broadcast literal; no memory until used).
 * @example
 * ```ts
 * full([2, 2], 7).tolist();   // [[7, 7], [7, 7]]
 * ```
 */
export function full<T extends DTypeLike = DTypeLike>(shape: readonly number[], value: number | boolean, opts: FillOptions & { dtype?: T } = {}): Tensor<DTypeOf<T>> {
  return filled('full', shape, value, opts) as Tensor<DTypeOf<T>>;
}
/**
 * A tensor of `shape` filled with 0, float64 unless a dtype is given (numpy.zeros).
 * @example
 * ```ts
 * zeros([2, 3]).shape;                      // [2, 3]
 * zeros([2], { dtype: 'int32' }).tolist();  // [0, 0]
 * ```
 */
export const zeros = <T extends DTypeLike = DTypeLike>(shape: readonly number[], opts: FillOptions & { dtype?: T } = {}): Tensor<DTypeOf<T>> => filled('zeros', shape, 0, opts) as Tensor<DTypeOf<T>>;
/**
 * A tensor of `shape` filled with 1, float64 unless a dtype is given (numpy.ones).
 * @example
 * ```ts
 * ones([2, 2]).tolist();   // [[1, 1], [1, 1]]
 * ```
 */
export const ones = <T extends DTypeLike = DTypeLike>(shape: readonly number[], opts: FillOptions & { dtype?: T } = {}): Tensor<DTypeOf<T>> => filled('ones', shape, 1, opts) as Tensor<DTypeOf<T>>;
/**
 * Zeros with the shape and dtype of `t` (numpy.zeros_like).
 * @example
 * ```ts
 * const z = zerosLike(tensor([[1, 2], [3, 4]], { dtype: 'int32' }));
 * z.dtype;      // 'int32'
 * z.tolist();   // [[0, 0], [0, 0]]
 * ```
 */
export const zerosLike = (t: TensorLike): Tensor => fullLike('zerosLike', t, 0);
/**
 * Ones with the shape and dtype of `t` (numpy.ones_like).
 * @example
 * ```ts
 * onesLike(tensor([1.5, 2.5, 3.5])).tolist();   // [1, 1, 1]
 * ```
 */
export const onesLike = (t: TensorLike): Tensor => fullLike('onesLike', t, 1);

export interface FillOptions {
  dtype?: DTypeLike;
  device?: string;
}

/** full() with `op` naming the caller in errors. */
function filled(op: string, shape: readonly number[], value: number | boolean, opts: FillOptions): Tensor {
  checkShape(op, shape);
  checkDevice(op, opts.device);
  if (typeof value !== 'number' && typeof value !== 'boolean') throw new DTypeError(`${op}: fill value must be a number or a boolean, got ${typeof value}`);
  const dtype = opts.dtype !== undefined ? toDType(opts.dtype) : typeof value === 'boolean' ? 'bool' : 'float64';
  const c = constNode(Number(value), dtype, shape);
  if (opts.device) c.device = opts.device;
  return new Tensor(c);
}
function fullLike(op: string, t: TensorLike, value: number): Tensor {
  const x = toTensor(op, t);
  return full(x.shape, value, { dtype: x.dtype });
}

function checkDevice(op: string, device: string | undefined): void {
  if (device !== undefined && !ensureDevice(device)) {
    throw new DeviceError(`${op}: device '${device}' is not available${unavailableReason(device)} (available: ${deviceNames().join(', ')}; see backends())`);
  }
}

/**
 * arange(stop) / arange(start, stop, step = 1) like NumPy (float64 unless a dtype is given);
 * the options may come in place of stop or step: arange(5, {dtype: 'int32'}), arange(1, 5, {dtype}).
 * @example
 * ```ts
 * arange(4).tolist();         // [0, 1, 2, 3]
 * arange(1, 7, 2).tolist();   // [1, 3, 5]
 * arange(3, { dtype: 'int32' });
 * ```
 */
export function arange<T extends DTypeLike = DTypeLike>(start: number, opts?: { dtype?: T }): Tensor<DTypeOf<T>>;
export function arange<T extends DTypeLike = DTypeLike>(start: number, stop?: number, opts?: { dtype?: T }): Tensor<DTypeOf<T>>;
export function arange<T extends DTypeLike = DTypeLike>(start: number, stop?: number, step?: number, opts?: { dtype?: T }): Tensor<DTypeOf<T>>;
export function arange(start: number, ...rest: unknown[]): Tensor {
  const last = rest.length > 0 && rest[rest.length - 1] !== null && typeof rest[rest.length - 1] === 'object' ? (rest.pop() as { dtype?: DTypeLike }) : {};
  if (rest.length > 2) throw new ValueError(`arange: expects (stop), (start, stop) or (start, stop, step) and options, got ${rest.length + 1} numbers`);
  let [stop, step = 1] = rest as [number | undefined, number | undefined];
  if (rest.length === 0 || stop === undefined) [start, stop] = [0, start];
  for (const [name, v] of [['start', start], ['stop', stop], ['step', step]] as const)
    if (typeof v !== 'number') throw new ValueError(`arange: ${name} must be a number, got ${v === null ? 'null' : typeof v}`);
  if (step === 0 || !Number.isFinite(step)) throw new ValueError(`arange: step must be finite and non-zero, got ${step}`);
  if (!Number.isFinite(start) || !Number.isFinite(stop)) throw new ValueError(`arange: start and stop must be finite numbers, got ${start} and ${stop}`);
  const n = Math.max(0, Math.ceil((stop - start) / step));
  const dtype = last.dtype !== undefined ? toDType(last.dtype) : 'float64';
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = start + i * step;
  return fromStorage(encodeValues(v, dtype), [n], dtype);
}

/**
 * linspace(start, stop, num = 50, {endpoint = true}) like NumPy.
 * @example
 * ```ts
 * linspace(0, 1, 5).tolist();   // [0, 0.25, 0.5, 0.75, 1]
 * ```
 */
export function linspace<T extends DTypeLike = DTypeLike>(start: number, stop: number, num = 50, opts: { endpoint?: boolean; dtype?: T } = {}): Tensor<DTypeOf<T>> {
  if (!Number.isInteger(num) || num < 0) throw new ValueError(`linspace: num must be a non-negative integer, got ${num}`);
  const endpoint = opts.endpoint ?? true;
  const div = endpoint ? num - 1 : num;
  const step = div > 0 ? (stop - start) / div : NaN;
  const v = new Float64Array(num);
  for (let i = 0; i < num; i++) v[i] = div > 0 ? start + i * step : start;
  if (endpoint && num > 1) v[num - 1] = stop;
  const dtype = opts.dtype !== undefined ? toDType(opts.dtype) : 'float64';
  return fromStorage(encodeValues(v, dtype), [num], dtype) as Tensor<DTypeOf<T>>;
}

/**
 * eye(n, m = n, {k, dtype}): ones on the k-th diagonal.
 * @example
 * ```ts
 * eye(2).tolist();               // [[1, 0], [0, 1]]
 * eye(2, 3, { k: 1 }).tolist();  // [[0, 1, 0], [0, 0, 1]]
 * ```
 */
export function eye<T extends DTypeLike = DTypeLike>(n: number, m = n, opts: { k?: number; dtype?: T } = {}): Tensor<DTypeOf<T>> {
  checkShape('eye', [n, m]);
  const dtype = opts.dtype !== undefined ? toDType(opts.dtype) : 'float64';
  const k = opts.k ?? 0;
  if (!Number.isInteger(k)) throw new ValueError(`eye: diagonal offset k must be an integer, got ${k}`);
  const lanes = DTYPE_INFO[dtype].lanes;
  const v = new Float64Array(n * m * lanes);
  for (let i = 0; i < n; i++) {
    const j = i + k;
    if (j >= 0 && j < m) v[(i * m + j) * lanes] = 1;
  }
  return fromStorage(encodeValues(v, dtype), [n, m], dtype) as Tensor<DTypeOf<T>>;
}
