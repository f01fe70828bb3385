// The complex transform of the js FFT kernels: which algorithm a length gets
// (mixed radix or Bluestein), the plan cache, and the c2c kernel over rows.
//
// Every row is copied into the plan's float64 work array (conjugated for the
// inverse: x = conj(FFT(conj(X))) with the unnormalized sums of the contract),
// transformed, and copied out (conjugated again, rounded for complex64). The
// copies are where the precision changes, so both precisions run the same
// float64 code and a complex64 result is the correctly computed sum rounded
// once.

import { BluesteinPlan } from './bluestein.js';
import { MixedPlan } from './mixed-radix.js';
import { PlanCache, largestPrimeFactor } from './plan.js';
import type { FloatArray } from '../contract.js';

/** A complex plan: the input goes in a, forward() returns the array holding the result. */
export type ComplexPlan = MixedPlan | BluesteinPlan;

/**
 * pocketfft's cost model (numpy.fft's engine): a pass of radix r costs about
 * r per element, a bit more for the generic radices; Bluestein costs two
 * power-of-two transforms of length M plus the pointwise work (the 1.5). A
 * length runs Bluestein only when that is cheaper, which keeps every length
 * O(n log n) and small or smooth lengths on the direct passes.
 */
function costGuess(n: number): number {
  let m = n,
    c = 0;
  while (m % 2 === 0) {
    c += 2;
    m /= 2;
  }
  for (let p = 3; p * p <= m; p += 2)
    while (m % p === 0) {
      c += p <= 5 ? p : 1.1 * p;
      m /= p;
    }
  if (m > 1) c += m <= 5 ? m : 1.1 * m;
  return c * n;
}

/** Whether length n runs Bluestein rather than the mixed-radix passes. */
export function usesBluestein(n: number): boolean {
  const big = largestPrimeFactor(n);
  if (n < 50 || big * big <= n) return false;
  let m = 1;
  while (m < 2 * n - 1) m *= 2;
  return 1.5 * 2 * costGuess(m) < costGuess(n);
}

/** A fresh complex plan for n (real.ts keeps private ones inside its plans). */
export function buildComplexPlan(n: number): ComplexPlan {
  return usesBluestein(n) ? new BluesteinPlan(n) : new MixedPlan(n);
}

/**
 * Built plans, complex and real (real.ts), least recently used dropped
 * first: 64 lengths or 256 MiB (a 2^20 complex plan holds about 48 MiB).
 */
export const PLANS = new PlanCache<{ readonly bytes: number }>(64, 256 * 2 ** 20);

/** The cached complex plan of length n. */
export function complexPlan(n: number): ComplexPlan {
  return PLANS.get(`c${n}`, () => buildComplexPlan(n)) as ComplexPlan;
}

/** Copies count complex values of src from offset into dst (from 0), conjugated if conj. */
export function load(src: FloatArray, offset: number, dst: Float64Array, count: number, conj: boolean): void {
  const len = 2 * count;
  if (conj) {
    for (let i = 0; i < len; i += 2) {
      dst[i] = src[offset + i]!;
      dst[i + 1] = -src[offset + i + 1]!;
    }
  } else copyIn(src, offset, dst, len);
}

/**
 * dst[0, len) = src[offset, offset + len). A memcpy through a subarray view for
 * long float64 rows; a loop otherwise, so short rows allocate no view per row.
 */
export function copyIn(src: FloatArray, offset: number, dst: Float64Array, len: number): void {
  if (len >= 1024 && src instanceof Float64Array) dst.set(src.subarray(offset, offset + len));
  else for (let i = 0; i < len; i++) dst[i] = src[offset + i]!;
}

/** Copies count complex values of src (from 0) into dst from offset, conjugated if conj. */
export function store(src: Float64Array, dst: FloatArray, offset: number, count: number, conj: boolean): void {
  const len = 2 * count;
  if (conj) {
    for (let i = 0; i < len; i += 2) {
      dst[offset + i] = src[i]!;
      dst[offset + i + 1] = -src[i + 1]!;
    }
  } else {
    // Float32Array.set rounds each value to nearest, as an element store does.
    dst.set(len === src.length ? src : src.subarray(0, len), offset);
  }
}

/** The c2c kernel: batch rows of n complex values, forward or unnormalized inverse. */
export function c2cRows(batch: number, n: number, x: FloatArray, out: FloatArray, inverse: boolean): void {
  const plan = complexPlan(n);
  for (let b = 0; b < batch; b++) {
    const off = 2 * n * b;
    load(x, off, plan.a, n, inverse);
    store(plan.forward(), out, off, n, inverse);
  }
}
