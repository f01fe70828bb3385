// The webgpu Backend (issue 19): the dispatch contract, kernels compiled to
// WGSL (wgsl-elementwise.ts, wgsl-reduce.ts) and the device runtime that runs
// a compiled graph over GPU buffers, its outputs staying on the GPU.
//
// Served so far: float32 and int32 data, every elementwise op with a WGSL
// rule (wgsl-expr.ts), casts, where and comparisons (bool values inside a
// kernel), the six reductions, matmul (tiled, batched, fused epilogue);
// views fold into the kernels' loads. Not yet: the opaque ops (cumsum, gather, scatterAdd, concat, pad), control
// flow, registered ops (linalg, sparse, fft, splat), bool/8-bit/float16
// storage. Those, and dtypes WGSL has no type for (float64, complex), are a
// LegalizationError from the dispatch contract, never a CPU fallback.
//
// Data movement: a leaf on the host is copied to the GPU the first time a
// webgpu graph reads it, and the copy is kept on the node (`dev`) for the
// next graph; a result stays on the GPU (`Node.realizeOn`) and is read back
// only when its host data is asked for (toArray blocks; `await t.data()`
// does not). Buffers of intermediates, and of results once their tensors
// are collected, return to a pool by byte size for later runs (commands
// run in order on one queue, so a reused buffer is never written early).

import type { DType, StorageArray } from '../../tensor/dtype.js';
import { DeviceError, LegalizationError } from '../../tensor/errors.js';
import { resolveShape, type Dim } from '../../tensor/shape.js';
import type { DeviceStorage, Node } from '../../compiler/ir.js';
import { kindOf } from '../../compiler/primitives.js';
import type { Kernel } from '../../compiler/kernel.js';
import type { Backend, CompiledKernel, DeviceGraph, DeviceRuntime, DimEnv, DispatchChoice } from '../backend.js';
import { webgpuDevice, type GpuBuffer, type GpuPipeline, type WebGpuDevice } from './device.js';
import { wgslElementwise, type WgslKernel } from './wgsl-elementwise.js';
import { wgslReduce } from './wgsl-reduce.js';
import { wgslMatmul } from './wgsl-matmul.js';
import { constBits, hasWgslRule, STORAGE } from './wgsl-expr.js';

const storable = (d: DType): boolean => STORAGE[d] !== undefined;

function dispatch(n: Node): DispatchChoice | undefined {
  const k = kindOf(n.op);
  if (k === 'leaf' || k === 'movement') return storable(n.dtype) || n.dtype === 'bool' ? 'native' : undefined;
  if (k === 'composite') return 'decompose';
  if (k === 'elementwise') return hasWgslRule(n.op, n.inputs[0]!.dtype) && (storable(n.dtype) || n.dtype === 'bool') ? 'native' : undefined;
  if (k === 'reduce') {
    const d = n.inputs[0]!.dtype;
    return d === 'float32' || d === 'int32' ? 'native' : undefined;
  }
  if (n.op === 'matmul') {
    const d = n.inputs[0]!.dtype;
    return d === 'float32' || d === 'int32' ? 'native' : undefined;
  }
  return undefined; // opaque ops, control flow, registered ops: not on webgpu yet
}

/** A compiled kernel of this backend: its WGSL, pipeline and parameter buffers per binding of the dims. */
interface GpuKernel extends CompiledKernel {
  readonly wgsl: WgslKernel;
  readonly pipeline: GpuPipeline;
  readonly params: Map<string, { buf: GpuBuffer; groups: number }>;
}

const pipelines = new Map<string, GpuPipeline>();

function compileKernel(k: Kernel, slotShapes: readonly (readonly Dim[])[]): CompiledKernel {
  let wgsl: WgslKernel;
  if (k.kind === 'elementwise') wgsl = wgslElementwise(k, slotShapes);
  else if (k.kind === 'reduce') wgsl = wgslReduce(k, slotShapes);
  else if (k.kind === 'matmul') wgsl = wgslMatmul(k, slotShapes);
  else throw new LegalizationError(k.name, k.outDType, 'webgpu', 'no WGSL kernel yet');
  const d = webgpuDevice();
  let pipeline = pipelines.get(wgsl.code);
  if (pipeline === undefined) pipelines.set(wgsl.code, (pipeline = d.pipeline(wgsl.code)));
  const kernel: GpuKernel = {
    wgsl,
    pipeline,
    params: new Map(),
    source: wgsl.code,
    run() {
      throw new Error('internal: a webgpu kernel runs through the device runtime, not on host buffers');
    },
  };
  return kernel;
}

