// Threefry-2x32-20 (Random123; JAX's _threefry2x32_lowering), the hash every
// random draw is built on, and the functions that run it over counters: the
// raw hash (threefry2x32*), keys (PRNGKey data, split, fold_in) and raw bits
// (random_bits 32/64), each in both counter layouts.
//
// Why this file exists: the block function `fry` writes its two output words to
// the module-level OUT0/OUT1 so the hot loops allocate nothing. Every loop that
// calls it per element lives in this module on purpose, so that fry, OUT0/OUT1
// and the constants of those loops stay module-private: V8 reads an exported or
// imported binding through a cell on each access (with TWO32 exported,
// randomBits32 measured ~10% slower). samplers.ts uses the public functions.

import { type RandomOptions, checkCount, checkKey, layoutOf } from './options.js';

const KS_PARITY = 0x1bd11bda;
const TWO32 = 4294967296;

// Output of the last fry() call; module-level so the hot loops allocate nothing.
let OUT0 = 0;
let OUT1 = 0;

/** One Threefry-2x32-20 block; k2 = k0 ^ k1 ^ KS_PARITY. Results land in OUT0/OUT1 as int32. */
function fry(k0: number, k1: number, k2: number, c0: number, c1: number): void {
  let x0 = (c0 + k0) | 0;
  let x1 = (c1 + k1) | 0;
  // rounds 1-4: rotations 13, 15, 26, 6
  x0 = (x0 + x1) | 0; x1 = ((x1 << 13) | (x1 >>> 19)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 15) | (x1 >>> 17)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 26) | (x1 >>> 6)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 6) | (x1 >>> 26)) ^ x0;
  x0 = (x0 + k1) | 0; x1 = (x1 + k2 + 1) | 0;
  // rounds 5-8: rotations 17, 29, 16, 24
  x0 = (x0 + x1) | 0; x1 = ((x1 << 17) | (x1 >>> 15)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 29) | (x1 >>> 3)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 16) | (x1 >>> 16)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 24) | (x1 >>> 8)) ^ x0;
  x0 = (x0 + k2) | 0; x1 = (x1 + k0 + 2) | 0;
  // rounds 9-12
  x0 = (x0 + x1) | 0; x1 = ((x1 << 13) | (x1 >>> 19)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 15) | (x1 >>> 17)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 26) | (x1 >>> 6)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 6) | (x1 >>> 26)) ^ x0;
  x0 = (x0 + k0) | 0; x1 = (x1 + k1 + 3) | 0;
  // rounds 13-16
  x0 = (x0 + x1) | 0; x1 = ((x1 << 17) | (x1 >>> 15)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 29) | (x1 >>> 3)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 16) | (x1 >>> 16)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 24) | (x1 >>> 8)) ^ x0;
  x0 = (x0 + k1) | 0; x1 = (x1 + k2 + 4) | 0;
  // rounds 17-20
  x0 = (x0 + x1) | 0; x1 = ((x1 << 13) | (x1 >>> 19)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 15) | (x1 >>> 17)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 26) | (x1 >>> 6)) ^ x0;
  x0 = (x0 + x1) | 0; x1 = ((x1 << 6) | (x1 >>> 26)) ^ x0;
  OUT0 = (x0 + k2) | 0;
  OUT1 = (x1 + k0 + 5) | 0;
}

function checkU32(op: string, name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0 || v >= TWO32) {
    throw new RangeError(`${op}: ${name} must be an integer in [0, 2^32), got ${String(v)}`);
  }
}

/** Threefry-2x32-20 of the counter pair (x0, x1) under key (key0, key1); all uint32. */
export function threefry2x32(key0: number, key1: number, x0: number, x1: number): [number, number] {
  checkU32('threefry2x32', 'key0', key0);
  checkU32('threefry2x32', 'key1', key1);
  checkU32('threefry2x32', 'x0', x0);
  checkU32('threefry2x32', 'x1', x1);
  fry(key0 | 0, key1 | 0, (key0 ^ key1 ^ KS_PARITY) | 0, x0 | 0, x1 | 0);
  return [OUT0 >>> 0, OUT1 >>> 0];
}

