// Fused scalar expressions → JS statements. Values live in locals: `v3` for a
// real value, `v3r`/`v3i` for a complex one; float16/bfloat16 values are held
// decoded (as float32 numbers) and encoded only when stored.

import { type DType, isComplex } from '../../tensor/dtype.js';
import { LegalizationError } from '../../tensor/errors.js';
import type { Expr, Instr } from '../../compiler/kernel.js';
import { JS_RULES, ruleKind } from './scalar-rules.js';

export type Val = string | readonly [string, string];

/** A JS literal for a number (keeps -0, NaN and the infinities). */
export function numLit(v: number): string {
  if (Object.is(v, -0)) return '-0';
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  return String(v);
}

const roundTo = (d: DType, e: string): string => (d === 'float32' || d === 'complex64' ? `Math.fround(${e})` : d === 'float16' ? `S.roundF16(${e})` : d === 'bfloat16' ? `S.roundBF16(${e})` : e);

/** Reads element `off` of typed array `arr` holding dtype d. */
export function readElem(arr: string, off: string, d: DType): Val {
  if (isComplex(d)) return [`${arr}[2 * (${off})]`, `${arr}[2 * (${off}) + 1]`];
  if (d === 'float16') return `H[${arr}[${off}]]`;
  if (d === 'bfloat16') return `S.bf16ToF32(${arr}[${off}])`;
  return `${arr}[${off}]`;
}

/** Statement storing v (dtype d) at element `off` of `arr`. */
export function writeElem(arr: string, off: string, v: Val, d: DType): string {
  if (isComplex(d)) return `${arr}[2 * (${off})] = ${(v as [string, string])[0]}; ${arr}[2 * (${off}) + 1] = ${(v as [string, string])[1]};`;
  if (d === 'float16') return `${arr}[${off}] = S.f32ToF16(${v as string});`;
  if (d === 'bfloat16') return `${arr}[${off}] = S.f32ToBF16(${v as string});`;
  return `${arr}[${off}] = ${v as string};`;
}

/** Statements converting value v from dtype `from` to `to` (NumPy astype semantics). */
export function castCode(o: string, v: Val, from: DType, to: DType): { code: string; val: Val } {
  const cf = isComplex(from),
    ct = isComplex(to);
  const re = cf ? (v as [string, string])[0] : (v as string);
  if (ct) {
    const im = cf ? (v as [string, string])[1] : '0';
    return { code: `const ${o}r = ${roundTo(to, re)}, ${o}i = ${roundTo(to, im)};`, val: [`${o}r`, `${o}i`] };
  }
  let e: string;
  if (to === 'bool') e = cf ? `(${re} !== 0 || ${(v as [string, string])[1]} !== 0 ? 1 : 0)` : `(${re} !== 0 ? 1 : 0)`;
  else if (to === 'int32') e = from === 'int32' || from === 'bool' || from === 'int8' || from === 'uint8' ? re : `S.toInt32(${re})`;
  else if (to === 'int8' || to === 'uint8') {
    // Integers wrap to 8 bits (C's conversion); floats go through int32 first (NumPy on x86, dtype.ts floatToInt).
    const exact = from === to || from === 'bool';
    const asInt = from === 'int32' || from === 'int8' || from === 'uint8' || from === 'bool' ? re : `S.toInt32(${re})`;
    e = exact ? re : to === 'int8' ? `((${asInt} << 24) >> 24)` : `(${asInt} & 255)`;
  }
  else e = roundTo(to, re);
  return { code: `const ${o} = ${e};`, val: o };
}

const constVar = (offset: number) => `cv${offset}`;

/** Declarations reading, at kernel entry, the parameter literals the expressions use (from the kernel's argument CV). */
export function declareConsts(...exprs: (Expr | undefined)[]): string {
  const seen = new Set<number>();
  for (const e of exprs) {
    for (const ins of e?.instrs ?? []) {
      if (ins.op !== 'const' || ins.param === undefined) continue;
      seen.add(ins.param);
      if (isComplex(ins.dtype)) seen.add(ins.param + 1);
    }
  }
  return [...seen].map((p) => `const ${constVar(p)} = CV[${p}];`).join('\n');
}

