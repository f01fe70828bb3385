// The webgpu Backend (issue 19): the dispatch contract, kernels compiled to
// WGSL and the device runtime that runs a compiled graph over GPU buffers,
// its outputs staying on the GPU.
//
// Served: every elementwise rule of the js backend on float32/int32/bool
// (wgsl-expr.ts, wgsl-special.ts), the six reductions (wgsl-reduce.ts),
// matmul (wgsl-matmul.ts), the data ops cumsum/gather/scatterAdd/concat/pad
// (wgsl-opaque.ts), registered ops with a GPU runner (registered.ts: random,
// splat), control flow (control-flow.ts); views fold into the kernels' loads;
// bool, 8- and 16-bit dtypes are stored one word per element, their
// arithmetic rewritten to int32/float32. Everything else — float64 and
// complex (no WGSL type), registered ops without a runner (linalg, sparse,
// fft) — is a LegalizationError from the dispatch contract with its reason
// (whyNot), never a CPU fallback.
//
// Data movement: a leaf on the host is copied to the GPU the first time a
// webgpu graph reads it, and the copy is kept on the node (`dev`) for the
// next graph; a result stays on the GPU (`Node.realizeOn`) and is read back
// only when its host data is asked for (toArray blocks; `await t.data()`
// does not). Buffers of intermediates, and of results once their tensors
// are collected, return to a pool by byte size for later runs (commands
// run in order on one queue, so a reused buffer is never written early).

import type { DType } from '../../tensor/dtype.js';
import { DeviceError, LegalizationError } from '../../tensor/errors.js';
import { resolveShape, type Dim } from '../../tensor/shape.js';
import type { DeviceStorage, Node } from '../../compiler/ir.js';
import { kindOf } from '../../compiler/primitives.js';
import type { Kernel, OpaqueKernel } from '../../compiler/kernel.js';
import { opLayout } from '../../compiler/op-registry.js';
import { BIT_MOVERS, isStorageType } from '../dispatch.js';
import type { Backend, CompiledKernel, DeviceGraph, DeviceRuntime, DimEnv, DispatchChoice } from '../backend.js';
import { webgpuDevice, type GpuBuffer, type GpuPipeline, type WebGpuDevice } from './device.js';
import { wgslElementwise, type WgslKernel } from './wgsl-elementwise.js';
import { wgslReduce } from './wgsl-reduce.js';
import { wgslMatmul } from './wgsl-matmul.js';
import { wgslOpaque } from './wgsl-opaque.js';
import { bufferPool, GpuStorage, IndexFlag, pipelineOf, toWords } from './resources.js';
import { gpuOp, gpuOpRefusal } from './registered.js';
import { runControlFlow } from './control-flow.js';
import './random.js'; // the random ops' GPU runners
import { constBits, hasWgslRule, STORAGE } from './wgsl-expr.js';

const storable = (d: DType): boolean => STORAGE[d] !== undefined;

const DATA_OPS = new Set(['cumsum', 'gather', 'scatterAdd', 'concat', 'pad']);
const CONTROL = new Set(['scan', 'while', 'cond']);

function dispatch(n: Node): DispatchChoice | undefined {
  const k = kindOf(n.op);
  if (k === 'leaf' || k === 'movement') return storable(n.dtype) || n.dtype === 'bool' ? 'native' : undefined;
  if (k === 'composite') return 'decompose';
  // int8/uint8 and float16/bfloat16 arithmetic is computed in int32/float32 (the CPU backends' rewrite: backends/dispatch.ts);
  // bit movers take them as they are.
  if (!BIT_MOVERS.has(n.op) && n.op !== 'registered' && n.op !== 'part' && [n, ...n.inputs].some((x) => isStorageType(x.dtype))) return 'rewrite';
  if (k === 'elementwise') return hasWgslRule(n.op, n.inputs[0]!.dtype) && (storable(n.dtype) || n.dtype === 'bool') ? 'native' : undefined;
  if (k === 'reduce' || n.op === 'matmul') {
    const d = n.inputs[0]!.dtype;
    return d === 'float32' || d === 'int32' ? 'native' : undefined;
  }
  if (DATA_OPS.has(n.op)) return storable(n.dtype) && n.inputs.every((x) => storable(x.dtype)) ? 'native' : undefined;
  if (n.op === 'registered') return gpuOpRefusal(n.attrs['op'] as string, n.inputs.map((x) => x.dtype), n.attrs) === undefined ? 'native' : undefined;
  if (n.op === 'part') return dispatch(n.inputs[0]!);
  // Control flow: bodies run through this runtime (control-flow.ts); the packed result and the operands must be stored here.
  if (CONTROL.has(n.op)) return storable(n.dtype) && n.inputs.every((x) => storable(x.dtype)) ? 'native' : undefined;
  return undefined;
}

