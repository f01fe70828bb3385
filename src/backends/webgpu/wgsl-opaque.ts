// WGSL for the whole-op kernels (compiler/kernel.ts OpaqueKernel) that are
// data movement or a running sum: cumsum, gather (np.take), scatterAdd,
// concat and constant pad — the webgpu twins of backends/js/opaque.ts, with
// its semantics. Inputs are contiguous slots, as for the js kernels.
//
// A kernel may take several passes (dispatches writing the same output):
// scatterAdd copies x, then adds the updates; concat copies at most
// CONCAT_INPUTS inputs per pass, since a shader binds a limited number of
// storage buffers (16 on Dawn's GL path).
//
// Indices (gather, scatterAdd) are checked on the GPU: an out-of-range index
// cannot throw there, so the kernel records the first one in an error buffer
// (binding after P: [flag, op, index, axis size]) and writes nothing for it;
// the runtime attaches that buffer to the run's results and reading one
// throws the IndexError the js backend throws (index.ts: GpuStorage).
//
// Floating-point results can differ from js by rounding: cumsum scans a
// column in parallel (Hillis–Steele in workgroup memory, chunk by chunk with
// a carry) where js adds sequentially, and scatterAdd adds repeated indices in
// whatever order the atomics land (float32 adds by compare-exchange on the
// bits: WGSL has no float atomics). int32 results are exact (wrapping
// addition is associative).

import { LegalizationError } from '../../tensor/errors.js';
import { resolveShape, type Dim } from '../../tensor/shape.js';
import type { OpaqueKernel } from '../../compiler/kernel.js';
import type { DimEnv } from '../backend.js';
import { declareBindings, literal, STORAGE } from './wgsl-expr.js';
import type { WgslKernel } from './wgsl-elementwise.js';
import { f32ToBf16Bits, f32ToF16Bits } from '../../tensor/half.js';

const WG = 256;
/** Inputs one concat pass binds (with the output and P: well under the 16 storage buffers allowed). */
export const CONCAT_INPUTS = 12;
/** Codes of the ops that check indices, in the error buffer's second word. */
export const INDEX_OPS = ['gather', 'scatterAdd'] as const;

const prod = (s: readonly number[], a = 0, b = s.length) => s.slice(a, b).reduce((x, y) => x * y, 1);
const HEAD = (n: number) => [
  `@compute @workgroup_size(${WG})`,
  'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {',
  `  let i = i32(gid.x + gid.y * nwg.x * ${WG}u);`,
  `  if (i >= P[${n}]) { return; }`,
];

function storageOf(k: OpaqueKernel): string {
  const t = STORAGE[k.outDType];
  if (t === undefined) throw new LegalizationError(k.op, k.outDType, 'webgpu', 'storage of this dtype on the GPU');
  return t;
}

/** A one-pass kernel over `n(P)` invocations (P[0] = invocation count). */
function pass(k: OpaqueKernel, code: string[], inputSlots: number[], params: (env: DimEnv) => number[], checksIndices = false): WgslKernel {
  return {
    code: code.join('\n'),
    workgroupSize: WG,
    inputSlots,
    out: k.out,
    usesConsts: false,
    consts: [],
    checksIndices,
    params: (env) => Int32Array.from(params(env)),
    groups: (p) => Math.ceil(p[0]! / WG),
  };
}

/**
 * A pass over the [outer, m, inner] elements an index list addresses along an
 * axis of size n (gather's outputs, scatterAdd's updates), P = [total, m,
 * inner, n]: invocation i is element (o, j, e), `row` the checked index
 * idx[j] (negative from the end). An out-of-range index is recorded in the
 * error buffer (binding after P: [flag, op, index, axis size]) and its element
 * skipped. `body` reads o, j, e, row, n, inner.
 */
function indexedPass(k: OpaqueKernel, op: (typeof INDEX_OPS)[number], outType: string, slots: { is: number; others: number[]; type: string }, shapes: readonly (readonly Dim[])[], body: string[]): WgslKernel {
  const ax = k.attrs['axis'] as number;
  const inputSlots = [slots.is, ...slots.others];
  const code = [
    ...declareBindings(outType, inputSlots, (s) => (s === slots.is ? 'i32' : slots.type), false, []),
    `@group(0) @binding(${inputSlots.length + 2}) var<storage, read_write> ERR: array<atomic<u32>>;`,
    ...HEAD(0),
    '  let m = P[1]; let inner = P[2]; let n = P[3];',
    '  let o = i / (m * inner); let j = (i / inner) % m; let e = i % inner;',
    `  let raw = S${slots.is}[j];`,
    '  var row = raw;',
    '  if (row < 0) { row = row + n; }',
    '  if (row < 0 || row >= n) {',
    '    if (atomicCompareExchangeWeak(&ERR[0], 0u, 1u).exchanged) {',
    `      atomicStore(&ERR[1], ${INDEX_OPS.indexOf(op)}u); atomicStore(&ERR[2], bitcast<u32>(raw)); atomicStore(&ERR[3], u32(n));`,
    '    }',
    '    return;',
    '  }',
    ...body,
    '}',
  ];
  const params = (env: DimEnv) => {
    const s = resolveShape(shapes[0] as Dim[], env);
    const m = prod(resolveShape(shapes[1] as Dim[], env));
    return [prod(s, 0, ax) * m * prod(s, ax + 1), m, prod(s, ax + 1), s[ax]!];
  };
  return pass(k, code, inputSlots, params, true);
}

