// Scalar expressions in WGSL, shared by the webgpu kernel generators
// (wgsl-elementwise.ts, wgsl-reduce.ts): literals, per-op rules per dtype,
// casts and NumPy truthiness, and the emission of a fused expression
// (compiler/kernel.ts Expr) as `let` statements. Values are WGSL f32, i32 or
// bool; storage is f32 or i32 (bool and 8-bit storage would need packed
// bytes, float16 needs `shader-f16`, float64 and complex have no WGSL type):
// anything else is a LegalizationError naming the op and dtype.

import type { DType } from '../../tensor/dtype.js';
import { LegalizationError } from '../../tensor/errors.js';
import type { Instr } from '../../compiler/kernel.js';
import { bf16BitsToF32, f16BitsToF32, f32ToBf16Bits, f32ToF16Bits } from '../../tensor/half.js';
import { F_SPECIAL, I_SPECIAL, SPECIAL_WGSL, specialWgslFor } from './wgsl-special.js';

/**
 * What a buffer element is on the GPU, per dtype: one 32-bit word each (WGSL
 * storage has no 8- or 16-bit type without extensions): bool as u32 0/1, int8
 * and uint8 as their i32 values, float16 and bfloat16 as their 16 bits in a
 * u32 (host transfers widen and narrow them: index.ts).
 */
export const STORAGE: Partial<Record<DType, string>> = { float32: 'f32', int32: 'i32', bool: 'u32', int8: 'i32', uint8: 'i32', float16: 'u32', bfloat16: 'u32' };
/**
 * What a value is inside a kernel. int8/uint8 values are i32 and float16/
 * bfloat16 values f32 (holding a value of the narrow type): their arithmetic is
 * rewritten to int32/float32 before (dispatch: 'rewrite'), as on the CPU
 * backends, so results are the CPU's; `shader-f16` arithmetic is not used.
 */
const VALUE: Partial<Record<DType, string>> = { float32: 'f32', int32: 'i32', bool: 'bool', int8: 'i32', uint8: 'i32', float16: 'f32', bfloat16: 'f32' };
const SMALL_INT = (d: DType) => d === 'int8' || d === 'uint8';
const HALF = (d: DType) => d === 'float16' || d === 'bfloat16';

/** A value of dtype d as its storage word (bool → 0u/1u, halves → their bits; the others as they are). */
export function toStorage(v: string, d: DType): string {
  if (d === 'bool') return `select(0u, 1u, ${v})`;
  if (d === 'float16') return `rlx_to_f16(${v})`;
  if (d === 'bfloat16') return `rlx_to_bf16(${v})`;
  return v;
}
/** A storage word of dtype d as its value. */
export function fromStorage(w: string, d: DType): string {
  if (d === 'bool') return `(${w} != 0u)`;
  if (d === 'float16') return `rlx_from_f16(${w})`;
  if (d === 'bfloat16') return `bitcast<f32>(${w} << 16u)`;
  return w;
}

/**
 * float32 ↔ float16/bfloat16 bits, as tensor/half.ts: round to nearest even,
 * overflow to ±inf, NaN to a quiet NaN; f16 subnormals exact both ways.
 */
export const HALF_WGSL = `fn rlx_to_f16(x: f32) -> u32 {
  let b = bitcast<u32>(x);
  let sign = (b >> 16u) & 0x8000u;
  let a = b & 0x7fffffffu;
  if (a > 0x7f800000u) { return sign | 0x7e00u; }
  if (a >= 0x477ff000u) { return sign | 0x7c00u; } // |x| >= 65520 (the tie above 65504) and inf
  if (a < 0x38800000u) { return sign | u32(round(bitcast<f32>(a) * 16777216.0)); } // < 2^-14: subnormal, quantum 2^-24 (exact product)
  return sign | ((a + 0xfffu + ((a >> 13u) & 1u) - 0x38000000u) >> 13u);
}
fn rlx_from_f16(h: u32) -> f32 {
  let sign = (h & 0x8000u) << 16u;
  let e = (h >> 10u) & 0x1fu;
  let m = h & 0x3ffu;
  if (e == 0u) { return bitcast<f32>(sign | bitcast<u32>(f32(m) * 5.9604644775390625e-8)); }
  if (e == 31u) { return bitcast<f32>(sign | 0x7f800000u | (m << 13u)); }
  return bitcast<f32>(sign | ((e + 112u) << 23u) | (m << 13u));
}
fn rlx_to_bf16(x: f32) -> u32 {
  let u = bitcast<u32>(x);
  if ((u & 0x7fffffffu) > 0x7f800000u) { return (u >> 16u) | 0x40u; }
  return (u + 0x7fffu + ((u >> 16u) & 1u)) >> 16u;
}`;

