// Materialization of lazy tensors: capture → cache lookup (or compile) → run →
// turn the nodes into leaves holding their data.

import { withGroupMembers } from './realize-groups.js';
import { DeviceError, ValueError } from '../tensor/errors.js';
import { defaultDevice } from '../backends/registry.js';
import { type Node, isIntermediatePart } from './ir.js';
import { callOutputs, kindOf, setDeepRealizer } from './primitives.js';
import { capture, buildGraph } from './graph.js';
import { cacheGet, cachePut } from './cache.js';
import { compileGraph } from './compile.js';
import { config } from './config.js';
import { BoundExecutable, type RunInput } from './executable.js';
import { splitViewRoots, realizeView, viewRootOf } from './view-roots.js';
import { realizeOpDirect } from './direct-op.js';

/** The device a set of roots runs on: their pinned device, else the default. */
export function deviceOf(roots: readonly Node[]): string {
  if (roots.length === 1) return roots[0]!.device ?? defaultDevice();
  const pinned = new Set(roots.map((r) => r.device).filter((d): d is string => d !== undefined));
  if (pinned.size > 1) throw new DeviceError(`tensors pinned to different devices (${[...pinned].join(', ')}) cannot be computed together; move one with .on()`);
  return pinned.size ? [...pinned][0]! : defaultDevice();
}

/**
 * Interior nodes of the graph above `roots` that some node outside this graph also
 * uses: computing them now (as extra outputs) keeps a loop that realizes only part
 * of its state (x but not v in x += v dt; v -= x dt) from growing v's graph forever.
 * Views are followed down to the computation they view.
 */
export function escapingNodes(order: readonly Node[], roots: readonly Node[]): Node[] {
  // Fast path: a node with a single user cannot have one outside the graph.
  let any = false;
  for (const n of order) if (n.users > 1 && n.inputs.length > 0) any = true;
  if (!any) return [];
  const inGraph = new Map<Node, number>();
  for (const n of order) for (const x of new Set(n.inputs)) inGraph.set(x, (inGraph.get(x) ?? 0) + 1);
  // An intermediate output of a differentiated function (ir.ts, isIntermediatePart) is not a use of its call elsewhere:
  // it is computed when asked for (a render's alpha in a loss that reads only the image). Counted, it made the call,
  // and with it all its parts, extra outputs in fresh buffers every training step.
  let inOrder: Set<Node> | undefined;
  for (const n of order) {
    if (n.parts === undefined) continue;
    inOrder ??= new Set(order);
    for (const p of n.parts) if (p !== n && p.users === 0 && isIntermediatePart(p) && !inOrder.has(p)) inGraph.set(n, (inGraph.get(n) ?? 0) + 1);
  }
  const rootSet = new Set(roots);
  const extra = new Set<Node>();
  for (const n of order) {
    if (n.isLeaf || rootSet.has(n) || n.symbolic || n.users <= (inGraph.get(n) ?? 0)) continue;
    let m = n;
    while (kindOf(m.op) === 'movement') m = m.inputs[0]!;
    if (!m.isLeaf && !rootSet.has(m)) extra.add(m);
  }
  return [...extra];
}

/** roots plus the unrealized sibling outputs of every registered call or part among them (roots itself when none). */
function withCallOutputs(roots: readonly Node[]): readonly Node[] {
  let out: Node[] | undefined;
  for (const r of roots) {
    const call = r.op === 'part' ? r.inputs[0]! : r.op === 'registered' ? r : undefined;
    if (call === undefined) continue;
    for (const o of callOutputs(call)) {
      if (o.op === 'buffer' || roots.includes(o) || out?.includes(o)) continue;
      (out ??= [...roots]).push(o);
    }
  }
  return out ?? roots;
}

