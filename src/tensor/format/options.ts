// Print options for tensor formatting: NumPy's set_printoptions, with the same
// meanings and defaults.
//
// Why this file exists: the options are global mutable state shared by every
// formatting call and checked in one place; everything else in ../format/ only
// reads a checked PrintOptions it is handed.

import { ValueError } from '../errors.js';

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

/**
 * Sets some print options (like `np.set_printoptions`) and returns the previous values of all of them.
 * @example
 * ```ts
 * const prev = setPrintOptions({ precision: 3 });
 * tensor([Math.PI, 1]).toString();   // '[3.142 1.   ]'  (NumPy with precision=3)
 * // restore the previous options
 * setPrintOptions(prev);
 * ```
 */
export function setPrintOptions(opts: Partial<PrintOptions>): PrintOptions {
  const prev = { ...printOptions };
  Object.assign(printOptions, checkOptions({ ...printOptions, ...opts }));
  return prev;
}

/**
 * Restores NumPy's default print options.
 * @example
 * ```ts
 * setPrintOptions({ precision: 2 });
 * resetPrintOptions();
 * printOptions.precision;   // 8 (NumPy's default)
 * ```
 */
export function resetPrintOptions(): void {
  Object.assign(printOptions, DEFAULTS);
}

/** Validates a full set of print options (ValueError on a bad one) and returns it. */
export function checkOptions(o: PrintOptions): PrintOptions {
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
