// Device resources of the webgpu backend: compute pipelines cached by WGSL
// source, the buffer pool, and the storage of realized data (GpuStorage:
// read back on demand; its buffer returns to the pool when collected, or at
// once when released by its owner). All of them belong to one device
// generation: after a device loss the next device gets new ones.

import type { DType, StorageArray } from '../../tensor/dtype.js';
import { DeviceError, IndexError } from '../../tensor/errors.js';
import type { DeviceStorage } from '../../compiler/ir.js';
import { webgpuDevice, type GpuBuffer, type GpuPipeline, type WebGpuDevice } from './device.js';
import { INDEX_OPS } from './wgsl-opaque.js';

// Pipelines by WGSL source, of the device generation `pipelinesOf` (a device
// lost is replaced by a new one on next use: webgpuDevice(); nothing of the
// old one is reused).
let pipelines = new Map<string, GpuPipeline>();
let pipelinesOf = 0;
export function pipelineOf(code: string): GpuPipeline {
  const d = webgpuDevice();
  if (pipelinesOf !== d.generation) (pipelines = new Map()), (pipelinesOf = d.generation);
  let p = pipelines.get(code);
  if (p === undefined) pipelines.set(code, (p = d.pipeline(code)));
  return p;
}

/** Buffers no longer used, by byte size, for later runs (at most POOL_BYTES kept). */
class BufferPool {
  private readonly free = new Map<number, GpuBuffer[]>();
  private bytes = 0;
  constructor(
    readonly device: WebGpuDevice,
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
/** The pool of the current device (a new, empty one after a device loss: the old buffers are gone). */
export function bufferPool(): BufferPool {
  const d = webgpuDevice();
  if (pool === undefined || pool.device !== d) pool = new BufferPool(d, POOL_BYTES);
  return pool;
}
/**
 * A collected result's buffer goes back to the pool of its device; a buffer
 * of a lost device is dropped. Never starts a device or throws (a finalizer).
 */
function giveBack(b: GpuBuffer): void {
  if (pool !== undefined && b.generation === pool.device.generation) pool.give(b);
}
const released = new FinalizationRegistry<GpuBuffer>(giveBack);

/** Host data of a dtype from its GPU words (one 32-bit word per element: wgsl-expr.ts STORAGE). */
const FROM_WORDS: Partial<Record<DType, (raw: ArrayBuffer) => StorageArray>> = {
  float32: (r) => new Float32Array(r),
  int32: (r) => new Int32Array(r),
  bool: (r) => Uint8Array.from(new Uint32Array(r)),
  int8: (r) => Int8Array.from(new Int32Array(r)),
  uint8: (r) => Uint8Array.from(new Int32Array(r)),
  float16: (r) => Uint16Array.from(new Uint32Array(r)),
  bfloat16: (r) => Uint16Array.from(new Uint32Array(r)),
};
/** GPU words of host data (8-bit storage widened to one word per element). */
export function toWords(host: StorageArray): ArrayBufferView {
  if (host.BYTES_PER_ELEMENT === 1) return Int32Array.from(host as Int8Array); // bool/uint8 0..255, int8 sign-extended
  if (host.BYTES_PER_ELEMENT === 2) return Uint32Array.from(host as Uint16Array); // float16/bfloat16 bits
  return host;
}

const INDEX_OP_NAMES: readonly string[] = INDEX_OPS;

/**
 * The error buffer of one run of a graph that checks indices (gather,
 * scatterAdd: wgsl-opaque.ts): [flag, op, index, axis size], zero until a
 * kernel meets an index out of range. Every result of the run (and of later
 * runs reading them) holds it; reading a result reads it first and throws
 * the js backend's IndexError when set.
 */
export class IndexFlag {
  private error: IndexError | null | undefined;
  constructor(readonly buffer: GpuBuffer) {
    flagsReleased.register(this, buffer);
  }
  private decide(raw: ArrayBuffer): void {
    const w = new Uint32Array(raw);
    this.error = w[0] === 0 ? null : new IndexError(`${INDEX_OP_NAMES[w[1]!] ?? 'index'}: index ${w[2]! | 0} is out of range for an axis of size ${w[3]}`);
  }
  check(): void {
    if (this.error === undefined) this.decide(webgpuDevice().readSync(this.buffer, 16));
    if (this.error) throw this.error;
  }
  async checkAsync(): Promise<void> {
    if (this.error === undefined) this.decide(await webgpuDevice().read(this.buffer, 16));
    if (this.error) throw this.error;
  }
}
const flagsReleased = new FinalizationRegistry<GpuBuffer>(giveBack);

/** Data of a node realized on the GPU. */
export class GpuStorage implements DeviceStorage {
  readonly device = 'webgpu';
  constructor(
    readonly buffer: GpuBuffer,
    readonly dtype: DType,
    readonly size: number,
    /** Index checks of the runs that computed it (reading throws their IndexError). */
    readonly flags: readonly IndexFlag[] = [],
    /** Whether this storage owns its buffer (gives it back to the pool when collected); false for a view of a graph's buffer. */
    owned = true,
  ) {
    if (owned) released.register(this, buffer, this);
  }
  /** Gives the buffer back to the pool now: its owner knows nothing reads it any more (a loop's dead carry). */
  release(): void {
    released.unregister(this);
    giveBack(this.buffer);
  }
  private typed(raw: ArrayBuffer): StorageArray {
    const from = FROM_WORDS[this.dtype];
    if (from === undefined) throw new DeviceError(`webgpu: no host form for ${this.dtype} data`);
    return from(raw);
  }
  readHost(): StorageArray {
    for (const f of this.flags) f.check();
    return this.typed(webgpuDevice().readSync(this.buffer, this.size * 4));
  }
  async readHostAsync(): Promise<StorageArray> {
    for (const f of this.flags) await f.checkAsync();
    return this.typed(await webgpuDevice().read(this.buffer, this.size * 4));
  }
}

