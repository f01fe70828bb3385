// WGSL for matmul kernels (compiler/kernel.ts MatmulKernel): batched
// [...batch, m, k] · [...batch, k, n] over strided operand views (transposes
// and broadcast batches are strides, no copies), with the fused epilogue,
// from the description the js backend lowers (codegen-loops.ts genMatmul).
//
// Register-tiled: a workgroup computes a BM×BN tile of one batch entry; each
// invocation a TM×TN block of it, TM = 4·RM rows and TN = 4·RN columns, kept
// as vec4 accumulators (rows ty·4 + c + i·4·NY, columns tx·4 + u + j·4·NX:
// blocks of 4 strided by the thread grid, so neighbouring invocations read
// neighbouring vec4s of the B tile and share the A tile's). The k dimension
// goes by in steps of BK, each staging a BK×BM slice of A (k-major, as vec4s
// of 4 rows) and a BK×BN slice of B (as vec4s of 4 columns) in workgroup
// memory. Indices are clamped into range, so every load is in bounds and the
// inner loop has no checks: rows past m and columns past n only feed
// accumulators that are never stored, and elements past k are selected to 0 on
// both sides (one side would do for finite values, not for 0·inf = NaN). Per
// barrier pair an invocation does BK·TM·TN multiply-adds (512 for the large
// tile), 32× the one-output 16×16 kernel this replaced: barriers are
// coroutine switches on llvmpipe, and on a GPU each operand value read from
// workgroup memory feeds 4-8 multiply-adds instead of one.
//
// Tile per dimension, from the static size (a symbolic one takes the large
// tile): > 64: 128 (16 invocations × 8 rows or columns); 17-64: 64 (16 × 4);
// 5-16: 16 (4 × 4); ≤ 4: 4 (1 × 4). So 128×128 tiles of 256 invocations with
// 8×8 outputs each and BK = 8 for large products (the classic SGEMM shape;
// 8 KiB of workgroup memory), while small or skinny products (a matrix-vector
// product: a 128×4 tile) waste at most 3/4 of a tile per dimension on padding;
// four sizes per dimension keep the number of distinct pipelines (each a
// compile: about 0.5 s on llvmpipe) at 16 per batch rank, dtype and epilogue.
// BK = 16 when BM + BN ≤ 128 (≤ 8 KiB too). At most 256 invocations, as every
// kernel of this backend.
//
// Workgroups are numbered linearly (tile column, tile row, batch entry) and
// laid out as a 2-D grid by the runtime. The epilogue is one WGSL function
// (ep) called per stored output, in a loop kept rolled (compile time).
//
// Accumulation is in the value type (f32 or i32; js accumulates in float64
// and rounds once, so float32 results differ by rounding; i32 wraps).

import type { DType } from '../../tensor/dtype.js';
import { LegalizationError } from '../../tensor/errors.js';
import { resolveShape, type Dim } from '../../tensor/shape.js';
import type { MatmulKernel } from '../../compiler/kernel.js';
import { resolveChain } from '../../compiler/view.js';
import type { DimEnv } from '../backend.js';
import { declareBindings, STORAGE, cast, constParams, emit, literal, toStorage } from './wgsl-expr.js';
import type { WgslKernel } from './wgsl-elementwise.js';

/** One dimension's tiling: tile size B = 4·R·T (T invocations along it, each 4·R outputs). */
interface Side {
  B: number;
  R: number;
  T: number;
}