/** The copy pass out[i] = x[i] (scatterAdd's first pass). */
function copyPass(k: OpaqueKernel, t: string, slot: number, total: (env: DimEnv) => number): WgslKernel {
  return pass(k, [...declareBindings(t, [slot], () => t, false, []), ...HEAD(0), `  OUT[i] = S${slot}[i];`, '}'], [slot], (env) => [total(env)]);
}

function cumsum(k: OpaqueKernel, t: string, shape: readonly Dim[]): WgslKernel[] {
  const ax = k.attrs['axis'] as number;
  const slot = k.inputs[0]!;
  // P: [columns, n, inner]; one workgroup per column (outer·inner of them), the column scanned 256 at a time.
  const code = [
    ...declareBindings(t, [slot], () => t, false, []),
    `var<workgroup> W: array<${t}, ${WG}>;`,
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(local_invocation_index) tl: u32, @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {',
    '  let c = i32(wid.x + wid.y * nwg.x);',
    '  if (c >= P[0]) { return; }',
    '  let t = i32(tl);',
    '  let n = P[1];',
    '  let inner = P[2];',
    '  let base = (c / inner) * n * inner + c % inner;',
    `  var carry: ${t} = ${literal(0, t === 'f32' ? 'float32' : 'int32')};`,
    `  for (var s = 0; s < n; s = s + ${WG}) {`,
    `    var v: ${t} = ${literal(0, t === 'f32' ? 'float32' : 'int32')};`,
    '    if (s + t < n) { v = S' + slot + '[base + (s + t) * inner]; }',
    '    W[t] = v;',
    '    workgroupBarrier();',
    `    for (var d = 1; d < ${WG}; d = d * 2) {`,
    '      var add = W[t];',
    '      if (t >= d) { add = W[t - d] + W[t]; }',
    '      workgroupBarrier();',
    '      W[t] = add;',
    '      workgroupBarrier();',
    '    }',
    '    if (s + t < n) { OUT[base + (s + t) * inner] = carry + W[t]; }',
    `    carry = carry + W[${WG - 1}];`,
    '    workgroupBarrier();',
    '  }',
    '}',
  ];
  const w = pass(k, code, [slot], (env) => {
    const s = resolveShape(shape as Dim[], env);
    return [prod(s, 0, ax) * prod(s, ax + 1), s[ax]!, prod(s, ax + 1)];
  });
  return [{ ...w, groups: (p) => (p[1] === 0 ? 0 : p[0]!) }];
}

function gather(k: OpaqueKernel, t: string, shapes: readonly (readonly Dim[])[]): WgslKernel[] {
  const [xs, is] = k.inputs as [number, number];
  // out[o, j, e] = x[o, idx[j], e] over out [outer, m, inner].
  return [indexedPass(k, 'gather', t, { is, others: [xs], type: t }, shapes, [`  OUT[i] = S${xs}[(o * n + row) * inner + e];`])];
}

function scatterAdd(k: OpaqueKernel, t: string, shapes: readonly (readonly Dim[])[]): WgslKernel[] {
  const [xs, is, us] = k.inputs as [number, number, number];
  const atom = t === 'f32' ? 'atomic<u32>' : 'atomic<i32>';
  const add =
    t === 'f32'
      ? [
          '  var old = atomicLoad(&OUT[at]);',
          '  loop {',
          `    let r = atomicCompareExchangeWeak(&OUT[at], old, bitcast<u32>(bitcast<f32>(old) + S${us}[i]));`,
          '    if (r.exchanged) { break; }',
          '    old = r.old_value;',
          '  }',
        ]
      : [`  atomicAdd(&OUT[at], S${us}[i]);`];
  // out = x, then out[o, idx[j], e] += upd[o, j, e] over the updates [outer, m, inner].
  return [
    copyPass(k, t, xs, (env) => prod(resolveShape(shapes[0] as Dim[], env))),
    indexedPass(k, 'scatterAdd', atom, { is, others: [us], type: t }, shapes, ['  let at = (o * n + row) * inner + e;', ...add]),
  ];
}

function concat(k: OpaqueKernel, t: string, shapes: readonly (readonly Dim[])[]): WgslKernel[] {
  const ax = k.attrs['axis'] as number;
  const passes: WgslKernel[] = [];
  for (let first = 0; first < k.inputs.length; first += CONCAT_INPUTS) {
    const group = k.inputs.slice(first, first + CONCAT_INPUTS).map((slot, g) => ({ slot, at: first + g }));
    const slots = [...new Set(group.map((g) => g.slot))];
    // P: [outer · Σ widths of this pass, Σ widths of this pass, row width of the output, then per input: width, offset in the output row].
    const code = [...declareBindings(t, slots, () => t, false, []), ...HEAD(0), '  let wp = P[1]; let o = i / wp; var r = i % wp;'];
    group.forEach((g, j) => {
      const w = `P[${3 + 2 * j}]`,
        off = `P[${4 + 2 * j}]`;
      code.push(`  if (r < ${w}) { OUT[o * P[2] + ${off} + r] = S${g.slot}[o * ${w} + r]; return; }`, `  r = r - ${w};`);
    });
    code.push('}');
    passes.push(
      pass(k, code, slots, (env) => {
        const s = shapes.map((x) => resolveShape(x as Dim[], env));
        const widths = s.map((x) => prod(x, ax));
        const offsets = widths.map((_, i) => widths.slice(0, i).reduce((a, b) => a + b, 0));
        const wp = group.reduce((a, g) => a + widths[g.at]!, 0);
        return [prod(s[0]!, 0, ax) * wp, wp, widths.reduce((a, b) => a + b, 0), ...group.flatMap((g) => [widths[g.at]!, offsets[g.at]!])];
      }),
    );
  }
  return passes;
}

function pad(k: OpaqueKernel, t: string, shape: readonly Dim[]): WgslKernel[] {
  const w = k.attrs['widths'] as [number, number][];
  const slot = k.inputs[0]!;
  const r = shape.length;
  const value = k.attrs['value'] as number;
  // The fill as a storage word (bool 0u/1u, halves their bits).
  const fill =
    k.outDType === 'bool' ? (value !== 0 ? '1u' : '0u') : k.outDType === 'float16' ? `${f32ToF16Bits(value)}u` : k.outDType === 'bfloat16' ? `${f32ToBf16Bits(Math.fround(value))}u` : literal(value, k.outDType);
  // P: [total, out sizes (r), in sizes (r)]; widths are attrs (compile-time).
  const code = [...declareBindings(t, [slot], () => t, false, []), ...HEAD(0), '  var rest = i;', '  var inside = true;'];
  for (let d = r - 1; d >= 0; d--) {
    code.push(`  let c${d} = rest % P[${1 + d}] - ${w[d]![0]};`, `  rest = rest / P[${1 + d}];`, `  inside = inside && c${d} >= 0 && c${d} < P[${1 + r + d}];`);
  }
  let src = '0';
  for (let d = 0; d < r; d++) src = `(${src}) * P[${1 + r + d}] + c${d}`;
  code.push(`  if (inside) { OUT[i] = S${slot}[${src}]; } else { OUT[i] = ${fill}; }`, '}');
  return [
    pass(k, code, [slot], (env) => {
      const s = resolveShape(shape as Dim[], env);
      const out = s.map((d, i) => d + w[i]![0] + w[i]![1]);
      return [prod(out), ...out, ...s];
    }),
  ];
}

/** The passes of an opaque kernel this backend lowers to WGSL (LegalizationError for the others). */
export function wgslOpaque(k: OpaqueKernel): WgslKernel[] {
  const t = storageOf(k);
  for (const d of k.inDTypes) if (STORAGE[d] === undefined) throw new LegalizationError(k.op, d, 'webgpu', 'storage of this dtype on the GPU');
  if (STORAGE[k.outDType] === 'u32' && (k.op === 'cumsum' || k.op === 'scatterAdd')) throw new LegalizationError(k.op, k.outDType, 'webgpu', 'sums of values stored as bits (bool, float16, bfloat16) are computed in a wider dtype first');
  switch (k.op) {
    case 'cumsum':
      return cumsum(k, t, k.inShapes[0]!);
    case 'gather':
      return gather(k, t, k.inShapes);
    case 'scatterAdd':
      return scatterAdd(k, t, k.inShapes);
    case 'concat':
      return concat(k, t, k.inShapes);
    case 'pad':
      return pad(k, t, k.inShapes[0]!);
    default:
      throw new LegalizationError(k.name, k.outDType, 'webgpu', 'no WGSL kernel for this op');
  }
}
