// One float as a string: NumPy's format_float_positional and
// format_float_scientific on top of Dragon4 digits.
//
// Why this file exists: these two functions own the string-level rules
// (trimming modes, padding, exponent digits) that both the array element
// formatter (floating-format.ts) and 0-d scalars (scalar.ts) use.

import { type BinFormat, floatBits } from './binary-float.js';
import { dragon4 } from './dragon4.js';

export type Trim = 'k' | '.' | '0' | '-';

interface DragonOpts {
  precision: number;
  minDigits: number;
  unique: boolean;
  fractional: boolean;
  trim: Trim;
  sign: boolean;
  padLeft: number;
  padRight: number;
  expDigits: number;
}

const DRAGON_DEFAULTS: DragonOpts = {
  precision: -1,
  minDigits: -1,
  unique: true,
  fractional: true,
  trim: 'k',
  sign: false,
  padLeft: -1,
  padRight: -1,
  expDigits: -1,
};

export function infNan(v: number, sign: boolean): string {
  if (Number.isNaN(v)) return 'nan';
  return (v < 0 ? '-' : sign ? '+' : '') + 'inf';
}

/** np.format_float_positional on a value of format f. */
export function formatPositional(v: number, f: BinFormat, o: Partial<DragonOpts>): string {
  const opt = { ...DRAGON_DEFAULTS, ...o };
  if (!Number.isFinite(v)) return infNan(v, opt.sign);
  const b = floatBits(v, f);
  const signStr = b.negative ? '-' : opt.sign ? '+' : '';
  const { digits, exp10 } = dragon4(b, opt.unique, opt.fractional, opt.precision, opt.minDigits);
  const n = digits.length;
  let buf: string;
  let numWhole: number;
  let numFrac = 0;
  if (exp10 >= 0) {
    numWhole = exp10 + 1;
    if (n <= numWhole) buf = digits + '0'.repeat(numWhole - n);
    else {
      numFrac = n - numWhole;
      buf = digits.slice(0, numWhole) + '.' + digits.slice(numWhole);
    }
  } else {
    const zeros = -(exp10 + 1);
    buf = '0.' + '0'.repeat(zeros) + digits;
    numFrac = n + zeros;
    numWhole = 1;
  }
  if (opt.trim !== '-' && numFrac === 0) buf += '.';
  const addDigits = opt.unique ? opt.minDigits : opt.precision;
  let desired = addDigits < 0 ? 0 : addDigits;
  if (!opt.fractional) desired = addDigits - numWhole;
  if (opt.trim === '0') {
    if (numFrac === 0) {
      buf += '0';
      numFrac++;
    }
  } else if (opt.trim === 'k' && desired > numFrac) {
    buf += '0'.repeat(desired - numFrac);
    numFrac = desired;
  }
  if (opt.trim !== 'k' && numFrac > 0) {
    while (buf.endsWith('0')) {
      buf = buf.slice(0, -1);
      numFrac--;
    }
    if (buf.endsWith('.')) {
      if (opt.trim === '0') {
        buf += '0';
        numFrac++;
      } else if (opt.trim === '-') buf = buf.slice(0, -1);
    }
  }
  if (opt.padRight >= numFrac) {
    if (opt.trim === '-' && numFrac === 0) buf += ' ';
    buf += ' '.repeat(opt.padRight - numFrac);
  }
  const hasSign = signStr.length;
  buf = signStr + buf;
  if (opt.padLeft > numWhole + hasSign) buf = ' '.repeat(opt.padLeft - numWhole - hasSign) + buf;
  return buf;
}

/** np.format_float_scientific on a value of format f. */
export function formatScientific(v: number, f: BinFormat, o: Partial<DragonOpts>): string {
  const opt = { ...DRAGON_DEFAULTS, ...o };
  if (!Number.isFinite(v)) return infNan(v, opt.sign);
  const b = floatBits(v, f);
  const signStr = b.negative ? '-' : opt.sign ? '+' : '';
  const leftChars = 1 + signStr.length;
  let buf = opt.padLeft > leftChars ? ' '.repeat(opt.padLeft - leftChars) : '';
  buf += signStr;
  const { digits, exp10 } = dragon4(
    b,
    opt.unique,
    false,
    opt.precision < 0 ? -1 : opt.precision + 1,
    opt.minDigits < 0 ? -1 : opt.minDigits + 1,
  );
  buf += digits[0];
  let numFrac = digits.length - 1;
  if (numFrac > 0) buf += '.' + digits.slice(1);
  if (opt.trim !== '-' && numFrac === 0) buf += '.';
  let addDigits = opt.unique ? opt.minDigits : opt.precision;
  if (addDigits < 0) addDigits = 0;
  if (opt.trim === '0') {
    if (numFrac === 0) {
      buf += '0';
      numFrac++;
    }
  } else if (opt.trim === 'k' && addDigits > numFrac) {
    buf += '0'.repeat(addDigits - numFrac);
    numFrac = addDigits;
  }
  if (opt.trim !== 'k' && numFrac > 0) {
    while (buf.endsWith('0')) {
      buf = buf.slice(0, -1);
      numFrac--;
    }
    if (opt.trim === '0' && buf.endsWith('.')) {
      buf += '0';
      numFrac++;
    }
  }
  const expDigits = opt.expDigits < 0 ? 2 : Math.min(opt.expDigits, 5);
  buf += 'e' + (exp10 >= 0 ? '+' : '-') + String(Math.abs(exp10)).padStart(expDigits, '0');
  return buf;
}
