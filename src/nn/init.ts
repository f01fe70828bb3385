// Parameter initialisation: PyTorch's distributions from rlx's explicit keys.
//
// Values cannot match torch's (different generators); the distributions do:
// Linear and Conv2d draw U(-1/√fan_in, 1/√fan_in) (kaiming_uniform with
// a = √5, and the bias rule), MultiheadAttention's packed projection is
// xavier_uniform, Embedding N(0, 1), norms ones and zeros.
//
// Without a key a layer takes the next key of a process-wide default stream:
// random.foldIn(random.key(seed), n) for the n-th layer built since the last
// manualSeed(seed) (seed 0 at start). So `nn.Linear(784, 256)` works as in
// PyTorch, a program that builds the same layers in the same order gets the
// same weights on every run, and two layers built one after the other differ.
// Pass `key` for initialisation that does not depend on construction order.

import * as random from '../tensor/random.js';
import type { Key } from '../tensor/random.js';
import { type DType, type DTypeLike, toDType, isFloat } from '../tensor/dtype.js';
import { DTypeError, ValueError } from '../tensor/errors.js';
import { Tensor } from '../tensor/tensor.js';
import { full } from '../tensor/create.js';

/** The default stream (see the header): a seed and how many keys it has handed out. */
const stream = { seed: 0 as number | bigint, count: 0 };

/**
 * Restarts the default initialisation stream that layers built without a `key` draw from (torch.manual_seed for nn).
 * @example
 * ```ts
 * nn.manualSeed(7);
 * const a = nn.Linear(3, 2);
 * nn.manualSeed(7);
 * const b = nn.Linear(3, 2);
 * a.weight.eq(b.weight).min().item();   // true
 * ```
 */
export function manualSeed(seed: number | bigint): void {
  random.key(seed); // validates the seed
  stream.seed = seed;
  stream.count = 0;
}

/** The key a layer initialises from: `key` when given, else the default stream's next key. */
export function layerKey(op: string, key: Key | undefined): Key {
  if (key === undefined) return random.foldIn(random.key(stream.seed), stream.count++);
  if (!(key instanceof Tensor)) throw new ValueError(`${op}: key must be a random key (random.key(seed)), got ${key === null ? 'null' : typeof key}`);
  return key;
}

/** n independent keys from one (random.split, unstacked). */
export function splitKey(key: Key, n: number): Key[] {
  const ks = random.split(key, n);
  return Array.from({ length: n }, (_, i) => ks.select(-2, i));
}

/** The floating dtype of a layer's parameters (float32 by default, as PyTorch's). */
export function paramDType(op: string, dtype: DTypeLike | undefined): DType {
  const d = toDType(dtype ?? 'float32');
  if (!isFloat(d)) throw new DTypeError(`${op}: parameters must have a floating dtype, got ${d}`);
  return d;
}

/** U(-bound, bound) of `shape`, computed now (a parameter is a buffer, not a pending random op). */
export function uniformParam(key: Key, shape: readonly number[], bound: number, dtype: DType): Tensor {
  if (!(bound > 0)) return full(shape, 0, { dtype }).realize(); // fan_in = 0: PyTorch leaves the bound 0
  return random.uniform(key, shape, { minval: -bound, maxval: bound, dtype }).realize();
}

/** N(0, 1) of `shape`, computed now. */
export function normalParam(key: Key, shape: readonly number[], dtype: DType): Tensor {
  return random.normal(key, shape, { dtype }).realize();
}

/** A constant parameter (ones of a norm's weight, zeros of a bias). */
export function constParam(shape: readonly number[], value: number, dtype: DType): Tensor {
  return full(shape, value, { dtype }).realize();
}

/** PyTorch's kaiming_uniform(a = √5) bound, which is also its Linear/Conv bias bound: 1/√fan_in. */
export const fanInBound = (fanIn: number): number => (fanIn > 0 ? 1 / Math.sqrt(fanIn) : 0);

/** PyTorch's xavier_uniform bound: √(6 / (fan_in + fan_out)). */
export const xavierBound = (fanIn: number, fanOut: number): number => Math.sqrt(6 / (fanIn + fanOut));

/** A positive integer argument, or a ValueError naming the layer and argument. */
export function checkPositiveInt(op: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw new ValueError(`${op}: ${name} must be a positive integer, got ${String(v)}`);
  return v;
}