/** The LegalizationError's detail for a node dispatch refuses. */
function whyNot(n: Node): string | undefined {
  if (n.op === 'part') return whyNot(n.inputs[0]!);
  if (n.op === 'registered') return gpuOpRefusal(n.attrs['op'] as string, n.inputs.map((x) => x.dtype), n.attrs);
  const bad = [n, ...n.inputs].find((x) => !storable(x.dtype) && x.dtype !== 'bool');
  if (bad !== undefined) return `WGSL has no ${bad.dtype} type here: webgpu stores float32, int32, bool, int8, uint8, float16 and bfloat16 (control flow packs int32 with float32 results as float64: give its carries one dtype)`;
  if (kindOf(n.op) === 'elementwise') return `no WGSL rule for ${n.op} on ${n.inputs[0]!.dtype}`;
  return undefined;
}

/** One dispatch of a compiled kernel: its WGSL, pipeline and parameter buffers per binding of the dims. */
interface GpuPass {
  readonly wgsl: WgslKernel;
  /** Compiled on the current device (recompiled, and the params rebuilt, after a device loss: `current`). */
  pipeline: GpuPipeline;
  readonly params: Map<string, { buf: GpuBuffer; groups: number }>;
}

/** A compiled kernel of this backend: WGSL passes run in order, or a registered op's GPU runner. */
interface GpuKernel extends CompiledKernel {
  readonly passes: readonly GpuPass[];
  readonly registered?: OpaqueKernel;
  /** A control-flow node (scan, while, cond): its bodies run through this runtime (control-flow.ts). */
  readonly control?: OpaqueKernel;
}

/** The pass with its pipeline and parameter buffers on device d (rebuilt once after a device loss). */
function current(pass: GpuPass, d: WebGpuDevice): GpuPass {
  if (pass.pipeline.generation !== d.generation) {
    pass.pipeline = pipelineOf(pass.wgsl.code);
    pass.params.clear();
  }
  return pass;
}

function compileKernel(k: Kernel, slotShapes: readonly (readonly Dim[])[]): CompiledKernel {
  let wgsl: WgslKernel[] = [];
  if (k.kind === 'elementwise') wgsl = [wgslElementwise(k, slotShapes)];
  else if (k.kind === 'reduce') wgsl = [wgslReduce(k, slotShapes)];
  else if (k.kind === 'matmul') wgsl = [wgslMatmul(k, slotShapes)];
  else if (k.op !== 'registered' && !CONTROL.has(k.op)) wgsl = wgslOpaque(k);
  const kernel: GpuKernel = {
    passes: wgsl.map((w) => ({ wgsl: w, pipeline: pipelineOf(w.code), params: new Map() })),
    ...(k.kind === 'opaque' && k.op === 'registered' ? { registered: k } : {}),
    ...(k.kind === 'opaque' && CONTROL.has(k.op) ? { control: k } : {}),
    source: wgsl.length > 0 ? wgsl.map((w) => w.code).join('\n\n') : `// registered op ${(k as OpaqueKernel).attrs['op'] as string}: its GPU runner (registered.ts)`,
    run() {
      throw new Error('internal: a webgpu kernel runs through the device runtime, not on host buffers');
    },
  };
  return kernel;
}

