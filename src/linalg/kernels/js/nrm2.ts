// The Euclidean norm of each row of a [b, n] float64 or complex128 array
// (contract.ts, nrm2): the js twin of native/src/lapack/nrm2.cc, computing the
// same bits.
//
// One pass of the plain sum of squares S in 8 lanes (8 independent
// accumulators: V8 keeps them in registers, ~0.6 ms per 10^6 entries where a
// one-accumulator loop takes ~1 ms). S is the answer's square whenever no
// square overflowed and the squares that underflowed cannot matter: each of
// the N squares loses at most 2^-1075 to underflow, so S ≥ N·2^-1021 bounds
// that loss by 2^-54·S. Only an infinite S (an overflowed square or an
// infinite entry) or a tiny one takes a second look: a max pass, then the sum
// of (x·2^e)² with 2^e ≈ 1/max, an exact power of two (no rounding added;
// the result is multiplied back by 2^-e, one rounding). A NaN entry makes S
// NaN, which is the answer (also beside an infinite entry, as NumPy).

import type { FloatArray, LinalgDType } from '../contract.js';
import { checkArgs, checkLength } from './io.js';

export function nrm2(dtype: LinalgDType, b: number, n: number, x: FloatArray, out: FloatArray): void {
  checkArgs('nrm2', dtype, { b, n });
  if (dtype !== 'float64' && dtype !== 'complex128') throw new Error(`linalg nrm2: expects float64 or complex128, got ${dtype}`);
  const len = dtype === 'complex128' ? 2 * n : n; // reals per row
  checkLength('nrm2', 'x', x, b * len, `b=${b}, n=${n}`);
  checkLength('nrm2', 'out', out, b, `b=${b}`);
  for (let r = 0; r < b; r++) out[r] = nrm2Row(x, r * len, len);
}

/** ‖x[off : off + n]‖₂. */
export function nrm2Row(x: FloatArray, off: number, n: number): number {
  const s = sumSquares(x, off, n, 1, false);
  if (s !== s) return s; // NaN
  if (s < Infinity && s >= n * 2 ** -1021) return Math.sqrt(s);
  // Overflowed, infinite entry, tiny, or all zero (n = 0 too).
  const m = maxAbs(x, off, n);
  if (m === 0 || m === Infinity) return m;
  const k = frexpExponent(m); // m = f·2^k, f in [0.5, 1)
  // 2^e with e = -k, clipped so that 2^e and 2^-e are normal: |x·2^e| < 8 and, for subnormal
  // m, ≥ 2^-52; no square overflows or matters underflowing.
  const e = k > 1021 ? -1021 : k < -1022 ? 1022 : -k;
  return Math.sqrt(sumSquares(x, off, n, 2 ** e, true)) * 2 ** -e;
}

/**
 * Σ (x[i]·s)² (scaled) or Σ x[i]² in 8 lanes, element i to lane (i - off) % 8, lanes added
 * ((0+1)+(2+3))+((4+5)+(6+7)) (the native kernel's order).
 */
function sumSquares(x: FloatArray, off: number, n: number, s: number, scaled: boolean): number {
  let a0 = 0,
    a1 = 0,
    a2 = 0,
    a3 = 0,
    a4 = 0,
    a5 = 0,
    a6 = 0,
    a7 = 0;
  const end = off + n;
  let i = off;
  if (!scaled) {
    for (; i + 8 <= end; i += 8) {
      const y0 = x[i]!,
        y1 = x[i + 1]!,
        y2 = x[i + 2]!,
        y3 = x[i + 3]!,
        y4 = x[i + 4]!,
        y5 = x[i + 5]!,
        y6 = x[i + 6]!,
        y7 = x[i + 7]!;
      a0 += y0 * y0;
      a1 += y1 * y1;
      a2 += y2 * y2;
      a3 += y3 * y3;
      a4 += y4 * y4;
      a5 += y5 * y5;
      a6 += y6 * y6;
      a7 += y7 * y7;
    }
  } else {
    for (; i + 8 <= end; i += 8) {
      const y0 = x[i]! * s,
        y1 = x[i + 1]! * s,
        y2 = x[i + 2]! * s,
        y3 = x[i + 3]! * s,
        y4 = x[i + 4]! * s,
        y5 = x[i + 5]! * s,
        y6 = x[i + 6]! * s,
        y7 = x[i + 7]! * s;
      a0 += y0 * y0;
      a1 += y1 * y1;
      a2 += y2 * y2;
      a3 += y3 * y3;
      a4 += y4 * y4;
      a5 += y5 * y5;
      a6 += y6 * y6;
      a7 += y7 * y7;
    }
  }
  // The last n % 8 entries, to lanes 0..6 (x·1 is x: one tail for both cases).
  const sq = (j: number) => {
    const y = x[i + j]! * s;
    return y * y;
  };
  const r = end - i;
  if (r > 0) a0 += sq(0);
  if (r > 1) a1 += sq(1);
  if (r > 2) a2 += sq(2);
  if (r > 3) a3 += sq(3);
  if (r > 4) a4 += sq(4);
  if (r > 5) a5 += sq(5);
  if (r > 6) a6 += sq(6);
  return a0 + a1 + (a2 + a3) + (a4 + a5 + (a6 + a7));
}

/** max |x[i]| of NaN-free x. */
function maxAbs(x: FloatArray, off: number, n: number): number {
  let m = 0;
  for (let i = off; i < off + n; i++) {
    const a = Math.abs(x[i]!);
    if (a > m) m = a;
  }
  return m;
}

const BITS = new Float64Array(1);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HI = new Uint32Array(BITS.buffer, LITTLE_ENDIAN ? 4 : 0, 1); // the word holding sign and exponent

/** k with m = f·2^k, f in [0.5, 1) (C's frexp) for finite m > 0; subnormal m: any k ≤ -1022 (-1022). */
function frexpExponent(m: number): number {
  BITS[0] = m;
  const biased = (HI[0]! >>> 20) & 0x7ff;
  return biased === 0 ? -1022 : biased - 1022;
}