/**
 * Emits the statements of `expr`; `load(i)` gives the value read by load i
 * (already decoded), `acc` the accumulator for epilogues. Returns the result value.
 */
export function emitExpr(expr: Expr, prefix: string, load: (i: number) => Val, acc?: Val): { code: string; result: Val } {
  const lines: string[] = [];
  const vals: Val[] = [];
  expr.instrs.forEach((ins: Instr, k) => {
    const o = `${prefix}${k}`;
    switch (ins.op) {
      case 'load': {
        const v = load(ins.load);
        if (typeof v === 'string') lines.push(`const ${o} = ${v};`), vals.push(o);
        else lines.push(`const ${o}r = ${v[0]}, ${o}i = ${v[1]};`), vals.push([`${o}r`, `${o}i`]);
        return;
      }
      case 'const': {
        const c = ins.value;
        // A parameter is read once at kernel entry (declareConsts); a literal is
        // parenthesized so that a rule's prefix '-' never makes '--1'.
        if (ins.param !== undefined) vals.push(isComplex(ins.dtype) ? [constVar(ins.param), constVar(ins.param + 1)] : constVar(ins.param));
        else if (Array.isArray(c)) vals.push([`(${numLit(c[0]!)})`, `(${numLit(c[1]!)})`]);
        else vals.push(`(${numLit(c as number)})`);
        return;
      }
      case 'acc':
        vals.push(acc!);
        return;
      case 'cast': {
        const from = expr.instrs[ins.args[0]!]!.dtype;
        const r = castCode(o, vals[ins.args[0]!]!, from, ins.dtype);
        lines.push(r.code);
        vals.push(r.val);
        return;
      }
      case 'where': {
        const [c, x, y] = ins.args.map((a) => vals[a]!);
        if (isComplex(ins.dtype)) {
          lines.push(`const ${o}r = ${c} !== 0 ? ${x![0]} : ${y![0]}, ${o}i = ${c} !== 0 ? ${x![1]} : ${y![1]};`);
          vals.push([`${o}r`, `${o}i`]);
        } else {
          lines.push(`const ${o} = ${c} !== 0 ? ${x} : ${y};`);
          vals.push(o);
        }
        return;
      }
      case 'complex': {
        const [a, b] = ins.args.map((x) => vals[x]!);
        lines.push(`const ${o}r = ${a}, ${o}i = ${b};`);
        vals.push([`${o}r`, `${o}i`]);
        return;
      }
      default: {
        const inD = expr.instrs[ins.args[0]!]!.dtype;
        const kind = ruleKind(inD);
        const rule = kind === undefined ? undefined : JS_RULES[ins.op][kind];
        if (!rule) throw new LegalizationError(ins.op, inD, 'js');
        const args = ins.args.map((a) => vals[a]!);
        if (kind === 'c') {
          const crule = rule as (o: string, ...a: (readonly [string, string])[]) => string;
          const tmp = ins.dtype === 'complex64' || ins.dtype === 'float32' ? `${o}_` : o;
          lines.push(crule(tmp, ...(args as [string, string][])));
          if (isComplex(ins.dtype)) {
            if (tmp !== o) lines.push(`const ${o}r = Math.fround(${tmp}r), ${o}i = Math.fround(${tmp}i);`);
            vals.push([`${o}r`, `${o}i`]);
          } else {
            if (tmp !== o) lines.push(`const ${o} = Math.fround(${tmp});`);
            vals.push(o);
          }
        } else {
          const e = (rule as (...a: string[]) => string)(...(args as string[]));
          lines.push(`const ${o} = ${ins.dtype === 'float32' ? `Math.fround(${e})` : e};`);
          vals.push(o);
        }
      }
    }
  });
  return { code: lines.join('\n'), result: vals[vals.length - 1]! };
}

/** Whether the js backend has a scalar rule for this op on this input dtype. */
export function hasRule(op: string, inDType: DType): boolean {
  if (op === 'cast' || op === 'where' || op === 'complex') return true;
  const r = (JS_RULES as unknown as Record<string, Record<string, unknown>>)[op];
  const kind = ruleKind(inDType);
  return !!r && kind !== undefined && r[kind] !== undefined;
}
