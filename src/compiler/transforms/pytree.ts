// Pytrees: nested arrays and plain objects of tensors (a model's parameters, a
// simulation's state), and instances of classes registered as pytree nodes (an
// nn.Module: its parameters are its children, its configuration is static).
// Transforms flatten their arguments and results to lists of tensors and
// rebuild the same structure afterwards.

import { Tensor } from '../../tensor/tensor.js';
import { tensor } from '../../tensor/create.js';
import { ValueError } from '../../tensor/errors.js';

export type PyTree = Tensor | number | boolean | null | undefined | string | readonly PyTree[] | { readonly [k: string]: PyTree };
/**
 * A pytree that may hold registered classes' instances (nn modules) anywhere:
 * what flatten, jit and the tree utilities take. (PyTree itself stays free of the class brand: adding
 * it to PyTree's own union makes the control-flow carry types too deep for
 * TypeScript to infer; a module nested in a plain object or array is flattened
 * all the same at run time.)
 */
export type PyTreeOrNode = PyTree | PytreeNode | readonly PyTreeOrNode[] | { readonly [k: string]: PyTreeOrNode };

/**
 * The brand a registered class's instances carry in the type system (classes
 * declare the field with `declare`, so instances hold nothing at run time), so
 * that the transforms' result types keep the class: the gradient of a loss
 * with respect to a model is a model of the same class holding the gradients
 * (TreeMap below).
 */
export const PYTREE_NODE: unique symbol = Symbol('rlx.pytreeNode');
/** An instance of a class registered with registerPytreeNode (nn.Module and its subclasses). */
export interface PytreeNode {
  readonly [PYTREE_NODE]: true;
}

/**
 * How a registered class is taken apart and put back together (JAX's
 * register_pytree_node): `flatten` gives the instance's children (pytrees, in a
 * fixed order) and the static rest (`aux`, with `auxKey` a string identifying it
 * for caches: two instances with equal auxKey must rebuild alike);
 * `unflatten(aux, children)` builds an instance of the same class from them.
 */
export interface PytreeNodeType<T extends object = object> {
  flatten(x: T): { children: PyTree[]; aux: unknown; auxKey: string };
  unflatten(aux: unknown, children: PyTree[]): T;
}

/** Registered classes by prototype (instances of subclasses find their base's entry up the chain). */
const NODE_TYPES = new Map<object, PytreeNodeType<any>>();
/** A number per registered class, so that two classes of the same name never share a cache key. */
const CLASS_IDS = new WeakMap<object, number>();

/**
 * Registers `cls` (and its subclasses) as a pytree node: flatten/unflatten and
 * every transform (grad, jit, vmap, scan, ...) then see through its instances.
 * @example
 * ```ts
 * class Pair { constructor(readonly a: Tensor, readonly b: Tensor) {} }
 * tree.registerPytreeNode(Pair, { flatten: (p) => ({ children: [p.a, p.b], aux: null, auxKey: '' }), unflatten: (_aux, [a, b]) => new Pair(a as Tensor, b as Tensor) });
 * tree.leaves(new Pair(tensor(1), tensor(2))).length;   // 2
 * ```
 */
export function registerPytreeNode<T extends object>(cls: abstract new (...args: any[]) => T, type: PytreeNodeType<T>): void {
  if (typeof cls !== 'function' || typeof type?.flatten !== 'function' || typeof type?.unflatten !== 'function')
    throw new ValueError('registerPytreeNode(cls, {flatten, unflatten}): expected a class and two functions');
  NODE_TYPES.set(cls.prototype as object, type);
  CLASS_IDS.set(cls.prototype as object, CLASS_IDS.get(cls.prototype as object) ?? NODE_TYPES.size);
}

/** The registered type of `x`'s class or of the nearest registered base class, with the prototype it was registered on. */
function nodeTypeOf(proto: object | null): { type: PytreeNodeType<any>; at: object } | undefined {
  for (let p = proto; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    const type = NODE_TYPES.get(p);
    if (type) return { type, at: p };
  }
  return undefined;
}

/** True when T is `any` (untyped code keeps its old, untyped results). */
type IsAny<T> = 0 extends 1 & T ? true : false;

/**
 * T's structure with every leaf replaced by L: what the transforms hand back
 * for an argument or result of type T (flatten turns numbers and booleans into
 * tensors; strings, null and undefined are static and kept). Arrays, tuples and
 * plain objects keep their shape in the type: TreeMap<[Tensor, {w: Tensor}],
 * Tensor> is [Tensor, {w: Tensor}]. `any` stays `any`; `unknown` is a PyTree.
 */
export type TreeMap<T, L> =
  IsAny<T> extends true
    ? any
    : [PyTree] extends [T]
      ? PyTree // T is PyTree itself (or unknown): no structure to keep
    : T extends Tensor
      ? L
      : T extends PytreeNode
        ? T // a registered class keeps its class: its leaves are L's where its tensors were
      : T extends number | boolean
        ? L
        : T extends string | null | undefined
          ? T
          : T extends readonly unknown[]
            ? { -readonly [K in keyof T]: TreeMap<T[K], L> }
            : T extends (...args: never[]) => unknown
              ? never
              : T extends object
                ? { -readonly [K in keyof T]: TreeMap<T[K], L> }
                : PyTree;