/** The tiling of an m or n of this static size (undefined: symbolic). */
function matmulSide(d: number | undefined): Side {
  if (d === undefined || d > 64) return { B: 128, R: 2, T: 16 };
  if (d > 16) return { B: 64, R: 1, T: 16 };
  if (d > 4) return { B: 16, R: 1, T: 4 };
  return { B: 4, R: 1, T: 1 };
}

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
  const staticDim = (x: Dim | undefined) => (typeof x === 'number' ? x : undefined);
  const sm = matmulSide(staticDim(k.aShape[nb])),
    sn = matmulSide(staticDim(k.bShape[nb + 1]));
  const BM = sm.B,
    BN = sn.B,
    RM = sm.R,
    RN = sn.R,
    NY = sm.T,
    NX = sn.T;
  const NT = NX * NY;
  const BK = BM + BN > 128 ? 8 : 16;
  // P: [M, N, K, tilesN, tilesM, batch count, batch sizes (nb),
  //     A: base, batch strides (nb), sM, sK;  B: base, batch strides (nb), sK, sN;
  //     per epilogue load: base, strides over the output's dims (nb + 2)].
  const bAt = 6,
    aAt = 6 + nb,
    bbAt = aAt + nb + 3,
    eAt = bbAt + nb + 3;
  const batchOff = (at: number) => `P[${at}]${Array.from({ length: nb }, (_, i) => ` + b${i} * P[${at + 1 + i}]`).join('')}`;
  const zero = literal(0, d);
  const v4 = `vec4<${t}>`;
  const lines = [
    ...declareBindings(outType, inputSlots, slotType, usesConsts, [k.epilogue?.instrs]),
    `var<workgroup> TA: array<${v4}, ${(BM / 4) * BK}>;`,
    `var<workgroup> TB: array<${v4}, ${(BN / 4) * BK}>;`,
  ];
  // The word stored for one accumulator component: the epilogue, cast to the
  // output dtype, as its storage word (bool, int8, float16 ... outputs of an
  // epilogue: wgsl-expr.ts toStorage); epilogue load i reads element o{i}
  // (offsets computed by the caller from strides read once per invocation).
  let value = 'acc',
    valueType: DType = d;
  lines.push(`fn ep(acc: ${t}${el.map((_, i) => `, o${i}: i32`).join('')}) -> ${outType} {`);
  if (k.epilogue) {
    lines.push(emit(k.epilogue.instrs, 'w', (li) => `S${el[li]!.slot}[u32(o${li})]`, 'acc'));
    value = `w${k.epilogue.instrs.length - 1}`;
    valueType = k.epilogue.instrs[k.epilogue.instrs.length - 1]!.dtype;
  }
  lines.push(`  return ${toStorage(cast(value, valueType, k.outDType), k.outDType)};`, '}');

  lines.push(
    `@compute @workgroup_size(${NT})`,
    'fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {',
    '  let g = i32(wid.x + wid.y * nwg.x);',
    '  if (g >= P[3] * P[4] * P[5]) { return; }',
    '  let M = P[0]; let N = P[1]; let KK = P[2];',
    '  let tn = g % P[3];',
    '  let tm = (g / P[3]) % P[4];',
    '  var bi = g / (P[3] * P[4]);',
    '  let ob = bi;',
  );
  for (let i = nb - 1; i >= 0; i--) lines.push(`  let b${i} = bi % P[${bAt + i}];`, `  bi = bi / P[${bAt + i}];`);
  lines.push(
    '  let t = i32(li);',
    `  let tx = t % ${NX}; let ty = t / ${NX};`,
    `  let r0 = tm * ${BM}; let c0 = tn * ${BN};`,
    `  let sAm = P[${aAt + 1 + nb}]; let sAk = P[${aAt + 2 + nb}]; let sBk = P[${bbAt + 1 + nb}]; let sBn = P[${bbAt + 2 + nb}];`,
    `  let aB = ${batchOff(aAt)}; let bB = ${batchOff(bbAt)};`,
  );
  // Staging: vec4 q of the A slice is rows r0 + (q / BK)·4 + 0..3 at k0 + q % BK
  // (consecutive invocations: consecutive k), of the B slice columns
  // c0 + (q % (BN/4))·4 + 0..3 at k0 + q / (BN/4). The row/column parts of the
  // offsets (clamped into range) are fixed per invocation.
  const stage = (name: string, total: number, setup: (e: number, q: string) => string[], inLoop: (e: number) => string[]) => {
    const pre: string[] = [],
      loop: string[] = [];
    for (let e = 0; e * NT < total; e++) {
      const q = `${name}q${e}`;
      const guarded = (e + 1) * NT > total;
      pre.push(`  let ${q} = t + ${e * NT};`, ...setup(e, q));
      const body = inLoop(e);
      loop.push(...(guarded ? [`    if (${q} < ${total}) {`, ...body.map((s) => '  ' + s), '    }'] : body));
    }
    return { pre, loop };
  };
  const vecOf = (S: string, idx: string) => `${v4}(${['x', 'y', 'z', 'w'].map((c) => `S${S}[u32(${idx}.${c})]`).join(', ')})`;
  const A = stage(
    'a',
    (BM / 4) * BK,
    (e, q) => [
      `  let ak${e} = ${q} % ${BK}; let ar${e} = r0 + (${q} / ${BK}) * 4 + vec4i(0, 1, 2, 3);`,
      `  let ao${e} = aB + min(ar${e}, vec4i(M - 1)) * sAm;`,
    ],
    (e) => [
      `    { let k = k0 + ak${e}; let ix = ao${e} + vec4i(min(k, KK - 1) * sAk);`,
      `      TA[ak${e} * ${BM / 4} + aq${e} / ${BK}] = select(${v4}(${zero}), ${vecOf(String(k.a.slot), 'ix')}, k < KK); }`,
    ],
  );
  const B = stage(
    'b',
    (BN / 4) * BK,
    (e, q) => [
      `  let bk${e} = ${q} / ${BN / 4}; let bc${e} = c0 + (${q} % ${BN / 4}) * 4 + vec4i(0, 1, 2, 3);`,
      `  let bo${e} = bB + min(bc${e}, vec4i(N - 1)) * sBn;`,
    ],
    (e) => [
      `    { let k = k0 + bk${e}; let ix = bo${e} + vec4i(min(k, KK - 1) * sBk);`,
      `      TB[bq${e}] = select(${v4}(${zero}), ${vecOf(String(k.b.slot), 'ix')}, k < KK); }`,
    ],
  );
  lines.push(...A.pre, ...B.pre);
  const acc = (i: number, c: number, j: number) => `acc${i * 4 + c}_${j}`;
  for (let i = 0; i < RM; i++) for (let c = 0; c < 4; c++) for (let j = 0; j < RN; j++) lines.push(`  var ${acc(i, c, j)} = ${v4}(${zero});`);
  lines.push(`  for (var k0 = 0; k0 < KK; k0 = k0 + ${BK}) {`, ...A.loop, ...B.loop, '    workgroupBarrier();', `    for (var kk = 0; kk < ${BK}; kk = kk + 1) {`);
  for (let i = 0; i < RM; i++) lines.push(`      let at${i} = TA[kk * ${BM / 4} + ty + ${i * NY}];`);
  for (let j = 0; j < RN; j++) lines.push(`      let bt${j} = TB[kk * ${BN / 4} + tx + ${j * NX}];`);
  for (let i = 0; i < RM; i++) for (let c = 0; c < 4; c++) for (let j = 0; j < RN; j++) lines.push(`      ${acc(i, c, j)} = ${acc(i, c, j)} + at${i}[${c}] * bt${j};`);
  lines.push('    }', '    workgroupBarrier();', '  }');
  // Outputs: the accumulators go through an array and a loop whose bound the
  // compiler cannot see (KK ≥ 0), so that the epilogue is compiled once, not
  // TM·TN times (unrolled, an epilogue with two loads took 10 s to compile on
  // llvmpipe, which compiles at the first dispatch; rolled, 0.6 s).
  const nAcc = RM * 4 * RN;
  for (let i = 0; i < el.length; i++) {
    const at = eAt + i * (nb + 3);
    lines.push(`  let e${i}b = ${batchOff(at)}; let e${i}r = P[${at + 1 + nb}]; let e${i}c = P[${at + 2 + nb}];`);
  }
  lines.push(`  var o: array<${v4}, ${nAcc}>;`);
  for (let i = 0; i < RM; i++) for (let c = 0; c < 4; c++) for (let j = 0; j < RN; j++) lines.push(`  o[${(i * 4 + c) * RN + j}] = ${acc(i, c, j)};`);
  const eArgs = el.map((_, i) => `, e${i}b + row * e${i}r + cu * e${i}c`).join('');
  lines.push(
    `  let nAcc = select(${nAcc}, 0, KK < 0);`,
    '  for (var x = 0; x < nAcc; x = x + 1) {',
    `    let ic = x / ${RN}; let j = x % ${RN};`,
    `    let row = r0 + (ty + (ic / 4) * ${NY}) * 4 + ic % 4; let col = c0 + (tx + j * ${NX}) * 4;`,
    '    if (row < M) {',
    '      for (var u = 0; u < 4; u = u + 1) {',
    '        let cu = col + u;',
    `        if (cu < N) { OUT[u32(ob * M * N + row * N + cu)] = ep(o[x][u]${eArgs}); }`,
    '      }',
    '    }',
    '  }',
  );
  lines.push('}');
  const params = (env: DimEnv): Int32Array => {
    const a = resolveShape(k.aShape, env),
      b = resolveShape(k.bShape, env);
    const M = a[nb]!,
      N = b[nb + 1]!,
      K = a[nb + 1]!;
    const batch = a.slice(0, nb);
    const count = batch.reduce((x, y) => x * y, 1);
    const p = [M, N, K, Math.ceil(N / BN), Math.ceil(M / BM), M === 0 || N === 0 ? 0 : count, ...batch];
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
  return { code: lines.join('\n'), workgroupSize: NT, inputSlots, out: k.out, usesConsts, consts, params, groups: (p) => p[3]! * p[4]! * p[5]! };
}
