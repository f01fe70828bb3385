// Loop nests for generated JS kernels: elementwise, reduction (with prologue and
// epilogue) and matmul (with epilogue). Sizes and strides are parameters read
// from P at entry, so one generated function serves every binding of the
// dynamic dims; views are resolved into P once per binding.

import { type DType, isComplex } from '../../tensor/dtype.js';
import { type Dim, resolveShape, staticSize } from '../../tensor/shape.js';
import type { ElementwiseKernel, Expr, Load, MatmulKernel, ReduceKernel } from '../../compiler/kernel.js';
import { resolveChain } from '../../compiler/view.js';
import type { DimEnv } from '../backend.js';
import { declareConsts, emitExpr, readElem, writeElem, type Val } from './codegen-expr.js';

export type SlotShapes = readonly (readonly Dim[])[];
/** Computes the parameter vector of a kernel for one binding of the dims. */
export type ParamFn = (env: DimEnv) => number[];

export interface Generated {
  source: string;
  params: ParamFn;
}

type Mode = 'flat' | 'scalar' | 'strided';

function loadMode(l: Load, slotShapes: SlotShapes): Mode {
  const base = slotShapes[l.slot]!;
  if (base.every((d) => d === 1)) return 'scalar';
  return l.chain.every((s) => s.op === 'reshape') ? 'flat' : 'strided';
}

/** Strides of a load over the iteration axes `order` of its view. */
function strided(l: Load, slotShapes: SlotShapes, env: DimEnv, order?: number[]): number[] {
  const v = resolveChain(slotShapes[l.slot]!, l.chain, env);
  const st = order ? order.map((i) => v.strides[i]!) : v.strides;
  return [v.offset, ...st];
}

const loadVar = (i: number, prefix: string) => `${prefix}${i}`;

/** Declarations of the arrays a set of loads reads. */
function declareLoads(loads: Load[], prefix: string): string {
  return loads.map((l, i) => `const ${loadVar(i, prefix)} = B[${l.slot}];`).join('\n');
}

/** Declares base/stride locals for loads over `levels` loop levels, reading P from `at`. */
function declareStrides(n: number, levels: number, prefix: string, at: { p: number }): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(`const ${prefix}b${i} = P[${at.p++}];`);
    for (let l = 0; l < levels; l++) out.push(`const ${prefix}s${i}_${l} = P[${at.p++}];`);
  }
  return out.join('\n');
}

/** Opens `count` nested loops starting at level `from`, advancing the loads' offsets. */
function openLoops(from: number, count: number, dimVar: (l: number) => string, loadsByPrefix: [string, number][]): string {
  const out: string[] = [];
  for (let l = from; l < from + count; l++) {
    out.push(`for (let i${l} = 0; i${l} < ${dimVar(l)}; i${l}++) {`);
    for (const [p, n] of loadsByPrefix) {
      for (let i = 0; i < n; i++) {
        const prev = l === 0 ? `${p}b${i}` : `${p}q${i}_${l - 1}`;
        out.push(`const ${p}q${i}_${l} = ${prev} + i${l} * ${p}s${i}_${l};`);
      }
    }
  }
  return out.join('\n');
}

/** Offset variable of load i after `level` levels (level 0 = base). */
const offAt = (p: string, i: number, level: number) => (level === 0 ? `${p}b${i}` : `${p}q${i}_${level - 1}`);

const SUM_INIT: Record<string, string> = { sum: '0', prod: '1', max: '-Infinity', min: 'Infinity', argmax: '-Infinity', argmin: 'Infinity' };

// ---------------------------------------------------------------------------

export function genElementwise(k: ElementwiseKernel, slotShapes: SlotShapes): Generated {
  const loads = k.expr.loads;
  const modes = loads.map((l) => loadMode(l, slotShapes));
  const collapse = modes.every((m) => m !== 'strided');
  const R = collapse ? 1 : k.outShape.length;
  const at = { p: R };
  const src = [
    `const OUT = B[${k.out}];`,
    declareConsts(k.expr),
    declareLoads(loads, 'A'),
    ...Array.from({ length: R }, (_, l) => `const d${l} = P[${l}];`),
    declareStrides(loads.length, R, 'a', at),
    'let o = 0;',
    openLoops(0, R, (l) => `d${l}`, [['a', loads.length]]),
  ];
  // Collapsed: contiguous loads index with the loop counter itself, broadcast scalars with 0.
  const off = (i: number) => (collapse ? (modes[i] === 'flat' ? 'i0' : '0') : offAt('a', i, R));
  const body = emitExpr(k.expr, 'v', (i) => readElem(`A${i}`, off(i), loads[i]!.dtype));
  src.push(body.code, writeElem('OUT', 'o', body.result, k.outDType), 'o++;', '}'.repeat(R));
  const params: ParamFn = (env) => {
    const shape = resolveShape(k.outShape, env);
    if (collapse) {
      const n = shape.reduce((a, b) => a * b, 1);
      return [n, ...modes.flatMap((m) => (m === 'flat' ? [0, 1] : [0, 0]))];
    }
    return [...shape, ...loads.flatMap((l) => strided(l, slotShapes, env))];
  };
  return { source: src.join('\n'), params };
}

