// Binding a registered op (compiler/op-registry.ts) from the Tensor API: the
// call node with its memoized layout, and its outputs as tensors (the call and
// its part nodes). Every module's ops bind through here (linalg, sparse,
// random, ...), so a new module writes no binding code of its own.

import { Tensor } from '../tensor.js';
import { bindInferred, bindParts, callOutputs } from '../../compiler/primitives.js';
import { opLayout } from '../../compiler/op-registry.js';
import type { Attrs } from '../../compiler/ir.js';
import { ShapeError } from '../errors.js';
import { rg, s } from '../slicing.js';

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

/** Binds registered op `op` on `inputs` and returns its outputs (residuals left out), each with the inputs' batch dims. */
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
  const call = bindInferred('registered', nodes, a, l.shapes[0]!, l.parts[0]!.dtype);
  if (l.parts.length === 1) return [new Tensor(call)];
  bindParts(call, l);
  const outs = callOutputs(call);
  const res: Tensor[] = [];
  for (let i = 0; i < outs.length; i++) if (!l.parts[i]!.residual) res.push(new Tensor(outs[i]!));
  return res;
}

/**
 * The valid rows of an output with a data-dependent length (PartAval.count):
 * its first `count` rows. Reads the count (a host synchronization), so it is
 * for unbatched outputs outside traced code; inside jit keep the bound and
 * mask by the count instead.
 */
export function validRows(x: Tensor, count: Tensor): Tensor {
  if (count.ndim !== 0 || count.dtype !== 'int32') throw new ShapeError(`validRows: count must be an int32 scalar, got ${count.dtype} of shape [${count.shape.join(', ')}]`);
  if (x.ndim === 0) throw new ShapeError('validRows: expects an output with a leading bound dim, got a scalar');
  const n = count.item() as number;
  const bound = x.shape[0] as number;
  if (!(n >= 0 && n <= bound)) throw new ShapeError(`validRows: count ${n} is outside [0, ${bound}]`);
  return x.slice(s(rg(0, n)));
}