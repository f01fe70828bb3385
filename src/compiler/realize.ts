// Materialization of lazy tensors: capture → cache lookup (or compile) → run →
// turn the nodes into leaves holding their data.

import { DeviceError, ValueError } from '../tensor/errors.js';
import { defaultDevice } from '../backends/registry.js';
import type { Node } from './ir.js';
import { capture, buildGraph } from './graph.js';
import { cacheGet, cachePut } from './cache.js';
import { compileGraph } from './compile.js';
import { config } from './config.js';
import type { Executable } from './executable.js';

/** The device a set of roots runs on: their pinned device, else the default. */
export function deviceOf(roots: readonly Node[]): string {
  const pinned = new Set(roots.map((r) => r.device).filter((d): d is string => d !== undefined));
  if (pinned.size > 1) throw new DeviceError(`tensors pinned to different devices (${[...pinned].join(', ')}) cannot be computed together; move one with .on()`);
  return pinned.size ? [...pinned][0]! : defaultDevice();
}

/** Executable for the graph above `roots` (compiled on a cache miss). */
export function executableFor(roots: readonly Node[], device: string, fixedLeaves: readonly Node[] = [], extraNodes: readonly Node[] = []): { exe: Executable; leaves: Node[] } {
  const cap = capture(roots, `${device}${config.fusion ? '' : ':nofuse'}`, fixedLeaves);
  let exe = cacheGet(cap.key);
  if (!exe) {
    exe = compileGraph(buildGraph(roots, cap.leaves, extraNodes), { device, fusion: config.fusion });
    cachePut(cap.key, exe);
  }
  return { exe, leaves: cap.leaves };
}

/** Computes the data of every root that is not a leaf yet. */
export function realize(roots: readonly Node[]): void {
  const pending = [...new Set(roots.filter((n) => n.op !== 'buffer'))];
  if (pending.length === 0) return;
  const device = deviceOf(pending);
  const { exe, leaves } = executableFor(pending, device);
  for (const l of leaves) {
    if (l.op === 'input') throw new ValueError(`cannot compute a tensor that depends on the symbolic input '${String(l.attrs['name'])}' of a graph; compile the graph and run it instead`);
  }
  const outs = exe.run(leaves.map((l) => ({ data: l.data!, shape: l.shape as number[] })));
  pending.forEach((n, i) => n.realize(outs[i]!));
}

/** Async realize: yields to the event loop first (the js backend then computes on this thread). */
export async function realizeAsync(roots: readonly Node[]): Promise<void> {
  await new Promise<void>((r) => setImmediate(r));
  realize(roots);
}
