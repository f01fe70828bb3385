// Per-op scalar code templates for generated JS kernels: rules as data.
//
// Real rules map argument names to an expression. Complex rules get [re, im]
// name pairs and return statements that define `${o}r`/`${o}i` (complex result)
// or `${o}` (real result). `S` (special functions) and `C`/`CX` (complex math and
// its result registers) are in scope of every generated kernel.
// An op without a rule for a dtype kind is not served by this backend: the
// dispatch contract turns that into a LegalizationError.

import type { ElementwiseOp } from '../../compiler/primitives.js';

type RealRule = (...a: string[]) => string;
type Pair = readonly [string, string];
type ComplexRule = (o: string, ...a: Pair[]) => string;

export interface ScalarRule {
  /** Floating point (float32 results are rounded by the caller). */
  f?: RealRule;
  /** int32 (results must already be int32). */
  i?: RealRule;
  /** bool as 0/1. */
  b?: RealRule;
  c?: ComplexRule;
}

const call = (fn: string): ComplexRule => (o, [ar, ai]) => `C.${fn}(${ar}, ${ai}); const ${o}r = CX[0], ${o}i = CX[1];`;
const same = (r: RealRule): { f: RealRule; i: RealRule; b: RealRule } => ({ f: r, i: r, b: r });
const cmp = (op: string): ScalarRule => same((a, b) => `(${a} ${op} ${b} ? 1 : 0)`);

