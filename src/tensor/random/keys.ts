// Keys: JAX's PRNGKey(seed) data, split and fold_in.
//
// Why this file exists: deriving independent keys is the one operation callers
// compose with everything else (random.ts wraps these in its Key class), and it
// depends on the counter layout exactly as JAX's _threefry_split does.

import { type RandomOptions, checkCount, checkKey, layoutOf } from './options.js';
import { KS_PARITY, OUT0, OUT1, TWO32, fry } from './threefry.js';

const INT64_MIN = -(2n ** 63n);
const UINT64_END = 2n ** 64n;

/**
 * JAX's PRNGKey(seed) data: the seed as 64 bits, [hi32, lo32]; so [0, s] for 0 <= s < 2^32 and
 * two's complement for negative seeds (JAX with jax_enable_x64). Accepts [-2^63, 2^64).
 */
export function keyData(seed: number | bigint): Uint32Array {
  let s: bigint;
  if (typeof seed === 'bigint') {
    s = seed;
  } else {
    if (typeof seed !== 'number' || !Number.isInteger(seed)) {
      throw new RangeError(`keyData: seed must be an integer, got ${String(seed)}`);
    }
    s = BigInt(seed);
  }
  if (s < INT64_MIN || s >= UINT64_END) {
    throw new RangeError(`keyData: seed must lie in [-2^63, 2^64), got ${String(seed)}`);
  }
  const u = BigInt.asUintN(64, s);
  return new Uint32Array([Number(u >> 32n), Number(u & 0xffffffffn)]);
}

/** jax.random.split(key, num) as raw data: num keys laid out as [k0_0, k0_1, k1_0, k1_1, ...]. */
export function splitKeyData(key: Uint32Array, num: number, opts?: RandomOptions): Uint32Array {
  checkKey('splitKeyData', key);
  checkCount('splitKeyData', 'num', num);
  const layout = layoutOf('splitKeyData', opts);
  const a = key[0]! | 0;
  const b = key[1]! | 0;
  const c = (key[0]! ^ key[1]! ^ KS_PARITY) | 0;
  const out = new Uint32Array(2 * num);
  if (layout === 'partitionable') {
    // _threefry_split_foldlike: key i = threefry(key, (i >> 32, i & 0xffffffff)).
    for (let i = 0; i < num; i++) {
      fry(a, b, c, Math.floor(i / TWO32) | 0, i | 0);
      out[2 * i] = OUT0;
      out[2 * i + 1] = OUT1;
    }
  } else {
    // _threefry_split_original: threefry_2x32(key, iota(2 num)) reshaped to (num, 2); the pairs
    // hashed are (i, num + i), whose first words fill out[0..num) and second words out[num..2num).
    if (2 * num >= TWO32) throw new RangeError(`splitKeyData: legacy layout needs 2*num < 2^32, got num=${num}`);
    for (let i = 0; i < num; i++) {
      fry(a, b, c, i, (num + i) | 0);
      out[i] = OUT0;
      out[num + i] = OUT1;
    }
  }
  return out;
}

/** jax.random.fold_in(key, data): threefry(key, (0, data)); data is a uint32 (negative int32 wraps). */
export function foldIn(key: Uint32Array, data: number): Uint32Array {
  checkKey('foldIn', key);
  if (!Number.isInteger(data) || data < -2147483648 || data >= TWO32) {
    throw new RangeError(`foldIn: data must be an integer in [-2^31, 2^32), got ${String(data)}`);
  }
  fry(key[0]! | 0, key[1]! | 0, (key[0]! ^ key[1]! ^ KS_PARITY) | 0, 0, data | 0);
  return new Uint32Array([OUT0, OUT1]);
}
