// Registered ops (compiler/op-registry.ts) on the webgpu device: a table of
// GPU runners by op name, filled by the modules that own the ops (random,
// splat, ...), read by the webgpu backend's dispatch and runtime.
//
// Why a table of its own instead of a kernel set in the kernel registry: an
// op's `run` (OpDef.run) hands its kernel set host typed arrays (slicing
// batches with subarray, reading counts); GPU kernels get buffers on the
// device, so a GPU runner takes the whole call — every batch entry, its
// buffers, its shapes — and records its dispatches. An op without a runner
// here is a LegalizationError on webgpu (the dispatch contract), never a
// host fallback.

import type { DType } from '../../tensor/dtype.js';
import type { Attrs } from '../../compiler/ir.js';
import type { GpuBuffer, GpuPipeline, WebGpuDevice } from './device.js';

/** What a GPU runner gets for one call of its op. */
export interface GpuOpArgs {
  readonly device: WebGpuDevice;
  /** Number of batch entries (product of the call's leading batch dims; inputs and outputs are batch-major). */
  readonly batch: number;
  /** Contiguous input buffers, one 32-bit word per element (float32 f32, int32 i32, bool u32 0/1, int8/uint8 i32: wgsl-expr.ts STORAGE). */
  readonly ins: readonly GpuBuffer[];
  /** Core shapes of the inputs (batch dims removed). */
  readonly inShapes: readonly (readonly number[])[];
  readonly inDTypes: readonly DType[];
  /** One buffer per output part (batch-major), every element of which the runner must write (buffers come from a pool: not zeroed). */
  readonly outs: readonly GpuBuffer[];
  /** Core shapes and dtypes of the outputs. */
  readonly outShapes: readonly (readonly number[])[];
  readonly outDTypes: readonly DType[];
  readonly attrs: Attrs;
  /** A temporary buffer of at least `bytes` bytes (contents undefined) for this call; returned to the pool after the graph's dispatches. */
  scratch(bytes: number): GpuBuffer;
  /** A storage buffer holding `data` (uniforms, small tables), returned to the pool after the graph's dispatches. */
  upload(data: ArrayBufferView): GpuBuffer;
  /** The compute pipeline of WGSL `code` (compiled once per process, cached by source). */
  pipeline(code: string): GpuPipeline;
}

/** A registered op's GPU implementation. */
export interface GpuOp {
  /** Whether this call (input dtypes, attrs) is served; a reason when it is not (the LegalizationError's detail). */
  serves?(inDTypes: readonly DType[], attrs: Attrs): true | string;
  /** Records the call's dispatches (fire-and-forget on the device's queue, in order). */
  run(a: GpuOpArgs): void;
}

const GPU_OPS = new Map<string, GpuOp>();

/** Registers (or replaces) the webgpu implementation of registered op `name`. */
export function registerGpuOp(name: string, op: GpuOp): void {
  GPU_OPS.set(name, op);
}

/** The webgpu implementation of registered op `name`, if any. */
export const gpuOp = (name: string): GpuOp | undefined => GPU_OPS.get(name);

/** Why a registered call is not served on webgpu, or undefined when it is. */
export function gpuOpRefusal(name: string, inDTypes: readonly DType[], attrs: Attrs): string | undefined {
  const op = GPU_OPS.get(name);
  if (op === undefined) return `no webgpu implementation of '${name}' (webgpu serves: ${[...GPU_OPS.keys()].join(', ') || 'none'})`;
  const ok = op.serves?.(inDTypes, attrs) ?? true;
  return ok === true ? undefined : ok;
}

/** Names of the registered ops webgpu serves (op tables, docs). */
export const gpuOps = (): string[] => [...GPU_OPS.keys()];
