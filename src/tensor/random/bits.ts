// Raw random bits: JAX's random_bits(key, 32 | 64, (n,)) in both counter layouts.
//
// Why this file exists: every sampler (samplers.ts) starts from these words, and
// matching JAX bit for bit is decided here, by how counters are laid out
// before hashing (see ../random-bits.ts).

import { type RandomOptions, checkCount, checkKey, layoutOf } from './options.js';
import { KS_PARITY, OUT0, OUT1, TWO32, fry } from './threefry.js';

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