/** Executable for the graph above `roots` (compiled on a cache miss). */
export function executableFor(roots: readonly Node[], device: string, fixedLeaves: readonly Node[] = [], extraNodes: readonly Node[] = []): { exe: BoundExecutable; leaves: Node[]; roots: readonly Node[] } {
  const tag = `${device}${config.fusion ? '' : ':nofuse'}`;
  // A registered call and its parts are computed together (one kernel writes
  // them all): a call that becomes a leaf takes its parts with it, so a part
  // never reads a realized call (whose data is the first output only).
  // Compiled functions (fixed leaves) realize nothing: their outputs are theirs.
  if (fixedLeaves.length === 0) roots = withCallOutputs(roots);
  let cap = capture(roots, tag, fixedLeaves);
  if (fixedLeaves.length === 0) {
    const extra = escapingNodes(cap.order, roots);
    if (extra.length) {
      roots = withCallOutputs([...roots, ...extra]);
      cap = capture(roots, tag);
    }
  }
  let exe = cacheGet(cap.key, cap.hash);
  if (!exe) {
    exe = compileGraph(buildGraph(roots, cap.leaves, extraNodes, cap), { device, fusion: config.fusion, consts: cap.consts.length, folded: cap.folded });
    cachePut(cap.key, cap.hash, exe);
  }
  return { exe: new BoundExecutable(exe, cap.consts), leaves: cap.leaves, roots };
}

/** Computes the data of every root that is not a leaf yet. */
export function realize(roots: readonly Node[]): void {
  roots = withGroupMembers(roots);
  if (roots.length === 1) {
    // One root (t.realize(), t.toArray()): splitViewRoots' answer without its arrays.
    const r = roots[0]!;
    if (r.op === 'buffer') return;
    const v = viewRootOf(r);
    if (v === undefined) return run([r]);
    if (v.base.op !== 'buffer') run([v.base]);
    realizeView(v);
    return;
  }
  const asked = [...new Set(roots.filter((n) => n.op !== 'buffer'))];
  if (asked.length === 0) return;
  const { compute: pending, views } = splitViewRoots(asked);
  if (pending.length) run(pending);
  for (const v of views) realizeView(v);
}

function run(pending: readonly Node[]): void {
  if (pending.length === 1 && realizeOpDirect(pending[0]!)) return;
  const device = deviceOf(pending);
  const { exe, leaves, roots: all } = executableFor(pending, device);
  if (exe.exe.backend.device !== undefined) return runOnDevice(exe, leaves, all);
  const inputs: RunInput[] = new Array(leaves.length);
  for (let i = 0; i < leaves.length; i++) {
    const l = leaves[i]!;
    if (l.op === 'input') throw new ValueError(`cannot compute a tensor that depends on the symbolic input '${String(l.attrs['name'])}' of a graph; compile the graph and run it instead`);
    inputs[i] = { data: l.data!, shape: l.shape as number[] };
  }
  const outs = exe.run(inputs);
  for (let i = 0; i < all.length; i++) all[i]!.realize(outs[i]!);
}

/** The graph run by a device backend: its outputs stay on the device (realizeOn). */
function runOnDevice(exe: BoundExecutable, leaves: readonly Node[], all: readonly Node[]): void {
  for (const l of leaves) {
    if (l.op === 'input') throw new ValueError(`cannot compute a tensor that depends on the symbolic input '${String(l.attrs['name'])}' of a graph; compile the graph and run it instead`);
  }
  const outs = exe.runOnDevice(leaves);
  for (let i = 0; i < all.length; i++) all[i]!.realizeOn(outs[i]!);
}

/**
 * Async realize: the graph runs with kernels that have an off-thread variant
 * (native GEMM) awaited, so the event loop keeps running; other kernels run on
 * this thread (they are bandwidth-bound and short).
 */
export async function realizeAsync(roots: readonly Node[]): Promise<void> {
  const { compute: pending, views } = splitViewRoots([...new Set(withGroupMembers(roots).filter((n) => n.op !== 'buffer'))]);
  if (pending.length) await runAsync(pending);
  for (const v of views) realizeView(v);
}

async function runAsync(pending: readonly Node[]): Promise<void> {
  const device = deviceOf(pending);
  const { exe, leaves, roots: all } = executableFor(pending, device);
  // A device backend's kernels are queued on the device, not run here: the awaited part is the read (Tensor.data).
  if (exe.exe.backend.device !== undefined) return runOnDevice(exe, leaves, all);
  for (const l of leaves) {
    if (l.op === 'input') throw new ValueError(`cannot compute a tensor that depends on the symbolic input '${String(l.attrs['name'])}' of a graph; compile the graph and run it instead`);
  }
  const outs = await exe.runAsync(leaves.map((l) => ({ data: l.data!, shape: l.shape as number[] })));
  all.forEach((n, i) => {
    if (n.op !== 'buffer') n.realize(outs[i]!);
  });
}

// bindInferred (primitives.ts, below this layer) computes over-deep inputs through this.
setDeepRealizer(realize);