/** Rules for every elementwise primitive except cast and where (handled by codegen). */
export const JS_RULES: { readonly [P in Exclude<ElementwiseOp, 'cast' | 'where'>]: ScalarRule } = {
  neg: { f: (a) => `-${a}`, i: (a) => `(-${a} | 0)`, c: (o, [r, i]) => `const ${o}r = -${r}, ${o}i = -${i};` },
  abs: { f: (a) => `Math.abs(${a})`, i: (a) => `(Math.abs(${a}) | 0)`, b: (a) => a, c: (o, [r, i]) => `const ${o} = Math.hypot(${r}, ${i});` },
  sign: { f: (a) => `S.sign(${a})`, i: (a) => `Math.sign(${a})`, c: call('csign') },
  exp: { f: (a) => `Math.exp(${a})`, c: call('cexp') },
  log: { f: (a) => `Math.log(${a})`, c: call('clog') },
  log1p: { f: (a) => `Math.log1p(${a})`, c: call('clog1p') },
  expm1: { f: (a) => `Math.expm1(${a})`, c: call('cexpm1') },
  sqrt: { f: (a) => `Math.sqrt(${a})`, c: call('csqrt') },
  rsqrt: { f: (a) => `1 / Math.sqrt(${a})`, c: call('crsqrt') },
  sin: { f: (a) => `Math.sin(${a})`, c: call('csin') },
  cos: { f: (a) => `Math.cos(${a})`, c: call('ccos') },
  tan: { f: (a) => `Math.tan(${a})`, c: call('ctan') },
  tanh: { f: (a) => `Math.tanh(${a})`, c: call('ctanh') },
  sinh: { f: (a) => `Math.sinh(${a})`, c: call('csinh') },
  cosh: { f: (a) => `Math.cosh(${a})`, c: call('ccosh') },
  asin: { f: (a) => `Math.asin(${a})`, c: call('casin') },
  acos: { f: (a) => `Math.acos(${a})`, c: call('cacos') },
  atan: { f: (a) => `Math.atan(${a})`, c: call('catan') },
  floor: { f: (a) => `Math.floor(${a})`, i: (a) => a, b: (a) => a },
  ceil: { f: (a) => `Math.ceil(${a})`, i: (a) => a, b: (a) => a },
  round: { f: (a) => `S.roundHalfEven(${a})`, i: (a) => a, b: (a) => a },
  erf: { f: (a) => `S.erf(${a})` },
  sigmoid: { f: (a) => `S.sigmoid(${a})`, c: call('csigmoid') },
  softplus: { f: (a) => `S.softplus(${a})` },
  gelu: { f: (a) => `S.gelu(${a})` },
  real: { ...same((a) => a), c: (o, [r]) => `const ${o} = ${r};` },
  imag: { ...same(() => '0'), c: (o, [, i]) => `const ${o} = ${i};` },
  conj: { ...same((a) => a), c: (o, [r, i]) => `const ${o}r = ${r}, ${o}i = -${i};` },
  angle: { f: (a) => `Math.atan2(0, ${a})`, c: (o, [r, i]) => `const ${o} = Math.atan2(${i}, ${r});` },
  stopGradient: { ...same((a) => a), c: (o, [r, i]) => `const ${o}r = ${r}, ${o}i = ${i};` },
  logicalNot: { ...same((a) => `(${a} !== 0 ? 0 : 1)`), c: (o, [r, i]) => `const ${o} = (${r} !== 0 || ${i} !== 0) ? 0 : 1;` },

  add: { f: (a, b) => `${a} + ${b}`, i: (a, b) => `(${a} + ${b} | 0)`, b: (a, b) => `(${a} | ${b})`, c: (o, [ar, ai], [br, bi]) => `const ${o}r = ${ar} + ${br}, ${o}i = ${ai} + ${bi};` },
  sub: { f: (a, b) => `${a} - ${b}`, i: (a, b) => `(${a} - ${b} | 0)`, c: (o, [ar, ai], [br, bi]) => `const ${o}r = ${ar} - ${br}, ${o}i = ${ai} - ${bi};` },
  mul: {
    f: (a, b) => `${a} * ${b}`,
    i: (a, b) => `Math.imul(${a}, ${b})`,
    b: (a, b) => `(${a} & ${b})`,
    c: (o, [ar, ai], [br, bi]) => `const ${o}r = ${ar} * ${br} - ${ai} * ${bi}, ${o}i = ${ar} * ${bi} + ${ai} * ${br};`,
  },
  div: { f: (a, b) => `${a} / ${b}`, c: (o, [ar, ai], [br, bi]) => `C.cdiv(${ar}, ${ai}, ${br}, ${bi}); const ${o}r = CX[0], ${o}i = CX[1];` },
  pow: { f: (a, b) => `S.pow(${a}, ${b})`, i: (a, b) => `S.ipow(${a}, ${b})`, c: (o, [ar, ai], [br, bi]) => `C.cpow(${ar}, ${ai}, ${br}, ${bi}); const ${o}r = CX[0], ${o}i = CX[1];` },
  // NumPy's maximum/minimum propagate NaN.
  maximum: { f: (a, b) => `(${a} > ${b} || ${a} !== ${a} ? ${a} : ${b})`, i: (a, b) => `(${a} > ${b} ? ${a} : ${b})`, b: (a, b) => `(${a} | ${b})` },
  minimum: { f: (a, b) => `(${a} < ${b} || ${a} !== ${a} ? ${a} : ${b})`, i: (a, b) => `(${a} < ${b} ? ${a} : ${b})`, b: (a, b) => `(${a} & ${b})` },
  atan2: { f: (a, b) => `Math.atan2(${a}, ${b})` },
  eq: { ...cmp('==='), c: (o, [ar, ai], [br, bi]) => `const ${o} = (${ar} === ${br} && ${ai} === ${bi}) ? 1 : 0;` },
  ne: { ...cmp('!=='), c: (o, [ar, ai], [br, bi]) => `const ${o} = (${ar} !== ${br} || ${ai} !== ${bi}) ? 1 : 0;` },
  lt: cmp('<'),
  le: cmp('<='),
  gt: cmp('>'),
  ge: cmp('>='),
  logicalAnd: { ...same((a, b) => `(${a} !== 0 && ${b} !== 0 ? 1 : 0)`), c: (o, [ar, ai], [br, bi]) => `const ${o} = ((${ar} !== 0 || ${ai} !== 0) && (${br} !== 0 || ${bi} !== 0)) ? 1 : 0;` },
  logicalOr: { ...same((a, b) => `(${a} !== 0 || ${b} !== 0 ? 1 : 0)`), c: (o, [ar, ai], [br, bi]) => `const ${o} = ((${ar} !== 0 || ${ai} !== 0) || (${br} !== 0 || ${bi} !== 0)) ? 1 : 0;` },
  complex: { f: () => 'unused' },
};

/**
 * Which rule slot serves a compute dtype; undefined for int8/uint8, which are
 * storage types computed in int32 (legalization rewrites their ops, so only
 * cast and where, handled by codegen, ever see them).
 */
export function ruleKind(dtype: string): keyof ScalarRule | undefined {
  if (dtype === 'complex64' || dtype === 'complex128') return 'c';
  if (dtype === 'int32') return 'i';
  if (dtype === 'int8' || dtype === 'uint8') return undefined;
  if (dtype === 'bool') return 'b';
  return 'f';
}
