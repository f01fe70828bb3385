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
//
// This module holds the two entry points (str and repr); the machinery lives in
// ./format/: options.ts (print options), binary-float.ts and dragon4.ts (digits),
// float-string.ts and floating-format.ts (one float, a column of floats),
// prepared.ts, array-layout.ts and scalar.ts (the tensor as text).

import type { DType } from './dtype.js';
import { type PrintOptions, checkOptions, printOptions } from './format/options.js';
import { prepare, pyTuple } from './format/prepared.js';
import { array2string } from './format/array-layout.js';
import { scalarStr } from './format/scalar.js';

export type { FloatMode, PrintOptions } from './format/options.js';
export { printOptions, setPrintOptions, resetPrintOptions } from './format/options.js';

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
