// explain(t): the compiled plan of a tensor's graph, as data and as text:
// kernels with their fused ops, buffers, peak bytes, each node's dispatch choice.

import { DTYPE_INFO } from '../tensor/dtype.js';
import { fmtShape, staticSize, type Dim } from '../tensor/shape.js';
import { Tensor } from '../tensor/tensor.js';
import { executableFor, deviceOf } from './realize.js';
import { Func, CompiledFunc } from './trace.js';
import type { CompileReport } from './executable.js';
import type { DispatchChoice } from '../backends/backend.js';
import { readsOf, type MemoryPlan } from './passes/memory-plan.js';
import { splitViewRoots } from './view-roots.js';

export interface KernelPlan {
  index: number;
  kind: string;
  ops: string[];
  out: { buffer: number; shape: Dim[]; dtype: string };
  /** A registered call's further outputs that the graph keeps (each its own buffer, shape and dtype). */
  parts?: { index: number; buffer: number; shape: Dim[]; dtype: string }[];
  reads: number[];
}
export interface BufferPlan {
  id: number;
  role: 'intermediate' | 'output';
  dtype: string;
  shape: Dim[];
  bytes: number | undefined;
  slots: number[];
}
export interface Plan {
  device: string;
  kernels: KernelPlan[];
  buffers: BufferPlan[];
  peakBytes: number | undefined;
  inPlace: number;
  reused: number;
  passes: CompileReport['passes'];
  dispatch: { op: string; dtype: string; choice: DispatchChoice }[];
  /** Generated kernel source, when the backend has some. */
  sources: (string | undefined)[];
  /**
   * Requested tensors that realize() hands out as a range of another node's
   * data instead of computing (view-roots.ts: contiguous views of a realized
   * buffer or of a computed root such as a factorization); `copied` when the
   * range is copied out (a quarter of its base or less).
   */
  views: ViewPlan[];
  toString(): string;
}
export interface ViewPlan {
  shape: Dim[];
  dtype: string;
  /** 'buffer': a realized tensor's data; else the op of the computed root it reads. */
  of: string;
  offset: number;
  length: number;
  copied: boolean;
}

function planOf(report: CompileReport, sources: (string | undefined)[], views: ViewPlan[] = []): Plan {
  const slotBuf = (s: number) => {
    const sl = report.slots[s]!;
    return sl.role === 'input' ? -1 - s : sl.buffer;
  };
  const partsOf = (slots: number[]) =>
    slots.flatMap((s, index) => (s < 0 ? [] : [{ index, buffer: slotBuf(s), shape: report.slots[s]!.shape, dtype: report.slots[s]!.dtype }]));
  const kernels = report.kernels.map((k, index) => ({
    index,
    kind: k.kind === 'opaque' ? k.name : k.kind,
    // A registered op's kernel is listed under the op's name (cholesky, csrMatmul, ...).
    ops: k.kind === 'opaque' && k.name === 'registered' ? [k.attrs['op'] as string] : [...k.fused],
    out: { buffer: slotBuf(k.out), shape: k.outShape, dtype: k.outDType },
    ...(k.kind === 'opaque' && k.parts !== undefined ? { parts: partsOf(k.parts) } : {}),
    reads: readsOf(k).map(slotBuf),
  }));
  const buffers = report.plan.buffers.map((b) => ({ id: b.id, role: b.role, dtype: b.dtype, shape: b.shape, bytes: b.bytes, slots: b.slots }));
  const plan: Plan = {
    device: report.device,
    kernels,
    buffers,
    peakBytes: report.plan.peakBytes,
    inPlace: report.plan.inPlace,
    reused: report.plan.reused,
    passes: report.passes,
    dispatch: report.dispatch,
    sources,
    views,
    toString() {
      const name = (b: number) => (b < 0 ? `in${-1 - b}` : `buf${b}`);
      const lines = [`plan on '${plan.device}': ${kernels.length} kernel(s), ${buffers.length} buffer(s), peak ${plan.peakBytes ?? 'dynamic'} bytes, ${plan.inPlace} in place, ${plan.reused} reused`];
      lines.push('passes:');
      for (const p of plan.passes) lines.push(`  ${p.name.padEnd(14)} ${p.nodesBefore} -> ${p.nodesAfter} nodes${p.detail ? ` (${p.detail})` : ''}`);
      lines.push('kernels:');
      for (const k of kernels) {
        const more = (k.parts ?? []).map((p) => `, ${name(p.buffer)} ${fmtShape(p.shape)} ${p.dtype}`).join('');
        lines.push(`  k${k.index} ${k.kind.padEnd(11)} [${k.ops.join(' ')}] ${k.reads.map(name).join(', ')} -> ${name(k.out.buffer)} ${fmtShape(k.out.shape)} ${k.out.dtype}${more}`);
      }
      lines.push('buffers:');
      for (const b of buffers) lines.push(`  buf${b.id} ${b.role.padEnd(12)} ${b.dtype} ${fmtShape(b.shape)} ${b.bytes ?? '?'} bytes`);
      if (views.length) {
        lines.push('views (no kernel):');
        for (const v of views) lines.push(`  ${fmtShape(v.shape)} ${v.dtype}: elements ${v.offset}..${v.offset + v.length - 1} of the ${v.of === 'buffer' ? 'realized buffer' : `${v.of} output`}${v.copied ? ', copied out' : ''}`);
      }
      const counts = new Map<string, number>();
      for (const d of plan.dispatch) counts.set(`${d.op}:${d.dtype}:${d.choice}`, (counts.get(`${d.op}:${d.dtype}:${d.choice}`) ?? 0) + 1);
      lines.push('dispatch:');
      for (const [k, n] of counts) {
        const [op, dt, ch] = k.split(':');
        lines.push(`  ${op!.padEnd(12)} ${dt!.padEnd(10)} ${ch}${n > 1 ? ` x${n}` : ''}`);
      }
      return lines.join('\n');
    },
  };
  return plan;
}

