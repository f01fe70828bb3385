// An Executable: the lowered kernels of one compiled graph, its memory plan,
// and run(), which binds dynamic dims from the inputs' shapes and executes.

import { type StorageArray, DTYPE_INFO } from '../tensor/dtype.js';
import { ShapeError } from '../tensor/errors.js';
import { fmtShape, resolvedSize, type Dim } from '../tensor/shape.js';
import type { Backend, CompiledKernel } from '../backends/backend.js';
import type { Kernel, SlotInfo } from './kernel.js';
import type { DeviceStorage, Node } from './ir.js';
import type { MemoryPlan } from './passes/memory-plan.js';
import type { DispatchRecord } from './passes/legalize.js';
import { constVector, type ConstProgram } from './const-params.js';
import { opDef } from './op-registry.js';
import { config } from './config.js';
import { Scratch } from './scratch.js';
import { donorTable, donatable } from './donation.js';

export interface PassRecord {
  name: string;
  nodesBefore: number;
  nodesAfter: number;
  detail?: string;
}

export interface CompileReport {
  device: string;
  passes: PassRecord[];
  dispatch: DispatchRecord[];
  kernels: Kernel[];
  slots: SlotInfo[];
  plan: MemoryPlan;
  inputNames: (string | undefined)[];
}

export interface RunInput {
  data: StorageArray;
  shape: readonly number[];
}

const EMPTY_ENV: Map<string, number> = new Map();
const NO_VALUES: readonly number[] = [];

/**
 * Kernel kinds that write every element of their output (an elementwise
 * kernel computes each one; a matmul is a GEMM with beta = 0, or zeros when
 * k = 0). Reductions and opaque ops (scatter-add, pad, ...) may rely on
 * zeroed memory, so their buffers stay zeroed.
 */
const WRITES_EVERY_ELEMENT: ReadonlySet<Kernel['kind']> = new Set(['elementwise', 'matmul']);
/** Opaque ops that write every element of their output too (cumsum: one running sum per element; zeroing 96 MB took ~15 ms of an awaited cumsum's main thread). */
const OPAQUE_WRITES_EVERY_ELEMENT: ReadonlySet<string> = new Set(['cumsum']);
/** Registered ops declare it (OpDef.writesAll: the fft transforms). */
const registeredWritesAll = (k: Kernel) => k.kind === 'opaque' && k.name === 'registered' && opDef(k.attrs['op'] as string).writesAll === true;
const writesEveryElement = (k: Kernel) => WRITES_EVERY_ELEMENT.has(k.kind) || (k.kind === 'opaque' && OPAQUE_WRITES_EVERY_ELEMENT.has(k.name)) || registeredWritesAll(k);

export class Executable {
  constructor(
    readonly backend: Backend,
    readonly compiled: CompiledKernel[],
    readonly report: CompileReport,
    readonly inputSlots: number[],
    readonly outputSlots: number[],
    /** How the kernels' constant vector is made from the captured parameter values (compiler/const-params.ts). */
    readonly consts?: ConstProgram,
  ) {
    this.allStatic = inputSlots.every((s) => report.slots[s]!.shape.every((d) => typeof d === 'number'));
    const buffers = report.plan.buffers;
    this.staticSizes = buffers.every((b) => b.shape.every((d) => typeof d === 'number')) ? buffers.map((b) => resolvedSize(b.shape, EMPTY_ENV)) : undefined;
    const internal: number[] = [];
    report.slots.forEach((sl, i) => {
      if (sl.role !== 'input') internal.push(i, sl.buffer);
    });
    this.internalSlots = internal;
    // A buffer first written by a kernel that writes all of it need not be zeroed (a registered call's
    // further outputs, its parts, are written by the call's kernel too).
    const firstWriter = new Map<number, Kernel>();
    for (const k of report.kernels) {
      if (!firstWriter.has(k.out)) firstWriter.set(k.out, k);
      if (k.kind === 'opaque' && k.parts !== undefined) for (const p of k.parts) if (p >= 0 && !firstWriter.has(p)) firstWriter.set(p, k);
    }
    this.uninit = buffers.map((b) => {
      const k = b.slots.length > 0 ? firstWriter.get(b.slots[0]!) : undefined;
      return backend.allocUninit !== undefined && k !== undefined && writesEveryElement(k);
    });
    // Buffers no output reaches (scratch.ts): not an output's own, an aliased output's or an in-place output's.
    if (this.staticSizes !== undefined) {
      const reached = new Set<number>();
      for (const s of outputSlots) reached.add(report.slots[s]!.buffer);
      report.slots.forEach((sl) => {
        if (sl.role === 'output') reached.add(sl.buffer);
      });
      const ids: number[] = [];
      let bytes = 0;
      buffers.forEach((b, i) => {
        if (reached.has(i) || b.role === 'output' || b.slots.some((s) => report.slots[s]!.role !== 'intermediate')) return;
        ids.push(i);
        bytes += this.staticSizes![i]! * DTYPE_INFO[b.dtype].itemsize;
      });
      if (ids.length > 0) this.scratch = new Scratch(ids, ids.map((i) => !this.uninit[i]), bytes);
    }
  }

