// The Backend interface: what a device must provide to run compiled graphs.
//
// Small on purpose (see ARCHITECTURE.md): answer the dispatch question for a
// node, compile a kernel, allocate storage. The native and GPU backends of
// later issues implement the same interface and pass the same parity suite.

import type { DType, StorageArray } from '../tensor/dtype.js';
import type { DeviceStorage, Node } from '../compiler/ir.js';
import type { Kernel } from '../compiler/kernel.js';
import type { OpKernelArgs } from '../compiler/op-registry.js';

/** How a backend serves a node: its own kernel, a decomposition into primitives, or a rewrite (f16/bf16 computed in float32). */
export type DispatchChoice = 'native' | 'decompose' | 'rewrite';

/** Dynamic-dim bindings of one run. */
export type DimEnv = ReadonlyMap<string, number>;

/**
 * A kernel ready to run on a list of slot buffers. `consts` holds the values
 * of the graph's parameter literals (const instructions with a `param`
 * offset, compiler/const-params.ts); omitted, the kernel has none.
 */
export interface CompiledKernel {
  run(buffers: StorageArray[], env: DimEnv, consts?: Float64Array): void;
  /**
   * Off-the-main-thread variant for long kernels (awaited by `await t.data()`).
   * It may run short work at once and return undefined instead of a promise.
   */
  runAsync?(buffers: StorageArray[], env: DimEnv, consts?: Float64Array): Promise<void> | undefined;
  /** Generated source, when there is one (shown by explain with {source: true}). */
  readonly source?: string;
}

export interface Backend {
  readonly name: string;
  /** The widest float dtype it stores, when narrower than float64 (a GPU without float64: 'float32'). */
  readonly widestFloat?: 'float32';
  /** The dispatch contract: undefined means this backend cannot run the node at all. */
  dispatch(node: Node): DispatchChoice | undefined;
  /** Why dispatch answered undefined for this node, when the backend can say more than the op and dtype (the LegalizationError's detail). */
  whyNot?(node: Node): string | undefined;
  compileKernel(kernel: Kernel, slotShapes: readonly (readonly (number | string)[])[]): CompiledKernel;
  alloc(dtype: DType, n: number): StorageArray;
  /**
   * Storage whose contents are unspecified (not zeroed), for a buffer whose
   * first writer is a kernel that writes every element before anything reads
   * it (Executable decides: elementwise and matmul kernels). Optional: without
   * it, alloc() is used.
   */
  allocUninit?(dtype: DType, n: number): StorageArray;
  /**
   * Runs a registered op's kernel on host buffers, exactly as the opaque
   * kernel it compiles a registered node into does. Optional: with it,
   * realizing a lone registered node over realized inputs calls it directly
   * instead of capturing and running a one-kernel graph (compiler/direct-op.ts).
   */
  runOp?(args: OpKernelArgs): void;
  /**
   * Present on a backend whose buffers live on a device (webgpu): it runs a
   * compiled graph over device storage instead of the Executable's host
   * buffers, and its outputs stay on the device (a node realized with them
   * reads them back only when its host data is asked for).
   */
  device?: DeviceRuntime;
}

/** What a device backend needs of a compiled graph to run it. */
export interface DeviceGraph {
  readonly kernels: readonly Kernel[];
  readonly compiled: readonly CompiledKernel[];
  readonly slots: readonly { shape: readonly (number | string)[]; dtype: DType; alias?: number }[];
  readonly inputSlots: readonly number[];
  readonly outputSlots: readonly number[];
}

/** The device half of a device backend. */
export interface DeviceRuntime {
  /**
   * Runs the graph: input i is `inputs[i]` (its device storage when it is on
   * this device, else its host data, copied over), `consts` the kernels'
   * constant vector. Returns the outputs' device storage.
   */
  run(g: DeviceGraph, inputs: readonly Node[], env: DimEnv, consts: Float64Array): DeviceStorage[];
}

/** A backend as listed by backends(): available or not, and why. */
export interface BackendStatus {
  name: string;
  available: boolean;
  reason?: string;
}
