// WGSL for reduction kernels (compiler/kernel.ts ReduceKernel): sum, prod,
// max, min, argmax, argmin over any axes, with the fused prologue (evaluated
// per input element) and epilogue (per output, reading the reduced value as
// `acc`), from the same description the js backend lowers
// (backends/js/codegen-loops.ts genReduce).
//
// One workgroup per output: its 256 invocations stride over the reduced
// elements (invocation t takes r = t, t + 256, ...), then combine their
// partial results in workgroup memory as a tree (8 halving steps), and
// invocation 0 applies the epilogue and stores. An output index is
// decomposed over the kept dims (row-major, the order of the output), a
// reduced index over the reduced dims; each prologue load reads its slot at
// base + Σ index·stride over the input's dims in (kept, reduced) order, an
// epilogue load at base + Σ index·stride over the output's dims.
//
// Accumulation is in the value type (f32 or i32), where the js backend sums
// in float64 and rounds once: float32 sums differ from js by rounding (the
// tree keeps the error near log2(n)·ε instead of n·ε). int32 sums wrap like
// int32. max/min propagate NaN; argmax/argmin give the first index of the
// extreme value (the first NaN if any), as NumPy and the js backend do.

import { LegalizationError } from '../../tensor/errors.js';
import { resolveShape, type Dim } from '../../tensor/shape.js';
import type { ReduceKernel } from '../../compiler/kernel.js';
import { resolveChain } from '../../compiler/view.js';
import type { DimEnv } from '../backend.js';
import { declareBindings, STORAGE, cast, constParams, emit, literal, toStorage } from './wgsl-expr.js';
import type { WgslKernel } from './wgsl-elementwise.js';

const WG = 256;

/** The accumulator's start value and how two partial results combine (a into b's place). */
function combineRules(op: ReduceKernel['op'], t: string): { init: string; combine: (a: string, b: string) => string } {
  const d = t === 'f32' ? 'float32' : 'int32';
  switch (op) {
    case 'sum':
      return { init: literal(0, d), combine: (a, b) => `${a} + ${b}` };
    case 'prod':
      return { init: literal(1, d), combine: (a, b) => `${a} * ${b}` };
    case 'max':
      return { init: t === 'f32' ? literal(-Infinity, d) : 'i32(-2147483648)', combine: (a, b) => `select(${a}, ${b}, ${b} > ${a} || (${b} != ${b}))` };
    case 'min':
      return { init: t === 'f32' ? literal(Infinity, d) : 'i32(2147483647)', combine: (a, b) => `select(${a}, ${b}, ${b} < ${a} || (${b} != ${b}))` };
    default:
      throw new Error(`internal: ${op} combines (value, index) pairs`);
  }
}

