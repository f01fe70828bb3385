// Binding a registered op (compiler/op-registry.ts) from the Tensor API: the
// node with its memoized layout, and its parts as tensors. Every module's ops
// bind through here (linalg, sparse, random, ...), so a new module writes no
// binding code of its own.

import { Tensor } from '../tensor.js';
import { bindInferred } from '../../compiler/primitives.js';
import { opLayout } from '../../compiler/op-registry.js';
import { unpackParts } from '../../compiler/transforms/rules/op-rules.js';
import type { Attrs } from '../../compiler/ir.js';

/**
 * { op, ...attrs } with its keys in sorted order: attrs keys (CSE, the compile
 * cache, the layout memo) are then built without sorting on every use, which
 * was the largest JS cost of a small linalg call ({op, log} is out of order).
 */
function sortedAttrs(op: string, attrs: Attrs): Attrs {
  const merged: Attrs = { ...attrs, op };
  const keys = Object.keys(merged);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1]! < keys[i]!;
  if (sorted) return merged;
  const out: Record<string, unknown> = {};
  for (const k of keys.sort()) out[k] = merged[k];
  return out;
}

// The merged attrs of a constant (frozen) attrs object (det's { log: false },
// ...), made once: the node of every call then carries the same attrs object,
// whose layout opLayout memoizes by identity, so a repeated call neither
// merges nor keys anything.
const MERGED = new WeakMap<Attrs, { op: string; attrs: Attrs }>();
const EMPTY: Attrs = Object.freeze({});

/** Binds registered op `op` on `inputs` and returns its parts, each with the inputs' batch dims. */
export function bindOp(op: string, inputs: readonly Tensor[], attrs: Attrs = EMPTY): Tensor[] {
  let a: Attrs;
  const m = MERGED.get(attrs);
  if (m !== undefined && m.op === op) a = m.attrs;
  else {
    a = sortedAttrs(op, attrs);
    if (Object.isFrozen(attrs)) MERGED.set(attrs, { op, attrs: a });
  }
  const nodes = inputs.length === 1 ? [inputs[0]!.node] : inputs.map((x) => x.node);
  // The layout is the primitive's shape rule (opInfer), memoized: derived once here.
  const l = opLayout(nodes, a);
  return unpackParts(new Tensor(bindInferred('registered', nodes, a, l.shape, l.dtype)), l, true);
}