/**
 * The compiled plan for computing `what` (tensors, or a Func / compiled Func),
 * without running it. Prints it unless {print: false}.
 * @example
 * ```ts
 * const x = tensor([1, 2, 3]);
 * const plan = explain(x.mul(2).add(1), { print: false });
 * plan.kernels.length;   // 1  (mul and add fuse into one kernel)
 * ```
 */
export function explain(what: Tensor | Tensor[] | Func | CompiledFunc, opts: { print?: boolean } = {}): Plan {
  let report: CompileReport;
  let sources: (string | undefined)[] = [];
  let views: ViewPlan[] = [];
  if (what instanceof CompiledFunc) report = what.report;
  else if (what instanceof Func) report = what.compile().report;
  else {
    const roots = (Array.isArray(what) ? what : [what]).map((t) => t.node);
    // What realize() computes: views of buffers or of other roots are not kernels.
    const split = splitViewRoots([...new Set(roots.filter((n) => n.op !== 'buffer'))]);
    if (split.compute.length > 0 || split.views.length === 0) {
      const computed = split.compute.length ? split.compute : roots;
      const { exe } = executableFor(computed, deviceOf(computed));
      report = exe.report;
      sources = exe.exe.compiled.map((c) => c.source);
    } else {
      // Views of realized buffers only: realize() runs nothing.
      const none: MemoryPlan = { buffers: [], peakBytes: 0, inPlace: 0, reused: 0 };
      report = { device: deviceOf(roots), passes: [], dispatch: [], kernels: [], slots: [], plan: none, inputNames: [] };
    }
    views = split.views.map((v) => {
      const baseLength = v.base.shape.reduce<number>((a, d) => a * (d as number), 1);
      return { shape: [...v.root.shape], dtype: v.root.dtype, of: v.base.op === 'buffer' ? 'buffer' : v.base.op, offset: v.offset, length: v.length, copied: 4 * v.length <= baseLength };
    });
  }
  const plan = planOf(report, sources, views);
  if (opts.print ?? true) console.log(plan.toString());
  return plan;
}

/** Bytes of a static shape of dtype d (undefined when dynamic). */
export function bytesOf(shape: Dim[], d: keyof typeof DTYPE_INFO): number | undefined {
  const n = staticSize(shape);
  return n === undefined ? undefined : n * DTYPE_INFO[d].itemsize;
}
