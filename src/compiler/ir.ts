// The IR: a DAG of Nodes, each one primitive applied to input nodes.
//
// A Tensor is a handle to a Node; building tensors builds this DAG and does no
// data work. When a node is materialized it turns into a 'buffer' leaf in place
// (inputs dropped), so every tensor that shares it sees the data and the graph
// above a time-stepping loop stays bounded.

import type { DType, StorageArray } from '../tensor/dtype.js';
import type { Dim, Shape } from '../tensor/shape.js';
import type { Primitive } from './primitives.js';

let nextId = 1;

// Graph scopes: while graph() traces a builder, every node created is recorded,
// so that dead code in the builder is visible to (and removed by) DCE.
const scopes: Node[][] = [];
export function pushScope(): Node[] {
  const s: Node[] = [];
  scopes.push(s);
  return s;
}
export function popScope(): void {
  scopes.pop();
}

/**
 * A realized node's data when it lives on a device (a GPU buffer): the host
 * copy is read on demand (Node.data reads it back, blocking, once).
 */
export interface DeviceStorage {
  readonly device: string;
  readonly dtype: DType;
  /** Elements. */
  readonly size: number;
  /** The data on the host (blocks until the device has computed it). */
  readHost(): StorageArray;
  /** The same without blocking the thread. */
  readHostAsync(): Promise<StorageArray>;
}

/** Attributes of a node; plain data so that they can be keyed and compared. */
export type Attrs = Readonly<Record<string, unknown>>;

export class Node {
  // Fields are `declare`d and assigned in the constructor: with ES2022 class
  // fields, plain declarations compile to a field initializer that V8 runs as
  // a separate function for every node (2% of a small linalg call while V8
  // still interprets it).
  declare readonly id: number;
  declare op: Primitive;
  declare inputs: Node[];
  declare attrs: Attrs;
  declare readonly shape: readonly Dim[];
  declare readonly dtype: DType;
  /** Host data of a realized node ('buffer' nodes): see `data`. */
  declare host: StorageArray | undefined;
  /** Device data of a node realized on a device (a GPU buffer); its host copy is `data`. */
  declare dev: DeviceStorage | undefined;
  /** Pinned device, if the user chose one for this node. */
  declare device: string | undefined;
  /** Nodes that use this one (distinct users, counted at construction). */
  declare users: number;
  /** Longest path to a leaf, as of construction (an upper bound once inputs are realized; see refreshDepth). */
  declare depth: number;
  /** Depends on a symbolic graph input (cannot be computed outside a compiled graph). */
  declare symbolic: boolean;
  /** Depends on a value being differentiated: realizing keeps `history` for autodiff. */
  declare tracked: boolean;
  /** What a tracked node was before it was realized (its op, inputs and attrs). */
  declare history: { op: Primitive; inputs: Node[]; attrs: Attrs } | undefined;
  /** Scratch of graph walks (topoSortBy's visit mark, capture's slot): valid only for the walk that set it. */
  declare mark: number;
  declare scratch: number;
  /**
   * A registered call with several outputs: all of them, the call first, then
   * its 'part' nodes (primitives.ts: bindParts). A field, not a WeakMap: weak
   * maps cost the garbage collector far more than a slot per node.
   */
  declare parts: Node[] | undefined;

  constructor(op: Primitive, inputs: Node[], attrs: Attrs, shape: Shape, dtype: DType, data?: StorageArray) {
    this.id = nextId++;
    this.users = 0;
    this.mark = 0;
    this.scratch = 0;
    this.parts = undefined;
    this.op = op;
    this.inputs = inputs;
    this.attrs = attrs;
    this.shape = shape;
    this.dtype = dtype;
    this.host = data;
    this.dev = undefined;
    this.device = undefined;
    let depth = 0,
      symbolic = op === 'input',
      tracked = false;
    for (let k = 0; k < inputs.length; k++) {
      const x = inputs[k]!;
      if (inputs.indexOf(x) !== k) continue; // count each distinct input once
      x.users++;
      if (x.depth >= depth) depth = x.depth + 1;
      symbolic ||= x.symbolic;
      tracked ||= x.tracked;
    }
    this.depth = depth;
    this.symbolic = symbolic;
    this.tracked = tracked;
    this.history = undefined;
    scopes[scopes.length - 1]?.push(this);
  }

  /**
   * Host data once realized ('buffer' nodes). A node realized on a device
   * reads its data back here the first time (blocking) and keeps the copy.
   */
  get data(): StorageArray | undefined {
    const h = this.host;
    if (h !== undefined || this.dev === undefined) return h;
    return (this.host = this.dev.readHost());
  }
  set data(v: StorageArray | undefined) {
    this.host = v;
    this.dev = undefined;
  }

  /** Turns this node into a leaf holding `data` (materialization). */
  realize(data: StorageArray): void {
    this.becomeLeaf();
    this.host = data;
    this.dev = undefined;
  }

  /** Turns this node into a leaf whose data lives on a device (read back when `data` is asked for). */
  realizeOn(dev: DeviceStorage): void {
    this.becomeLeaf();
    this.host = undefined;
    this.dev = dev;
  }

  private becomeLeaf(): void {
    if (this.tracked && this.inputs.length) this.history = { op: this.op, inputs: this.inputs, attrs: this.attrs };
    // A registered call's parts are realized with it (realize.ts); only autodiff
    // (a tracked call's history) looks them up afterwards, so an untracked call
    // lets go of them: holding one output does not keep the others' data alive.
    else if (this.parts !== undefined) this.parts = undefined;
    else if (this.inputs.length === 1) this.inputs[0]!.users--;
    else for (const x of new Set(this.inputs)) x.users--;
    this.depth = 0;
    this.op = 'buffer';
    this.inputs = [];
    this.attrs = {};
  }

