// Printing tensors the way NumPy prints arrays.
//
// Why this file exists: people who move between NumPy and rlx read printed
// tensors constantly (REPL, test failures, notebooks), and every small
// difference in layout ("1." vs "1.0", column alignment, when scientific
// notation kicks in, where lines wrap, how big arrays are summarized) costs
// attention. So `formatTensor` reproduces `str(a)` and `reprTensor`
// reproduces `repr(a)` of NumPy 1.24 character for character (with `tensor(`
// in place of `array(`), checked against goldens made by NumPy itself
// (tests/golden/gen_format.py).
//
// It is a port of numpy/core/arrayprint.py (FloatingFormat, _formatArray,
// array_repr...) on top of a port of NumPy's Dragon4 digit generator
// (numpy/core/src/multiarray/dragon4.c) done with BigInt. Digits are generated
// for the value's own format (binary16, bfloat16, binary32, binary64), so a
// float32 0.1 prints "0.1" and not 0.10000000149.

import type { DType } from './dtype.js';
import { ShapeError, ValueError } from './errors.js';

/** How floats are shown: NumPy's `floatmode` print option. */
export type FloatMode = 'fixed' | 'unique' | 'maxprec' | 'maxprec_equal';

/** Print options, same meaning and defaults as `np.set_printoptions`. */
export interface PrintOptions {
  /** Digits after the point (at most, in 'maxprec' mode). */
  precision: number;
  /** Arrays with more elements than this are summarized with `...`. */
  threshold: number;
  /** Items kept at each end of a summarized axis. */
  edgeitems: number;
  /** Characters per line before wrapping. */
  linewidth: number;
  /** Never switch to scientific notation for small numbers (values below 1e-precision print as 0). */
  suppress: boolean;
  /** 'maxprec' (NumPy's default), 'maxprec_equal', 'unique' or 'fixed'. */
  floatmode: FloatMode;
  /** Sign of positive floats: '-' (none), '+' (always) or ' ' (a space). */
  sign: '-' | '+' | ' ';
  /** Text for NaN. */
  nanstr: string;
  /** Text for infinity. */
  infstr: string;
}

const DEFAULTS: PrintOptions = {
  precision: 8,
  threshold: 1000,
  edgeitems: 3,
  linewidth: 75,
  suppress: false,
  floatmode: 'maxprec',
  sign: '-',
  nanstr: 'nan',
  infstr: 'inf',
};

/** Global print options (mutable, like `np.set_printoptions`); per-call overrides go in the last argument. */
export const printOptions: PrintOptions = { ...DEFAULTS };

/** Sets some print options (like `np.set_printoptions`) and returns the previous values of all of them. */
export function setPrintOptions(opts: Partial<PrintOptions>): PrintOptions {
  const prev = { ...printOptions };
  Object.assign(printOptions, checkOptions({ ...printOptions, ...opts }));
  return prev;
}

/** Restores NumPy's default print options. */
export function resetPrintOptions(): void {
  Object.assign(printOptions, DEFAULTS);
}

/** NumPy's `str(a)` for a tensor given as decoded values (complex interleaved re, im; bool as 0/1) in row-major order. */
export function formatTensor(
  values: ArrayLike<number>,
  shape: readonly number[],
  dtype: DType,
  options: Partial<PrintOptions> = {},
): string {
  const opts = checkOptions({ ...printOptions, ...options });
  const t = prepare(values, shape, dtype);
  if (shape.length === 0) return scalarStr(t);
  if (t.size === 0) return '[]';
  return array2string(t, opts, ' ', '', '');
}

/** NumPy's `repr(a)` with `tensor(` for `array(`: `tensor([1., 2.], dtype=float32)`. */
export function reprTensor(
  values: ArrayLike<number>,
  shape: readonly number[],
  dtype: DType,
  options: Partial<PrintOptions> = {},
): string {
  const opts = checkOptions({ ...printOptions, ...options });
  const t = prepare(values, shape, dtype);
  const prefix = 'tensor(';
  const skipDType = IMPLIED_DTYPES.has(dtype) && t.size > 0;
  const suffix = skipDType ? ')' : ',';
  let lst: string;
  if (t.size > 0 || (shape.length === 1 && shape[0] === 0)) {
    lst = t.size === 0 ? '[]' : array2string(t, opts, ', ', prefix, suffix);
  } else {
    lst = `[], shape=${pyTuple(shape)}`;
  }
  const arrStr = prefix + lst + suffix;
  if (skipDType) return arrStr;
  const dtypeStr = `dtype=${dtype})`;
  const lastLineLen = arrStr.length - (arrStr.lastIndexOf('\n') + 1);
  const spacer = lastLineLen + dtypeStr.length + 1 > opts.linewidth ? '\n' + ' '.repeat(prefix.length) : ' ';
  return arrStr + spacer + dtypeStr;
}