export const wgslType = (d: DType, what: string, op: string): string => {
  const t = VALUE[d];
  if (t === undefined) throw new LegalizationError(op, d, 'webgpu', `${what}: WGSL has no ${d}`);
  return t;
};

/**
 * Module-scope bits of the float32 values WGSL cannot write as literals (NaN,
 * ±inf; -0 too, to keep its sign): read through a private variable, since a
 * bitcast of a constant is constant-evaluated, and WGSL rejects inf and NaN
 * there.
 */
const SPECIAL_BITS = `var<private> RLX_SPECIAL: vec4u = vec4u(0x7fc00000u, 0x7f800000u, 0xff800000u, 0x80000000u);
${HALF_WGSL}`;

/** What a generated module starts with when its expressions are not known: SPECIAL_BITS and every special function. */
export const PRELUDE = `${SPECIAL_BITS}\n${SPECIAL_WGSL}`;

/**
 * The prelude of a module computing these expressions: SPECIAL_BITS and only
 * the special functions (wgsl-special.ts) their rules call; each unused one
 * would cost its compile (about 5 ms a pipeline on llvmpipe for all of them).
 */
export function preludeFor(...instrs: (readonly Instr[] | undefined)[]): string {
  const calls: string[] = [];
  for (const list of instrs) {
    for (const ins of list ?? []) {
      if (ins.op === 'load' || ins.op === 'const' || ins.op === 'acc') continue;
      const d0 = list![ins.args[0]!]!.dtype;
      const rule = (d0 === 'float32' ? F_SPECIAL : d0 === 'int32' ? I_SPECIAL : undefined)?.[ins.op];
      if (rule !== undefined) calls.push(rule('a', 'b'));
    }
  }
  const fns = specialWgslFor(calls.join('\n'));
  return fns === '' ? SPECIAL_BITS : `${SPECIAL_BITS}\n${fns}`;
}

/** A WGSL literal of dtype d (float32 special values from PRELUDE). */
export function literal(v: number, d: DType): string {
  if (d === 'bool') return v !== 0 ? 'true' : 'false';
  if (d === 'int32' || SMALL_INT(d)) return `i32(${v | 0})`;
  if (d === 'float16') return literal(f16BitsToF32(f32ToF16Bits(v)), 'float32');
  if (d === 'bfloat16') return literal(bf16BitsToF32(f32ToBf16Bits(Math.fround(v))), 'float32');
  const f = Math.fround(v);
  if (Number.isNaN(f)) return 'bitcast<f32>(RLX_SPECIAL.x)';
  if (f === Infinity) return 'bitcast<f32>(RLX_SPECIAL.y)';
  if (f === -Infinity) return 'bitcast<f32>(RLX_SPECIAL.z)';
  if (Object.is(f, -0)) return 'bitcast<f32>(RLX_SPECIAL.w)';
  // Exact float32 value as a decimal WGSL can parse (toPrecision(9) round-trips float32).
  return `f32(${f.toPrecision(9).replace(/\.?0+e/, 'e').replace(/^(-?\d+)$/, '$1.0')})`;
}

