// Buffer donation (jit's donateArgnums, JAX's donate_argnums): an input the
// caller gives up lends its memory to an output of the same storage type and
// size, so a training step that maps (params, state) to new (params, state)
// writes the new values into the old buffers instead of allocating fresh ones.
//
// Why: a step allocates its outputs anew every call (a realized buffer is
// never written again, view-roots.ts), and V8 frees the previous ones only
// when a GC finds them dead. The MLP Adam step hands out ~2.4 MB of fresh
// ArrayBuffers a call; that external memory drives V8 into a mark-compact
// every ~15 steps once a full GC has run (benchmarks/README, nn). With the
// inputs donated the step allocates none of them.
//
// When an input may back an output buffer (donorTable, once per executable and
// donation mask): the buffer is an output's own (no intermediate shares it),
// its first writer writes every element (the donor's old values are never
// read as zeros), storage type and size match, and no kernel reads the input
// after that writer. The writer itself may read it when it is an elementwise
// kernel that reads it only at the index it writes (the memory plan's in-place
// rule). At run time a donor is used only when its array owns its whole
// ArrayBuffer, no other input of the call shares that ArrayBuffer, and no
// realized view shares it (markShared, from view-roots.ts); otherwise the
// output gets a fresh buffer, as without donation.
//
// Donated tensors are consumed by the call whether or not their memory was
// used: their node keeps its shape and dtype, and any read of its data throws
// DonatedError (so does a lazy expression built on it, once realized).

import type { DType, StorageArray } from '../tensor/dtype.js';
import { DonatedError } from '../tensor/errors.js';
import { staticSize } from '../tensor/shape.js';
import type { DeviceStorage, Node } from './ir.js';
import type { Kernel, SlotInfo } from './kernel.js';
import type { MemoryPlan } from './passes/memory-plan.js';
import { readsOf, writesOf, readsOnlyAtOutputIndex, sameStorage } from './passes/memory-plan.js';

/** ArrayBuffers that a realized view shares with its base: never donated (the view would see the new values). */
const shared = new WeakSet<ArrayBufferLike>();

/** Records that `data`'s memory is seen by more than one node (view-roots.ts, a view sharing its base). */
export function markShared(data: StorageArray): void {
  shared.add(data.buffer);
}

/** What donorTable needs of a compiled graph. */
export interface DonationGraph {
  kernels: readonly Kernel[];
  slots: readonly SlotInfo[];
  plan: MemoryPlan;
}

/**
 * For each planned buffer, the index of the donated input that may back it,
 * or -1. `writesAll(k)`: kernel k writes every element of its output.
 */
export function donorTable(g: DonationGraph, inputSlots: readonly number[], donated: readonly boolean[], writesAll: (k: Kernel) => boolean): Int32Array {
  const { kernels, slots, plan } = g;
  const table = new Int32Array(plan.buffers.length).fill(-1);
  const lastRead = new Map<number, number>();
  const firstWrite = new Map<number, number>();
  kernels.forEach((k, i) => {
    for (const s of readsOf(k)) lastRead.set(s, i);
    for (const s of writesOf(k)) if (!firstWrite.has(s)) firstWrite.set(s, i);
  });
  const aliased = new Set<number>();
  for (const sl of slots) if (sl.alias !== undefined) aliased.add(sl.alias);
  const free = inputSlots.map((s, i) => (donated[i] === true && !aliased.has(s) ? i : -1)).filter((i) => i >= 0);
  // Output buffers in the order their first writer runs: earlier outputs take donors first.
  const candidates: { b: number; w: number }[] = [];
  plan.buffers.forEach((buf, b) => {
    if (buf.role !== 'output' || buf.slots.length === 0) return;
    if (buf.slots.some((s) => slots[s]!.role !== 'output' || slots[s]!.alias !== undefined)) return;
    const w = Math.min(...buf.slots.map((s) => firstWrite.get(s) ?? Infinity));
    if (!Number.isFinite(w) || kernels[w]!.out !== buf.slots[0] || !writesAll(kernels[w]!)) return;
    candidates.push({ b, w });
  });
  candidates.sort((x, y) => x.w - y.w);
  for (const { b, w } of candidates) {
    const buf = plan.buffers[b]!;
    const size = staticSize(buf.shape);
    const j = free.findIndex((i) => {
      const s = inputSlots[i]!;
      const sl = slots[s]!;
      if (!sameStorage(sl.dtype, buf.dtype) || size === undefined || staticSize(sl.shape) !== size) return false;
      const r = lastRead.get(s) ?? -1;
      return r < w || (r === w && readsOnlyAtOutputIndex(kernels[w]!, s));
    });
    if (j >= 0) table[b] = free.splice(j, 1)[0]!;
  }
  return table;
}

/** Whether a donated input's array may be written as an output now (see the header). */
export function donatable(data: StorageArray, inputs: readonly { data: StorageArray }[], self: number): boolean {
  const ab = data.buffer;
  if (!(ab instanceof ArrayBuffer) || data.byteOffset !== 0 || data.byteLength !== ab.byteLength || shared.has(ab)) return false;
  for (let i = 0; i < inputs.length; i++) if (i !== self && inputs[i]!.data.buffer === ab) return false;
  return true;
}

/** The data of a consumed tensor: every read throws. */
class DonatedStorage implements DeviceStorage {
  /**
   * One instance that stays alive (a static of the class, which consume()
   * keeps). Why: V8 holds the maps an instance passes through (one per field)
   * only while some object has them, and optimized code refers to them weakly;
   * with every consumed tensor of a training loop dead at a full GC, the GC
   * dropped those maps and with them the optimized code of consume() and of
   * jit's per-call path that inlines it ("reason: weak objects" under
   * --trace-deopt), which V8 then spent ~200 calls recompiling.
   */
  static readonly keepsMapsAlive: DonatedStorage = new DonatedStorage('float32', 0, 'jit');
  readonly device = 'donated';
  constructor(
    readonly dtype: DType,
    readonly size: number,
    private readonly where: string,
  ) {}
  private error(): DonatedError {
    return new DonatedError(`${this.where}: this ${this.dtype} tensor was donated (donateArgnums) to a jitted call, which consumed it (its memory may hold one of that call's outputs now); use the call's outputs instead, or do not donate the argument`);
  }
  readHost(): StorageArray {
    throw this.error();
  }
  readHostAsync(): Promise<StorageArray> {
    return Promise.reject(this.error());
  }
}

/** Marks a donated input's node consumed: its data is dropped and every later read throws DonatedError. */
export function consume(n: Node, where: string): void {
  if (n.op !== 'buffer') return; // a donated leaf is realized before the call; anything else is left alone
  n.realizeOn(new DonatedStorage(n.dtype, n.host?.length ?? 0, where));
}
