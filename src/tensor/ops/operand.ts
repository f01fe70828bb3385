// Operands of the tensor API: the one place where a value given where a tensor
// is expected is turned into one, like NumPy's asarray.
//
// Every Tensor method and free function that takes a tensor operand (binary
// arithmetic and comparisons, where, clip, matmul/dot/outer, cat/stack
// elements, gather/scatterAdd...) passes it through here first. Without it a
// nested array fell through to the scalar path and became a broadcast literal
// of its first element, and a string became NaN.
//
// - A Tensor is used as is.
// - A JS number or boolean stays a *weak* scalar where the op takes scalars
//   (NEP 50: it adopts the tensor's dtype), see toOperand.
// - Array-like data (nested arrays of numbers/booleans/{re, im}, TypedArrays,
//   a {re, im} complex scalar) is converted exactly as tensor(data) converts
//   it: plain numbers are float64 (rlx has no int64; NumPy would make an
//   integer list int64), booleans bool, a TypedArray keeps its dtype. So
//   `x.add([10, 20])` is `x.add(tensor([10, 20]))`, broadcast like NumPy.
// - Anything else (strings, undefined, null, plain objects, functions, BigInt)
//   is a DTypeError naming the op, the operand and what it got; ragged or
//   non-numeric nested data is the ValueError tensor() throws, naming the op.

import { type NestedData, isComplexValue, tensorFrom } from '../create.js';
import { DTypeError } from '../errors.js';
import { Tensor } from '../tensor.js';

/** What the tensor API accepts where it takes a tensor: a Tensor or data that tensor() converts. */
export type TensorLike = Tensor | NestedData | ArrayBufferView;

/** A short description of a value that is not tensor data, for error messages. */
function describe(v: unknown): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '...' : v)}`;
    case 'bigint':
      return `the BigInt ${v}n`;
    case 'object': {
      const name = (v as object).constructor?.name;
      return name && name !== 'Object' ? `a ${name}` : 'a plain object';
    }
    default:
      return typeof v;
  }
}

/**
 * `v` as a Tensor: a Tensor as is, anything array-like (or a JS scalar, as a
 * 0-d tensor) converted like tensor(v). `what` names the operand in errors
 * ('operand', 'second operand', 'condition', 'element 2'...).
 */
export function toTensor(op: string, v: unknown, what = 'operand'): Tensor {
  if (v instanceof Tensor) return v;
  if (typeof v === 'number' || typeof v === 'boolean' || Array.isArray(v) || ArrayBuffer.isView(v) || isComplexValue(v)) {
    return tensorFrom(`${op}: ${what}`, v as NestedData | ArrayBufferView);
  }
  throw new DTypeError(`${op}: ${what} must be a Tensor, a number, a boolean or (nested) arrays of them (as tensor() takes), got ${describe(v)}`);
}

/**
 * An operand of an op that takes JS scalars: numbers and booleans stay weak
 * scalars, everything else is toTensor's.
 */
export function toOperand(op: string, v: unknown, what = 'operand'): Tensor | number | boolean {
  if (v instanceof Tensor || typeof v === 'number' || typeof v === 'boolean') return v;
  return toTensor(op, v, what);
}

/** A list of tensor operands (cat, stack): the list itself must be an array. */
export function toTensors(op: string, vs: unknown): Tensor[] {
  if (!Array.isArray(vs)) throw new DTypeError(`${op}: expected an array of tensors, got ${vs instanceof Tensor ? 'a single Tensor' : describe(vs)}`);
  return vs.map((v, i) => toTensor(op, v, `element ${i}`));
}
