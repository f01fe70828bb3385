// Parameters, gradients and optimizer slots as matched lists of leaves. An
// optimizer works leaf by leaf, so it flattens params and grads once, checks
// that both have one structure (naming the first place where they differ, as
// a path like `layers[1].w`) and that each gradient has its parameter's shape,
// and rebuilds results with the params' structure. Only flatten/unflatten are
// used, so any node pytree.ts knows (plain objects, arrays, modules) works.

import { flatten, unflatten, defKey, type PyTreeOrNode, type TreeDef } from '../compiler/transforms/pytree.js';
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

/**
 * The names of a registered node's children, when its aux says them: nn.Module's
 * aux lists its property names (`keys`) and which of them are static (`slots`),
 * so a parameter's path reads `.layers[0].weight` as in PyTorch's state dicts.
 * Another node type gets `[i]`. (A `childNames` hook on PytreeNodeType would
 * make this independent of nn's aux layout.)
 */
function nodeChildNames(aux: unknown, count: number): string[] | undefined {
  const a = aux as { keys?: unknown; slots?: unknown } | null;
  if (a === null || typeof a !== 'object' || !Array.isArray(a.keys) || !Array.isArray(a.slots) || a.keys.length !== a.slots.length) return undefined;
  const names = (a.keys as unknown[]).filter((_, i) => (a.slots as unknown[])[i] !== 'static');
  return names.length === count && names.every((k) => typeof k === 'string') ? (names as string[]) : undefined;
}

/** Children of a structure node with the label each gets in a path (`.key` or `[i]`); leaves and statics have none. */
function childrenOf(d: TreeDef): { label: string; def: TreeDef }[] {
  if (d.kind === 'leaf' || d.kind === 'static') return [];
  const names = d.kind === 'object' ? d.keys : d.kind === 'node' ? nodeChildNames(d.aux, d.children.length) : undefined;
  return d.children.map((c, i) => ({ label: names !== undefined ? `.${names[i]!}` : `[${i}]`, def: c }));
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
  return `a ${d.name.replace(/#\d+$/, '')} with ${d.children.length} children`;
}

const short = (t: string): string => (t.length > 200 ? `${t.slice(0, 197)}...` : t);

/** The first place where two structures differ, as "at path: expected X, got Y"; undefined when they are the same. */
export function structureMismatch(expected: TreeDef, got: TreeDef, root = ''): string | undefined {
  if (defKey(expected) === defKey(got)) return undefined;
  const ce = childrenOf(expected),
    cg = childrenOf(got);
  const sameNode = expected.kind === got.kind && ce.length === cg.length && ce.every((c, i) => c.label === cg[i]!.label);
  if (expected.kind === 'node' && got.kind === 'node' && expected.name === got.name && expected.auxKey !== got.auxKey) {
    // The same class with other static fields (nn.Linear(3, 4) against nn.Linear(3, 5)): name the fields that differ.
    const a = expected.auxKey.split(';'),
      b = got.auxKey.split(';');
    const onlyA = a.filter((x) => !b.includes(x)),
      onlyB = b.filter((x) => !a.includes(x));
    const cls = expected.name.replace(/#\d+$/, '');
    return `at ${root === '' ? '(root)' : root}: expected a ${cls} with ${short(onlyA.join('; '))}, got one with ${short(onlyB.join('; '))}`;
  }
  if (sameNode && ce.length > 0) {
    for (let i = 0; i < ce.length; i++) {
      const m = structureMismatch(ce[i]!.def, cg[i]!.def, root + ce[i]!.label);
      if (m !== undefined) return m;
    }
  }
  return `at ${root === '' ? '(root)' : root}: expected ${describeNode(expected)}, got ${describeNode(got)}`;
}

/** Flattens a tree, keeping the leaf paths. */
export function flattenTree(tree: PyTreeOrNode): FlatTree {
  const { leaves, def } = flatten(tree);
  return { leaves, def, paths: leafPaths(def) };
}

/** Flattens `other` and checks it has `ref`'s structure and leaf shapes; `what` names both in errors ("optim.adam.step: grads"). */
export function flattenLike(op: string, refName: string, ref: FlatTree, otherName: string, other: PyTreeOrNode): Tensor[] {
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

/** Rebuilds leaves into `like`'s structure (a module for a module). */
export function rebuild(like: FlatTree, leaves: readonly Tensor[]): PyTreeOrNode {
  return unflatten(like.def, leaves);
}
