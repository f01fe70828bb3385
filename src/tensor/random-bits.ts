// Counter-based random bits in the style of JAX: explicit keys, Threefry-2x32-20 as the hash,
// split / fold_in to derive independent keys, and samplers built on those bits. Everything
// here is a pure function of (key, n, parameters) over plain typed arrays, so every backend
// that wraps it (CPU, WASM, GPU kernels written from the same recipe) produces the same bits.
//
// Two counter layouts are supported, both as in jax/_src/prng.py:
//   'partitionable' (JAX's default since jax_threefry_partitionable became True): element i of a
//     draw hashes the 64-bit counter i split as (hi32, lo32); split(key, n)[i] = fold_in(key, i).
//     An element depends only on (key, i), never on n, so prefixes are stable.
//   'legacy' (jax_threefry_partitionable=False, JAX < 0.5 default): JAX's threefry_2x32 over
//     iota(count) cut into two halves that are hashed as pairs (i, h + i).

/** Which of JAX's two threefry counter layouts to follow. */
export type ThreefryLayout = 'partitionable' | 'legacy';

/** Layout used when none is given: JAX's current default (jax_threefry_partitionable=True). */
export const DEFAULT_LAYOUT: ThreefryLayout = 'partitionable';

/** Options common to the samplers. */
export interface RandomOptions {
  /** Counter layout; defaults to DEFAULT_LAYOUT. */
  layout?: ThreefryLayout;
}

// ---------------------------------------------------------------------------------------------
// Threefry-2x32-20 (Random123; JAX's _threefry2x32_lowering)

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

function checkKey(op: string, key: Uint32Array): void {
  if (!(key instanceof Uint32Array) || key.length !== 2) {
    const got = key instanceof Uint32Array ? `Uint32Array of length ${key.length}` : String(key);
    throw new RangeError(`${op}: key must be a Uint32Array of length 2 (from keyData/splitKeyData/foldIn), got ${got}`);
  }
}

function checkCount(op: string, name: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`${op}: ${name} must be a non-negative integer, got ${String(n)}`);
  }
}

function layoutOf(op: string, opts: RandomOptions | undefined): ThreefryLayout {
  const layout = opts?.layout ?? DEFAULT_LAYOUT;
  if (layout !== 'partitionable' && layout !== 'legacy') {
    throw new RangeError(`${op}: layout must be 'partitionable' or 'legacy', got ${String(layout)}`);
  }
  return layout;
}

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

// ---------------------------------------------------------------------------------------------
// Uniform floats

function checkRange(op: string, lo: number, hi: number): void {
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(lo < hi) || !Number.isFinite(hi - lo)) {
    throw new RangeError(`${op}: need finite lo < hi with finite hi - lo, got lo=${String(lo)}, hi=${String(hi)}`);
  }
}

/** Largest binary64 below x (x finite). */
function nextDown64(x: number): number {
  if (x === 0) return -Number.MIN_VALUE;
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const b = dv.getBigUint64(0);
  dv.setBigUint64(0, x > 0 ? b - 1n : b + 1n);
  return dv.getFloat64(0);
}

/** Largest binary32 below x (x a finite binary32). */
function nextDown32(x: number): number {
  if (x === 0) return -(2 ** -149);
  const dv = new DataView(new ArrayBuffer(4));
  dv.setFloat32(0, x);
  const b = dv.getUint32(0);
  dv.setUint32(0, x > 0 ? b - 1 : b + 1);
  return dv.getFloat32(0);
}

const TWO_M32 = 2 ** -32;
const TWO_M52 = 2 ** -52;
const TWO_M23 = 2 ** -23;

/**
 * n doubles in [lo, hi) as JAX's uniform(float64): 52 mantissa bits = the top 52 of a 64-bit draw,
 * f = bits/2^52 in [0, 1), result max(lo, f * (hi - lo) + lo); a result that rounds up to hi
 * (JAX would return hi there) is replaced by the largest double below hi.
 */
export function uniformFloat64(key: Uint32Array, n: number, lo = 0, hi = 1, opts?: RandomOptions): Float64Array {
  checkRange('uniformFloat64', lo, hi);
  const { hi: wh, lo: wl } = randomBits64(key, n, { layout: layoutOf('uniformFloat64', opts) });
  const span = hi - lo;
  const top = nextDown64(hi);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // (bits >> 12) / 2^52 == hi32 / 2^32 + (lo32 >> 12) / 2^52: 32 + 20 bits, exact in binary64.
    const f = wh[i]! * TWO_M32 + (wl[i]! >>> 12) * TWO_M52;
    const v = f * span + lo;
    out[i] = v < lo ? lo : v < hi ? v : top;
  }
  return out;
}

