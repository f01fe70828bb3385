// jit: trace once per input signature (shapes, dtypes, structure, static
// arguments), compile the whole function into one executable, and run that on
// every later call. Under another transform (tracked or symbolic arguments) the
// function is inlined instead, so jit composes with grad and vmap.

import { Tensor } from '../../tensor/tensor.js';
import { fromStorage } from '../../tensor/create.js';
import { TransformError } from '../../tensor/errors.js';
import { Node } from '../ir.js';
import { executableFor, realize } from '../realize.js';
import { recordHit } from '../cache.js';
import { consume } from '../donation.js';
import { defaultDevice } from '../../backends/registry.js';
import type { BoundExecutable } from '../executable.js';
import { flatten, unflatten, defKey, type PyTree, type PyTreeOrNode, type TreeDef, type TensorTree } from './pytree.js';
import type { DType } from '../../tensor/dtype.js';
import type { Dim } from '../../tensor/shape.js';

export interface JitOptions {
  /** Positional arguments passed as Python-style static values (part of the cache key, not traced). */
  staticArgnums?: number[];
  /** Dynamic axes per argument: {argIndex: [axis, ...]}; those dims are symbols, so new sizes do not recompile. */
  dynamicAxes?: Record<number, number[]>;
  device?: string;
  /**
   * Positional arguments the caller gives up (jax.jit's donate_argnums): their
   * tensors' memory may be reused for outputs of the same dtype and size (a
   * training step's new parameters written over the old ones), and every one
   * of their tensors is consumed by the call: reading it afterwards throws
   * DonatedError. Tensors sharing memory with a donated one (a realized view)
   * are detected and keep theirs. Ignored when the call is traced by an outer
   * transform (grad, vmap, an enclosing jit).
   */
  donateArgnums?: number[];
}

interface Entry {
  exe: BoundExecutable;
  leaves: Node[];
  nIn: number;
  outDef: TreeDef;
  outNodes: Node[];
}

/**
 * A jitted f: f's parameters, f's result's structure with Tensor leaves (a
 * Tensor-returning f keeps its type). Jitted without a type argument is the
 * untyped form.
 */
export interface Jitted<F extends (...args: any[]) => PyTreeOrNode = (...args: any[]) => PyTree> {
  (...args: Parameters<F>): TensorTree<ReturnType<F>>;
  /** Number of traces + compiles this function has done. */
  readonly compiles: number;
  /** Calls served by an existing executable. */
  readonly hits: number;
}

/**
 * Signatures (shapes, dtypes, static args) a jitted function keeps traced
 * executables for, least recently used dropped first: a stream of distinct
 * static values or shapes retraces instead of growing memory without bound.
 * (The executables themselves stay in the compile cache, config.cacheSize.)
 */
export const MAX_JIT_SIGNATURES = 256;

/**
 * jit(f, {staticArgnums, dynamicAxes, device, donateArgnums}): f traced once per signature (shapes, dtypes, static args) and run as a compiled, fused executable (jax.jit).
 * @example
 * ```ts
 * const f = jit((x: Tensor) => x.mul(2).add(1));
 * f(tensor([1, 2])).tolist();   // [3, 5]  (traced and compiled once per shape/dtype)
 * // Donation: the step writes its result over x's memory; x is consumed.
 * const step = jit((x: Tensor) => x.mul(0.5), { donateArgnums: [0] });
 * let x = tensor([2, 4]);
 * x = step(x);                  // the old x now throws DonatedError when read
 * x.tolist();                   // [1, 2]
 * ```
 */
