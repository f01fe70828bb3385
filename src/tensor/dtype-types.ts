// Type-level dtypes: what a Tensor<D> of a statically known dtype hands back
// from toArray(), data() and item() (issue 14 §5). Tensor's D defaults to the
// whole DType union, where these give the union of every case, exactly the
// types these methods had before Tensor was generic. Types only.

import type { DType, DTypeAliases, DTypeLike } from './dtype.js';

/** The dtype a name or alias stands for: DTypeOf<'f32'> is 'float32'; a non-literal DTypeLike is DType. */
export type DTypeOf<T extends DTypeLike> = T extends DType ? T : T extends keyof DTypeAliases ? DTypeAliases[T] : DType;

/**
 * The typed array toArray() returns per dtype (storage.ts decodeStorage): float16
 * and bfloat16 decode to Float32Array; complex dtypes interleave (re, im) in
 * their component type's array; bool is 0/1 bytes (uint8 shares Uint8Array).
 */
export interface ArrayByDType {
  bool: Uint8Array;
  int8: Int8Array;
  uint8: Uint8Array;
  int32: Int32Array;
  float16: Float32Array;
  bfloat16: Float32Array;
  float32: Float32Array;
  float64: Float64Array;
  complex64: Float32Array;
  complex128: Float64Array;
}

/** What toArray() returns for dtype D (a union when D is). */
export type ArrayOf<D extends DType> = ArrayByDType[D];

/** What item() returns for dtype D: a boolean for bool, [re, im] for complex, else a number. */
export type ItemOf<D extends DType> = D extends 'bool' ? boolean : D extends 'complex64' | 'complex128' ? [number, number] : number;
