// random: explicit, splittable keys (JAX style), as IR ops. The bits come from
// Threefry-2x32 computed in TypeScript (random/threefry.ts), so every backend
// sees identical values, and they are JAX's for the same key.
//
// A key is an int32 tensor of shape [2] holding the bits of JAX's two uint32
// key words (JAX's raw key layout, jax.random.key_data, reinterpreted: rlx has
// no unsigned dtype); a batch of keys is [..., 2]. Keys and samples are lazy
// tensors like any other (random-ops.ts binds them as IR ops), so random.*
// works inside jit (a new key is a new input, not a recompile), under vmap (a
// batch of keys, one sample per key) and in scan bodies (a carried key). A
// batched key's leading dims lead the output: uniform(keys [B, 2], [n]) is [B, n].

import { tensor } from './create.js';
import { type DTypeLike, toDType } from './dtype.js';
import { DTypeError, ValueError } from './errors.js';
import { Tensor } from './tensor.js';
import { checkShape, broadcastShapes } from './shape.js';
import * as bits from './random-bits.js';
import { RANDOM_OPS, bindRandom, checkKey, checkNumber, checkSampleDType } from './random-ops.js';

/** A PRNG key (or a batch of keys): an int32 tensor [..., 2], the bits of JAX's two uint32 key words. */
export type Key = Tensor;

const INT64_MIN = -(2n ** 63n);
const UINT64_END = 2n ** 64n;

/**
 * key(seed): a key [2] from an integer seed in [-2^63, 2^64) (JAX's PRNGKey with 64-bit seeds).
 * @example
 * ```ts
 * const keys = random.split(random.key(42));   // [2, 2]: two independent keys
 * random.normal(keys.select(0, 0), [3]);
 * ```
 */
export function key(seed: number | bigint): Key {
  const ok =
    typeof seed === 'bigint' ? seed >= INT64_MIN && seed < UINT64_END : typeof seed === 'number' && Number.isInteger(seed) && seed >= -(2 ** 63) && seed < 2 ** 64;
  if (!ok) throw new ValueError(`random.key: seed must be an integer in [-2^63, 2^64), got ${typeof seed} ${String(seed)}`);
  const w = bits.keyData(seed);
  return tensor(new Int32Array(w.buffer, w.byteOffset, 2));
}

/**
 * keyData(key): the uint32 words of a key (or batch of keys [..., 2]), flattened; realizes the key.
 * @example
 * ```ts
 * Array.from(random.keyData(random.key(42)));   // [0, 42]  (jax.random.key_data(PRNGKey(42)))
 * ```
 */
export function keyData(k: Key): Uint32Array {
  const a = checkKey('keyData', k).toArray() as Int32Array;
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}

/**
 * split(key, n = 2): n independent keys stacked, [n, 2] (a batch [..., 2] gives [..., n, 2]); keys[i] is foldIn(key, i).
 * @example
 * ```ts
 * const keys = random.split(random.key(0), 3);
 * keys.shape;                                  // [3, 2]
 * Array.from(random.keyData(keys)).slice(0, 2);   // [1797259609, 2579123966]  (JAX's split(PRNGKey(0), 3)[0])
 * ```
 */
export function split(k: Key, n = 2): Key {
  checkKey('split', k);
  if (!Number.isInteger(n) || n < 1) throw new ValueError(`random.split: n must be a positive integer, got ${String(n)}`);
  return bindRandom(RANDOM_OPS.split, [k], { n });
}

/**
 * foldIn(key, data): a key derived from a uint32 (a number in [-2^31, 2^32),
 * negatives wrap), or from an int32 tensor whose bits are the uint32 (a loop
 * counter inside a scan); key batch dims and data dims broadcast.
 * @example
 * ```ts
 * const k = random.foldIn(random.key(0), 4);
 * Array.from(random.keyData(k));   // [2285895361, 433833334]  (jax.random.fold_in(PRNGKey(0), 4))
 * ```
 */
export function foldIn(k: Key, data: number | Tensor): Key {
  checkKey('foldIn', k);
  let d: Tensor;
  if (typeof data === 'number') {
    if (!Number.isInteger(data) || data < -(2 ** 31) || data >= 2 ** 32) {
      throw new ValueError(`random.foldIn: data must be an integer in [-2^31, 2^32), got ${String(data)}`);
    }
    d = tensor(data | 0, { dtype: 'int32' });
  } else if (data instanceof Tensor) {
    if (data.dtype !== 'int32') throw new DTypeError(`random.foldIn: data must be a number or an int32 tensor, got a ${data.dtype} tensor`);
    d = data;
  } else {
    throw new ValueError(`random.foldIn: data must be a number or an int32 tensor, got ${typeof data}`);
  }
  const kb = k.node.shape.slice(0, -1);
  const batch = broadcastShapes('random.foldIn', kb, d.node.shape);
  const kk = batch.length === kb.length ? k : k.broadcastTo([...batch, 2]);
  const dd = batch.length === d.ndim && d.node.shape.every((x, i) => x === batch[i]) ? d : d.broadcastTo(batch);
  return bindRandom(RANDOM_OPS.foldIn, [kk, dd], {});
}