type Rule = (...a: string[]) => string;
/** Rules spelled the same for f32 and i32 (WGSL's i32 +, −, × wrap like int32). */
const NUMERIC: Record<string, Rule> = {
  stopGradient: (a) => a,
  real: (a) => a,
  conj: (a) => a,
  add: (a, b) => `(${a} + ${b})`,
  sub: (a, b) => `(${a} - ${b})`,
  mul: (a, b) => `(${a} * ${b})`,
};
/** Real float32 rules (NumPy semantics where WGSL differs: NaN-propagating max/min). */
const F: Record<string, Rule> = {
  neg: (a) => `-${a}`,
  abs: (a) => `abs(${a})`,
  sign: (a) => `sign(${a})`,
  log: (a) => `log(${a})`,
  sqrt: (a) => `sqrt(${a})`,
  rsqrt: (a) => `(1.0 / sqrt(${a}))`,
  sin: (a) => `sin(${a})`,
  cos: (a) => `cos(${a})`,
  tan: (a) => `tan(${a})`,
  tanh: (a) => `tanh(${a})`,
  sinh: (a) => `sinh(${a})`,
  cosh: (a) => `cosh(${a})`,
  asin: (a) => `asin(${a})`,
  acos: (a) => `acos(${a})`,
  atan: (a) => `atan(${a})`,
  floor: (a) => `floor(${a})`,
  ceil: (a) => `ceil(${a})`,
  round: (a) => `round(${a})`, // WGSL's round is half to even, as NumPy's
  ...NUMERIC,
  div: (a, b) => `(${a} / ${b})`,
  maximum: (a, b) => `select(${b}, ${a}, ${a} > ${b} || ${a} != ${a})`,
  minimum: (a, b) => `select(${b}, ${a}, ${a} < ${b} || ${a} != ${a})`,
  // WGSL leaves atan2(±0, ±0) undefined (llvmpipe gives 3π/4); C/NumPy: ±0 for x = +0, ±π for x = −0.
  atan2: (a, b) =>
    `select(atan2(${a}, ${b}), select(${a}, select(3.14159274, -3.14159274, (bitcast<u32>(${a}) >> 31u) == 1u), (bitcast<u32>(${b}) >> 31u) == 1u), ${a} == 0.0 && ${b} == 0.0)`,
  // log1p, expm1, erf, softplus, gelu, pow: own WGSL functions (wgsl-special.ts says why); imag, angle.
  ...F_SPECIAL,
};
/** int32 rules (WGSL i32 arithmetic wraps like int32). */
const I: Record<string, Rule> = {
  neg: (a) => `-${a}`,
  abs: (a) => `abs(${a})`,
  sign: (a) => `sign(${a})`,
  floor: (a) => a,
  ceil: (a) => a,
  round: (a) => a,
  ...NUMERIC,
  maximum: (a, b) => `max(${a}, ${b})`,
  minimum: (a, b) => `min(${a}, ${b})`,
  ...I_SPECIAL,
};
/** bool rules (values held as WGSL bool). */
const B: Record<string, Rule> = {
  logicalNot: (a) => `!${a}`,
  stopGradient: (a) => a,
  // As the js backend's bool slots: a bool is its own abs, floor, ceil, round, real and conj; imag is false.
  abs: (a) => a,
  floor: (a) => a,
  ceil: (a) => a,
  round: (a) => a,
  real: (a) => a,
  conj: (a) => a,
  imag: () => 'false',
  add: (a, b) => `(${a} || ${b})`,
  mul: (a, b) => `(${a} && ${b})`,
  maximum: (a, b) => `(${a} || ${b})`,
  minimum: (a, b) => `(${a} && ${b})`,
  logicalAnd: (a, b) => `(${a} && ${b})`,
  logicalOr: (a, b) => `(${a} || ${b})`,
};
const CMP: Record<string, string> = { eq: '==', ne: '!=', lt: '<', le: '<=', gt: '>', ge: '>=' };

/** Whether the webgpu backend has a rule for `op` on inputs of dtype `d` (the dispatch question). */
export function hasWgslRule(op: string, d: DType): boolean {
  if (VALUE[d] === undefined) return false;
  if (op === 'cast' || op === 'where') return true;
  if (SMALL_INT(d) || HALF(d)) return false; // their arithmetic is rewritten to int32/float32 (dispatch: 'rewrite')
  if (op in CMP) return true;
  if ((op === 'logicalAnd' || op === 'logicalOr' || op === 'logicalNot') && d !== 'bool') return true;
  return op in (d === 'float32' ? F : d === 'int32' ? I : B);
}

/** A value as bool (NumPy truthiness). */
export const truth = (v: string, d: DType): string => (d === 'bool' ? v : d === 'float32' || HALF(d) ? `(${v} != 0.0)` : `(${v} != 0i)`);

export function cast(v: string, from: DType, to: DType): string {
  if (from === to) return v;
  if (to === 'bool') return truth(v, from);
  if (from === 'bool') return to === 'float32' ? `select(0.0, 1.0, ${v})` : `select(0i, 1i, ${v})`;
  // int8/uint8: the int32 value wrapped to 8 bits, as a store into an Int8Array/Uint8Array does.
  if (to === 'int8') return `((${cast(v, from, 'int32')} << 24u) >> 24u)`;
  if (to === 'uint8') return `(${cast(v, from, 'int32')} & 255i)`;
  if (SMALL_INT(from)) return to === 'int32' ? v : `${wgslType(to, 'cast', 'cast')}(${v})`;
  // float16/bfloat16 values are f32 holding the narrow value: a cast to one rounds, a cast from one reads it as float32.
  if (to === 'float16') return `rlx_from_f16(rlx_to_f16(${cast(v, from, 'float32')}))`;
  if (to === 'bfloat16') return `bitcast<f32>(rlx_to_bf16(${cast(v, from, 'float32')}) << 16u)`;
  if (HALF(from)) return cast(v, 'float32', to);
  return `${wgslType(to, 'cast', 'cast')}(${v})`;
}

/**
 * The WGSL statements of the expression, instruction j's value in `{prefix}{j}`;
 * `readLoad(i)` reads load i, `acc` is the accumulator an epilogue reads.
 */