// ---------------------------------------------------------------------------

function accumulate(op: string, v: Val, cplx: boolean): string {
  if (cplx) {
    const [r, i] = v as [string, string];
    if (op === 'sum') return `accr += ${r}; acci += ${i};`;
    return `{ const t = accr * ${r} - acci * ${i}; acci = accr * ${i} + acci * ${r}; accr = t; }`;
  }
  switch (op) {
    case 'sum':
      return `acc += ${v};`;
    case 'prod':
      return `acc *= ${v};`;
    case 'max':
      return `if (${v} > acc || ${v} !== ${v}) acc = ${v};`;
    case 'min':
      return `if (${v} < acc || ${v} !== ${v}) acc = ${v};`;
    case 'argmax':
      return `if (${v} > acc || (${v} !== ${v} && acc === acc)) { acc = ${v}; ai = kk; } kk++;`;
    default:
      return `if (${v} < acc || (${v} !== ${v} && acc === acc)) { acc = ${v}; ai = kk; } kk++;`;
  }
}

/** The reduced value as seen by the epilogue / the store (rounded to the reduce dtype). */
function accValue(op: string, d: DType): Val {
  if (op === 'argmax' || op === 'argmin') return 'ai';
  if (isComplex(d)) return d === 'complex64' ? ['Math.fround(accr)', 'Math.fround(acci)'] : ['accr', 'acci'];
  if (d === 'float32') return 'Math.fround(acc)';
  if (d === 'int32') return '(acc | 0)';
  if (d === 'int8') return '((acc << 24) >> 24)';
  if (d === 'uint8') return '(acc & 255)';
  return 'acc';
}

export function genReduce(k: ReduceKernel, slotShapes: SlotShapes, reduceDType: DType): Generated {
  const pl = k.prologue.loads,
    el = k.epilogue?.loads ?? [];
  const r = k.inShape.length;
  const kept = [...Array(r).keys()].filter((i) => !k.axes.includes(i));
  const trailing = k.axes.every((a, i) => a === r - k.axes.length + i);
  const pm = pl.map((l) => loadMode(l, slotShapes)),
    em = el.map((l) => loadMode(l, slotShapes));
  const collapse = trailing && pm.every((m) => m !== 'strided') && em.every((m) => m !== 'strided');
  const K = collapse ? 1 : kept.length,
    Q = collapse ? 1 : k.axes.length;
  const cplx = isComplex(reduceDType) && k.op !== 'argmax' && k.op !== 'argmin';
  const inDType = k.prologue.instrs[k.prologue.instrs.length - 1]!.dtype;
  const init = SUM_INIT[k.op]!;
  const at = { p: K + Q };
  const src = [
    `const OUT = B[${k.out}];`,
    declareConsts(k.prologue, k.epilogue),
    declareLoads(pl, 'A'),
    declareLoads(el, 'E'),
    ...Array.from({ length: K + Q }, (_, l) => `const d${l} = P[${l}];`),
    declareStrides(pl.length, K + Q, 'a', at),
    declareStrides(el.length, K, 'e', at),
    'let o = 0;',
    openLoops(0, K, (l) => `d${l}`, [['a', pl.length], ['e', el.length]]),
    cplx ? `let accr = ${init}, acci = 0;` : `let acc = ${init}, ai = 0, kk = 0;`,
    collapse ? 'const row = i0 * d1;' : '',
    openLoops(K, Q, (l) => `d${l}`, [['a', pl.length]]),
  ];
  const pOff = (i: number) => (collapse ? (pm[i] === 'flat' ? 'row + i1' : '0') : offAt('a', i, K + Q));
  const eOff = (i: number) => (collapse ? (em[i] === 'flat' ? 'i0' : '0') : offAt('e', i, K));
  const body = emitExpr(k.prologue, 'v', (i) => readElem(`A${i}`, pOff(i), pl[i]!.dtype));
  src.push(body.code, accumulate(k.op, body.result, cplx && isComplex(inDType)), '}'.repeat(Q));
  let result: Val = accValue(k.op, reduceDType);
  if (k.epilogue) {
    const ep = emitExpr(k.epilogue, 'w', (i) => readElem(`E${i}`, eOff(i), el[i]!.dtype), result);
    src.push(ep.code);
    result = ep.result;
  }
  src.push(writeElem('OUT', 'o', result, k.outDType), 'o++;', '}'.repeat(K));
  const params: ParamFn = (env) => {
    const inShape = resolveShape(k.inShape, env);
    if (collapse) {
      const outer = kept.reduce((a, i) => a * inShape[i]!, 1),
        inner = k.axes.reduce((a, i) => a * inShape[i]!, 1);
      return [outer, inner, ...pm.flatMap((m) => (m === 'flat' ? [0, inner, 1] : [0, 0, 0])), ...em.flatMap((m) => (m === 'flat' ? [0, 1] : [0, 0]))];
    }
    const order = [...kept, ...k.axes];
    return [...order.map((i) => inShape[i]!), ...pl.flatMap((l) => strided(l, slotShapes, env, order)), ...el.flatMap((l) => strided(l, slotShapes, env))];
  };
  return { source: src.join('\n'), params };
}

