// WGSL for matmul kernels (compiler/kernel.ts MatmulKernel): batched
// [...batch, m, k] · [...batch, k, n] over strided operand views (transposes
// and broadcast batches are strides, no copies), with the fused epilogue,
// from the description the js backend lowers (codegen-loops.ts genMatmul).
//
// Tiled: a 16×16 workgroup computes a 16×16 tile of one batch entry, one
// output per invocation; the k dimension goes by in steps of 16, each step
// staging a 16×16 tile of A and of B in workgroup memory (each invocation
// loads one element of each; out-of-range elements load as 0), so every
// operand element is read from storage once per tile row/column instead of
// once per output. Workgroups are numbered linearly (tile column, tile row,
// batch entry) and laid out as a 2-D grid by the runtime.
//
// Accumulation is in the value type (f32 or i32; js accumulates in float64
// and rounds once, so float32 results differ by rounding).

import type { DType } from '../../tensor/dtype.js';
import { LegalizationError } from '../../tensor/errors.js';
import { resolveShape, type Dim } from '../../tensor/shape.js';
import type { MatmulKernel } from '../../compiler/kernel.js';
import { resolveChain } from '../../compiler/view.js';
import type { DimEnv } from '../backend.js';
import { declareBindings, STORAGE, cast, constParams, emit, literal } from './wgsl-expr.js';
import type { WgslKernel } from './wgsl-elementwise.js';

const T = 16;

export function wgslMatmul(k: MatmulKernel, slotShapes: readonly (readonly Dim[])[]): WgslKernel {
  const d = k.a.dtype;
  const t = STORAGE[d];
  if (t === undefined || k.b.dtype !== d) throw new LegalizationError('matmul', d, 'webgpu', 'matmul of this dtype on the GPU');
  const outType = STORAGE[k.outDType];
  if (outType === undefined) throw new LegalizationError('matmul', k.outDType, 'webgpu', 'storage of this dtype on the GPU');
  const el = k.epilogue?.loads ?? [];
  for (const l of el) if (STORAGE[l.dtype] === undefined) throw new LegalizationError('load', l.dtype, 'webgpu', 'storage of this dtype on the GPU');
  const nb = k.aShape.length - 2;
  const inputSlots = [...new Set([k.a.slot, k.b.slot, ...el.map((l) => l.slot)])];
  const slotType = (s: number): string => (s === k.a.slot || s === k.b.slot ? t : STORAGE[el.find((l) => l.slot === s)!.dtype]!);
  const consts = constParams(k.epilogue?.instrs);
  const usesConsts = consts.length > 0;
  // P: [M, N, K, tilesN, tilesM, batch count, batch sizes (nb),
  //     A: base, batch strides (nb), sM, sK;  B: base, batch strides (nb), sK, sN;
  //     per epilogue load: base, strides over the output's dims (nb + 2)].
  const bAt = 6,
    aAt = 6 + nb,
    bbAt = aAt + nb + 3,
    eAt = bbAt + nb + 3;
  const off = (at: number, row: string, col: string) => `P[${at}]${Array.from({ length: nb }, (_, i) => ` + b${i} * P[${at + 1 + i}]`).join('')} + ${row} * P[${at + 1 + nb}] + ${col} * P[${at + 2 + nb}]`;
  const zero = literal(0, d);
  const lines = [
    ...declareBindings(outType, inputSlots, slotType, usesConsts),
    `var<workgroup> TA: array<${t}, ${T * T}>;`,
    `var<workgroup> TB: array<${t}, ${T * T}>;`,
    `@compute @workgroup_size(${T}, ${T})`,
    'fn main(@builtin(local_invocation_id) lid: vec3u, @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {',
    '  let g = i32(wid.x + wid.y * nwg.x);',
    '  if (g >= P[3] * P[4] * P[5]) { return; }',
    '  let M = P[0]; let N = P[1]; let KK = P[2];',
    '  let tn = g % P[3];',
    '  let tm = (g / P[3]) % P[4];',
    '  var bi = g / (P[3] * P[4]);',
    '  let ob = bi;',
  ];
  for (let i = nb - 1; i >= 0; i--) lines.push(`  let b${i} = bi % P[${bAt + i}];`, `  bi = bi / P[${bAt + i}];`);
  lines.push(
    '  let lx = i32(lid.x); let ly = i32(lid.y);',
    `  let row = tm * ${T} + ly;`,
    `  let col = tn * ${T} + lx;`,
    `  var acc: ${t} = ${zero};`,
    `  for (var k0 = 0; k0 < KK; k0 = k0 + ${T}) {`,
    '    let ak = k0 + lx;',
    `    var av: ${t} = ${zero};`,
    `    if (row < M && ak < KK) { av = S${k.a.slot}[u32(${off(aAt, 'row', 'ak')})]; }`,
    `    TA[ly * ${T} + lx] = av;`,
    '    let bk = k0 + ly;',
    `    var bv: ${t} = ${zero};`,
    `    if (bk < KK && col < N) { bv = S${k.b.slot}[u32(${off(bbAt, 'bk', 'col')})]; }`,
    `    TB[ly * ${T} + lx] = bv;`,
    '    workgroupBarrier();',
    `    for (var kk = 0; kk < ${T}; kk = kk + 1) { acc = acc + TA[ly * ${T} + kk] * TB[kk * ${T} + lx]; }`,
    '    workgroupBarrier();',
    '  }',
    '  if (row >= M || col >= N) { return; }',
  );
  let value = 'acc',
    valueType: DType = d;
  if (k.epilogue) {
    const eOff = (li: number) => {
      const at = eAt + li * (nb + 3);
      return `u32(${off(at, 'row', 'col')})`;
    };
    lines.push(emit(k.epilogue.instrs, 'w', (li) => `S${el[li]!.slot}[${eOff(li)}]`, 'acc'));
    value = `w${k.epilogue.instrs.length - 1}`;
    valueType = k.epilogue.instrs[k.epilogue.instrs.length - 1]!.dtype;
  }
  lines.push(`  OUT[u32(ob * M * N + row * N + col)] = ${cast(value, valueType, k.outDType)};`, '}');
  const params = (env: DimEnv): Int32Array => {
    const a = resolveShape(k.aShape, env),
      b = resolveShape(k.bShape, env);
    const M = a[nb]!,
      N = b[nb + 1]!,
      K = a[nb + 1]!;
    const batch = a.slice(0, nb);
    const count = batch.reduce((x, y) => x * y, 1);
    const p = [M, N, K, Math.ceil(N / T), Math.ceil(M / T), M === 0 || N === 0 ? 0 : count, ...batch];
    for (const l of [k.a, k.b]) {
      const v = resolveChain(slotShapes[l.slot]!, l.chain, env);
      p.push(v.offset, ...v.strides);
    }
    for (const l of el) {
      const v = resolveChain(slotShapes[l.slot]!, l.chain, env);
      p.push(v.offset, ...v.strides);
    }
    return Int32Array.from(p);
  };
  return { code: lines.join('\n'), workgroupSize: T * T, inputSlots, out: k.out, usesConsts, consts, params, groups: (p) => p[3]! * p[4]! * p[5]! };
}