export function wgslReduce(k: ReduceKernel, slotShapes: readonly (readonly Dim[])[]): WgslKernel {
  const outType = STORAGE[k.outDType];
  if (outType === undefined) throw new LegalizationError(k.op, k.outDType, 'webgpu', 'storage of this dtype on the GPU');
  const pl = k.prologue.loads,
    el = k.epilogue?.loads ?? [];
  for (const l of [...pl, ...el]) if (STORAGE[l.dtype] === undefined) throw new LegalizationError('load', l.dtype, 'webgpu', 'storage of this dtype on the GPU');
  const inDType = k.prologue.instrs[k.prologue.instrs.length - 1]!.dtype;
  const accType = inDType === 'float32' ? 'f32' : inDType === 'int32' ? 'i32' : undefined;
  if (accType === undefined) throw new LegalizationError(k.op, inDType, 'webgpu', 'reducing this dtype on the GPU');
  const arg = k.op === 'argmax' || k.op === 'argmin';
  const r = k.inShape.length;
  const kept = [...Array(r).keys()].filter((i) => !k.axes.includes(i));
  const K = kept.length,
    Q = k.axes.length,
    E = k.outShape.length;
  const inputSlots = [...new Set([...pl, ...el].map((l) => l.slot))];
  const consts = constParams(k.prologue.instrs, k.epilogue?.instrs);
  const usesConsts = consts.length > 0;
  const slotType = (s: number): string => STORAGE[[...pl, ...el].find((l) => l.slot === s)!.dtype]!;

  // P: [nOut, nRed, kept sizes (K), reduced sizes (Q), out sizes (E),
  //     per prologue load: base, strides (kept order, then reduced order),
  //     per epilogue load: base, strides over the output's dims].
  const keptAt = 2,
    redAt = 2 + K,
    outAt = 2 + K + Q,
    plAt = outAt + E,
    elAt = plAt + pl.length * (1 + r);
  /** Statements splitting linear index `x` (row-major over the n sizes at P[at..]) into `${prefix}0..`, via the variable `rest`. */
  const decompose = (rest: string, prefix: string, n: number, at: number, x: string): string[] => {
    const lines = [`  var ${rest} = ${x};`];
    for (let d = n - 1; d >= 0; d--) lines.push(`  let ${prefix}${d} = ${rest} % P[${at + d}];`, `  ${rest} = ${rest} / P[${at + d}];`);
    return lines;
  };

  const plOff = (li: number) => {
    const at = plAt + li * (1 + r);
    const terms = [`P[${at}]`];
    for (let d = 0; d < K; d++) terms.push(`ok${d} * P[${at + 1 + d}]`);
    for (let d = 0; d < Q; d++) terms.push(`rr${d} * P[${at + 1 + K + d}]`);
    return `u32(${terms.join(' + ')})`;
  };
  const elOff = (li: number) => {
    const at = elAt + li * (1 + E);
    const terms = [`P[${at}]`];
    for (let d = 0; d < E; d++) terms.push(`oe${d} * P[${at + 1 + d}]`);
    return `u32(${terms.join(' + ')})`;
  };
  const pro = emit(k.prologue.instrs, 'v', (li) => `S${pl[li]!.slot}[${plOff(li)}]`);
  const pv = `v${k.prologue.instrs.length - 1}`;
  const lines = [
    ...declareBindings(outType, inputSlots, slotType, usesConsts, [k.prologue.instrs, k.epilogue?.instrs]),
    `var<workgroup> WV: array<${accType}, ${WG}>;`,
    ...(arg ? [`var<workgroup> WI: array<i32, ${WG}>;`] : []),
  ];
  // Partial results: (value, index) pairs for arg*, combined by value then lowest index (first NaN wins).
  let accumulate: string[], combineTree: string, result: string;
  if (arg) {
    const better = (bv: string, bi: string, av: string, ai: string) =>
      k.op === 'argmax'
        ? `(${bv} != ${bv} && (${av} == ${av} || ${bi} < ${ai})) || (${av} == ${av} && (${bv} > ${av} || (${bv} == ${av} && ${bi} < ${ai})))`
        : `(${bv} != ${bv} && (${av} == ${av} || ${bi} < ${ai})) || (${av} == ${av} && (${bv} < ${av} || (${bv} == ${av} && ${bi} < ${ai})))`;
    lines.push(`fn better(bv: ${accType}, bi: i32, av: ${accType}, ai: i32) -> bool { return ${better('bv', 'bi', 'av', 'ai')}; }`);
    accumulate = [`    if (better(${pv}, r, av, ai)) { av = ${pv}; ai = r; }`];
    combineTree = `      if (better(WV[t + s], WI[t + s], WV[t], WI[t])) { WV[t] = WV[t + s]; WI[t] = WI[t + s]; }`;
    result = 'WI[0]';
  } else {
    const { combine } = combineRules(k.op, accType);
    accumulate = [`    av = ${combine('av', pv)};`];
    combineTree = `      WV[t] = ${combine('WV[t]', 'WV[t + s]')};`;
    result = 'WV[0]';
  }
  const init = arg ? (k.op === 'argmax' ? literal(-Infinity, 'float32') : literal(Infinity, 'float32')) : combineRules(k.op, accType).init;
  const initArg = arg && accType === 'i32' ? (k.op === 'argmax' ? 'i32(-2147483648)' : 'i32(2147483647)') : init;
  lines.push(
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(local_invocation_index) tl: u32, @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {',
    '  let o = i32(wid.x + wid.y * nwg.x);',
    '  if (o >= P[0]) { return; }',
    '  let t = i32(tl);',
    ...decompose('restK', 'ok', K, keptAt, 'o'),
    `  var av: ${accType} = ${initArg};`,
    ...(arg ? ['  var ai: i32 = 2147483647;'] : []),
    `  for (var r = t; r < P[1]; r = r + ${WG}) {`,
    ...decompose('restR', 'rr', Q, redAt, 'r').map((l) => '  ' + l),
    pro.replace(/^/gm, '  '),
    ...accumulate,
    '  }',
    '  WV[t] = av;',
    ...(arg ? ['  WI[t] = ai;'] : []),
    '  workgroupBarrier();',
    `  for (var s = ${WG / 2}; s > 0; s = s / 2) {`,
    '    if (t < s) {',
    combineTree,
    '    }',
    '    workgroupBarrier();',
    '  }',
    '  if (t != 0) { return; }',
  );
  let value = result;
  let valueType = arg ? 'int32' : inDType;
  if (k.epilogue) {
    lines.push(...decompose('restE', 'oe', E, outAt, 'o'));
    lines.push(emit(k.epilogue.instrs, 'w', (li) => `S${el[li]!.slot}[${elOff(li)}]`, result));
    value = `w${k.epilogue.instrs.length - 1}`;
    valueType = k.epilogue.instrs[k.epilogue.instrs.length - 1]!.dtype;
  }
  lines.push(`  OUT[o] = ${toStorage(cast(value, valueType, k.outDType), k.outDType)};`, '}');
  const params = (env: DimEnv): Int32Array => {
    const inShape = resolveShape(k.inShape, env);
    const outShape = resolveShape(k.outShape, env);
    const order = [...kept, ...k.axes];
    const p = [kept.reduce((a, i) => a * inShape[i]!, 1), k.axes.reduce((a, i) => a * inShape[i]!, 1), ...kept.map((i) => inShape[i]!), ...k.axes.map((i) => inShape[i]!), ...outShape];
    for (const l of pl) {
      const v = resolveChain(slotShapes[l.slot]!, l.chain, env);
      p.push(v.offset, ...order.map((i) => v.strides[i]!));
    }
    for (const l of el) {
      const v = resolveChain(slotShapes[l.slot]!, l.chain, env);
      p.push(v.offset, ...v.strides);
    }
    return Int32Array.from(p);
  };
  return { code: lines.join('\n'), workgroupSize: WG, inputSlots, out: k.out, usesConsts, consts, params, groups: (p) => p[0]! };
}