// NumPy leaves the dtype out of repr for its default types (float64, complex128,
// bool and the platform int, int64 on Linux, which rlx does not have).
const IMPLIED_DTYPES: ReadonlySet<DType> = new Set<DType>(['float64', 'complex128', 'bool']);

function pyTuple(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
}

function checkOptions(o: PrintOptions): PrintOptions {
  const nonNegInt = (k: 'precision' | 'edgeitems' | 'linewidth') => {
    if (!Number.isInteger(o[k]) || o[k] < 0) throw new ValueError(`printOptions.${k} must be a non-negative integer, got ${o[k]}`);
  };
  nonNegInt('precision');
  nonNegInt('edgeitems');
  nonNegInt('linewidth');
  if (typeof o.threshold !== 'number' || Number.isNaN(o.threshold)) {
    throw new ValueError(`printOptions.threshold must be a number (Infinity to never summarize), got ${o.threshold}`);
  }
  if (!['fixed', 'unique', 'maxprec', 'maxprec_equal'].includes(o.floatmode)) {
    throw new ValueError(`printOptions.floatmode must be one of fixed, unique, maxprec, maxprec_equal, got '${o.floatmode}'`);
  }
  if (!['-', '+', ' '].includes(o.sign)) throw new ValueError(`printOptions.sign must be '-', '+' or ' ', got '${o.sign}'`);
  return o;
}

// ---------------------------------------------------------------------------
// Binary floating-point formats and exact decomposition.

