// What every js FFT plan is built from: the factorization of a length into
// the radices the mixed-radix passes implement, accurate unit roots (the
// twiddle factors), and the bounded cache that keeps built plans.
//
// Why a plan: twiddle tables and work arrays cost O(n) to build and to
// allocate, more than the transform itself for small n; a benchmark or a
// batched op calls the same length over and over, so they are built once per
// length and reused (no allocation per row or per call).
//
// Why the cache is keyed by length only, not by precision: both precisions
// compute in float64 (float32/complex64 rows are read into float64 work arrays
// and rounded on output), so one plan serves both.

/**
 * The radices of the mixed-radix passes for n, in the order the passes run:
 * 4s first (the cheapest per element), then one 2 if the power of two is odd,
 * then 3s, 5s and the remaining primes ascending (generic odd-prime radix).
 * The product is n; n = 1 gives no pass.
 */
export function factorize(n: number): number[] {
  const out: number[] = [];
  let m = n;
  while (m % 4 === 0) {
    out.push(4);
    m /= 4;
  }
  if (m % 2 === 0) {
    out.push(2);
    m /= 2;
  }
  for (let p = 3; p * p <= m; p += 2) {
    while (m % p === 0) {
      out.push(p);
      m /= p;
    }
  }
  if (m > 1) out.push(m);
  return out;
}

/** The largest prime factor of n (1 for n = 1). */
export function largestPrimeFactor(n: number): number {
  let m = n,
    big = 1;
  while (m % 2 === 0) {
    big = 2;
    m /= 2;
  }
  for (let p = 3; p * p <= m; p += 2) {
    while (m % p === 0) {
      big = p;
      m /= p;
    }
  }
  return m > 1 ? m : big;
}

/**
 * out[o], out[o+1] = cos, −sin of 2πk/n: e^{−2πik/n}, the forward transform's
 * root. Accurate to about an ulp for every k: k is reduced exactly (integer
 * arithmetic in units of 2π/8n) to an angle in [0, π/4] by the symmetries of
 * cos and sin, so the library cos/sin only ever see small arguments and the
 * rounding of 2πk/n is never amplified by a large k.
 */
export function unitRoot(k: number, n: number, out: Float64Array, o: number): void {
  let a = (k % n) * 8; // angle = 2π a / (8n), exact while 8n < 2^53
  let sinSign = 1,
    cosSign = 1,
    swap = false;
  if (a > 4 * n) {
    a = 8 * n - a; // θ → 2π − θ
    sinSign = -1;
  }
  if (a > 2 * n) {
    a = 4 * n - a; // θ → π − θ
    cosSign = -1;
  }
  if (a > n) {
    a = 2 * n - a; // θ → π/2 − θ
    swap = true;
  }
  const t = (Math.PI * a) / (4 * n);
  const c = Math.cos(t),
    s = Math.sin(t);
  out[o] = cosSign * (swap ? s : c);
  out[o + 1] = -sinSign * (swap ? c : s);
}

/**
 * The table of e^{−2πik/n} for k in [0, n), interleaved (re, im). Only
 * k ≤ n/2 (or n/4 when 4 | n) calls cos/sin; the rest follows exactly by
 * symmetry: e^{−2πi(n−k)/n} = conj(e^{−2πik/n}), e^{−2πi(k+n/4)/n} = −i·e^{−2πik/n}.
 */
export function rootTable(n: number): Float64Array {
  const t = new Float64Array(2 * n);
  const q = n % 4 === 0 ? n / 4 : -1;
  const direct = q >= 0 ? q : Math.floor(n / 2);
  for (let k = 0; k <= direct; k++) unitRoot(k, n, t, 2 * k);
  if (q >= 0) {
    // k in (n/4, n/2]: −i·root(k − n/4) = (im, −re)
    for (let k = q + 1; k <= 2 * q; k++) {
      t[2 * k] = t[2 * (k - q) + 1]!;
      t[2 * k + 1] = -t[2 * (k - q)]!;
    }
  }
  for (let k = Math.floor(n / 2) + 1; k < n; k++) {
    t[2 * k] = t[2 * (n - k)]!;
    t[2 * k + 1] = -t[2 * (n - k) + 1]!;
  }
  return t;
}

/** A built plan: what the cache needs to know of it. */
export interface Sized {
  /** Bytes held by its tables and work arrays (the cache's budget). */
  readonly bytes: number;
}

/**
 * A least-recently-used cache of plans, bounded by count and by bytes. The
 * plan just built or used is always kept, even alone over the byte budget
 * (a transform must run); older ones are dropped first.
 */
export class PlanCache<P extends Sized> {
  private declare readonly map: Map<string, P>;
  private declare bytes: number;

  constructor(
    readonly maxPlans: number,
    readonly maxBytes: number,
  ) {
    this.map = new Map();
    this.bytes = 0;
  }

  /** The plan for key, built by build() on a miss; marks it most recently used. */
  get(key: string, build: () => P): P {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      // Map keeps insertion order: re-inserting makes the key the newest.
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const p = build();
    this.map.set(key, p);
    this.bytes += p.bytes;
    for (const [k, old] of this.map) {
      if (this.map.size <= this.maxPlans && this.bytes <= this.maxBytes) break;
      if (k === key) break;
      this.map.delete(k);
      this.bytes -= old.bytes;
    }
    return p;
  }

  /** The number of plans held (tests). */
  get size(): number {
    return this.map.size;
  }

  /** The bytes held (tests). */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Drops every plan (tests; releasing memory). */
  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }
}