export function jit<F extends (...args: any[]) => PyTreeOrNode>(f: F, opts?: JitOptions): Jitted<F>;
export function jit(f: (...args: any[]) => PyTree, opts: JitOptions = {}): Jitted {
  const statics = new Set(opts.staticArgnums ?? []);
  const badDonate = (why: string) => new TransformError(`jit: donateArgnums must be an array of non-negative integer positions of traced (not static) arguments, got ${JSON.stringify(opts.donateArgnums) ?? String(opts.donateArgnums)}${why}`);
  if (opts.donateArgnums !== undefined && !Array.isArray(opts.donateArgnums)) throw badDonate('');
  const donate = new Set(opts.donateArgnums ?? []);
  for (const i of donate) if (!Number.isInteger(i) || i < 0 || statics.has(i)) throw badDonate(statics.has(i) ? ` (${i} is also in staticArgnums)` : '');
  const lastDonated = Math.max(-1, ...donate);
  const cache = new Map<string, Entry>();
  let device = opts.device ?? defaultDevice();
  let compiles = 0,
    hits = 0;
  // The previous call's signature as data. A call whose arguments are all
  // tensors of the same dtypes and shapes on the same device (same shapes
  // imply the same signature, dynamic axes or not) takes that call's entry
  // without flattening its arguments or building the signature string: a
  // host loop calling one jitted step (solveIvp's attempts) pays this per call.
  let last: { entry: Entry; device: string; dtypes: DType[]; shapes: (readonly Dim[])[]; donated: boolean[] | undefined } | undefined;
  const sameAsLast = (args: readonly unknown[]): boolean => {
    if (last === undefined || statics.size > 0 || args.length !== last.dtypes.length) return false;
    let dev: string | undefined;
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (!(a instanceof Tensor)) return false;
      const n = a.node;
      if (n.symbolic || n.tracked || n.dtype !== last.dtypes[i] || !dimsEqual(n.shape, last.shapes[i]!)) return false;
      dev ??= n.device;
    }
    return (opts.device ?? dev ?? defaultDevice()) === last.device;
  };
  // The same for pytree arguments (a model and an optimizer state): a call whose
  // arguments flatten to equal structures (treeDefsEqual) and leaves of the same
  // dtypes and shapes on the same device takes the previous call's entry without
  // building the signature string (~20 µs of the MLP's jitted Adam step).
  let lastTree: { entry: Entry; device: string; defs: TreeDef[]; dtypes: DType[]; shapes: (readonly Dim[])[]; donated: boolean[] | undefined } | undefined;
  const sameTreeAsLast = (flat: readonly ({ def: TreeDef } | undefined)[], leaves: readonly Tensor[], dev: string): boolean => {
    const t = lastTree;
    if (t === undefined || dev !== t.device || flat.length !== t.defs.length || leaves.length !== t.dtypes.length) return false;
    for (let i = 0; i < leaves.length; i++) {
      const n = leaves[i]!.node;
      if (n.dtype !== t.dtypes[i] || !dimsEqual(n.shape, t.shapes[i]!)) return false;
    }
    for (let i = 0; i < flat.length; i++) if (!treeDefsEqual(flat[i]!.def, t.defs[i]!)) return false;
    return true;
  };
  const jitted = (...args: unknown[]): PyTree => {
    if (lastDonated >= args.length) throw new TransformError(`jit: donateArgnums names argument ${lastDonated}, but the call passed ${args.length} argument${args.length === 1 ? '' : 's'}`);
    if (sameAsLast(args)) {
      hits++;
      recordHit();
      return runEntry(last!.entry, args as Tensor[], last!.device, last!.donated);
    }
    // Loops with push, not map/flatMap: PACKED arrays whether or not this code is optimized (pytree.ts says why).
    const flat: ({ leaves: Tensor[]; def: TreeDef } | undefined)[] = [];
    const leaves: Tensor[] = [];
    for (let i = 0; i < args.length; i++) {
      const fl = statics.has(i) ? undefined : flatten(args[i] as PyTreeOrNode);
      flat.push(fl);
      if (fl !== undefined) for (let j = 0; j < fl.leaves.length; j++) leaves.push(fl.leaves[j]!);
    }
    if (leaves.some((l) => l.node.symbolic || l.node.tracked)) return f(...args); // inside another transform
    if (statics.size === 0) {
      const dev = opts.device ?? leaves.find((l) => l.node.device !== undefined)?.node.device ?? defaultDevice();
      if (sameTreeAsLast(flat, leaves, dev)) {
        hits++;
        recordHit();
        return runEntry(lastTree!.entry, leaves, dev, lastTree!.donated);
      }
    }
    const dyn = opts.dynamicAxes ?? {};
    const sig = args
      .map((a, i) => {
        if (statics.has(i)) return `s:${JSON.stringify(a)}`;
        const fl = flat[i]!;
        return `${defKey(fl.def)}:${fl.leaves.map((l) => `${l.dtype}[${l.node.shape.map((d, k) => (dyn[i]?.includes(k) ? '?' : d)).join(',')}]`).join(';')}`;
      })
      .join('|');
    // Without an explicit device, follow the inputs' pinned device.
    if (!opts.device) device = leaves.find((l) => l.node.device !== undefined)?.node.device ?? defaultDevice();
    const key = `${device}|${sig}`;
    let e = cache.get(key);
    if (e) {
      cache.delete(key);
      cache.set(key, e); // most recently used last
    }
    if (!e) {
      compiles++;
      const proxies: Node[] = [];
      const callArgs = args.map((a, i) => {
        if (statics.has(i)) return a;
        const fl = flat[i]!;
        return unflatten(
          fl.def,
          fl.leaves.map((l, j) => {
            const shape = l.node.shape.map((d, k) => (dyn[i]?.includes(k) ? `a${i}_${j}_${k}` : d));
            const p = new Node('input', [], { name: `arg${i}_${j}` }, shape, l.dtype);
            proxies.push(p);
            return new Tensor(p);
          }),
        );
      });
      const out = f(...callArgs);
      const { leaves: outs, def } = flatten(out);
      if (outs.length === 0) throw new TransformError('jit: f returned no tensors');
      const outNodes = outs.map((o) => o.node);
      const r = executableFor(outNodes, device, proxies);
      e = { exe: r.exe, leaves: r.leaves, nIn: proxies.length, outDef: def, outNodes };
      if (cache.size >= MAX_JIT_SIGNATURES) cache.delete(cache.keys().next().value!);
      cache.set(key, e);
    } else {
      hits++;
      recordHit();
    }
    // Per flattened leaf: whether its argument is donated.
    const donated = donate.size === 0 ? undefined : flat.flatMap((x, i) => (x === undefined ? [] : x.leaves.map(() => donate.has(i))));
    last = statics.size === 0 && args.every((a) => a instanceof Tensor) ? { entry: e, device, dtypes: leaves.map((l) => l.dtype), shapes: leaves.map((l) => [...l.node.shape]), donated } : undefined;
    lastTree = statics.size === 0 ? { entry: e, device, defs: flat.map((x) => x!.def), dtypes: leaves.map((l) => l.dtype), shapes: leaves.map((l) => [...l.node.shape]), donated } : undefined;
    return runEntry(e, leaves, device, donated);
  };
  Object.defineProperty(jitted, 'compiles', { get: () => compiles });
  Object.defineProperty(jitted, 'hits', { get: () => hits });
  return jitted as Jitted;
}

