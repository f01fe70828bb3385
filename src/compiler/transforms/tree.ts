// The `tree` namespace: pytree utilities for users (JAX's jax.tree_util) on the
// same flatten/unflatten the transforms use, so what a user maps over is what
// grad and jit see: nested arrays, plain objects, and registered classes such
// as nn modules (an optimizer update is tree.map over a model and its gradient).

import { Tensor } from '../../tensor/tensor.js';
import { ValueError } from '../../tensor/errors.js';
import { flatten as flattenTree, unflatten as unflattenTree, defKey, registerPytreeNode, type PyTree, type PyTreeOrNode, type TreeDef, type TreeMap } from './pytree.js';

export { registerPytreeNode };
export type { PyTree, PyTreeOrNode, TreeDef, PytreeNode, PytreeNodeType } from './pytree.js';

// The inputs are typed `unknown` where nothing comes back in their shape: an
// instance of a user's registered class carries no type brand, and flatten
// checks at run time (an unsupported value is a ValueError naming it).

/**
 * The tensor leaves of a pytree in order (numbers and booleans become tensors).
 * @example
 * ```ts
 * tree.leaves({ w: tensor([1, 2]), b: [tensor(3)] }).length;   // 2
 * ```
 */
export function leaves(t: unknown): Tensor[] {
  return flattenTree(t as PyTreeOrNode).leaves;
}

/**
 * A pytree's leaves and its structure (the structure rebuilds it with `tree.unflatten`).
 * @example
 * ```ts
 * const { leaves, def } = tree.flatten([tensor(1), { a: tensor(2) }]);
 * const back = tree.unflatten(def, leaves.map((x) => x.mul(10))) as [Tensor, { a: Tensor }];
 * back[1].a.item();   // 20
 * ```
 */
export function flatten(t: unknown): { leaves: Tensor[]; def: TreeDef } {
  return flattenTree(t as PyTreeOrNode);
}

/**
 * Rebuilds a pytree of structure `def` from leaves (as many as `def` has).
 * @example
 * ```ts
 * const { def } = tree.flatten({ x: tensor(1) });
 * (tree.unflatten(def, [tensor(5)]) as { x: Tensor }).x.item();   // 5
 * ```
 */
export function unflatten(def: TreeDef, newLeaves: readonly Tensor[]): PyTree {
  const count = countLeaves(def);
  if (newLeaves.length !== count) throw new ValueError(`tree.unflatten: the structure has ${count} leaves, got ${newLeaves.length}`);
  return unflattenTree(def, newLeaves);
}

function countLeaves(d: TreeDef): number {
  switch (d.kind) {
    case 'leaf':
      return 1;
    case 'static':
      return 0;
    default:
      return d.children.reduce((n, c) => n + countLeaves(c), 0);
  }
}

/**
 * f applied to the leaves of `t` (and to the matching leaves of each of `rest`,
 * which must have t's structure), rebuilt in t's structure (jax.tree.map).
 * @example
 * ```ts
 * const p = { w: tensor([1, 2]), b: tensor(3) };
 * const g = { w: tensor([0.5, 0.5]), b: tensor(1) };
 * tree.map((x, dx) => x.sub(dx), p, g).w.tolist();   // [0.5, 1.5]
 * ```
 */
export function map<T extends PyTreeOrNode>(f: (leaf: Tensor, ...rest: Tensor[]) => Tensor, t: T, ...rest: PyTreeOrNode[]): TreeMap<T, Tensor> {
  const { leaves: ls, def } = flattenTree(t);
  const key = defKey(def);
  const others = rest.map((r, i) => {
    const fr = flattenTree(r);
    const k = defKey(fr.def);
    if (k !== key) throw new ValueError(`tree.map: argument ${i + 2} has a different structure from the first: ${short(k)} vs ${short(key)}`);
    return fr.leaves;
  });
  return unflattenTree(def, ls.map((l, j) => {
    const out = f(l, ...others.map((o) => o[j]!));
    if (!(out instanceof Tensor)) throw new ValueError(`tree.map: f must return a Tensor for every leaf, got ${out === null ? 'null' : typeof out} at leaf ${j}`);
    return out;
  })) as TreeMap<T, Tensor>;
}

const short = (k: string): string => (k.length > 120 ? `${k.slice(0, 117)}...` : k);
