// The tensor as the formatter sees it: checked shape, dtype kind and a lazy,
// dtype-rounded reader of its values.
//
// Why this file exists: formatTensor/reprTensor (../format.ts), the array
// layout (array-layout.ts) and 0-d scalars (scalar.ts) all start from the same
// validated view of the input.

import type { DType } from '../dtype.js';
import { ShapeError } from '../errors.js';
import { binFormatOf, roundTo } from './binary-float.js';

export interface Prepared {
  dtype: DType;
  kind: 'b' | 'i' | 'f' | 'c';
  shape: readonly number[];
  size: number;
  /** Scalar i of the storage (complex: 2k is re, 2k+1 is im), rounded to the dtype; read lazily, only shown elements are. */
  val: (i: number) => number;
}

function kindOf(dtype: DType): 'b' | 'i' | 'f' | 'c' {
  switch (dtype) {
    case 'bool':
      return 'b';
    case 'int8':
    case 'uint8':
    case 'int32':
      return 'i';
    case 'complex64':
    case 'complex128':
      return 'c';
    default:
      return 'f';
  }
}

export function prepare(values: ArrayLike<number>, shape: readonly number[], dtype: DType): Prepared {
  for (const n of shape) {
    if (!Number.isInteger(n) || n < 0) throw new ShapeError(`formatTensor: shape ${pyTuple(shape)} has an entry that is not a non-negative integer`);
  }
  const size = shape.reduce((a, b) => a * b, 1);
  const kind = kindOf(dtype);
  const lanes = kind === 'c' ? 2 : 1;
  if (values.length !== size * lanes) {
    throw new ShapeError(
      `formatTensor: shape ${pyTuple(shape)} of ${dtype} needs ${size * lanes} values${lanes === 2 ? ' (re, im interleaved)' : ''}, got ${values.length}`,
    );
  }
  const f = binFormatOf(dtype);
  const val = kind === 'f' || kind === 'c' ? (i: number) => roundTo(values[i]!, f) : (i: number) => values[i]!;
  return { dtype, kind, shape, size, val };
}

/** A shape written as a Python tuple: (), (3,), (2, 3). */
export function pyTuple(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
}
