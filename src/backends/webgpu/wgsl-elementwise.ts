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
// without a WGSL rule (wgsl-expr.ts).

import { LegalizationError } from '../../tensor/errors.js';
import { resolveShape, type Dim } from '../../tensor/shape.js';
import type { ElementwiseKernel } from '../../compiler/kernel.js';
import { resolveChain } from '../../compiler/view.js';
import type { DimEnv } from '../backend.js';
import type { DType } from '../../tensor/dtype.js';
import { declareBindings, STORAGE, cast, constParams, emit, toStorage } from './wgsl-expr.js';

/** One compute shader and how to bind and size it. */
export interface WgslKernel {
  code: string;
  /** Invocations per workgroup. */
  workgroupSize: number;
  /** Buffer slots in binding order after the output (binding 0 = `out`). */
  inputSlots: number[];
  out: number;
  /** Whether binding inputSlots.length + 2 is the constant vector (u32 words: constBits). */
  usesConsts: boolean;
  /** The run-time literals read: [offset in the constant vector, dtype]. */
  consts: [number, DType][];
  /** Whether the binding after P (and K) is an error buffer for out-of-range indices (wgsl-opaque.ts). */
  checksIndices?: boolean;
  /** The i32 parameter vector for one binding of the dims. */
  params(env: DimEnv): Int32Array;
  /** Workgroups to dispatch for that parameter vector (laid out as a 2-D grid past 65535). */
  groups(params: Int32Array): number;
}

const WG = 256;

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
  const consts = constParams(k.expr.instrs);
  const usesConsts = consts.length > 0;
  const decl = [
    ...declareBindings(outType, inputSlots, (s) => STORAGE[loads.find((l) => l.slot === s)!.dtype]!, usesConsts, [k.expr.instrs]),
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
  const expr = emit(k.expr.instrs, 'v', (li) => `S${loads[li]!.slot}[${index(li)}]`);
  const last = k.expr.instrs.length - 1;
  const code = [
    ...decl,
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {',
    `  let i = gid.x + gid.y * nwg.x * ${WG}u;`,
    '  if (i >= u32(P[0])) { return; }',
    ...body,
    expr,
    `  OUT[i] = ${toStorage(cast(`v${last}`, k.expr.instrs[last]!.dtype, k.outDType), k.outDType)};`,
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
  return { code, workgroupSize: WG, inputSlots, out: k.out, usesConsts, consts, params, groups: (p) => Math.ceil(p[0]! / WG) };
}