/**
 * n floats in [lo, hi) as JAX's uniform(float32): 23 mantissa bits = the top 23 of a 32-bit draw,
 * all arithmetic rounded to float32 as XLA does (lo, hi first rounded to float32); a result that
 * rounds up to hi is replaced by the largest float32 below hi.
 */
export function uniformFloat32(key: Uint32Array, n: number, lo = 0, hi = 1, opts?: RandomOptions): Float32Array {
  const lo32 = Math.fround(lo);
  const hi32 = Math.fround(hi);
  if (!Number.isFinite(lo32) || !Number.isFinite(hi32) || !(lo32 < hi32) || !Number.isFinite(Math.fround(hi32 - lo32))) {
    throw new RangeError(
      `uniformFloat32: need lo < hi as float32 with a finite float32 hi - lo, got lo=${String(lo)}, hi=${String(hi)}`,
    );
  }
  const bits = randomBits32(key, n, { layout: layoutOf('uniformFloat32', opts) });
  return uniform32FromBits(bits, lo32, hi32);
}

function uniform32FromBits(bits: Uint32Array, lo32: number, hi32: number): Float32Array {
  const fr = Math.fround;
  const span = fr(hi32 - lo32);
  const top = nextDown32(hi32);
  const n = bits.length;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const f = (bits[i]! >>> 9) * TWO_M23; // exact float32
    // Each binary op computed in double then rounded once is the correctly rounded float32 op.
    const v = fr(fr(f * span) + lo32);
    out[i] = v < lo32 ? lo32 : v < hi32 ? v : top;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// erfinv in double precision (local on purpose: no dependency on the shared special functions).
// Start from Giles' single-precision approximation (or the asymptotic tail form where that one
// was never meant to reach), then Halley steps on erf(y) = t or, for t >= 0.9, on
// erfc(y) = 1 - t (exact by Sterbenz). The erf residual uses the Maclaurin series with the
// leading term in double-double; erfc uses the Legendre continued fraction of Gamma(1/2, y^2)
// evaluated bottom-up (stable, unlike forward Lentz here). Accuracy: a few ulps (see tests).

const TWO_OVER_SQRT_PI = 1.1283791670955126; // 2/sqrt(pi), rounded
const TWO_OVER_SQRT_PI_LO = 1.533545961316588e-17; // 2/sqrt(pi) - TWO_OVER_SQRT_PI
const ONE_OVER_SQRT_PI = 0.5641895835477563; // 1/sqrt(pi)
const SPLITTER = 134217729; // 2^27 + 1, Dekker's splitting constant

/** exp(-y^2) with y^2 carried in two doubles, so large y lose no accuracy to the squaring. */
function expNegSquare(y: number): number {
  const p = y * y;
  const s = SPLITTER * y;
  const yh = s - (s - y);
  const yl = y - yh;
  const e = yh * yh - p + 2 * yh * yl + yl * yl; // y*y - p exactly (Dekker)
  return Math.exp(-p) * (1 - e);
}

/**
 * erf(y) - t for 0 <= y <~ 1.3, accurate to about an ulp of t: erf(y) = (2/sqrt(pi)) y (1 + T) with
 * T = sum_{n>=1} (-y^2)^n / (n! (2n+1)); the (2/sqrt(pi)) y part is formed exactly in two doubles
 * so that subtracting t (within a factor 2 of it) loses nothing.
 */
function erfResidual(y: number, t: number): number {
  const x = y * y;
  const s = SPLITTER * y;
  const yh = s - (s - y);
  const yl = y - yh;
  const xl = yh * yh - x + 2 * yh * yl + yl * yl; // y^2 = x + xl
  let a = 1;
  let sum = 0;
  let comp = 0;
  for (let n = 1; n < 60; n++) {
    a *= -x / n;
    const term = a / (2 * n + 1);
    const z = sum + term; // Neumaier summation
    comp += Math.abs(sum) >= Math.abs(term) ? sum - z + term : term - z + sum;
    sum = z;
    if (Math.abs(term) < 1e-18) break;
  }
  // dT/dx = -1/3 + x/5 - x^2/14 + x^3/54 - ..., enough for the xl correction (|xl| <= 2^-53 x).
  const T = sum + comp + xl * (-1 / 3 + x * (1 / 5 - x * (1 / 14 - x / 54)));
  // (p, pe) = (2/sqrt(pi)) * y in two doubles.
  const p = TWO_OVER_SQRT_PI * y;
  const cs = SPLITTER * TWO_OVER_SQRT_PI;
  const ch = cs - (cs - TWO_OVER_SQRT_PI);
  const cl = TWO_OVER_SQRT_PI - ch;
  const pe = ch * yh - p + ch * yl + cl * yh + cl * yl + TWO_OVER_SQRT_PI_LO * y;
  return p - t + (pe + (p + pe) * T);
}

/** erfc(y) for y >= ~1 by the continued fraction of Q(1/2, y^2), evaluated from the bottom up. */
function erfcFraction(y: number): number {
  const x = y * y;
  const depth = 12 + Math.ceil(100 / x); // enough for 1e-17 relative from y = 1 upward
  let v = x + 2 * depth + 0.5;
  for (let i = depth; i >= 1; i--) v = x + 2 * i - 1.5 - (i * (i - 0.5)) / v;
  return (expNegSquare(y) * y * ONE_OVER_SQRT_PI) / v;
}

/** Giles (2010) single-precision erfinv, evaluated in double: a ~1.3e-7 relative start for t < 1 - 2^-24. */
function erfinvGiles(x: number): number {
  let w = -Math.log((1 - x) * (1 + x));
  let p: number;
  if (w < 5) {
    w -= 2.5;
    p = 2.81022636e-8;
    p = 3.43273939e-7 + p * w;
    p = -3.5233877e-6 + p * w;
    p = -4.39150654e-6 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = Math.sqrt(w) - 3;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  return p * x;
}

/** Halley stops once a step is below this fraction of y: the cubic error left is then < 1e-17 y. */
const HALLEY_DONE = 3e-7;

/** Inverse error function in double precision (a few ulps); erfinv(+-1) = +-Infinity. */
export function erfinv(x: number): number {
  if (Number.isNaN(x) || x < -1 || x > 1) return NaN;
  if (x === 0) return x;
  const t = Math.abs(x);
  if (t === 1) return x > 0 ? Infinity : -Infinity;
  // Halley on f with f''/f' = -2y (true of erf and erfc alike): y <- y - d / (1 + y d), d = f/f'.
  let y: number;
  if (t < 0.9) {
    y = erfinvGiles(t); // y < 1.17
    for (let it = 0; it < 8; it++) {
      const d = erfResidual(y, t) / (TWO_OVER_SQRT_PI * expNegSquare(y));
      y -= d / (1 + y * d);
      if (Math.abs(d) <= HALLEY_DONE * y) break;
    }
  } else {
    const q = 1 - t; // exact
    if (q > 2 ** -24) {
      y = erfinvGiles(t);
    } else {
      // erfc(y) ~ e^{-y^2} / (y sqrt(pi))  =>  y^2 ~ L - log(pi L) / 2 with L = -log q.
      const L = -Math.log(q);
      y = Math.sqrt(L - 0.5 * Math.log(Math.PI * L));
    }
    for (let it = 0; it < 16; it++) {
      const d = (erfcFraction(y) - q) / (-TWO_OVER_SQRT_PI * expNegSquare(y));
      y -= d / (1 + y * d);
      if (Math.abs(d) <= HALLEY_DONE * y) break;
    }
  }
  return x < 0 ? -y : y;
}

// ---------------------------------------------------------------------------------------------
// Normals, Bernoulli, integers

const F64_NEXT_ABOVE_MINUS_ONE = -1 + 2 ** -53; // nextafter(-1, 0) in float64
const F32_NEXT_ABOVE_MINUS_ONE = Math.fround(-1 + 2 ** -24); // nextafter(-1, 0) in float32

/** n standard normals in float64 as JAX: sqrt(2) * erfinv(uniform(key, (nextafter(-1, 0), 1))). */
export function normalFloat64(key: Uint32Array, n: number, opts?: RandomOptions): Float64Array {
  const u = uniformFloat64(key, n, F64_NEXT_ABOVE_MINUS_ONE, 1, { layout: layoutOf('normalFloat64', opts) });
  for (let i = 0; i < n; i++) u[i] = Math.SQRT2 * erfinv(u[i]!);
  return u;
}

/** n standard normals in float32 as JAX (uniform in float32; erfinv in double, rounded to float32). */
export function normalFloat32(key: Uint32Array, n: number, opts?: RandomOptions): Float32Array {
  const fr = Math.fround;
  const u = uniformFloat32(key, n, F32_NEXT_ABOVE_MINUS_ONE, 1, { layout: layoutOf('normalFloat32', opts) });
  const sqrt2 = fr(Math.SQRT2);
  for (let i = 0; i < n; i++) u[i] = fr(sqrt2 * fr(erfinv(u[i]!)));
  return u;
}

/** Options for bernoulliBits. */
export interface BernoulliOptions extends RandomOptions {
  /** Precision of the uniform compared with p, as JAX's dtype of p; default 'float64'. */
  dtype?: 'float32' | 'float64';
}

/** n Bernoulli(p) draws as 0/1 bytes, JAX's bernoulli: uniform(key, n, dtype(p)) < p. */
export function bernoulliBits(key: Uint32Array, n: number, p: number, opts?: BernoulliOptions): Uint8Array {
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) {
    throw new RangeError(`bernoulliBits: p must be a probability in [0, 1], got ${String(p)}`);
  }
  const dtype = opts?.dtype ?? 'float64';
  if (dtype !== 'float32' && dtype !== 'float64') {
    throw new RangeError(`bernoulliBits: dtype must be 'float32' or 'float64', got ${String(dtype)}`);
  }
  const layout = layoutOf('bernoulliBits', opts);
  const u = dtype === 'float32' ? uniformFloat32(key, n, 0, 1, { layout }) : uniformFloat64(key, n, 0, 1, { layout });
  const pp = dtype === 'float32' ? Math.fround(p) : p;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = u[i]! < pp ? 1 : 0;
  return out;
}

/** (a * b) mod s for integers 0 <= a, b < s <= 2^32, exactly, without leaving 2^53. */
function mulMod(a: number, b: number, s: number): number {
  const bh = Math.floor(b / 65536);
  const bl = b - bh * 65536;
  const r = (a * bh) % s; // a*bh < 2^48
  return (r * 65536 + a * bl) % s; // < 2^49
}

/**
 * Unbiased reduction of the 64-bit word h*2^32 + l to [0, span): returns the word mod span, or -1
 * when the word falls in the final incomplete block [2^64 - (2^64 mod span), 2^64) and must be
 * redrawn (probability < span / 2^64 <= 2^-32). span is an integer in [1, 2^32].
 */
export function reduce64Unbiased(h: number, l: number, span: number): number {
  const m = TWO32 % span; // 2^32 mod span
  if (m === 0) return l % span; // span divides 2^32: every block complete, word mod span = l mod span
  const c = mulMod(m, m, span); // 2^64 mod span
  // Reject iff 2^64 - 1 - word < c; c < 2^32 so this needs h = 0xffffffff.
  if (c !== 0 && h === 0xffffffff && 0xffffffff - l < c) return -1;
  return (mulMod(h % span, m, span) + (l % span)) % span;
}

/**
 * n integers uniform on [lo, hi) (int32 range, hi up to 2^31), exactly unbiased. Draws as JAX's
 * randint: k1, k2 = split(key); high words from random_bits(k1), low words from random_bits(k2);
 * offset = (high * 2^32 + low) mod span, which equals JAX's value whenever span <= 2^16 (JAX's
 * uint32 arithmetic wraps above that). The rare words that would bias the result (< 2^-32 each)
 * are redrawn from threefry(fold_in(fold_in(key, 0xffffffff), attempt), (0, i)).
 */
export function randint(key: Uint32Array, n: number, lo: number, hi: number, opts?: RandomOptions): Int32Array {
  checkKey('randint', key);
  checkCount('randint', 'n', n);
  if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < -2147483648 || hi > 2147483648 || !(lo < hi)) {
    throw new RangeError(
      `randint: need integers -2^31 <= lo < hi <= 2^31, got lo=${String(lo)}, hi=${String(hi)}`,
    );
  }
  const layout = layoutOf('randint', opts);
  const keys = splitKeyData(key, 2, { layout });
  const high = randomBits32(keys.subarray(0, 2), n, { layout });
  const low = randomBits32(keys.subarray(2, 4), n, { layout });
  const span = hi - lo;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let r = reduce64Unbiased(high[i]!, low[i]!, span);
    for (let attempt = 0; r < 0; attempt++) {
      const k = foldIn(foldIn(key, 0xffffffff), attempt);
      fry(k[0]! | 0, k[1]! | 0, (k[0]! ^ k[1]! ^ KS_PARITY) | 0, 0, i | 0);
      r = reduce64Unbiased(OUT0 >>> 0, OUT1 >>> 0, span);
    }
    out[i] = lo + r;
  }
  return out;
}