/** Bulk Threefry over interleaved counter pairs [x0, x1, x0, x1, ...] into `out` (same length; may alias). */
export function threefry2x32Into(k0: number, k1: number, counters: Uint32Array, out: Uint32Array): void {
  checkU32('threefry2x32Into', 'k0', k0);
  checkU32('threefry2x32Into', 'k1', k1);
  if (counters.length % 2 !== 0) {
    throw new RangeError(`threefry2x32Into: counters must hold pairs (even length), got length ${counters.length}`);
  }
  if (out.length !== counters.length) {
    throw new RangeError(`threefry2x32Into: out length ${out.length} must equal counters length ${counters.length}`);
  }
  const a = k0 | 0;
  const b = k1 | 0;
  const c = (k0 ^ k1 ^ KS_PARITY) | 0;
  for (let i = 0; i < counters.length; i += 2) {
    fry(a, b, c, counters[i]! | 0, counters[i + 1]! | 0);
    out[i] = OUT0;
    out[i + 1] = OUT1;
  }
}

/** JAX's prng.threefry_2x32(keypair, count): hash `count` cut into two halves (zero-padded if odd). */
export function threefry2x32Jax(key: Uint32Array, count: Uint32Array): Uint32Array {
  checkKey('threefry2x32Jax', key);
  const n = count.length;
  const h = (n + 1) >>> 1;
  const out = new Uint32Array(n);
  const a = key[0]! | 0;
  const b = key[1]! | 0;
  const c = (key[0]! ^ key[1]! ^ KS_PARITY) | 0;
  for (let i = 0; i < h; i++) {
    const j = h + i;
    fry(a, b, c, count[i]! | 0, j < n ? count[j]! | 0 : 0);
    out[i] = OUT0;
    if (j < n) out[j] = OUT1;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Keys

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

// ---------------------------------------------------------------------------------------------
// Raw bits

/** JAX's random_bits(key, 32, (n,)): n uint32 words. */
export function randomBits32(key: Uint32Array, n: number, opts?: RandomOptions): Uint32Array {
  checkKey('randomBits32', key);
  checkCount('randomBits32', 'n', n);
  const layout = layoutOf('randomBits32', opts);
  const a = key[0]! | 0;
  const b = key[1]! | 0;
  const c = (key[0]! ^ key[1]! ^ KS_PARITY) | 0;
  const out = new Uint32Array(n);
  if (layout === 'partitionable') {
    // _threefry_random_bits_partitionable: bits1 ^ bits2 of threefry(key, (hi32(i), lo32(i))).
    for (let i = 0; i < n; i++) {
      fry(a, b, c, Math.floor(i / TWO32) | 0, i | 0);
      out[i] = OUT0 ^ OUT1;
    }
  } else {
    // _threefry_random_bits_original: threefry_2x32(key, iota(n)); h = ceil(n/2), pairs (i, h+i),
    // the last second counter is the zero pad when n is odd (its second word is dropped).
    if (n >= TWO32 - 1) throw new RangeError(`randomBits32: legacy layout needs n < 2^32 - 1, got ${n}`);
    const h = Math.ceil(n / 2);
    for (let i = 0; i < h; i++) {
      const j = h + i;
      fry(a, b, c, i, j < n ? j | 0 : 0);
      out[i] = OUT0;
      if (j < n) out[j] = OUT1;
    }
  }
  return out;
}

/** JAX's random_bits(key, 64, (n,)) as two uint32 arrays: value i = hi[i] * 2^32 + lo[i]. */
export function randomBits64(key: Uint32Array, n: number, opts?: RandomOptions): { hi: Uint32Array; lo: Uint32Array } {
  checkKey('randomBits64', key);
  checkCount('randomBits64', 'n', n);
  const layout = layoutOf('randomBits64', opts);
  const a = key[0]! | 0;
  const b = key[1]! | 0;
  const c = (key[0]! ^ key[1]! ^ KS_PARITY) | 0;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  if (layout === 'partitionable') {
    // (bits1 << 32) | bits2 of threefry(key, (hi32(i), lo32(i))).
    for (let i = 0; i < n; i++) {
      fry(a, b, c, Math.floor(i / TWO32) | 0, i | 0);
      hi[i] = OUT0;
      lo[i] = OUT1;
    }
  } else {
    // threefry_2x32(key, iota(2n)) split in two halves: high words from the first, low words
    // from the second, i.e. pair (i, n + i) gives (hi, lo).
    if (2 * n >= TWO32 - 1) throw new RangeError(`randomBits64: legacy layout needs 2n < 2^32 - 1, got n=${n}`);
    for (let i = 0; i < n; i++) {
      fry(a, b, c, i, (n + i) | 0);
      hi[i] = OUT0;
      lo[i] = OUT1;
    }
  }
  return { hi, lo };
}
