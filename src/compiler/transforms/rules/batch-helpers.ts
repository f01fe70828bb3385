// Shared pieces of batching rules: moving the batch axis, broadcasting
// unbatched operands, re-binding a primitive with batched inputs.
//
// Conventions: a batched value is a tensor plus the position of its batch axis
// (`dim`); `null` means unbatched. The batch size `b` is a Dim, because
// Func.vmap batches over a named (dynamic) size too.

import { Tensor } from '../../../tensor/tensor.js';
import { type Dim } from '../../../tensor/shape.js';
import { bind, constNode, type Primitive } from '../../primitives.js';
import type { Attrs, Node } from '../../ir.js';
import type { BatchRule } from '../rule-types.js';

/** The primitive that produced a node (its history's op once realized). */
export const opOf = (n: Node): Primitive => n.history?.op ?? n.op;

/** Binds primitive `op` over tensors. */
export const bindT = (op: Primitive, xs: readonly Tensor[], attrs: Attrs = {}): Tensor => new Tensor(bind(op, xs.map((x) => x.node), attrs));

/** Moves axis `from` of t to position `to`. */
export function moveAxis(t: Tensor, from: number, to: number): Tensor {
  if (from === to) return t;
  const perm = [...Array(t.ndim).keys()].filter((i) => i !== from);
  perm.splice(to, 0, from);
  return t.transpose(perm);
}

/** Inserts a broadcast batch axis of size b at position `at` of an unbatched t (a literal stays a literal). */
export function broadcastBatch(t: Tensor, b: Dim, at: number): Tensor {
  const shape = t.node.shape;
  const out = [...shape.slice(0, at), b, ...shape.slice(at)];
  if (t.node.op === 'const') return new Tensor(constNode(t.node.attrs['value'] as number | [number, number], t.dtype, out));
  const r = bind('reshape', [t.node], { shape: [...shape.slice(0, at), 1, ...shape.slice(at)] });
  return b === 1 ? new Tensor(r) : new Tensor(bind('expand', [r], { shape: out }));
}

/** t with its batch axis at position `at`: moved if batched elsewhere, broadcast (size b) if unbatched. */
export function batchAt(t: Tensor, dim: number | null, b: Dim, at: number): Tensor {
  return dim === null ? broadcastBatch(t, b, at) : moveAxis(t, dim, at);
}

/** t with its batch axis (or a new broadcast one of size b) at position 0. */
export function batchFirst(t: Tensor, dim: number | null, b: Dim): Tensor {
  return batchAt(t, dim, b, 0);
}

/** The batch size from the batched arguments (a number, or a dim name under Func.vmap). */
export function batchSize(inputs: Tensor[], dims: (number | null)[]): number {
  return batchDim(inputs, dims) as number;
}

/** The batch size as a Dim (a name when the batch is symbolic). */
export function batchDim(inputs: readonly Tensor[], dims: readonly (number | null)[]): Dim {
  for (let i = 0; i < inputs.length; i++) {
    const d = dims[i];
    if (d !== null && d !== undefined) return inputs[i]!.node.shape[d]!;
  }
  throw new Error('internal: batch rule called without a batched argument');
}

/** The first batch position among the batched arguments. */
export function firstDim(dims: readonly (number | null)[]): number {
  for (const d of dims) if (d !== null && d !== undefined) return d;
  throw new Error('internal: batch rule called without a batched argument');
}

/** Position in the batched tensor of axis `a` of the unbatched one (batch at `d`). */
export const physAxis = (a: number, d: number): number => (a < d ? a : a + 1);

/**
 * Elementwise primitives (any arity, attrs kept): operands are brought to the
 * batch position of the first batched one, so when all batched operands share a
 * position nothing moves; unbatched operands are broadcast there.
 */
export const elementwiseBatch: BatchRule = ({ node, attrs, inputs }, dims) => {
  const b = batchDim(inputs, dims);
  const at = firstDim(dims);
  const xs = inputs.map((t, i) => batchAt(t, dims[i] ?? null, b, at));
  return { out: bindT(opOf(node), xs, attrs), dim: at };
};