// ---------------------------------------------------------------------------

export function genMatmul(k: MatmulKernel, slotShapes: SlotShapes): Generated {
  const nb = k.aShape.length - 2;
  const el = k.epilogue?.loads ?? [];
  const cplx = isComplex(k.a.dtype);
  const L = cplx ? 2 : 1;
  const at = { p: nb + 3 };
  const rd = (arr: string, off: string, d: DType) => readElem(arr, off, d);
  const src = [
    `const OUT = B[${k.out}], AM = B[${k.a.slot}], BM = B[${k.b.slot}];`,
    declareConsts(k.epilogue),
    declareLoads(el, 'E'),
    ...Array.from({ length: nb }, (_, l) => `const d${l} = P[${l}];`),
    `const M = P[${nb}], N = P[${nb + 1}], K = P[${nb + 2}];`,
    declareStrides(2, nb + 2, 'm', at),
    declareStrides(el.length, nb + 2, 'e', at),
    `const ACC = new Float64Array(N * ${L});`,
    'let o = 0;',
    openLoops(0, nb, (l) => `d${l}`, [['m', 2], ['e', el.length]]),
    `for (let i = 0; i < M; i++) {`,
    'ACC.fill(0);',
    `const ai = ${offAt('m', 0, nb)} + i * ms0_${nb};`,
    ...(cplx ? [] : []),
    `for (let p = 0; p < K; p++) {`,
    `const bp = ${offAt('m', 1, nb)} + p * ms1_${nb};`,
  ];
  if (cplx) {
    const [ar, aim] = rd('AM', `ai + p * ms0_${nb + 1}`, k.a.dtype) as [string, string];
    const [br, bim] = rd('BM', `bp + j * ms1_${nb + 1}`, k.b.dtype) as [string, string];
    // Conjugated operands (a conj folded into the load) negate the imaginary part as read.
    src.push(`const xr = ${ar}, xi = ${k.aConj ? '-' : ''}(${aim});`, `for (let j = 0; j < N; j++) { const yr = ${br}, yi = ${k.bConj ? '-' : ''}(${bim}); ACC[2 * j] += xr * yr - xi * yi; ACC[2 * j + 1] += xr * yi + xi * yr; }`);
  } else {
    src.push(
      `const x = ${rd('AM', `ai + p * ms0_${nb + 1}`, k.a.dtype)};`,
      `if (ms1_${nb + 1} === 1) { for (let j = 0; j < N; j++) ACC[j] += x * ${rd('BM', 'bp + j', k.b.dtype)}; }`,
      `else { for (let j = 0; j < N; j++) ACC[j] += x * ${rd('BM', `bp + j * ms1_${nb + 1}`, k.b.dtype)}; }`,
    );
  }
  src.push('}', 'for (let j = 0; j < N; j++) {');
  const d = k.a.dtype;
  let result: Val = cplx ? (d === 'complex64' ? ['Math.fround(ACC[2 * j])', 'Math.fround(ACC[2 * j + 1])'] : ['ACC[2 * j]', 'ACC[2 * j + 1]']) : d === 'float32' ? 'Math.fround(ACC[j])' : d === 'int32' ? '(ACC[j] | 0)' : 'ACC[j]';
  if (k.epilogue) {
    const ep = emitExpr(k.epilogue, 'w', (i) => readElem(`E${i}`, `${offAt('e', i, nb)} + i * es${i}_${nb} + j * es${i}_${nb + 1}`, el[i]!.dtype), result);
    src.push(ep.code);
    result = ep.result;
  }
  src.push(writeElem('OUT', 'o', result, k.outDType), 'o++;', '}', '}', '}'.repeat(nb));
  const params: ParamFn = (env) => {
    const a = resolveShape(k.aShape, env),
      b = resolveShape(k.bShape, env);
    return [...a.slice(0, nb), a[nb]!, b[nb + 1]!, a[nb + 1]!, ...strided(k.a, slotShapes, env), ...strided(k.b, slotShapes, env), ...el.flatMap((l) => strided(l, slotShapes, env))];
  };
  return { source: src.join('\n'), params };
}

/** Static element count of a shape, for tests and explain. */
export const sizeOf = (s: readonly Dim[]) => staticSize(s);
