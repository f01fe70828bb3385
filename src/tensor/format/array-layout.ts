// Laying out an n-d array as text: np.array2string and _formatArray (nested
// brackets, line wrapping at linewidth, summarization with "...") and the
// choice of element formatter per dtype kind (np _get_format_function).
//
// Why this file exists: the layout rules are independent of how a single
// number is written (floating-format.ts, float-string.ts) and are the part of
// arrayprint.py that both str and repr share.

import type { PrintOptions } from './options.js';
import { binFormatOf } from './binary-float.js';
import { FloatingFormat } from './floating-format.js';
import type { Prepared } from './prepared.js';

type ElemFormat = (i: number) => string;

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

export function intStr(v: number): string {
  return Object.is(v, -0) ? '0' : String(v);
}

/** np.array2string with the `prefix`/`suffix` accounting array_repr asks for. */
export function array2string(t: Prepared, opts: PrintOptions, separator: string, prefix: string, suffix: string): string {
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
