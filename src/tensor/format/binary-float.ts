// The binary floating-point formats a tensor can hold (binary64, binary32,
// binary16, bfloat16) and the exact decomposition of a value into the inputs
// of the Dragon4 digit generator.
//
// Why this file exists: NumPy prints a value with the digits of its own format
// (a float32 0.1 prints "0.1", not 0.10000000149), so values arrive here as
// doubles and must be rounded to, and split in, the format of their dtype.

import type { DType } from '../dtype.js';

export interface BinFormat {
  /** Stored mantissa bits (precision - 1). */
  p: number;
  /** Smallest normal exponent. */
  emin: number;
  /** Largest exponent. */
  emax: number;
}

const F64: BinFormat = { p: 52, emin: -1022, emax: 1023 };
const F32: BinFormat = { p: 23, emin: -126, emax: 127 };
const F16: BinFormat = { p: 10, emin: -14, emax: 15 };
const BF16: BinFormat = { p: 7, emin: -126, emax: 127 };

export function binFormatOf(dtype: DType): BinFormat {
  switch (dtype) {
    case 'float16':
      return F16;
    case 'bfloat16':
      return BF16;
    case 'float32':
    case 'complex64':
      return F32;
    default:
      return F64;
  }
}

const dv = new DataView(new ArrayBuffer(8));

/** v = m * 2^e exactly, m a non-negative integer below 2^53 (v finite). */
function decompose64(v: number): { m: number; e: number } {
  dv.setFloat64(0, v);
  const hi = dv.getUint32(0);
  const lo = dv.getUint32(4);
  const bexp = (hi >>> 20) & 0x7ff;
  const frac = (hi & 0xfffff) * 4294967296 + lo;
  return bexp === 0 ? { m: frac, e: -1074 } : { m: frac + 4503599627370496, e: bexp - 1075 };
}

function bitLength(m: number): number {
  return m >= 4294967296 ? 64 - Math.clz32(Math.floor(m / 4294967296)) : 32 - Math.clz32(m);
}

/** Rounds a double to the nearest value of format f (ties to even), like a cast to that dtype. */
export function roundTo(v: number, f: BinFormat): number {
  if (f === F64 || v === 0 || !Number.isFinite(v)) return v;
  if (f === F32) return Math.fround(v);
  const { m, e } = decompose64(Math.abs(v));
  const E = e + bitLength(m) - 1;
  const q = Math.max(E, f.emin) - f.p;
  const s = Math.abs(v) * 2 ** -q; // exact: a power-of-two scaling
  const fl = Math.floor(s);
  const d = s - fl;
  const r = d > 0.5 || (d === 0.5 && fl % 2 === 1) ? fl + 1 : fl;
  let out = r * 2 ** q;
  const maxFinite = (2 ** (f.p + 1) - 1) * 2 ** (f.emax - f.p);
  if (out > maxFinite) out = Infinity;
  return v < 0 ? -out : out;
}

export interface Bits {
  negative: boolean;
  mantissa: bigint;
  exponent: number;
  mantissaBit: number;
  unequalMargins: boolean;
}

/** Splits a finite value of format f into NumPy's Dragon4 inputs (value = mantissa * 2^exponent). */
export function floatBits(v: number, f: BinFormat): Bits {
  const negative = v < 0 || Object.is(v, -0);
  const { m, e } = decompose64(Math.abs(v));
  if (m === 0) return { negative, mantissa: 0n, exponent: 0, mantissaBit: 0, unequalMargins: false };
  const E = e + bitLength(m) - 1;
  const q = Math.max(E, f.emin) - f.p;
  const mantissa = e >= q ? BigInt(m) << BigInt(e - q) : BigInt(m) >> BigInt(q - e);
  const normal = E >= f.emin;
  const mantissaBit = normal ? f.p : bitLength(Number(mantissa)) - 1;
  const unequalMargins = normal && E !== f.emin && mantissa === 1n << BigInt(f.p);
  return { negative, mantissa, exponent: q, mantissaBit, unequalMargins };
}
