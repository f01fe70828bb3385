// Parameters, gradients and optimizer slots as matched lists of leaves. An
// optimizer works leaf by leaf, so it flattens params and grads once, checks
// that both have one structure (naming the first place where they differ, as
// a path like `layers[1].w`) and that each gradient has its parameter's shape,
// and rebuilds results with the params' structure. Only flatten/unflatten are
// used, so any node pytree.ts knows (plain objects, arrays, modules) works.

import { flatten, unflatten, defKey, type PyTree, type TreeDef } from '../compiler/transforms/pytree.js';
import { Tensor } from '../tensor/tensor.js';
import { DTypeError, ShapeError, ValueError } from '../tensor/errors.js';
import { isFloat } from '../tensor/dtype.js';
import { fmtShape } from '../tensor/shape.js';

/** A flattened tree: its leaves, its structure, and each leaf's path (for messages). */
export interface FlatTree {
  leaves: Tensor[];
  def: TreeDef;
  paths: string[];
}

/** Children of a structure node with the label each gets in a path (`.key` or `[i]`); leaves and statics have none. */
function childrenOf(d: TreeDef): { label: string; def: TreeDef }[] {
  const n = d as { kind: string; keys?: unknown; children?: unknown };
  if (!Array.isArray(n.children)) return [];
  const keys = Array.isArray(n.keys) && n.keys.length === n.children.length ? (n.keys as unknown[]) : undefined;
  return (n.children as TreeDef[]).map((c, i) => ({ label: keys !== undefined && typeof keys[i] === 'string' ? `.${keys[i] as string}` : `[${i}]`, def: c }));
}

/** The path of every leaf of d, in flatten's order. */
export function leafPaths(d: TreeDef, root = ''): string[] {
  if (d.kind === 'leaf') return [root === '' ? '(root)' : root];
  return childrenOf(d).flatMap((c) => leafPaths(c.def, root + c.label));
}

/** A short description of a structure node for messages. */
function describeNode(d: TreeDef): string {
  if (d.kind === 'leaf') return 'a tensor';
  if (d.kind === 'static') return `the static value ${JSON.stringify(d.value) ?? String(d.value)}`;
  if (d.kind === 'array') return `an array of ${d.children.length}`;
  if (d.kind === 'object') return `an object with keys {${d.keys.join(', ')}}`;
  return `a ${(d as { kind: string }).kind} node of ${childrenOf(d).length} children`;
}

/** The first place where two structures differ, as "at path: expected X, got Y"; undefined when they are the same. */
export function structureMismatch(expected: TreeDef, got: TreeDef, root = ''): string | undefined {
  if (defKey(expected) === defKey(got)) return undefined;
  const ce = childrenOf(expected),
    cg = childrenOf(got);
  const sameNode = expected.kind === got.kind && ce.length === cg.length && ce.every((c, i) => c.label === cg[i]!.label);
  if (sameNode && ce.length > 0) {
    for (let i = 0; i < ce.length; i++) {
      const m = structureMismatch(ce[i]!.def, cg[i]!.def, root + ce[i]!.label);
      if (m !== undefined) return m;
    }
  }
  return `at ${root === '' ? '(root)' : root}: expected ${describeNode(expected)}, got ${describeNode(got)}`;
}

/** Flattens a tree, keeping the leaf paths. */
export function flattenTree(tree: PyTree): FlatTree {
  const { leaves, def } = flatten(tree);
  return { leaves, def, paths: leafPaths(def) };
}

/** Flattens `other` and checks it has `ref`'s structure and leaf shapes; `what` names both in errors ("optim.adam.step: grads"). */
export function flattenLike(op: string, refName: string, ref: FlatTree, otherName: string, other: PyTree): Tensor[] {
  const { leaves, def } = flatten(other);
  const m = structureMismatch(ref.def, def);
  if (m !== undefined) throw new ValueError(`${op}: ${otherName} must have the structure of ${refName}; ${m}`);
  for (let i = 0; i < leaves.length; i++) {
    const a = ref.leaves[i]!,
      b = leaves[i]!;
    if (a.ndim !== b.ndim || a.shape.some((s, j) => s !== b.shape[j])) {
      throw new ShapeError(`${op}: ${otherName} at ${ref.paths[i]} has shape ${fmtShape(b.shape)}, expected ${refName}'s ${fmtShape(a.shape)}`);
    }
  }
  return leaves;
}

/** Throws unless every leaf is a real floating tensor (what optimizers update). */
export function checkFloatLeaves(op: string, what: string, t: FlatTree): void {
  t.leaves.forEach((x, i) => {
    if (!isFloat(x.dtype)) throw new DTypeError(`${op}: ${what} at ${t.paths[i]} is ${x.dtype}; expected a real floating tensor (float16, bfloat16, float32 or float64)`);
  });
}

/** Rebuilds leaves into `like`'s structure. */
export function rebuild(like: FlatTree, leaves: readonly Tensor[]): PyTree {
  return unflatten(like.def, leaves);
}