  /**
   * Replaces how this (not yet realized) node is computed by an equivalent
   * primitive: same shape, dtype and value, new op/inputs/attrs. Used by rules
   * that fold a node into a larger computation sharing its work.
   */
  redefine(op: Primitive, inputs: Node[], attrs: Attrs): void {
    for (const x of new Set(this.inputs)) x.users--;
    for (const x of new Set(inputs)) x.users++;
    this.op = op;
    this.inputs = inputs;
    this.attrs = attrs;
  }

  get isLeaf(): boolean {
    return this.inputs.length === 0;
  }
}

// Outputs of registered calls inside a differentiated function that the
// function neither returned nor used (a render's alpha when the loss reads
// the image): like JAX's intermediates, they are not computed with their
// call unless asked for later (then the call runs again). Other outputs of a
// call are computed with it, so that reading one after another costs one
// call (realize.ts). A WeakSet: a few nodes a step, not a slot on every node.
const intermediateParts = new WeakSet<Node>();
/** Marks part p of a registered call as an intermediate of a differentiated function (reverse mode, autodiff.ts). */
export function markIntermediatePart(p: Node): void {
  intermediateParts.add(p);
}
export function isIntermediatePart(p: Node): boolean {
  return intermediateParts.has(p);
}

/** The id the next node will get: nodes built from now on have ids at least this. */
export function nextNodeId(): number {
  return nextId;
}

/**
 * Takes back the uses (Node.users) held by nodes that their builder threw
 * away: each of `dead` built since id `since`, used by nothing and not
 * reachable from `keep`, and then each input of such a node, built since
 * `since`, that this leaves unused. `users` only decides which interior
 * nodes realize() also computes (realize.ts, escapingNodes): a discarded
 * node never runs, so counting it made its inputs look used elsewhere.
 */
export function releaseDead(dead: readonly Node[], keep: readonly Node[], since: number): void {
  if (dead.length === 0) return;
  const live = new Set<Node>();
  const stack = [...keep];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.id < since || live.has(n)) continue;
    live.add(n);
    for (const x of n.inputs) stack.push(x);
  }
  const released = new Set<Node>();
  const todo = dead.filter((n) => n.id >= since);
  while (todo.length) {
    const n = todo.pop()!;
    if (n.users !== 0 || live.has(n) || released.has(n)) continue;
    released.add(n);
    for (const x of new Set(n.inputs)) {
      x.users--;
      if (x.id >= since && x.users === 0) todo.push(x);
    }
  }
}

/** Inputs as autodiff sees them: a realized tracked node still has its history. */
export const parentsOf = (n: Node): Node[] => n.history?.inputs ?? n.inputs;
/** The primitive that produced n (its history's op once realized). */
export const producerOf = (n: Node): Primitive => n.history?.op ?? n.op;
/** Attrs of the primitive that produced n. */
export const attrsOf = (n: Node): Attrs => n.history?.attrs ?? n.attrs;

/** topoSort over autodiff parents (history included). */
export function topoSortHistory(roots: readonly Node[]): Node[] {
  return topoSortBy(roots, parentsOf);
}

/** Recomputes the exact depth of n (its inputs may have been realized since it was built). */
export function refreshDepth(n: Node): number {
  for (const m of topoSort([n])) {
    let d = 0;
    for (const x of m.inputs) if (x.depth >= d) d = x.depth + 1;
    m.depth = d;
  }
  return n.depth;
}

/** Nodes reachable from `roots`, inputs before users (iterative: graphs can be deep). */
export function topoSort(roots: readonly Node[]): Node[] {
  return topoSortBy(roots, (n) => n.inputs);
}

// Walks are never nested (parents() is a plain getter), so one counter marks
// the nodes a walk has reached: no Map per walk.
let walkEpoch = 0;

/** A fresh mark for a walk over nodes (see Node.mark). */
function newWalkMark(): number {
  // Never wraps (a stale mark equal to a new one would hide a node): 2^53 walks are out of reach.
  return ++walkEpoch;
}

function topoSortBy(roots: readonly Node[], parents: (n: Node) => Node[]): Node[] {
  const order: Node[] = [];
  const mark = newWalkMark();
  const stackN: Node[] = [];
  const stackI: number[] = [];
  for (const r of roots) {
    if (r.mark === mark) continue;
    r.mark = mark;
    stackN.push(r);
    stackI.push(0);
    while (stackN.length) {
      const top = stackN.length - 1;
      const n = stackN[top]!;
      const i = stackI[top]!;
      const ps = parents(n);
      if (i < ps.length) {
        stackI[top] = i + 1;
        const c = ps[i]!;
        if (c.mark !== mark) {
          c.mark = mark;
          stackN.push(c);
          stackI.push(0);
        }
      } else {
        stackN.pop();
        stackI.pop();
        order.push(n);
      }
    }
  }
  return order;
}

/** A stable string for attrs (sorted keys), used by CSE and the compile cache. */
export function attrsKey(a: Attrs): string {
  // Usually one or two keys already in order: no Object.keys / sort then.
  let out = '';
  let prev: string | undefined;
  for (const k in a) {
    if (prev !== undefined && k < prev) return attrsKeySorted(a);
    prev = k;
    out = out === '' ? `${k}=${valueKey(a[k])}` : `${out};${k}=${valueKey(a[k])}`;
  }
  return out;
}

function attrsKeySorted(a: Attrs): string {
  const keys = Object.keys(a).sort();
  return keys.map((k) => `${k}=${valueKey(a[k])}`).join(';');
}

function valueKey(v: unknown): string {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (Array.isArray(v)) return `[${v.map(valueKey).join(',')}]`;
  if (v && typeof v === 'object') return `{${attrsKey(v as Attrs)}}`;
  return String(v);
}
