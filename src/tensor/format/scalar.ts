// 0-d str: NumPy prints the scalar (np.float32(0.1) -> '0.1', np.complex128(1+2j) -> '(1+2j)').
//
// Why this file exists: a 0-d array's str is the str of a NumPy scalar, which
// follows its own rules (repr-like shortest digits, scientific outside
// [1e-4, 1e16)) rather than the array layout of array-layout.ts.

import { type BinFormat, binFormatOf } from './binary-float.js';
import { type Trim, formatPositional, formatScientific, infNan } from './float-string.js';
import { intStr } from './array-layout.js';
import type { Prepared } from './prepared.js';

function scalarFloatStr(v: number, f: BinFormat, trimPos: Trim, trimSci: Trim, sign: boolean): string {
  const a = Math.abs(v);
  if (a === 0 || (a >= 1e-4 && a < 1e16)) return formatPositional(v, f, { fractional: false, trim: trimPos, sign });
  return formatScientific(v, f, { trim: trimSci, sign });
}

export function scalarStr(t: Prepared): string {
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
