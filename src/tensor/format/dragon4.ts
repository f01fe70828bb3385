// Dragon4 (Steele & White / Burger & Dybvig), a port with BigInt of NumPy's
// numpy/core/src/multiarray/dragon4.c.
//
// Why this file exists: the decimal digit generator is the exact-arithmetic
// core of float printing, independent of how the digits are laid out
// (float-string.ts) or aligned in an array (floating-format.ts).

import type { Bits } from './binary-float.js';

const LOG10_2 = 0.30102999566398119521373889472449;
const BUFFER_SIZE = 16384;
const POW10: bigint[] = [1n];
function pow10(n: number): bigint {
  while (POW10.length <= n) POW10.push(POW10[POW10.length - 1]! * 10n);
  return POW10[n]!;
}

/**
 * Decimal digits of mantissa * 2^exponent and the decimal exponent of the first one.
 * unique: shortest digits that round-trip (else exact digits); fraction: cutoffs count
 * digits after the point (else total digits); cutoffMax/cutoffMin: -1 for none.
 */
export function dragon4(
  b: Bits,
  unique: boolean,
  fraction: boolean,
  cutoffMax: number,
  cutoffMin: number,
): { digits: string; exp10: number } {
  const { mantissa, exponent } = b;
  if (mantissa === 0n) return { digits: '0', exp10: 0 };
  let scale: bigint, value: bigint, marginLow: bigint;
  const unequal = b.unequalMargins;
  if (unequal) {
    if (exponent > 0) {
      value = mantissa << BigInt(exponent + 2);
      scale = 4n;
      marginLow = 1n << BigInt(exponent);
    } else {
      value = mantissa << 2n;
      scale = 1n << BigInt(-exponent + 2);
      marginLow = 1n;
    }
  } else {
    if (exponent > 0) {
      value = mantissa << BigInt(exponent + 1);
      scale = 2n;
      marginLow = 1n << BigInt(exponent);
    } else {
      value = mantissa << 1n;
      scale = 1n << BigInt(-exponent + 1);
      marginLow = 1n;
    }
  }
  let k = Math.ceil((b.mantissaBit + exponent) * LOG10_2 - 0.69);
  if (cutoffMax >= 0 && fraction && k <= -cutoffMax) k = -cutoffMax + 1;
  if (k > 0) scale *= pow10(k);
  else if (k < 0) {
    const p = pow10(-k);
    value *= p;
    marginLow *= p;
  }
  if (value >= scale) k += 1;
  else {
    value *= 10n;
    marginLow *= 10n;
  }
  let cutoffMaxExp = k - BUFFER_SIZE;
  if (cutoffMax >= 0) {
    const want = fraction ? -cutoffMax : k - cutoffMax;
    if (want > cutoffMaxExp) cutoffMaxExp = want;
  }
  let cutoffMinExp = k;
  if (cutoffMin >= 0) {
    const want = fraction ? -cutoffMin : k - cutoffMin;
    if (want < cutoffMinExp) cutoffMinExp = want;
  }
  let exp10 = k - 1;
  const isEven = (mantissa & 1n) === 0n;
  let digits = '';
  let low = false;
  let high = false;
  let d: number;
  if (unique) {
    for (;;) {
      k -= 1;
      const q = value / scale;
      value -= q * scale;
      d = Number(q);
      const marginHigh = unequal ? marginLow * 2n : marginLow;
      const valueHigh = value + marginHigh;
      low = isEven ? value <= marginLow : value < marginLow;
      high = isEven ? valueHigh >= scale : valueHigh > scale;
      if (((low || high) && k <= cutoffMinExp) || k === cutoffMaxExp) break;
      digits += String(d);
      value *= 10n;
      marginLow *= 10n;
    }
  } else {
    for (;;) {
      k -= 1;
      const q = value / scale;
      value -= q * scale;
      d = Number(q);
      if (value === 0n || k === cutoffMaxExp) break;
      digits += String(d);
      value *= 10n;
    }
  }
  let roundDown = low;
  if (low === high) {
    const twice = value * 2n;
    roundDown = twice < scale;
    if (twice === scale) roundDown = d % 2 === 0;
  }
  if (roundDown) digits += String(d);
  else if (d < 9) digits += String(d + 1);
  else {
    // carry: drop trailing nines, bump the first digit that is not a nine
    let i = digits.length - 1;
    while (i >= 0 && digits[i] === '9') i--;
    if (i < 0) {
      digits = '1';
      exp10 += 1;
    } else digits = digits.slice(0, i) + String(Number(digits[i]) + 1);
  }
  return { digits, exp10 };
}
