// Memory planning: liveness of every intermediate over the kernel schedule,
// reuse of dead buffers of the same dtype and size, and in-place writes where an
// elementwise kernel reads its dying input at the very index it writes; an
// output that aliases another slot (fusion.ts) gets that slot's buffer.

import { DTYPE_INFO, type DType } from '../../tensor/dtype.js';
import { shapesEqual, staticSize, type Dim } from '../../tensor/shape.js';
import type { Kernel, SlotInfo, Load } from '../kernel.js';

export interface PlannedBuffer {
  id: number;
  dtype: DType;
  shape: Dim[];
  role: 'intermediate' | 'output';
  /** Bytes when static. */
  bytes: number | undefined;
  /** Slots stored in this buffer over time. */
  slots: number[];
}

export interface MemoryPlan {
  buffers: PlannedBuffer[];
  /** Largest total of live intermediate + output bytes at any kernel (static shapes only). */
  peakBytes: number | undefined;
  inPlace: number;
  reused: number;
}

function loadsOf(k: Kernel): Load[] {
  switch (k.kind) {
    case 'elementwise':
      return k.expr.loads;
    case 'reduce':
      return [...k.prologue.loads, ...(k.epilogue?.loads ?? [])];
    case 'matmul':
      return [k.a, k.b, ...(k.epilogue?.loads ?? [])];
    case 'opaque':
      return k.inputs.map((slot) => ({ slot, dtype: 'float64' as DType, chain: [] }));
  }
}

/** Slots each kernel writes: its output, and a registered call's further outputs. */
export function writesOf(k: Kernel): number[] {
  if (k.kind !== 'opaque' || k.parts === undefined) return [k.out];
  return [k.out, ...k.parts.filter((s) => s >= 0)];
}

/**
 * Whether kernel k reads `slot` only at the index it writes (an elementwise
 * kernel whose loads of it are reshapes at most): then k may write its output
 * over that slot's memory (in place).
 */
export function readsOnlyAtOutputIndex(k: Kernel, slot: number): boolean {
  return k.kind === 'elementwise' && k.expr.loads.filter((m) => m.slot === slot).every((m) => m.chain.every((s) => s.op === 'reshape'));
}

/** Slots each kernel reads. */
export function readsOf(k: Kernel): number[] {
  return [...new Set(loadsOf(k).map((l) => l.slot))];
}

/** Same TypedArray class and lanes: one buffer can hold either. */
export const sameStorage = (a: DType, b: DType) => DTYPE_INFO[a].storage === DTYPE_INFO[b].storage && DTYPE_INFO[a].lanes === DTYPE_INFO[b].lanes;
const sameSize = (a: Dim[], b: Dim[]) => {
  const x = staticSize(a),
    y = staticSize(b);
  return x !== undefined && y !== undefined ? x === y : shapesEqual(a, b);
};

/** Assigns every non-input slot a buffer; mutates slots[i].buffer. */
export function planMemory(kernels: Kernel[], slots: SlotInfo[]): MemoryPlan {
  const lastUse = new Map<number, number>();
  kernels.forEach((k, i) => {
    for (const s of readsOf(k)) lastUse.set(s, i);
  });
  const buffers: PlannedBuffer[] = [];
  const free: PlannedBuffer[] = [];
  const bufOfSlot = new Map<number, PlannedBuffer>();
  let inPlace = 0,
    reused = 0;
  const bytesOf = (shape: Dim[], d: DType) => {
    const n = staticSize(shape);
    return n === undefined ? undefined : n * DTYPE_INFO[d].itemsize;
  };
  let live = 0,
    peak: number | undefined = 0;
  const liveSet = new Set<PlannedBuffer>();

  kernels.forEach((k, i) => {
    const outs = writesOf(k);
    for (const out of outs) place(k, i, out);
    // Free intermediates whose last reader is this kernel (and that are not its outputs).
    for (const s of readsOf(k)) {
      const b = bufOfSlot.get(s);
      if (!b || outs.some((o) => bufOfSlot.get(o) === b) || slots[s]!.role !== 'intermediate' || lastUse.get(s) !== i) continue;
      if (!b.slots.some((x) => x !== s && lastUse.get(x)! > i)) {
        free.push(b);
        liveSet.delete(b);
        if (b.bytes !== undefined) live -= b.bytes;
      }
    }
    // An output nobody reads (a registered call's unused first output; otherwise not after DCE) is freed at once.
    for (const out of outs) {
      if (slots[out]!.role !== 'intermediate' || lastUse.has(out)) continue;
      const buf = bufOfSlot.get(out)!;
      free.push(buf);
      liveSet.delete(buf);
      if (buf.bytes !== undefined) live -= buf.bytes;
    }
  });
  // Outputs that alias another slot's data (fusion.ts) share its buffer; no kernel writes them.
  slots.forEach((slot, s) => {
    if (slot.alias === undefined) return;
    const buf = buffers[slots[slot.alias]!.buffer]!;
    buf.slots.push(s);
    slot.buffer = buf.id;
  });
  return { buffers, peakBytes: peak, inPlace, reused };

  /** Gives output slot `out` of kernel k (index i) a buffer: in place, a dead one reused, or a new one. */
  function place(k: Kernel, i: number, out: number): void {
    const slot = slots[out]!;
    let buf: PlannedBuffer | undefined;
    if (slot.role === 'intermediate') {
      // In place: an elementwise kernel whose dying input is read only at the output index.
      if (k.kind === 'elementwise') {
        for (const l of k.expr.loads) {
          const src = slots[l.slot]!;
          if (src.role !== 'intermediate' || lastUse.get(l.slot) !== i) continue;
          if (readsOnlyAtOutputIndex(k, l.slot) && sameStorage(src.dtype, slot.dtype) && sameSize(src.shape, slot.shape)) {
            buf = bufOfSlot.get(l.slot);
            if (buf) {
              inPlace++;
              break;
            }
          }
        }
      }
      // A registered call's outputs get fresh (zeroed) buffers: its kernels
      // are promised zeroed outputs (op-registry.ts, OpRunArgs.outs).
      if (!buf && !(k.kind === 'opaque' && k.name === 'registered')) {
        const j = free.findIndex((b) => sameStorage(b.dtype, slot.dtype) && sameSize(b.shape, slot.shape));
        if (j >= 0) {
          buf = free.splice(j, 1)[0]!;
          reused++;
        }
      }
    }
    if (!buf) {
      buf = { id: buffers.length, dtype: slot.dtype, shape: slot.shape, role: slot.role === 'output' ? 'output' : 'intermediate', bytes: bytesOf(slot.shape, slot.dtype), slots: [] };
      buffers.push(buf);
    }
    buf.slots.push(out);
    slot.buffer = buf.id;
    bufOfSlot.set(out, buf);
    if (!liveSet.has(buf)) {
      liveSet.add(buf);
      if (buf.bytes === undefined || peak === undefined) peak = undefined;
      else live += buf.bytes;
    }
    if (peak !== undefined) peak = Math.max(peak, live);
  }
}
