// Pytrees: nested arrays and plain objects of tensors (a model's parameters, a
// simulation's state). Transforms flatten their arguments and results to lists
// of tensors and rebuild the same structure afterwards.

import { Tensor } from '../../tensor/tensor.js';
import { tensor } from '../../tensor/create.js';
import { ValueError } from '../../tensor/errors.js';

export type PyTree = Tensor | number | boolean | null | undefined | string | readonly PyTree[] | { readonly [k: string]: PyTree };

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
  | { kind: 'object'; keys: string[]; children: TreeDef[] };

/** Leaves (tensors; plain numbers become float64 tensors, booleans bool) in order, and the structure. */
export function flatten(tree: PyTree): { leaves: Tensor[]; def: TreeDef } {
  const leaves: Tensor[] = [];
  const walk = (t: PyTree): TreeDef => {
    if (t instanceof Tensor) {
      leaves.push(t);
      return { kind: 'leaf' };
    }
    if (typeof t === 'number' || typeof t === 'boolean') {
      leaves.push(tensor(t));
      return { kind: 'leaf' };
    }
    if (Array.isArray(t)) return { kind: 'array', children: t.map(walk) };
    if (t !== null && typeof t === 'object') {
      const proto = Object.getPrototypeOf(t);
      if (proto !== Object.prototype && proto !== null) throw new ValueError(`pytree: unsupported node ${t.constructor?.name ?? typeof t}; use tensors, numbers, arrays and plain objects`);
      const keys = Object.keys(t);
      return { kind: 'object', keys, children: keys.map((k) => walk((t as Record<string, PyTree>)[k]!)) };
    }
    return { kind: 'static', value: t };
  };
  const def = walk(tree);
  return { leaves, def };
}

/** Rebuilds a tree of the given structure from leaves (consumed in order). */
export function unflatten(def: TreeDef, leaves: readonly Tensor[]): PyTree {
  let i = 0;
  const build = (d: TreeDef): PyTree => {
    switch (d.kind) {
      case 'leaf':
        return leaves[i++]!;
      case 'static':
        return d.value as PyTree;
      case 'array':
        return d.children.map(build);
      case 'object':
        return Object.fromEntries(d.keys.map((k, j) => [k, build(d.children[j]!)]));
    }
  };
  const out = build(def);
  if (i !== leaves.length) throw new Error(`internal: unflatten used ${i} of ${leaves.length} leaves`);
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
  }
}