interface BinFormat {
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

function binFormatOf(dtype: DType): BinFormat {
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
function roundTo(v: number, f: BinFormat): number {
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

interface Bits {
  negative: boolean;
  mantissa: bigint;
  exponent: number;
  mantissaBit: number;
  unequalMargins: boolean;
}

/** Splits a finite value of format f into NumPy's Dragon4 inputs (value = mantissa * 2^exponent). */
function floatBits(v: number, f: BinFormat): Bits {
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

// ---------------------------------------------------------------------------
// Dragon4 (Steele & White / Burger & Dybvig), as in NumPy's dragon4.c.

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
function dragon4(
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

type Trim = 'k' | '.' | '0' | '-';

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

function infNan(v: number, sign: boolean): string {
  if (Number.isNaN(v)) return 'nan';
  return (v < 0 ? '-' : sign ? '+' : '') + 'inf';
}

/** np.format_float_positional on a value of format f. */
function formatPositional(v: number, f: BinFormat, o: Partial<DragonOpts>): string {
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
function formatScientific(v: number, f: BinFormat, o: Partial<DragonOpts>): string {
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

// ---------------------------------------------------------------------------
// Element formatters (arrayprint.py: FloatingFormat, ComplexFloatingFormat, ...).

type ElemFormat = (i: number) => string;

class FloatingFormat {
  private precision: number;
  private minDigits = -1;
  private trim: Trim = '.';
  private unique = true;
  private expFormat = false;
  private expSize = -1;
  private padLeft = 0;
  private padRight = 0;

  constructor(
    data: readonly number[],
    private readonly f: BinFormat,
    private readonly opts: PrintOptions,
    private readonly sign: '-' | '+' | ' ',
  ) {
    this.precision = opts.floatmode === 'unique' ? -1 : opts.precision;
    this.fill(data);
  }

  private fill(data: readonly number[]): void {
    const { opts, f } = this;
    const finite = data.filter((x) => Number.isFinite(x));
    let maxVal = -Infinity;
    let minVal = Infinity;
    for (const x of finite) {
      if (x === 0) continue;
      const a = Math.abs(x);
      if (a > maxVal) maxVal = a;
      if (a < minVal) minVal = a;
    }
    if (maxVal > 0) {
      // the ratio is computed in the array's dtype, the comparisons in float64
      if (maxVal >= 1e8 || (!opts.suppress && (minVal < 0.0001 || roundTo(maxVal / minVal, f) > 1000))) {
        this.expFormat = true;
      }
    }
    const plus = this.sign === '+';
    if (finite.length === 0) {
      this.padLeft = 0;
      this.padRight = 0;
      this.trim = '.';
      this.expSize = -1;
      this.unique = true;
      this.minDigits = -1;
    } else if (this.expFormat) {
      let trim: Trim = '.';
      let unique = true;
      if (opts.floatmode === 'fixed') {
        trim = 'k';
        unique = false;
      }
      let expSize = 0;
      let precision = 0;
      let padLeft = 0;
      for (const x of finite) {
        const s = formatScientific(x, f, { precision: this.precision, unique, trim, sign: plus });
        const e = s.indexOf('e');
        const [intPart, fracPart = ''] = s.slice(0, e).split('.');
        expSize = Math.max(expSize, s.length - e - 1);
        precision = Math.max(precision, fracPart.length);
        padLeft = Math.max(padLeft, intPart!.length);
      }
      this.expSize = expSize - 1;
      this.trim = 'k';
      this.precision = precision;
      this.minDigits = precision;
      this.unique = unique;
      this.padLeft = padLeft;
      this.padRight = this.expSize + 2 + this.precision;
    } else {
      let trim: Trim = '.';
      let unique = true;
      if (opts.floatmode === 'fixed') {
        trim = 'k';
        unique = false;
      }
      let padLeft = 0;
      let padRight = 0;
      for (const x of finite) {
        const s = formatPositional(x, f, { precision: this.precision, fractional: true, unique, trim, sign: plus });
        const [intPart, fracPart = ''] = s.split('.');
        padLeft = Math.max(padLeft, intPart!.length);
        padRight = Math.max(padRight, fracPart.length);
      }
      this.padLeft = padLeft;
      this.padRight = padRight;
      this.expSize = -1;
      this.unique = unique;
      if (opts.floatmode === 'fixed' || opts.floatmode === 'maxprec_equal') {
        this.precision = this.minDigits = padRight;
        this.trim = 'k';
      } else {
        this.trim = '.';
        this.minDigits = 0;
      }
    }
    if (this.sign === ' ' && !finite.some((x) => x < 0 || Object.is(x, -0))) this.padLeft += 1;
    if (data.length !== finite.length) {
      const negInf = this.sign !== '-' || data.some((x) => x === -Infinity) ? 1 : 0;
      const offset = this.padRight + 1;
      this.padLeft = Math.max(this.padLeft, opts.nanstr.length - offset, opts.infstr.length + negInf - offset);
    }
  }

  format(x: number): string {
    if (!Number.isFinite(x)) {
      let ret: string;
      if (Number.isNaN(x)) ret = (this.sign === '+' ? '+' : '') + this.opts.nanstr;
      else ret = (x < 0 ? '-' : this.sign === '+' ? '+' : '') + this.opts.infstr;
      return ' '.repeat(Math.max(0, this.padLeft + this.padRight + 1 - ret.length)) + ret;
    }
    const common = {
      precision: this.precision,
      minDigits: this.minDigits,
      unique: this.unique,
      trim: this.trim,
      sign: this.sign === '+',
      padLeft: this.padLeft,
    };
    if (this.expFormat) return formatScientific(x, this.f, { ...common, expDigits: this.expSize });
    return formatPositional(x, this.f, { ...common, fractional: true, padRight: this.padRight });
  }
}

// ---------------------------------------------------------------------------
// Tensor plumbing.

interface Prepared {
  dtype: DType;
  kind: 'b' | 'i' | 'f' | 'c';
  shape: readonly number[];
  size: number;
  /** Scalar i of the storage (complex: 2k is re, 2k+1 is im), rounded to the dtype; read lazily, only shown elements are. */
  val: (i: number) => number;
}

function kindOf(dtype: DType): 'b' | 'i' | 'f' | 'c' {
  switch (dtype) {
    case 'bool':
      return 'b';
    case 'int32':
      return 'i';
    case 'complex64':
    case 'complex128':
      return 'c';
    default:
      return 'f';
  }
}

function prepare(values: ArrayLike<number>, shape: readonly number[], dtype: DType): Prepared {
  for (const n of shape) {
    if (!Number.isInteger(n) || n < 0) throw new ShapeError(`formatTensor: shape ${pyTuple(shape)} has an entry that is not a non-negative integer`);
  }
  const size = shape.reduce((a, b) => a * b, 1);
  const kind = kindOf(dtype);
  const lanes = kind === 'c' ? 2 : 1;
  if (values.length !== size * lanes) {
    throw new ShapeError(
      `formatTensor: shape ${pyTuple(shape)} of ${dtype} needs ${size * lanes} values${lanes === 2 ? ' (re, im interleaved)' : ''}, got ${values.length}`,
    );
  }
  const f = binFormatOf(dtype);
  const val = kind === 'f' || kind === 'c' ? (i: number) => roundTo(values[i]!, f) : (i: number) => values[i]!;
  return { dtype, kind, shape, size, val };
}

/** Flat indices of the elements shown when summarizing (np _leading_trailing). */
function shownIndices(shape: readonly number[], edge: number, summarize: boolean): number[] {
  const out: number[] = [];
  const strides = rowMajorStrides(shape);
  const rec = (axis: number, base: number) => {
    if (axis === shape.length) {
      out.push(base);
      return;
    }
    const n = shape[axis]!;
    const s = strides[axis]!;
    if (summarize && n > 2 * edge) {
      for (let i = 0; i < edge; i++) rec(axis + 1, base + i * s);
      // NumPy slices a[-edge:], which for edgeitems=0 is the whole axis
      for (let i = edge === 0 ? 0 : n - edge; i < n; i++) rec(axis + 1, base + i * s);
    } else for (let i = 0; i < n; i++) rec(axis + 1, base + i * s);
  };
  rec(0, 0);
  return out;
}

function rowMajorStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i]!;
  }
  return strides;
}

/** The element formatter for the shown data (np _get_format_function). */
function formatFunction(t: Prepared, shown: number[], opts: PrintOptions): ElemFormat {
  const { val } = t;
  switch (t.kind) {
    case 'b': {
      const trueStr = t.shape.length === 0 ? 'True' : ' True';
      return (i) => (val(i) !== 0 ? trueStr : 'False');
    }
    case 'i': {
      let width = 0;
      if (shown.length > 0) {
        let mx = -Infinity;
        let mn = Infinity;
        for (const i of shown) {
          mx = Math.max(mx, val(i));
          mn = Math.min(mn, val(i));
        }
        width = Math.max(intStr(mx).length, intStr(mn).length);
      }
      return (i) => intStr(val(i)).padStart(width);
    }
    case 'f': {
      const ff = new FloatingFormat(
        shown.map(val),
        binFormatOf(t.dtype),
        opts,
        opts.sign,
      );
      return (i) => ff.format(val(i));
    }
    case 'c': {
      const f = binFormatOf(t.dtype);
      const re = new FloatingFormat(
        shown.map((i) => val(2 * i)),
        f,
        opts,
        opts.sign,
      );
      const im = new FloatingFormat(
        shown.map((i) => val(2 * i + 1)),
        f,
        opts,
        '+',
      );
      return (i) => {
        const r = re.format(val(2 * i));
        const s = im.format(val(2 * i + 1));
        const sp = s.trimEnd().length;
        return r + s.slice(0, sp) + 'j' + s.slice(sp);
      };
    }
  }
}

function intStr(v: number): string {
  return Object.is(v, -0) ? '0' : String(v);
}

/** np.array2string with the `prefix`/`suffix` accounting array_repr asks for. */
function array2string(t: Prepared, opts: PrintOptions, separator: string, prefix: string, suffix: string): string {
  const lineWidth = opts.linewidth - suffix.length;
  const summarize = t.size > opts.threshold;
  const shown = shownIndices(t.shape, opts.edgeitems, summarize);
  const fmt = formatFunction(t, shown, opts);
  const nextLinePrefix = ' ' + ' '.repeat(prefix.length);
  return formatArray(t.shape, fmt, lineWidth, nextLinePrefix, separator, opts.edgeitems, summarize ? '...' : '');
}

function extendLine(s: string, line: string, word: string, lineWidth: number, nextLinePrefix: string): [string, string] {
  let needsWrap = line.length + word.length > lineWidth;
  if (line.length <= nextLinePrefix.length) needsWrap = false; // wrapping would not help
  if (needsWrap) {
    s += line.trimEnd() + '\n';
    line = nextLinePrefix;
  }
  return [s, line + word];
}

/** np _formatArray: nested brackets, wrapping at lineWidth, summarization. */
function formatArray(
  shape: readonly number[],
  fmt: ElemFormat,
  lineWidth: number,
  nextLinePrefix: string,
  separator: string,
  edgeItems: number,
  summaryInsert: string,
): string {
  const strides = rowMajorStrides(shape);
  const ndim = shape.length;
  const rec = (axis: number, base: number, hangingIndent: string, currWidth: number): string => {
    const axesLeft = ndim - axis;
    if (axesLeft === 0) return fmt(base);
    const nextHangingIndent = hangingIndent + ' ';
    const nextWidth = currWidth - 1;
    const aLen = shape[axis]!;
    const stride = strides[axis]!;
    const showSummary = summaryInsert !== '' && 2 * edgeItems < aLen;
    const leading = showSummary ? edgeItems : 0;
    const trailing = showSummary ? edgeItems : aLen;
    let s = '';
    if (axesLeft === 1) {
      const elemWidth = currWidth - Math.max(separator.trimEnd().length, 1);
      let line = hangingIndent;
      for (let i = 0; i < leading; i++) {
        const word = rec(axis + 1, base + i * stride, nextHangingIndent, nextWidth);
        [s, line] = extendLine(s, line, word, elemWidth, hangingIndent);
        line += separator;
      }
      if (showSummary) {
        [s, line] = extendLine(s, line, summaryInsert, elemWidth, hangingIndent);
        line += separator;
      }
      for (let i = trailing; i > 1; i--) {
        const word = rec(axis + 1, base + (aLen - i) * stride, nextHangingIndent, nextWidth);
        [s, line] = extendLine(s, line, word, elemWidth, hangingIndent);
        line += separator;
      }
      const word = rec(axis + 1, base + (aLen - 1) * stride, nextHangingIndent, nextWidth);
      [s, line] = extendLine(s, line, word, elemWidth, hangingIndent);
      s += line;
    } else {
      const lineSep = separator.trimEnd() + '\n'.repeat(axesLeft - 1);
      for (let i = 0; i < leading; i++) {
        s += hangingIndent + rec(axis + 1, base + i * stride, nextHangingIndent, nextWidth) + lineSep;
      }
      if (showSummary) s += hangingIndent + summaryInsert + lineSep;
      for (let i = trailing; i > 1; i--) {
        s += hangingIndent + rec(axis + 1, base + (aLen - i) * stride, nextHangingIndent, nextWidth) + lineSep;
      }
      s += hangingIndent + rec(axis + 1, base + (aLen - 1) * stride, nextHangingIndent, nextWidth);
    }
    return '[' + s.slice(hangingIndent.length) + ']';
  };
  return rec(0, 0, nextLinePrefix, lineWidth);
}

// ---------------------------------------------------------------------------
// 0-d str: NumPy prints the scalar (np.float32(0.1) -> '0.1', np.complex128(1+2j) -> '(1+2j)').

function scalarFloatStr(v: number, f: BinFormat, trimPos: Trim, trimSci: Trim, sign: boolean): string {
  const a = Math.abs(v);
  if (a === 0 || (a >= 1e-4 && a < 1e16)) return formatPositional(v, f, { fractional: false, trim: trimPos, sign });
  return formatScientific(v, f, { trim: trimSci, sign });
}

function scalarStr(t: Prepared): string {
  const v0 = t.val(0);
  switch (t.kind) {
    case 'b':
      return v0 !== 0 ? 'True' : 'False';
    case 'i':
      return intStr(v0);
    case 'f': {
      const x = v0;
      if (!Number.isFinite(x)) return infNan(x, false);
      return scalarFloatStr(x, binFormatOf(t.dtype), '0', '-', false);
    }
    case 'c': {
      const f = binFormatOf(t.dtype);
      const [re, im] = [v0, t.val(1)];
      const part = (x: number, sign: boolean) => {
        if (Number.isFinite(x)) return scalarFloatStr(x, f, '-', '-', sign);
        if (Number.isNaN(x)) return sign ? '+nan' : 'nan';
        return x > 0 ? (sign ? '+inf' : 'inf') : '-inf';
      };
      if (re === 0 && !Object.is(re, -0)) return part(im, false) + 'j';
      return `(${part(re, false)}${part(im, true)}j)`;
    }
  }
}
