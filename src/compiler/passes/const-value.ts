// Recognizing literals seen through broadcasts (reshape/expand of a 'const').
//
// A literal whose value no pass looks at is a *parameter* of the compiled graph
// (compiler/const-params.ts): capture keys it by dtype and shape only and the
// kernels read its value at run time, so `x.mul(Math.random())` compiles once.
// The values the passes do look at (simplify's x*1, x-0, x+(-0), x**2...) stay
// literals keyed by value: SPECIAL_VALUES lists them, and isConst refuses any
// other value so that a new rewrite cannot silently depend on a parameter.

import type { Node } from '../ir.js';

/** Values a pass may test a literal for (the real part; the imaginary part must be 0). */
export const SPECIAL_VALUES: readonly number[] = [0, -0, 1, 2];

const special = (x: number): boolean => x === 0 || x === 1 || x === 2; // 0 === -0

/** Whether a literal value is keyed by value (a pass may rewrite on it) rather than passed as a parameter. */
export function isSpecialLiteral(v: number | readonly number[]): boolean {
  if (typeof v === 'number') return special(v);
  return special(v[0]!) && v[1] === 0;
}

/** The literal value if n is a const, possibly reshaped/expanded; else undefined. */
export function constValue(n: Node): number | number[] | undefined {
  let m = n;
  while (m.op === 'reshape' || m.op === 'expand') m = m.inputs[0]!;
  return m.op === 'const' ? (m.attrs['value'] as number | number[]) : undefined;
}

/** Whether n is a broadcast literal (not a parameter) equal to v (real part v, imaginary part 0 for complex). */
export function isConst(n: Node, v: number): boolean {
  if (!SPECIAL_VALUES.some((s) => Object.is(s, v))) throw new Error(`internal: isConst(${v}): only SPECIAL_VALUES are literals in a compiled graph`);
  let m = n;
  while (m.op === 'reshape' || m.op === 'expand') m = m.inputs[0]!;
  if (m.op !== 'const' || m.attrs['param'] !== undefined) return false;
  const c = m.attrs['value'] as number | number[];
  if (Array.isArray(c)) return Object.is(c[0], v) && c[1] === 0;
  return Object.is(c, v);
}
