// Keeping the Krylov solvers' arithmetic finite and in range.
//
// Non-finite input. NaN or ±Inf in b, x0 or A's stored values makes every
// norm and inner product NaN/Inf, and the solvers would then report whatever
// the first test they meet says (an Inf ‖b‖ made every residual "small
// enough": converged, x = 0). So the input is scanned once before the solve:
// under `checkFinite: true` a NonFiniteError names the input and the position,
// otherwise the result says so (SciPy's info < 0 convention: info −1,
// breakdown 'nonfinite', x all NaN, no iterations). An operator known only by
// its action cannot be scanned; a non-finite A x0 is reported the same way by
// the driver (common.ts).
//
// Range. The squared norms and inner products the recurrences use overflow for
// ‖b‖ ≳ 1e154 and underflow for ‖b‖ ≲ 1e-154, although the problem is
// perfectly solvable there. A x = b is linear, so the driver solves
// A (2^k x) = 2^k b with max|2^k b| ≈ 1 and scales x back: powers of two are
// exact, so the iterates are the same numbers up to the exponent. b already
// within [2^-SCALE_EXP, 2^SCALE_EXP] is left alone (no copy, no extra pass).

import type { RawOperator } from '../contract.js';
import { storedValuesOf } from './linear-operator.js';

/** b whose largest magnitude lies outside [2^-SCALE_EXP, 2^SCALE_EXP] is rescaled (squares then stay within 2^±400). */
export const SCALE_EXP = 200;

/** Index of the first NaN/±Inf among the first `len` values of v, or -1. */
export function firstNonFinite(v: ArrayLike<number>, len = v.length): number {
  // x − x is 0 for finite x and NaN otherwise: one branch-free sweep for the common all-finite case.
  let s = 0;
  for (let i = 0; i < len; i++) s += v[i]! - v[i]!;
  if (s === 0) return -1;
  for (let i = 0; i < len; i++) if (!Number.isFinite(v[i]!)) return i;
  return -1;
}

/** Where a non-finite input was found: which input, its position (element index, or [row, col] of A) and the value. */
export interface NonFiniteInput {
  what: 'b' | 'x0' | 'A';
  position: number[];
  value: number;
}

/** Scans b and x0 (interleaved when `cplx`) and A's stored values, when known, in that order. */
export function findNonFiniteInput(b: Float64Array, x0: Float64Array | null, op: RawOperator, cplx: boolean): NonFiniteInput | null {
  const lanes = cplx ? 2 : 1;
  for (const [what, v] of [['b', b], ['x0', x0]] as const) {
    if (!v) continue;
    const i = firstNonFinite(v);
    if (i >= 0) return { what, position: [Math.floor(i / lanes)], value: v[i]! };
  }
  const stored = storedValuesOf(op);
  if (stored) {
    const per = stored.cplx ? 2 : 1;
    const i = firstNonFinite(stored.data, per * stored.count);
    if (i >= 0) return { what: 'A', position: stored.at(Math.floor(i / per)), value: stored.data[i]! };
  }
  return null;
}

/**
 * The power of two k that brings max|b| to about 1, or 0 when b is already in
 * range (or zero). b must be finite.
 */
export function scaleExponent(b: Float64Array): number {
  let big = 0;
  for (let i = 0; i < b.length; i++) {
    const a = Math.abs(b[i]!);
    if (a > big) big = a;
  }
  if (big === 0 || (big >= 2 ** -SCALE_EXP && big <= 2 ** SCALE_EXP)) return 0;
  return -Math.round(Math.log2(big));
}
