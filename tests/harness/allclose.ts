// Numeric comparison for the parity suite: NumPy's allclose rule
// |actual - expected| <= atol + rtol * |expected|, elementwise, with
//   - NaN equal to NaN (equal_nan=True),
//   - an infinity equal only to the same infinity,
// and a message naming the first mismatching index with both values.
//
// `expectAllclose` throws an AssertionError-like Error; `toBeAllclose` is the same
// check as a vitest matcher: expect(actual).toBeAllclose(expected, {rtol, atol}).

import { expect } from 'vitest';

export interface Tolerance {
  rtol?: number;
  atol?: number;
}

export const DEFAULT_TOL: Required<Tolerance> = { rtol: 1e-12, atol: 1e-12 };

export interface CloseReport {
  pass: boolean;
  message: string;
}

const fmt = (v: number): string => (Object.is(v, -0) ? '-0' : String(v));

/** True when a and b are close under the allclose rule above. */
export function isClose(a: number, b: number, rtol: number, atol: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
  return Math.abs(a - b) <= atol + rtol * Math.abs(b);
}

function toNumbers(x: ArrayLike<number | boolean>): ArrayLike<number> {
  // bool tensors come back as Uint8Array; booleans from tolist() are accepted too.
  if (Array.isArray(x) && x.some((v) => typeof v === 'boolean')) return x.map(Number);
  return x as ArrayLike<number>;
}

/** Compares two flat arrays; never throws. */
export function compareAllclose(actual: ArrayLike<number | boolean>, expected: ArrayLike<number | boolean>, tol: Tolerance = {}): CloseReport {
  const rtol = tol.rtol ?? DEFAULT_TOL.rtol;
  const atol = tol.atol ?? DEFAULT_TOL.atol;
  const a = toNumbers(actual),
    e = toNumbers(expected);
  if (a.length !== e.length) {
    return { pass: false, message: `allclose: length mismatch: actual has ${a.length} values, expected ${e.length}` };
  }
  let bad = 0,
    first = -1;
  for (let i = 0; i < a.length; i++) {
    if (!isClose(a[i]!, e[i]!, rtol, atol)) {
      if (first < 0) first = i;
      bad++;
    }
  }
  if (bad === 0) return { pass: true, message: `allclose: all ${a.length} values within rtol=${rtol}, atol=${atol}` };
  const av = a[first]!,
    ev = e[first]!;
  const show = (x: ArrayLike<number>) =>
    Array.from({ length: Math.min(x.length, 12) }, (_, i) => fmt(x[i]!)).join(', ') + (x.length > 12 ? ', ...' : '');
  return {
    pass: false,
    message:
      `allclose: ${bad} of ${a.length} values differ (rtol=${rtol}, atol=${atol}); first at index ${first}: ` +
      `actual ${fmt(av)}, expected ${fmt(ev)} (|diff| = ${Math.abs(av - ev)})\n` +
      `  actual:   [${show(a)}]\n  expected: [${show(e)}]`,
  };
}

/** Throws with the first mismatching index and values unless actual ≈ expected elementwise. */
export function expectAllclose(actual: ArrayLike<number | boolean>, expected: ArrayLike<number | boolean>, tol: Tolerance = {}): void {
  const r = compareAllclose(actual, expected, tol);
  if (!r.pass) throw new Error(r.message);
}

interface AllcloseMatchers<R = unknown> {
  toBeAllclose(expected: ArrayLike<number | boolean>, tol?: Tolerance): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends AllcloseMatchers<T> {}
}

expect.extend({
  toBeAllclose(received: ArrayLike<number | boolean>, expected: ArrayLike<number | boolean>, tol: Tolerance = {}) {
    const r = compareAllclose(received, expected, tol);
    return {
      pass: r.pass,
      message: () => (r.pass ? `expected values not to be allclose, but ${r.message}` : r.message),
    };
  },
});
