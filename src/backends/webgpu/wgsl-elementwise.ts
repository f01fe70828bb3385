// WGSL for fused elementwise kernels (compiler/kernel.ts ElementwiseKernel),
// the first kernel kind of the webgpu backend (issue 19). The same kernel
// description the js backend turns into JS (backends/js/codegen-loops.ts
// genElementwise) becomes one compute shader: invocation i computes output
// element i; each load reads its slot at base + Σ idx_k·stride_k over the
// output's multi-index (the strides of its view chain, resolved per binding
// of the dims by compiler/view.ts), or at i itself when every load is
// contiguous or a broadcast scalar (the js backend's "collapsed" case, no
// index decomposition).
//
// Bindings: 0 the output, 1..L the loads' slots (one binding per distinct
// slot), then P (i32 sizes and strides, resolved per dims binding) and, when
// the expression has run-time literals, K (their f32 values, from the
// executable's constant vector). WGSL has f32, i32, u32 and bool; storage
// here is float32 and int32 only (bool and 8-bit storage need packed bytes,
// float16 needs `shader-f16`, float64/complex have no WGSL type): anything
// else throws LegalizationError naming the op and dtype, as does an op
// without a WGSL rule below.

import type { DType } from '../../tensor/dtype.js';
import { LegalizationError } from '../../tensor/errors.js';
import { resolveShape, type Dim } from '../../tensor/shape.js';
import type { ElementwiseKernel, Instr, Load } from '../../compiler/kernel.js';
import { resolveChain } from '../../compiler/view.js';
import type { DimEnv } from '../backend.js';

/** One compute shader and how to bind and size it. */
export interface WgslKernel {
  code: string;
  /** Invocations per workgroup. */
  workgroupSize: number;
  /** Buffer slots in binding order after the output (binding 0 = `out`). */
  inputSlots: number[];
  out: number;
  /** Whether binding inputSlots.length + 2 is the f32 constant vector. */
  usesConsts: boolean;
  /** The i32 parameter vector for one binding of the dims (its first entry is the element count). */
  params(env: DimEnv): Int32Array;
}

const WG = 256;
const STORAGE: Partial<Record<DType, string>> = { float32: 'f32', int32: 'i32' };
const VALUE: Partial<Record<DType, string>> = { float32: 'f32', int32: 'i32', bool: 'bool' };

const wgslType = (d: DType, what: string, op: string): string => {
  const t = VALUE[d];
  if (t === undefined) throw new LegalizationError(op, d, 'webgpu', `${what}: WGSL has no ${d}`);
  return t;
};

/** A WGSL literal of dtype d (f32 special values through their bits: WGSL has no NaN/inf literals). */
function literal(v: number, d: DType): string {
  if (d === 'bool') return v !== 0 ? 'true' : 'false';
  if (d === 'int32') return `i32(${v | 0})`;
  const f = Math.fround(v);
  if (Number.isNaN(f)) return 'bitcast<f32>(0x7fc00000u)';
  if (f === Infinity) return 'bitcast<f32>(0x7f800000u)';
  if (f === -Infinity) return 'bitcast<f32>(0xff800000u)';
  if (Object.is(f, -0)) return 'bitcast<f32>(0x80000000u)';
  // Exact float32 value as a decimal WGSL can parse (toPrecision(9) round-trips float32).
  return `f32(${f.toPrecision(9).replace(/\.?0+e/, 'e').replace(/^(-?\d+)$/, '$1.0')})`;
}