  /** The intermediates kept between runs (static shapes only; scratch.ts). */
  readonly scratch: Scratch | undefined;

  /** Per donation mask ('1' per donated input, '0' otherwise): which input may back each planned buffer (donation.ts). */
  private donors: Map<string, Int32Array> | undefined;

  /** The donor table of one donation mask, or undefined when nothing is donated. */
  private donorsFor(donated: readonly boolean[] | undefined): Int32Array | undefined {
    if (donated === undefined || !donated.includes(true) || this.staticSizes === undefined) return undefined;
    const key = donated.map((d) => (d ? '1' : '0')).join('');
    this.donors ??= new Map();
    let t = this.donors.get(key);
    if (t === undefined) this.donors.set(key, (t = donorTable(this.report, this.inputSlots, donated, writesEveryElement)));
    return t;
  }

  /** Per planned buffer: allocate it with backend.allocUninit (its first writer writes every element). */
  private readonly uninit: boolean[];

  /** Sizes of the planned buffers when none has a dynamic dim (computed once). */
  private readonly staticSizes: number[] | undefined;
  /** Pairs (slot, planned buffer) of every slot that is not an input. */
  private readonly internalSlots: number[];

  /**
   * The slot buffers of one run: inputs where they go, the kept scratch set's
   * buffers where there is one (`kept`, indexed like scratch.buffers), fresh
   * planned buffers elsewhere. Fills `set` with the run's scratch buffers, to
   * be handed back when the run ends.
   */
  private bindBuffers(inputs: readonly RunInput[], env: ReadonlyMap<string, number>, kept: StorageArray[] | undefined, set: StorageArray[], donors: Int32Array | undefined): StorageArray[] {
    const bufs = new Array<StorageArray>(this.report.slots.length);
    for (let i = 0; i < this.inputSlots.length; i++) bufs[this.inputSlots[i]!] = inputs[i]!.data;
    const planned = this.report.plan.buffers;
    const physical = new Array<StorageArray>(planned.length);
    const sizes = this.staticSizes;
    const backend = this.backend,
      uninit = this.uninit;
    const ids = this.scratch?.buffers;
    if (kept !== undefined) for (let i = 0; i < kept.length; i++) physical[ids![i]!] = kept[i]!;
    if (donors !== undefined)
      for (let b = 0; b < donors.length; b++) {
        const d = donors[b]!;
        if (d >= 0 && inputs[d]!.data.length === sizes![b]! * DTYPE_INFO[planned[b]!.dtype].lanes && donatable(inputs[d]!.data, inputs, d)) physical[b] = inputs[d]!.data;
      }
    for (let b = 0; b < planned.length; b++) {
      if (physical[b] !== undefined) continue;
      const n = sizes ? sizes[b]! : resolvedSize(planned[b]!.shape, env);
      physical[b] = uninit[b] ? backend.allocUninit!(planned[b]!.dtype, n) : backend.alloc(planned[b]!.dtype, n);
    }
    if (ids !== undefined) for (let i = 0; i < ids.length; i++) set[i] = physical[ids[i]!]!;
    const internal = this.internalSlots;
    for (let k = 0; k < internal.length; k += 2) bufs[internal[k]!] = physical[internal[k + 1]!]!;
    return bufs;
  }

  /** True when no input has a dynamic dim (then there is nothing to bind). */
  private readonly allStatic: boolean;

  /** Binds dynamic dims from the inputs' shapes (throws ShapeError on mismatch). */
  bindDims(inputs: readonly RunInput[]): Map<string, number> {
    const slots = this.report.slots;
    if (this.allStatic) {
      // Fast path: only check the shapes.
      for (let i = 0; i < this.inputSlots.length; i++) {
        const want = slots[this.inputSlots[i]!]!.shape,
          got = inputs[i]!.shape;
        let ok = want.length === got.length;
        for (let k = 0; ok && k < want.length; k++) ok = want[k] === got[k];
        if (!ok) break;
        if (i === this.inputSlots.length - 1) return EMPTY_ENV;
      }
      if (this.inputSlots.length === 0) return EMPTY_ENV;
    }
    const env = new Map<string, number>();
    this.inputSlots.forEach((s, i) => {
      const want = slots[s]!.shape,
        got = inputs[i]!.shape;
      const name = this.report.inputNames[i] ?? `#${i}`;
      if (want.length !== got.length) throw new ShapeError(`run: input '${name}' expects rank ${want.length} ${fmtShape(want)}, got shape ${fmtShape(got)}`);
      want.forEach((d: Dim, k) => {
        const g = got[k]!;
        if (typeof d === 'number') {
          if (d !== g) throw new ShapeError(`run: input '${name}' expects ${fmtShape(want)}, got ${fmtShape(got)} (axis ${k})`);
        } else {
          const b = env.get(d);
          if (b !== undefined && b !== g) throw new ShapeError(`run: dynamic dim '${d}' is ${b} from an earlier input but ${g} in input '${name}' ${fmtShape(got)}`);
          env.set(d, g);
        }
      });
    });
    return env;
  }