/** Buffers no longer used, by byte size, for later runs (at most POOL_BYTES kept). */
class BufferPool {
  private readonly free = new Map<number, GpuBuffer[]>();
  private bytes = 0;
  constructor(
    private readonly device: WebGpuDevice,
    private readonly limit: number,
  ) {}
  take(bytes: number): GpuBuffer {
    const size = Math.max(4, Math.ceil(bytes / 4) * 4);
    const list = this.free.get(size);
    const b = list?.pop();
    if (b !== undefined) {
      this.bytes -= size;
      return b;
    }
    return this.device.createBuffer(size);
  }
  give(b: GpuBuffer): void {
    if (this.bytes + b.bytes > this.limit) return this.device.free(b);
    let list = this.free.get(b.bytes);
    if (list === undefined) this.free.set(b.bytes, (list = []));
    list.push(b);
    this.bytes += b.bytes;
  }
}
const POOL_BYTES = 256 * 2 ** 20;

let pool: BufferPool | undefined;
const bufferPool = (): BufferPool => (pool ??= new BufferPool(webgpuDevice(), POOL_BYTES));
/** A result's buffer goes back to the pool when its storage object is collected. */
const released = new FinalizationRegistry<GpuBuffer>((b) => bufferPool().give(b));

const TYPED: Partial<Record<DType, new (b: ArrayBuffer) => StorageArray>> = { float32: Float32Array, int32: Int32Array };

/** Data of a node realized on the GPU. */
export class GpuStorage implements DeviceStorage {
  readonly device = 'webgpu';
  constructor(
    readonly buffer: GpuBuffer,
    readonly dtype: DType,
    readonly size: number,
  ) {
    released.register(this, buffer);
  }
  private typed(raw: ArrayBuffer): StorageArray {
    const T = TYPED[this.dtype];
    if (T === undefined) throw new DeviceError(`webgpu: no host form for ${this.dtype} data`);
    return new T(raw);
  }
  readHost(): StorageArray {
    return this.typed(webgpuDevice().readSync(this.buffer, this.size * 4));
  }
  async readHostAsync(): Promise<StorageArray> {
    return this.typed(await webgpuDevice().read(this.buffer, this.size * 4));
  }
}

const envKey = (env: DimEnv) => (env.size === 0 ? '' : [...env].map(([k, v]) => `${k}=${v}`).join(','));
const slotSize = (shape: readonly (number | string)[], env: DimEnv) => resolveShape(shape as Dim[], env).reduce((a, b) => a * b, 1);

const runtime: DeviceRuntime = {
  run(g: DeviceGraph, inputs: readonly Node[], env: DimEnv, consts: Float64Array): DeviceStorage[] {
    const d = webgpuDevice();
    const p = bufferPool();
    const bufs = new Array<GpuBuffer | undefined>(g.slots.length);
    g.inputSlots.forEach((s, i) => {
      const n = inputs[i]!;
      if (!(n.dev instanceof GpuStorage)) {
        const host = n.data!;
        const buf = p.take(host.byteLength);
        d.write(buf, host);
        // The copy stays with the node (host data stays too): the next graph reading it uses the GPU copy.
        n.dev = new GpuStorage(buf, n.dtype, host.length);
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
    g.kernels.forEach((k, i) => {
      const ck = g.compiled[i] as GpuKernel;
      const w = ck.wgsl;
      let pr = ck.params.get(key);
      if (pr === undefined) {
        const P = w.params(env);
        pr = { buf: d.createBuffer(P.byteLength, P), groups: w.groups(P) };
        ck.params.set(key, pr);
      }
      if (pr.groups === 0) return;
      const bound = [slotBuffer(k.out), ...w.inputSlots.map(slotBuffer), pr.buf];
      if (w.usesConsts) {
        const bits = constBits(consts, w.consts);
        const kb = p.take(bits.byteLength);
        d.write(kb, bits);
        bound.push(kb);
        taken.push(kb);
      }
      const maxX = d.info.limits['maxComputeWorkgroupsPerDimension'] ?? 65535;
      d.dispatch(ck.pipeline, bound, [Math.min(pr.groups, maxX), Math.ceil(pr.groups / maxX)]);
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
        wrapped.set(b, (st = new GpuStorage(b, g.slots[s]!.dtype, slotSize(g.slots[s]!.shape, env))));
      }
      return st;
    });
    for (const b of taken) p.give(b);
    return outs;
  },
};

export const webgpuBackend: Backend = {
  name: 'webgpu',
  dispatch,
  compileKernel,
  alloc: () => {
    throw new Error('internal: webgpu buffers are allocated by its device runtime');
  },
  device: runtime,
};