type Rule = (...a: string[]) => string;
/** Real float32 rules (NumPy semantics where WGSL differs: NaN-propagating max/min). */
const F: Record<string, Rule> = {
  neg: (a) => `-${a}`,
  abs: (a) => `abs(${a})`,
  sign: (a) => `sign(${a})`,
  exp: (a) => `exp(${a})`,
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
  sigmoid: (a) => `select(exp(${a}) / (1.0 + exp(${a})), 1.0 / (1.0 + exp(-${a})), ${a} >= 0.0)`,
  stopGradient: (a) => a,
  real: (a) => a,
  conj: (a) => a,
  add: (a, b) => `(${a} + ${b})`,
  sub: (a, b) => `(${a} - ${b})`,
  mul: (a, b) => `(${a} * ${b})`,
  div: (a, b) => `(${a} / ${b})`,
  maximum: (a, b) => `select(${b}, ${a}, ${a} > ${b} || ${a} != ${a})`,
  minimum: (a, b) => `select(${b}, ${a}, ${a} < ${b} || ${a} != ${a})`,
  atan2: (a, b) => `atan2(${a}, ${b})`,
};
/** int32 rules (WGSL i32 arithmetic wraps like int32). */
const I: Record<string, Rule> = {
  neg: (a) => `-${a}`,
  abs: (a) => `abs(${a})`,
  sign: (a) => `sign(${a})`,
  floor: (a) => a,
  ceil: (a) => a,
  round: (a) => a,
  stopGradient: (a) => a,
  real: (a) => a,
  conj: (a) => a,
  add: (a, b) => `(${a} + ${b})`,
  sub: (a, b) => `(${a} - ${b})`,
  mul: (a, b) => `(${a} * ${b})`,
  maximum: (a, b) => `max(${a}, ${b})`,
  minimum: (a, b) => `min(${a}, ${b})`,
};
/** bool rules (values held as WGSL bool). */
const B: Record<string, Rule> = {
  logicalNot: (a) => `!${a}`,
  stopGradient: (a) => a,
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
  if (op === 'cast' || op === 'where' || op in CMP) return true;
  if ((op === 'logicalAnd' || op === 'logicalOr' || op === 'logicalNot') && d !== 'bool') return true;
  return op in (d === 'float32' ? F : d === 'int32' ? I : B);
}

/** A value as bool (NumPy truthiness). */
const truth = (v: string, d: DType): string => (d === 'bool' ? v : d === 'float32' ? `(${v} != 0.0)` : `(${v} != 0i)`);

function cast(v: string, from: DType, to: DType): string {
  if (from === to) return v;
  if (to === 'bool') return truth(v, from);
  if (from === 'bool') return to === 'float32' ? `select(0.0, 1.0, ${v})` : `select(0i, 1i, ${v})`;
  return `${wgslType(to, 'cast', 'cast')}(${v})`;
}

/** The WGSL statements of the expression; value of instruction j is `v{j}`. */
function emit(instrs: readonly Instr[], loads: readonly Load[], readLoad: (i: number) => string): string {
  const out: string[] = [];
  instrs.forEach((ins, j) => {
    const t = wgslType(ins.dtype, 'value', ins.op);
    let e: string;
    if (ins.op === 'load') e = readLoad(ins.load);
    else if (ins.op === 'const') {
      if (Array.isArray(ins.value)) throw new LegalizationError('const', ins.dtype, 'webgpu', 'complex literal');
      e = ins.param !== undefined ? (ins.dtype === 'float32' ? `K[${ins.param}]` : ins.dtype === 'int32' ? `i32(K[${ins.param}])` : `(K[${ins.param}] != 0.0)`) : literal(ins.value as number, ins.dtype);
    } else if (ins.op === 'acc') throw new LegalizationError('acc', ins.dtype, 'webgpu', 'an accumulator outside a reduction');
    else {
      const a = ins.args.map((k) => `v${k}`);
      const d0 = instrs[ins.args[0]!]!.dtype;
      if (ins.op === 'cast') e = cast(a[0]!, d0, ins.dtype);
      else if (ins.op === 'where') e = `select(${a[2]}, ${a[1]}, ${truth(a[0]!, d0)})`;
      else if (ins.op in CMP) e = `(${a[0]} ${CMP[ins.op]} ${a[1]})`;
      else if ((ins.op === 'logicalAnd' || ins.op === 'logicalOr') && d0 !== 'bool') e = `(${truth(a[0]!, d0)} ${ins.op === 'logicalAnd' ? '&&' : '||'} ${truth(a[1]!, instrs[ins.args[1]!]!.dtype)})`;
      else if (ins.op === 'logicalNot' && d0 !== 'bool') e = `!${truth(a[0]!, d0)}`;
      else {
        const rule = (d0 === 'float32' ? F : d0 === 'int32' ? I : B)[ins.op];
        if (rule === undefined) throw new LegalizationError(ins.op, d0, 'webgpu', 'no WGSL rule');
        e = rule(...a);
      }
    }
    out.push(`  let v${j}: ${t} = ${e};`);
  });
  void loads;
  return out.join('\n');
}