  /**
   * Runs the graph; returns fresh output storage (owned by the caller).
   * `consts`: the values of its parameter literals (Captured.consts of the
   * capture this executable was looked up for). `donated` (per input): inputs
   * the caller gives up, whose memory may hold outputs (donation.ts).
   */
  run(inputs: readonly RunInput[], consts: readonly number[] = NO_VALUES, donated?: readonly boolean[]): StorageArray[] {
    const env = this.bindDims(inputs);
    const slots = this.report.slots;
    const K = constVector(this.consts, consts);
    const scratch = config.keepScratch ? this.scratch : undefined;
    const set: StorageArray[] = [];
    const bufs = this.bindBuffers(inputs, env, scratch?.take(), set, this.donorsFor(donated));
    const compiled = this.compiled;
    try {
      for (let i = 0; i < compiled.length; i++) compiled[i]!.run(bufs, env, K);
    } finally {
      scratch?.give(set);
    }
    // An output that is an input (identity graph) is returned as a copy.
    const outs = new Array<StorageArray>(this.outputSlots.length);
    for (let i = 0; i < outs.length; i++) {
      const s = this.outputSlots[i]!;
      outs[i] = slots[s]!.role === 'input' ? bufs[s]!.slice() : bufs[s]!;
    }
    return outs;
  }

  /**
   * Runs the graph on a device backend (Backend.device): `leaves` are the
   * input nodes (their device storage is used where it is on this device);
   * the outputs stay on the device.
   */
  runOnDevice(leaves: readonly Node[], consts: readonly number[] = NO_VALUES): DeviceStorage[] {
    const runtime = this.backend.device;
    if (runtime === undefined) throw new Error(`internal: runOnDevice on '${this.backend.name}', which keeps its buffers on the host`);
    const env = this.bindDims(leaves.map((l) => ({ data: undefined as never, shape: l.shape as number[] })));
    const r = this.report;
    return runtime.run({ kernels: r.kernels, compiled: this.compiled, slots: r.slots, inputSlots: this.inputSlots, outputSlots: this.outputSlots }, leaves, env, constVector(this.consts, consts));
  }

  /**
   * Like run(), but kernels that have an off-thread variant (native GEMM,
   * large interpreted kernels) are awaited, so the event loop keeps running
   * during long work.
   */
  async runAsync(inputs: readonly RunInput[], consts: readonly number[] = NO_VALUES, donated?: readonly boolean[]): Promise<StorageArray[]> {
    const env = this.bindDims(inputs);
    const slots = this.report.slots;
    const K = constVector(this.consts, consts);
    const scratch = config.keepScratch ? this.scratch : undefined;
    const set: StorageArray[] = [];
    const bufs = this.bindBuffers(inputs, env, scratch?.take(), set, this.donorsFor(donated));
    try {
      for (const k of this.compiled) {
        // A kernel without an async variant, or short work, runs at once (no await).
        const pending = k.runAsync ? k.runAsync(bufs, env, K) : k.run(bufs, env, K);
        if (pending) await pending;
      }
    } finally {
      scratch?.give(set);
    }
    return this.outputSlots.map((s) => (slots[s]!.role === 'input' ? bufs[s]!.slice() : bufs[s]!));
  }

  /** Bytes of every planned buffer for one binding of the dims. */
  bytesFor(env: ReadonlyMap<string, number>): number {
    return this.report.plan.buffers.reduce((a, b) => a + resolvedSize(b.shape, env) * DTYPE_INFO[b.dtype].itemsize, 0);
  }
}

/**
 * An executable with the parameter values of one capture: what executableFor
 * hands out, since the cached Executable itself serves every value.
 */
export class BoundExecutable {
  constructor(
    readonly exe: Executable,
    readonly consts: readonly number[],
  ) {}

  get report(): CompileReport {
    return this.exe.report;
  }

  runOnDevice(leaves: readonly Node[]): DeviceStorage[] {
    return this.exe.runOnDevice(leaves, this.consts);
  }

  run(inputs: readonly RunInput[], donated?: readonly boolean[]): StorageArray[] {
    return this.exe.run(inputs, this.consts, donated);
  }

  runAsync(inputs: readonly RunInput[], donated?: readonly boolean[]): Promise<StorageArray[]> {
    return this.exe.runAsync(inputs, this.consts, donated);
  }

  bindDims(inputs: readonly RunInput[]): Map<string, number> {
    return this.exe.bindDims(inputs);
  }

  bytesFor(env: ReadonlyMap<string, number>): number {
    return this.exe.bytesFor(env);
  }
}
