// Value dtypes of sparse matrices and the conversions of user values to the
// interleaved storage described in contract.ts.
//
// Why a separate file: every format, product and builder needs the same three
// things — how many floats an element takes (lanes), which storage array to
// allocate, and how to promote two dtypes — and user input comes in many shapes
// (typed arrays, number[], [re, im] pairs, {re, im}, Tensors).

import type { SparseDType, ValueArray } from './contract.js';
import { Tensor } from '../tensor/tensor.js';
import { DTypeError } from '../tensor/errors.js';
import { toDType } from '../tensor/dtype.js';
import { SparseFormatError } from './errors.js';

export const SPARSE_DTYPES: readonly SparseDType[] = ['float32', 'float64', 'complex64', 'complex128'];

export const isComplexDType = (d: SparseDType): boolean => d === 'complex64' || d === 'complex128';
/** Floats per element in storage: 2 for complex (interleaved re, im). */
export const lanesOf = (d: SparseDType): 1 | 2 => (d === 'complex64' || d === 'complex128' ? 2 : 1);
/** True when storage is a Float32Array. */
export const isSingle = (d: SparseDType): boolean => d === 'float32' || d === 'complex64';

/** Zeroed storage for n elements of dtype d. */
export function allocValues(d: SparseDType, n: number): ValueArray {
  return isSingle(d) ? new Float32Array(n * lanesOf(d)) : new Float64Array(n * lanesOf(d));
}

/** NumPy's result type restricted to the four sparse dtypes. */
export function promote(a: SparseDType, b: SparseDType): SparseDType {
  if (a === b) return a;
  const c = isComplexDType(a) || isComplexDType(b);
  const wide = !isSingle(a) || !isSingle(b);
  return c ? (wide ? 'complex128' : 'complex64') : wide ? 'float64' : 'float32';
}

/** The complex dtype with the same precision. */
export const complexOf = (d: SparseDType): SparseDType => (isSingle(d) ? 'complex64' : 'complex128');

/**
 * A user dtype name in the tensors' vocabulary (src/tensor/dtype.ts: 'float' is
 * float32, 'double' float64, ...), which must be one of the sparse dtypes.
 */
export function toSparseDType(op: string, d: string): SparseDType {
  let r: string | undefined;
  try {
    r = typeof d === 'string' ? toDType(d) : undefined;
  } catch {
    r = undefined;
  }
  if (r === undefined || !(SPARSE_DTYPES as readonly string[]).includes(r))
    throw new DTypeError(`${op}: dtype ${JSON.stringify(d)}${r !== undefined && r !== d ? ` (${r})` : ''} is not a sparse dtype; expected one of ${SPARSE_DTYPES.join(', ')} (or an alias: f32, float, f64, double, c64, c128, complex)`);
  return r as SparseDType;
}

/** Dtype of a Tensor as a sparse dtype: int/bool become float64, float16/bfloat16 float32. */
export function sparseDTypeOfTensor(t: Tensor): SparseDType {
  const d = t.dtype;
  if (d === 'float32' || d === 'float64' || d === 'complex64' || d === 'complex128') return d;
  return d === 'float16' || d === 'bfloat16' ? 'float32' : 'float64';
}

/**
 * Casts storage from one dtype to another (copy). Real → complex puts zeros in the
 * imaginary lanes; complex → real is refused (it would silently drop data).
 */
export function castValues(op: string, data: ValueArray, from: SparseDType, to: SparseDType): ValueArray {
  if (from === to) return data.slice();
  if (isComplexDType(from) && !isComplexDType(to)) throw new DTypeError(`${op}: cannot cast ${from} values to ${to} (imaginary parts would be lost)`);
  const n = data.length / lanesOf(from);
  const out = allocValues(to, n);
  if (lanesOf(from) === lanesOf(to)) out.set(data);
  else for (let i = 0; i < n; i++) out[2 * i] = data[i]!;
  return out;
}

/** Same storage when it already has dtype `to`, else a cast copy. */
export function asDType(op: string, data: ValueArray, from: SparseDType, to: SparseDType): ValueArray {
  return from === to ? data : castValues(op, data, from, to);
}

/** A scalar value: a real number, [re, im] or {re, im}. */
export type Scalar = number | readonly [number, number] | { re: number; im: number };

/** [re, im] of a scalar. */
export function scalarParts(op: string, s: Scalar): [number, number] {
  if (typeof s === 'number') return [s, 0];
  if (Array.isArray(s) && s.length === 2 && typeof s[0] === 'number' && typeof s[1] === 'number') return [s[0], s[1]];
  if (s !== null && typeof s === 'object' && 're' in s && 'im' in s) return [Number(s.re), Number(s.im)];
  throw new DTypeError(`${op}: expected a number, [re, im] or {re, im}, got ${JSON.stringify(s)}`);
}

/** Values as given by users: storage arrays, number[], [re, im][], {re, im}[] or a 1-D Tensor. */
export type ValuesInput = Float32Array | Float64Array | ArrayLike<number> | readonly (readonly [number, number])[] | readonly { re: number; im: number }[] | Tensor;

/**
 * Normalizes values to storage of `dtype` (inferred when undefined: Float32Array →
 * float32, Float64Array/number[] → float64, pairs → complex128, Tensor → its dtype).
 * A typed array of the target storage type is taken without a copy. For complex
 * dtypes a typed array or number[] holds interleaved (re, im).
 */