const envKey = (env: DimEnv) => (env.size === 0 ? '' : [...env].map(([k, v]) => `${k}=${v}`).join(','));
const slotSize = (shape: readonly (number | string)[], env: DimEnv) => resolveShape(shape as Dim[], env).reduce((a, b) => a * b, 1);

/** Runs a registered op's call through its GPU runner (registered.ts); scratch buffers go back to the pool with the run's. */
function runRegistered(k: OpaqueKernel, slotBuffer: (s: number) => GpuBuffer, env: DimEnv, taken: GpuBuffer[]): void {
  const d = webgpuDevice();
  const p = bufferPool();
  const name = k.attrs['op'] as string;
  const op = gpuOp(name);
  if (op === undefined) throw new LegalizationError(name, k.inDTypes[0] ?? '-', 'webgpu', gpuOpRefusal(name, k.inDTypes, k.attrs)!);
  const inShapes = k.inShapes.map((s) => resolveShape(s, env));
  const l = opLayout(
    inShapes.map((shape, i) => ({ shape, dtype: k.inDTypes[i]! })),
    k.attrs,
  );
  const batch = (l.batch as number[]).reduce((a, b) => a * b, 1);
  const temp = (bytes: number): GpuBuffer => {
    const b = p.take(bytes);
    taken.push(b);
    return b;
  };
  const outs = l.parts.map((part, i) => {
    const slot = i === 0 ? k.out : (k.parts?.[i] ?? -1);
    if (slot >= 0) return slotBuffer(slot);
    return temp(batch * part.shape.reduce((a, b) => a * b, 1) * 4); // one word per element, every dtype (wgsl-expr.ts STORAGE)
  });
  op.run({
    device: d,
    batch,
    ins: k.inputs.map(slotBuffer),
    inShapes: inShapes.map((s) => s.slice(l.batch.length)),
    inDTypes: k.inDTypes,
    outs,
    outShapes: l.parts.map((x) => x.shape),
    outDTypes: l.parts.map((x) => x.dtype),
    attrs: k.attrs,
    scratch: temp,
    upload(data) {
      const b = temp(data.byteLength);
      d.write(b, data);
      return b;
    },
    pipeline: pipelineOf,
  });
}