/** T with Tensor leaves: the type of gradients, tangents and cotangents of T, and of a jitted or vmapped result. */
export type TensorTree<T> = TreeMap<T, Tensor>;
/** What may be passed where a TensorTree<T> is expected: numbers are taken as float64 tensors. */
export type TensorTreeLike<T> = TreeMap<T, Tensor | number>;

export type TreeDef =
  | { kind: 'leaf' }
  | { kind: 'static'; value: unknown }
  | { kind: 'array'; children: TreeDef[] }
  | { kind: 'object'; keys: string[]; children: TreeDef[] }
  | { kind: 'node'; type: PytreeNodeType<any>; name: string; aux: unknown; auxKey: string; children: TreeDef[] };

/** Leaves (tensors; plain numbers become float64 tensors, booleans bool) in order, and the structure. */
export function flatten(tree: PyTreeOrNode): { leaves: Tensor[]; def: TreeDef } {
  const leaves: Tensor[] = [];
  const def = walkTree(tree, leaves);
  return { leaves, def };
}

// flatten's and unflatten's recursions are module-level functions, not closures made per call, and build their
// child lists with push rather than Array.prototype.map. Why, measured on a jitted training step (which flattens
// its arguments and unflattens its outputs every call): V8 holds the optimized code of a closure only weakly
// (through its feedback vector), so a full GC dropped it when no instance was alive, and the builtin map (used
// while the code is unoptimized) makes HOLEY arrays where the optimized one made PACKED ones, which deoptimized
// the code comparing them (jit's treeDefsEqual). Re-optimizing took ~200 calls on a background thread that, on
// two cores, slowed the multithreaded kernels of every step in that window.

/** flatten's recursion: appends t's leaves to `leaves` and returns its structure. */
function walkTree(t: PyTreeOrNode, leaves: Tensor[]): TreeDef {
  if (t instanceof Tensor) {
    leaves.push(t);
    return { kind: 'leaf' };
  }
  if (typeof t === 'number' || typeof t === 'boolean') {
    leaves.push(tensor(t));
    return { kind: 'leaf' };
  }
  if (Array.isArray(t)) return { kind: 'array', children: walkAll(t as PyTreeOrNode[], leaves) };
  if (t !== null && typeof t === 'object') {
    const proto = Object.getPrototypeOf(t) as object | null;
    if (proto !== Object.prototype && proto !== null) {
      const found = nodeTypeOf(proto);
      if (!found)
        throw new ValueError(`pytree: unsupported node ${t.constructor?.name ?? typeof t}; use tensors, numbers, arrays, plain objects and classes registered with registerPytreeNode`);
      const { children, aux, auxKey } = found.type.flatten(t);
      const name = `${t.constructor?.name ?? 'node'}#${CLASS_IDS.get(found.at)}`;
      return { kind: 'node', type: found.type, name, aux, auxKey, children: walkAll(children, leaves) };
    }
    const keys = Object.keys(t);
    const children: TreeDef[] = [];
    for (let i = 0; i < keys.length; i++) children.push(walkTree((t as Record<string, PyTree>)[keys[i]!]!, leaves));
    return { kind: 'object', keys, children };
  }
  return { kind: 'static', value: t };
}

/** walkTree of each element, in order. */
function walkAll(ts: readonly PyTreeOrNode[], leaves: Tensor[]): TreeDef[] {
  const out: TreeDef[] = [];
  for (let i = 0; i < ts.length; i++) out.push(walkTree(ts[i]!, leaves));
  return out;
}

/** Rebuilds a tree of the given structure from leaves (consumed in order). */
export function unflatten(def: TreeDef, leaves: readonly Tensor[]): PyTree {
  const at = { next: 0 };
  const out = buildTree(def, leaves, at);
  if (at.next !== leaves.length) throw new Error(`internal: unflatten used ${at.next} of ${leaves.length} leaves`);
  return out;
}

/** unflatten's recursion; `at.next` is the next unused leaf. */
function buildTree(d: TreeDef, leaves: readonly Tensor[], at: { next: number }): PyTree {
  switch (d.kind) {
    case 'leaf':
      return leaves[at.next++]!;
    case 'static':
      return d.value as PyTree;
    case 'array':
      return buildAll(d.children, leaves, at);
    case 'object': {
      const entries: [string, PyTree][] = [];
      for (let j = 0; j < d.keys.length; j++) entries.push([d.keys[j]!, buildTree(d.children[j]!, leaves, at)]);
      return Object.fromEntries(entries);
    }
    case 'node':
      return d.type.unflatten(d.aux, buildAll(d.children, leaves, at)) as unknown as PyTree;
  }
}

/** buildTree of each structure, in order. */
function buildAll(ds: readonly TreeDef[], leaves: readonly Tensor[], at: { next: number }): PyTree[] {
  const out: PyTree[] = [];
  for (let i = 0; i < ds.length; i++) out.push(buildTree(ds[i]!, leaves, at));
  return out;
}

/** A string identifying a structure (for caches). */
export function defKey(d: TreeDef): string {
  switch (d.kind) {
    case 'leaf':
      return '*';
    case 'static':
      return `s:${JSON.stringify(d.value) ?? String(d.value)}`;
    case 'array':
      return `[${d.children.map(defKey).join(',')}]`;
    case 'object':
      return `{${d.keys.map((k, j) => `${k}:${defKey(d.children[j]!)}`).join(',')}}`;
    case 'node':
      return `${d.name}<${d.auxKey}>(${d.children.map(defKey).join(',')})`;
  }
}
