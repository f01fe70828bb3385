// Float element formatter of arrays: a port of arrayprint.py's FloatingFormat.
//
// Why this file exists: NumPy looks at all shown elements first to choose
// positional vs scientific notation, the number of digits and the padding that
// aligns the columns; that choice is a piece of logic of its own, used for real
// floats and for each part of complex numbers (array-layout.ts).

import type { PrintOptions } from './options.js';
import { type BinFormat, roundTo } from './binary-float.js';
import { type Trim, formatPositional, formatScientific } from './float-string.js';

export class FloatingFormat {
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