export interface UniformOptions {
  dtype?: DTypeLike;
  minval?: number;
  maxval?: number;
}

/**
 * Uniform samples in [minval, maxval) (float64 by default); shape [...key batch, ...shape].
 * @example
 * ```ts
 * const u = random.uniform(random.key(0), [2, 2], { minval: -1, maxval: 1 });
 * u.shape;                                            // [2, 2]
 * [u.min().ge(-1).item(), u.max().lt(1).item()];   // [true, true]: every sample in [-1, 1)
 * ```
 */
export function uniform(k: Key, shape: readonly number[] = [], opts: UniformOptions = {}): Tensor {
  checkKey('uniform', k);
  checkShape('random.uniform', shape);
  const dtype = toDType(opts.dtype ?? 'float64');
  checkSampleDType('uniform', dtype, 'f', 'floating');
  const lo = checkNumber('uniform', 'minval', opts.minval ?? 0);
  const hi = checkNumber('uniform', 'maxval', opts.maxval ?? 1);
  // The draws are float64 for float64 and float32 (then rounded) for the narrower floats.
  const r = dtype === 'float64' ? (x: number) => x : Math.fround;
  if (!Number.isFinite(r(lo)) || !Number.isFinite(r(hi)) || !(r(lo) < r(hi)) || !Number.isFinite(r(r(hi) - r(lo)))) {
    throw new ValueError(`random.uniform: need finite minval < maxval with a finite maxval - minval in ${dtype === 'float64' ? 'float64' : 'float32'}, got minval=${lo}, maxval=${hi}`);
  }
  return bindRandom(RANDOM_OPS.uniform, [k], { sampleShape: [...shape], sampleDType: dtype, minval: lo, maxval: hi });
}

/**
 * Standard normal samples (float64 by default; complex: variance 1/2 per part); shape [...key batch, ...shape].
 * @example
 * ```ts
 * const x = random.normal(random.key(0), [3]);   // float64 [3]; same key, same samples
 * ```
 */
export function normal(k: Key, shape: readonly number[] = [], opts: { dtype?: DTypeLike } = {}): Tensor {
  checkKey('normal', k);
  checkShape('random.normal', shape);
  const dtype = toDType(opts.dtype ?? 'float64');
  checkSampleDType('normal', dtype, 'fc', 'floating or complex');
  return bindRandom(RANDOM_OPS.normal, [k], { sampleShape: [...shape], sampleDType: dtype });
}

/**
 * Integers uniformly in [lo, hi) as int32 (-2^31 <= lo < hi <= 2^31); shape [...key batch, ...shape].
 * @example
 * ```ts
 * const r = random.randint(random.key(0), [1000], 0, 6);   // die rolls 0..5
 * [r.dtype, r.min().item(), r.max().item()];              // ['int32', 0, 5]
 * random.randint(random.key(1), [3], 7, 8).tolist();     // [7, 7, 7]  (7 is the only value in [7, 8))
 * ```
 */
export function randint(k: Key, shape: readonly number[], lo: number, hi: number): Tensor {
  checkKey('randint', k);
  checkShape('random.randint', shape);
  checkNumber('randint', 'lo', lo);
  checkNumber('randint', 'hi', hi);
  if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < -(2 ** 31) || hi > 2 ** 31 || !(lo < hi)) {
    throw new ValueError(`random.randint: need integers -2^31 <= lo < hi <= 2^31, got lo=${lo}, hi=${hi}`);
  }
  return bindRandom(RANDOM_OPS.randint, [k], { sampleShape: [...shape], sampleDType: 'int32', lo, hi });
}

/**
 * Booleans that are true with probability p; shape [...key batch, ...shape].
 * @example
 * ```ts
 * random.bernoulli(random.key(0), 1, [3]).tolist();   // [true, true, true]  (p = 1)
 * random.bernoulli(random.key(0), 0.3, [10000]).cast('float64').mean().item();   // ≈ 0.3
 * ```
 */
export function bernoulli(k: Key, p: number, shape: readonly number[] = []): Tensor {
  checkKey('bernoulli', k);
  checkShape('random.bernoulli', shape);
  checkNumber('bernoulli', 'p', p);
  if (!(p >= 0 && p <= 1)) throw new ValueError(`random.bernoulli: p must be a probability in [0, 1], got ${p}`);
  return bindRandom(RANDOM_OPS.bernoulli, [k], { sampleShape: [...shape], sampleDType: 'bool', p });
}
