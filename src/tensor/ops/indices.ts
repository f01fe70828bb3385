// Index operands of gather / scatterAdd (np.take, np.add.at): an int32 tensor
// as is (int8/uint8 widened to int32), or JS data (a number, nested arrays, a TypedArray) checked here before
// it is stored as int32.
//
// Why the checks: storing a JS number in an Int32Array wraps it modulo 2³², so
// unchecked, index 2³² + 1 became index 1 (a silently wrong element) and 2³¹
// became -2³¹. So every value is checked first, and anything that is not a
// valid int32 index is an IndexError, as select/slice and NumPy indexing
// ("only integers ... are valid indices") do: a non-integer (1.5, NaN,
// ±Infinity), or an integer outside int32 (no axis is that long). Integers
// inside int32 but out of range for the axis are the kernels' IndexError when
// the gather is computed, the same error as for int32 tensor indices, whose
// values are only known then (src/backends/js/opaque.ts and
// src/backends/native/opaque.ts).

import { DTypeError, IndexError } from '../errors.js';
import { fromStorage } from '../create.js';
import type { Dim } from '../shape.js';
import { Tensor } from '../tensor.js';
import { toTensor } from './operand.js';

const INT32_MIN = -(2 ** 31),
  INT32_MAX = 2 ** 31 - 1;

/** `indices` as an int32 tensor for op along an axis of size `axisSize` (which names it in errors). */
export function indexTensor(op: string, indices: unknown, axisSize: Dim): Tensor {
  if (indices instanceof Tensor) {
    // int8/uint8 values are valid integer indices: widened (NumPy takes any integer index array).
    if (indices.dtype === 'int8' || indices.dtype === 'uint8') return indices.cast('int32');
    if (indices.dtype !== 'int32') throw new DTypeError(`${op}: an index tensor must be int32, got ${indices.dtype} (cast it, or pass the indices as JS numbers to have them checked)`);
    return indices;
  }
  const t = toTensor(op, indices, 'indices');
  if (t.dtype === 'int32') return t; // from an Int32Array, Int16Array or Uint16Array: in range by construction
  if (t.dtype === 'int8' || t.dtype === 'uint8') return t.cast('int32'); // from an Int8Array or Uint8Array
  if (t.dtype !== 'float64' && t.dtype !== 'float32') throw new DTypeError(`${op}: indices must be integers, got ${t.dtype} data`);
  // A fresh realized buffer of the converted values (float64 holds every JS number exactly).
  const values = t.node.data as Float64Array | Float32Array;
  const out = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isInteger(v)) throw new IndexError(`${op}: indices must be integers, got ${v} at flat position ${i}`);
    if (v < INT32_MIN || v > INT32_MAX) {
      const size = typeof axisSize === 'number' ? `${axisSize}` : `'${axisSize}'`;
      throw new IndexError(`${op}: index ${v} is out of range for an axis of size ${size} (indices must fit in int32)`);
    }
    out[i] = v;
  }
  return fromStorage(out, t.shape, 'int32');
}
