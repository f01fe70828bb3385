// random: explicit, splittable keys (JAX style). The bits come from Threefry-2x32
// computed in TypeScript, so every backend sees identical values.

import { fromStorage } from './create.js';
import { type DTypeLike, toDType, DTYPE_INFO } from './dtype.js';
import { DTypeError, ValueError, ShapeError } from './errors.js';
import { Tensor } from './tensor.js';
import * as bits from './random-bits.js';
import { encodeValues } from './storage.js';

/** A PRNG key: two uint32 words. Immutable; derive new keys with split/foldIn. */
export class Key {
  /** @internal */
  constructor(readonly data: Uint32Array) {}
  toString(): string {
    return `Key(${this.data[0]}, ${this.data[1]})`;
  }
}

const sizeOf = (op: string, shape: readonly number[]) => {
  if (!Array.isArray(shape) || shape.some((d) => !Number.isInteger(d) || d < 0)) throw new ShapeError(`random.${op}: shape must be non-negative integers, got ${JSON.stringify(shape)}`);
  return shape.reduce((a, b) => a * b, 1);
};

/** key(seed): a key from an integer seed (JAX's PRNGKey). */
export function key(seed: number | bigint): Key {
  return new Key(bits.keyData(seed));
}

/** split(key, n = 2): n independent keys. */
export function split(k: Key, n = 2): Key[] {
  if (!Number.isInteger(n) || n < 1) throw new ValueError(`random.split: n must be a positive integer, got ${n}`);
  const d = bits.splitKeyData(k.data, n);
  return Array.from({ length: n }, (_, i) => new Key(d.slice(2 * i, 2 * i + 2)));
}

/** foldIn(key, data): a key derived from an integer. */
export function foldIn(k: Key, data: number): Key {
  return new Key(bits.foldIn(k.data, data));
}

export interface UniformOptions {
  dtype?: DTypeLike;
  minval?: number;
  maxval?: number;
}

/** Uniform samples in [minval, maxval) (float64 by default). */
export function uniform(k: Key, shape: readonly number[] = [], opts: UniformOptions = {}): Tensor {
  const dtype = toDType(opts.dtype ?? 'float64');
  const n = sizeOf('uniform', shape);
  const lo = opts.minval ?? 0,
    hi = opts.maxval ?? 1;
  if (DTYPE_INFO[dtype].kind !== 'f') throw new DTypeError(`random.uniform: dtype must be floating, got ${dtype}`);
  const v = dtype === 'float64' ? bits.uniformFloat64(k.data, n, lo, hi) : bits.uniformFloat32(k.data, n, lo, hi);
  return fromStorage(dtype === 'float64' || dtype === 'float32' ? v : encodeValues(v, dtype), shape, dtype);
}

/** Standard normal samples (float64 by default). */
export function normal(k: Key, shape: readonly number[] = [], opts: { dtype?: DTypeLike } = {}): Tensor {
  const dtype = toDType(opts.dtype ?? 'float64');
  const n = sizeOf('normal', shape);
  if (DTYPE_INFO[dtype].kind === 'c') {
    // Complex normal: independent real and imaginary parts with variance 1/2 each (NumPy/JAX convention).
    const [k1, k2] = split(k);
    const real = dtype === 'complex128' ? bits.normalFloat64 : bits.normalFloat32;
    const re = real(k1!.data, n),
      im = real(k2!.data, n);
    const out = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) (out[2 * i] = re[i]! * Math.SQRT1_2), (out[2 * i + 1] = im[i]! * Math.SQRT1_2);
    return fromStorage(encodeValues(out, dtype), shape, dtype);
  }
  if (DTYPE_INFO[dtype].kind !== 'f') throw new DTypeError(`random.normal: dtype must be floating or complex, got ${dtype}`);
  const v = dtype === 'float64' ? bits.normalFloat64(k.data, n) : bits.normalFloat32(k.data, n);
  return fromStorage(dtype === 'float64' || dtype === 'float32' ? v : encodeValues(v, dtype), shape, dtype);
}

/** Integers uniformly in [lo, hi) as int32. */
export function randint(k: Key, shape: readonly number[], lo: number, hi: number): Tensor {
  const n = sizeOf('randint', shape);
  return fromStorage(bits.randint(k.data, n, lo, hi), shape, 'int32');
}

/** Booleans that are true with probability p. */
export function bernoulli(k: Key, p: number, shape: readonly number[] = []): Tensor {
  const n = sizeOf('bernoulli', shape);
  return fromStorage(bits.bernoulliBits(k.data, n, p), shape, 'bool');
}
