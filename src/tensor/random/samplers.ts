// Samplers on top of the raw bits: uniform floats, normals, Bernoulli and
// unbiased integers, each matching JAX's recipe for the same key.
//
// Why this file exists: turning bits into values of a distribution has its own
// rules (float rounding as XLA does it, the largest float below hi, unbiased
// integer reduction with redraws), separate from how the bits are made.

import { type RandomOptions, checkCount, checkKey, layoutOf } from './options.js';
import { foldIn, randomBits32, randomBits64, splitKeyData, threefry2x32 } from './threefry.js';
import { erfinv } from './erfinv.js';

const TWO32 = 4294967296; // local on purpose, like the one in threefry.ts: it is read per element

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
      const w = threefry2x32(k[0]!, k[1]!, 0, i); // threefry(k, (0, i)); i < n < 2^32
      r = reduce64Unbiased(w[0], w[1], span);
    }
    out[i] = lo + r;
  }
  return out;
}