const runtime: DeviceRuntime = {
  run(g: DeviceGraph, inputs: readonly Node[], env: DimEnv, consts: Float64Array): DeviceStorage[] {
    const d = webgpuDevice();
    const p = bufferPool();
    const bufs = new Array<GpuBuffer | undefined>(g.slots.length);
    g.inputSlots.forEach((s, i) => {
      const n = inputs[i]!;
      // A copy on a device that was lost is replaced from the host copy, when the node has one
      // (a result whose only copy was on the lost device throws the device's stale-buffer DeviceError).
      const stale = n.dev instanceof GpuStorage && n.dev.buffer.generation !== d.generation && n.host !== undefined;
      if (!(n.dev instanceof GpuStorage) || stale) {
        const words = toWords(n.data!);
        const buf = p.take(words.byteLength);
        d.write(buf, words);
        // The copy stays with the node (host data stays too): the next graph reading it uses the GPU copy.
        n.dev = new GpuStorage(buf, n.dtype, words.byteLength / 4);
      }
      bufs[s] = (n.dev as GpuStorage).buffer;
    });
    const key = envKey(env);
    const taken: GpuBuffer[] = [];
    const slotBuffer = (s: number): GpuBuffer => {
      const a = g.slots[s]!.alias;
      if (a !== undefined) return slotBuffer(a);
      let b = bufs[s];
      if (b === undefined) {
        b = bufs[s] = p.take(slotSize(g.slots[s]!.shape, env) * 4);
        taken.push(b);
      }
      return b;
    };
    // Index checks this run's results carry: those of its inputs, and its own when a kernel checks indices.
    const flags = new Set<IndexFlag>();
    for (const n of inputs) for (const f of (n.dev as GpuStorage).flags) flags.add(f);
    let own: IndexFlag | undefined;
    const flagBuffer = (): GpuBuffer => {
      if (own === undefined) {
        const b = p.take(16);
        d.write(b, new Uint32Array(4));
        flags.add((own = new IndexFlag(b)));
      }
      return own.buffer;
    };
    const maxX = d.info.limits['maxComputeWorkgroupsPerDimension'] ?? 65535;
    g.kernels.forEach((k, i) => {
      const ck = g.compiled[i] as GpuKernel;
      if (ck.registered !== undefined) return runRegistered(ck.registered, slotBuffer, env, taken);
      if (ck.control !== undefined) return runControlFlow(ck.control, slotBuffer, env);
      for (const pass of ck.passes.map((x) => current(x, d))) {
        const w = pass.wgsl;
        let pr = pass.params.get(key);
        if (pr === undefined) {
          const P = w.params(env);
          pr = { buf: d.createBuffer(P.byteLength, P), groups: w.groups(P) };
          pass.params.set(key, pr);
        }
        if (pr.groups === 0) continue;
        const bound = [slotBuffer(k.out), ...w.inputSlots.map(slotBuffer), pr.buf];
        if (w.usesConsts) {
          const bits = constBits(consts, w.consts);
          const kb = p.take(bits.byteLength);
          d.write(kb, bits);
          bound.push(kb);
          taken.push(kb);
        }
        if (w.checksIndices) bound.push(flagBuffer());
        d.dispatch(pass.pipeline, bound, [Math.min(pr.groups, maxX), Math.ceil(pr.groups / maxX)]);
      }
    });
    // One storage object per buffer (it returns the buffer to the pool when collected, so never two for one buffer):
    // an output that is an input is that input's storage, outputs sharing a buffer (aliases) share it.
    const wrapped = new Map<GpuBuffer, GpuStorage>();
    g.inputSlots.forEach((s, i) => wrapped.set(bufs[s]!, inputs[i]!.dev as GpuStorage));
    const outs = g.outputSlots.map((s) => {
      const b = slotBuffer(s);
      let st = wrapped.get(b);
      if (st === undefined) {
        const at = taken.indexOf(b);
        if (at >= 0) taken.splice(at, 1); // the result's buffer now, not the pool's
        wrapped.set(b, (st = new GpuStorage(b, g.slots[s]!.dtype, slotSize(g.slots[s]!.shape, env), [...flags])));
      }
      return st;
    });
    for (const b of taken) p.give(b);
    return outs;
  },
};

/** Invocations per workgroup every generated kernel uses (the matmul, reductions, scans and splat kernels are laid out for it). */
const WORKGROUP = 256;

/**
 * Throws DeviceError when the adapter's limits cannot run rlx's kernels (an
 * adapter allowing fewer than 256 invocations per workgroup: the WebGPU
 * compatibility-mode default is 128), so such a device is unavailable with
 * that reason rather than failing at its first pipeline.
 */
export function checkWebgpuLimits(limits: Readonly<Record<string, number>>): void {
  const n = limits['maxComputeInvocationsPerWorkgroup'] ?? 0;
  if (n < WORKGROUP) throw new DeviceError(`webgpu: the adapter allows ${n} invocations per workgroup; rlx's kernels need ${WORKGROUP}`);
  const x = limits['maxComputeWorkgroupSizeX'] ?? 0;
  if (x < WORKGROUP) throw new DeviceError(`webgpu: the adapter allows workgroups ${x} wide; rlx's kernels need ${WORKGROUP}`);
}

export const webgpuBackend: Backend = {
  name: 'webgpu',
  widestFloat: 'float32',
  dispatch,
  whyNot,
  compileKernel,
  alloc: () => {
    throw new Error('internal: webgpu buffers are allocated by its device runtime');
  },
  device: runtime,
};
