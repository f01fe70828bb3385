// Threefry-2x32-20 (Random123; JAX's _threefry2x32_lowering), the hash every
// random draw is built on.
//
// Why this file exists: the block function `fry` is the hot inner loop of
// keys.ts, bits.ts and samplers.ts; it writes its two output words to the
// module-level OUT0/OUT1 (read by importers as live bindings right after each
// call) so those loops allocate nothing. The public threefry2x32* functions
// expose the raw hash.

import { checkKey } from './options.js';

export const KS_PARITY = 0x1bd11bda;
export const TWO32 = 4294967296;

// Output of the last fry() call; module-level so the hot loops allocate nothing.
export let OUT0 = 0;
export let OUT1 = 0;

/** One Threefry-2x32-20 block; k2 = k0 ^ k1 ^ KS_PARITY. Results land in OUT0/OUT1 as int32. */
export function fry(k0: number, k1: number, k2: number, c0: number, c1: number): void {
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