/** WGSL for an elementwise kernel; `slotShapes` are the buffers' shapes (symbolic dims allowed). */
export function wgslElementwise(k: ElementwiseKernel, slotShapes: readonly (readonly Dim[])[]): WgslKernel {
  const outType = STORAGE[k.outDType];
  if (outType === undefined) throw new LegalizationError(k.fused[k.fused.length - 1] ?? 'elementwise', k.outDType, 'webgpu', 'storage of this dtype on the GPU');
  const loads = k.expr.loads;
  const inputSlots = [...new Set(loads.map((l) => l.slot))];
  for (const l of loads) if (STORAGE[l.dtype] === undefined) throw new LegalizationError('load', l.dtype, 'webgpu', 'storage of this dtype on the GPU');
  const scalar = loads.map((l) => slotShapes[l.slot]!.every((d) => d === 1));
  const flat = loads.map((l, i) => !scalar[i] && l.chain.every((s) => s.op === 'reshape'));
  const collapse = loads.every((_, i) => scalar[i] || flat[i]);
  const R = collapse ? 0 : k.outShape.length;
  const usesConsts = k.expr.instrs.some((i) => i.op === 'const' && i.param !== undefined);
  const nIn = inputSlots.length;
  const decl = [
    `@group(0) @binding(0) var<storage, read_write> OUT: array<${outType}>;`,
    ...inputSlots.map((s, b) => `@group(0) @binding(${b + 1}) var<storage, read> S${s}: array<${STORAGE[loads.find((l) => l.slot === s)!.dtype]}>;`),
    `@group(0) @binding(${nIn + 1}) var<storage, read> P: array<i32>;`,
    ...(usesConsts ? [`@group(0) @binding(${nIn + 2}) var<storage, read> K: array<f32>;`] : []),
  ];
  // P: [n, d_0 .. d_{R-1}, then per load (strided kernels): base, stride_0 .. stride_{R-1}].
  const body: string[] = [];
  if (!collapse) {
    body.push('  var rem = i32(i);');
    for (let d = R - 1; d >= 0; d--) body.push(`  let x${d} = rem % P[${1 + d}];`, `  rem = rem / P[${1 + d}];`);
  }
  const index = (li: number): string => {
    if (scalar[li] && collapse) return '0';
    if (collapse) return 'i';
    const at = 1 + R + li * (R + 1);
    return `u32(P[${at}]${Array.from({ length: R }, (_, d) => ` + x${d} * P[${at + 1 + d}]`).join('')})`;
  };
  const expr = emit(k.expr.instrs, loads, (li) => `S${loads[li]!.slot}[${index(li)}]`);
  const last = k.expr.instrs.length - 1;
  const code = [
    ...decl,
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {',
    `  let i = gid.x + gid.y * nwg.x * ${WG}u;`,
    '  if (i >= u32(P[0])) { return; }',
    ...body,
    expr,
    `  OUT[i] = ${cast(`v${last}`, k.expr.instrs[last]!.dtype, k.outDType)};`,
    '}',
  ].join('\n');
  const params = (env: DimEnv): Int32Array => {
    const shape = resolveShape(k.outShape, env);
    const n = shape.reduce((a, b) => a * b, 1);
    if (collapse) return Int32Array.of(n);
    const p = [n, ...shape];
    for (const l of loads) {
      const v = resolveChain(slotShapes[l.slot]!, l.chain, env);
      p.push(v.offset, ...v.strides);
    }
    return Int32Array.from(p);
  };
  return { code, workgroupSize: WG, inputSlots, out: k.out, usesConsts, params };
}