export function emit(instrs: readonly Instr[], prefix: string, readLoad: (i: number) => string, acc?: string): string {
  const out: string[] = [];
  instrs.forEach((ins, j) => {
    const t = wgslType(ins.dtype, 'value', ins.op);
    let e: string;
    if (ins.op === 'load') e = fromStorage(readLoad(ins.load), ins.dtype);
    else if (ins.op === 'const') {
      if (Array.isArray(ins.value)) throw new LegalizationError('const', ins.dtype, 'webgpu', 'complex literal');
      // Run-time literals: K holds each one's bits in its own type (constBits), so int32 values stay exact.
      e = ins.param !== undefined ? (ins.dtype === 'float32' || HALF(ins.dtype) ? `bitcast<f32>(K[${ins.param}])` : ins.dtype === 'int32' || SMALL_INT(ins.dtype) ? `bitcast<i32>(K[${ins.param}])` : `(K[${ins.param}] != 0u)`) : literal(ins.value as number, ins.dtype);
    } else if (ins.op === 'acc') {
      if (acc === undefined) throw new LegalizationError('acc', ins.dtype, 'webgpu', 'an accumulator outside a reduction');
      e = acc;
    } else {
      const a = ins.args.map((k) => `${prefix}${k}`);
      const d0 = instrs[ins.args[0]!]!.dtype;
      if (ins.op === 'cast') e = cast(a[0]!, d0, ins.dtype);
      else if (ins.op === 'where') e = `select(${a[2]}, ${a[1]}, ${truth(a[0]!, d0)})`;
      // WGSL orders no bools: compare them as 0/1 (== and != work on bool as they are).
      else if (ins.op in CMP) e = d0 === 'bool' && ins.op !== 'eq' && ins.op !== 'ne' ? `(select(0i, 1i, ${a[0]}) ${CMP[ins.op]} select(0i, 1i, ${a[1]}))` : `(${a[0]} ${CMP[ins.op]} ${a[1]})`;
      else if ((ins.op === 'logicalAnd' || ins.op === 'logicalOr') && d0 !== 'bool') e = `(${truth(a[0]!, d0)} ${ins.op === 'logicalAnd' ? '&&' : '||'} ${truth(a[1]!, instrs[ins.args[1]!]!.dtype)})`;
      else if (ins.op === 'logicalNot' && d0 !== 'bool') e = `!${truth(a[0]!, d0)}`;
      else {
        const rule = (d0 === 'float32' ? F : d0 === 'int32' ? I : B)[ins.op];
        if (rule === undefined) throw new LegalizationError(ins.op, d0, 'webgpu', 'no WGSL rule');
        e = rule(...a);
      }
    }
    out.push(`  let ${prefix}${j}: ${t} = ${e};`);
  });
  return out.join('\n');
}

/** The run-time literals an expression reads: [offset in the constant vector, dtype]. */
export function constParams(...instrs: (readonly Instr[] | undefined)[]): [number, DType][] {
  const out: [number, DType][] = [];
  for (const list of instrs) for (const i of list ?? []) if (i.op === 'const' && i.param !== undefined) out.push([i.param, i.dtype]);
  return out;
}

/** The u32 words of the K binding: each run-time literal's bits in its own WGSL type. */
export function constBits(consts: Float64Array, params: readonly (readonly [number, DType])[]): Uint32Array {
  const words = new Uint32Array(Math.max(1, consts.length));
  const f = new Float32Array(words.buffer);
  const i = new Int32Array(words.buffer);
  for (const [p, d] of params) {
    const v = consts[p]!;
    if (d === 'float32') f[p] = v;
    else if (d === 'float16') f[p] = f16BitsToF32(f32ToF16Bits(v));
    else if (d === 'bfloat16') f[p] = bf16BitsToF32(f32ToBf16Bits(Math.fround(v)));
    else if (d === 'int32' || SMALL_INT(d)) i[p] = v | 0;
    else words[p] = v !== 0 ? 1 : 0;
  }
  return words;
}

/**
 * The binding declarations every generated kernel starts with: 0 the output,
 * 1..n the input slots (`S{slot}`), then P (i32 sizes and strides) and, when
 * used, K (run-time literal bits). First the prelude: given the kernel's
 * expressions (`exprs`), only the special functions they call (preludeFor);
 * else PRELUDE, with all of them.
 */
export function declareBindings(outType: string, inputSlots: readonly number[], slotType: (slot: number) => string, usesConsts: boolean, exprs?: readonly (readonly Instr[] | undefined)[]): string[] {
  const n = inputSlots.length;
  return [
    exprs === undefined ? PRELUDE : preludeFor(...exprs),
    `@group(0) @binding(0) var<storage, read_write> OUT: array<${outType}>;`,
    ...inputSlots.map((s, b) => `@group(0) @binding(${b + 1}) var<storage, read> S${s}: array<${slotType(s)}>;`),
    `@group(0) @binding(${n + 1}) var<storage, read> P: array<i32>;`,
    ...(usesConsts ? [`@group(0) @binding(${n + 2}) var<storage, read> K: array<u32>;`] : []),
  ];
}