/**
 * Runs a traced entry on the flattened argument tensors: the outputs as
 * tensors in f's result structure. `donated` (per leaf): leaves whose memory
 * the outputs may take; they are consumed by the call (donation.ts), even when
 * it throws (a kernel may have written over them already).
 */
function runEntry(e: Entry, leaves: readonly Tensor[], device: string, donated?: readonly boolean[]): PyTree {
  if (donated === undefined) return runLeaves(e, leaves, device, undefined);
  const run = { started: false };
  try {
    return runLeaves(e, leaves, device, donated, run);
  } finally {
    if (run.started) for (let i = 0; i < leaves.length; i++) if (donated[i]) consume(leaves[i]!.node, 'jit');
  }
}

/** runEntry's work; `run.started` is set once the inputs are checked and kernels are about to run. */
function runLeaves(e: Entry, leaves: readonly Tensor[], device: string, donated: readonly boolean[] | undefined, run?: { started: boolean }): PyTree {
  realize(leaves.map((l) => l.node));
  const extra = e.leaves.slice(e.nIn);
  realize(extra);
  if (e.exe.exe.backend.device !== undefined) {
    if (run) run.started = true;
    return runEntryOnDevice(e, [...leaves.map((l) => l.node), ...extra], device);
  }
  const inputs = [...leaves.map((l) => ({ data: l.node.data!, shape: l.shape })), ...extra.map((l) => ({ data: l.data!, shape: l.shape as number[] }))];
  const env = e.exe.bindDims(inputs);
  if (run) run.started = true;
  const outs = e.exe.run(inputs, donated);
  // A loop with push, not outs.map: the array is PACKED whether or not this code is optimized (pytree.ts says why that matters).
  const tensors: Tensor[] = [];
  for (let i = 0; i < outs.length; i++) {
    const n = e.outNodes[i]!;
    const shape: number[] = [];
    for (let k = 0; k < n.shape.length; k++) {
      const x = n.shape[k]!;
      shape.push(typeof x === 'number' ? x : env.get(x)!);
    }
    tensors.push(fromStorage(outs[i]!, shape, n.dtype, device));
  }
  return unflatten(e.outDef, tensors);
}

/** runEntry on a device backend (webgpu): inputs are used where they are (host leaves are copied over once), outputs stay on the device. */
function runEntryOnDevice(e: Entry, inNodes: readonly Node[], device: string): PyTree {
  const env = e.exe.bindDims(inNodes.map((n) => ({ data: undefined as never, shape: n.shape as number[] })));
  const outs = e.exe.runOnDevice(inNodes);
  const tensors = outs.map((st, i) => {
    const n = e.outNodes[i]!;
    const out = new Node('buffer', [], {}, n.shape.map((x) => (typeof x === 'number' ? x : env.get(x)!)), n.dtype);
    out.realizeOn(st);
    out.device = device;
    return new Tensor(out);
  });
  return unflatten(e.outDef, tensors);
}

/** Whether two structures are the same (what defKey would give the same string for). Plain loops: no closure per call (pytree.ts says why). */
function treeDefsEqual(a: TreeDef, b: TreeDef): boolean {
  if (a === b) return true;
  switch (a.kind) {
    case 'leaf':
      return b.kind === 'leaf';
    case 'static':
      return b.kind === 'static' && defKey(a) === defKey(b);
    case 'array':
      return b.kind === 'array' && allDefsEqual(a.children, b.children);
    case 'object': {
      if (b.kind !== 'object' || a.keys.length !== b.keys.length) return false;
      for (let i = 0; i < a.keys.length; i++) if (a.keys[i] !== b.keys[i]) return false;
      return allDefsEqual(a.children, b.children);
    }
    case 'node':
      return b.kind === 'node' && a.type === b.type && a.name === b.name && a.auxKey === b.auxKey && allDefsEqual(a.children, b.children);
  }
}

/** treeDefsEqual of each pair. */
function allDefsEqual(a: readonly TreeDef[], b: readonly TreeDef[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!treeDefsEqual(a[i]!, b[i]!)) return false;
  return true;
}

function dimsEqual(a: readonly Dim[], b: readonly Dim[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