export function normalizeValues(op: string, input: ValuesInput, dtype?: SparseDType): { data: ValueArray; dtype: SparseDType } {
  if (input instanceof Tensor) {
    if (input.ndim !== 1) throw new SparseFormatError(`${op}: data must be a 1-D tensor, got shape [${input.shape.join(', ')}]`);
    const td = sparseDTypeOfTensor(input);
    const raw = input.toArray();
    const stor = isSingle(td) ? Float32Array.from(raw as ArrayLike<number>) : raw instanceof Float64Array ? raw : Float64Array.from(raw as ArrayLike<number>);
    return { data: dtype ? asDType(op, stor, td, dtype) : stor, dtype: dtype ?? td };
  }
  if (input instanceof Float64Array || input instanceof Float32Array) {
    const td: SparseDType = input instanceof Float32Array ? 'float32' : 'float64';
    if (!dtype) return { data: input, dtype: td };
    if (isComplexDType(dtype)) {
      if (input.length % 2 !== 0) throw new SparseFormatError(`${op}: complex data as a typed array must be interleaved (re, im) pairs, got odd length ${input.length}`);
      if (isSingle(dtype) === (input instanceof Float32Array)) return { data: input, dtype };
      return { data: isSingle(dtype) ? Float32Array.from(input) : Float64Array.from(input), dtype };
    }
    return { data: asDType(op, input, td, dtype), dtype };
  }
  if (typeof input !== 'object' || input === null || typeof (input as ArrayLike<unknown>).length !== 'number') {
    throw new SparseFormatError(`${op}: data must be a typed array, an array of numbers or [re, im] pairs, or a Tensor`);
  }
  const arr = input as ArrayLike<unknown>;
  const n = arr.length;
  const first = n > 0 ? arr[0] : undefined;
  const pairs = first !== undefined && typeof first === 'object';
  if (pairs) {
    const d = dtype ?? 'complex128';
    if (!isComplexDType(d)) throw new DTypeError(`${op}: complex values ([re, im] pairs) cannot be stored as ${d}`);
    const out = allocValues(d, n);
    for (let i = 0; i < n; i++) {
      const v = arr[i];
      let re: number, im: number;
      if (Array.isArray(v) && v.length === 2) [re, im] = [Number(v[0]), Number(v[1])];
      else if (v !== null && typeof v === 'object' && 're' in v && 'im' in v) [re, im] = [Number((v as { re: unknown }).re), Number((v as { im: unknown }).im)];
      else throw new SparseFormatError(`${op}: data[${i}] is not an [re, im] pair`);
      out[2 * i] = re;
      out[2 * i + 1] = im;
    }
    return { data: out, dtype: d };
  }
  const d = dtype ?? 'float64';
  const cplx = isComplexDType(d);
  if (cplx && n % 2 !== 0) throw new SparseFormatError(`${op}: complex data as a flat array must be interleaved (re, im) pairs, got odd length ${n}`);
  const out = isSingle(d) ? new Float32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = arr[i];
    if (typeof v !== 'number') throw new SparseFormatError(`${op}: data[${i}] is ${typeof v}, expected a number`);
    out[i] = v;
  }
  return { data: out, dtype: d };
}

/** Element count of storage for dtype d. */
export const countOf = (data: ValueArray, d: SparseDType): number => data.length / lanesOf(d);

/**
 * Int32 indices from user input (Int32Array taken as-is). Non-integers or values
 * outside int32 are a SparseFormatError naming the position.
 */
export function toIndexArray(op: string, name: string, a: ArrayLike<number> | Int32Array): Int32Array {
  if (a instanceof Int32Array) return a;
  if (a === null || typeof a !== 'object' || typeof (a as ArrayLike<number>).length !== 'number') throw new SparseFormatError(`${op}: ${name} must be an Int32Array or an array of integers`);
  const out = new Int32Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < -2147483648 || v > 2147483647) throw new SparseFormatError(`${op}: ${name}[${i}] = ${String(v)} is not an int32 integer`);
    out[i] = v;
  }
  return out;
}

/** A shape [rows, cols] of non-negative int32 integers, else SparseFormatError. */
export function checkShape2(op: string, shape: unknown): [number, number] {
  if (!Array.isArray(shape) || shape.length !== 2) throw new SparseFormatError(`${op}: shape must be [rows, cols], got ${JSON.stringify(shape)}`);
  for (let i = 0; i < 2; i++) {
    const v = shape[i];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 2147483647) throw new SparseFormatError(`${op}: shape[${i}] = ${JSON.stringify(v)} must be a non-negative int32 integer`);
  }
  return [shape[0] as number, shape[1] as number];
}

/**
 * Values for a new matrix, owned by it: a copy of the caller's array (so that
 * writing the caller's array later cannot change the matrix), or a Tensor of
 * the matrix dtype when the values are being traced (differentiated, or vmap/jit
 * inputs) — then they stay a tensor; an untraced Tensor is read.
 */
export function ownedValues(op: string, input: ValuesInput, dtype?: SparseDType): { data: ValueArray | Tensor; dtype: SparseDType } {
  if (input instanceof Tensor && (input.node.tracked || input.node.symbolic)) {
    if (input.ndim !== 1) throw new SparseFormatError(`${op}: data must be a 1-D tensor, got shape [${input.shape.join(', ')}]`);
    const td = sparseDTypeOfTensor(input);
    const d = dtype ?? td;
    if (isComplexDType(td) && !isComplexDType(d)) throw new DTypeError(`${op}: cannot store ${td} values as ${d} (imaginary parts would be lost)`);
    return { data: input.dtype === d ? input : input.cast(d), dtype: d };
  }
  const r = normalizeValues(op, input, dtype);
  return r.data === input ? { data: r.data.slice(), dtype: r.dtype } : r;
}

/** Int32 indices owned by the new matrix (a copy of an Int32Array; see toIndexArray). */
export function ownedIndexArray(op: string, name: string, a: ArrayLike<number> | Int32Array): Int32Array {
  const r = toIndexArray(op, name, a);
  return r === a ? r.slice() : r;
}
