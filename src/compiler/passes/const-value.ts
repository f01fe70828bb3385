// Recognizing literals seen through broadcasts (reshape/expand of a 'const').

import type { Node } from '../ir.js';

/** The literal value if n is a const, possibly reshaped/expanded; else undefined. */
export function constValue(n: Node): number | number[] | undefined {
  let m = n;
  while (m.op === 'reshape' || m.op === 'expand') m = m.inputs[0]!;
  return m.op === 'const' ? (m.attrs['value'] as number | number[]) : undefined;
}

/** Whether n is a broadcast literal equal to v (real part v, imaginary part 0 for complex). */
export function isConst(n: Node, v: number): boolean {
  const c = constValue(n);
  if (c === undefined) return false;
  if (Array.isArray(c)) return Object.is(c[0], v) && c[1] === 0;
  return Object.is(c, v);
}
