// Mini-batches of a data set held in memory: a tensor, or a pytree of tensors
// that share their first dimension (images and labels), cut into batches of
// the same structure along that dimension. Shuffling takes an explicit random
// key (rlx.random) and is a function of it: the same key gives the same order,
// and a training loop passes a new key per epoch (random.foldIn(key, epoch)).

import { type PyTreeOrNode } from '../compiler/transforms/pytree.js';
import { Tensor } from '../tensor/tensor.js';
import { tensor } from '../tensor/create.js';
import { uniform } from '../tensor/random.js';
import { s, rg } from '../tensor/slicing.js';
import { DTypeError, ShapeError, ValueError } from '../tensor/errors.js';
import { fmtShape } from '../tensor/shape.js';
import { flattenTree, rebuild } from '../optim/tree.js';

export interface BatchOptions {
  /** Rows per batch (the last one may have fewer unless dropLast). */
  batchSize: number;
  /** Visit the rows in a random order given by `key` (default false). */
  shuffle?: boolean;
  /** The random key (random.key(seed), shape [2]) that orders the rows when shuffling; needed then, unused otherwise. */
  key?: Tensor;
  /** Leave out a last batch smaller than batchSize (default false). */
  dropLast?: boolean;
}

/** The batches of a data set: iterable (again and again, in the same order) and with a length. */
export interface Batches<T> extends Iterable<T> {
  /** Number of batches. */
  readonly length: number;
}

/** A permutation of 0..n-1 determined by the key: the stable argsort of uniform(key, [n]). */
function permutation(key: Tensor, n: number): Int32Array {
  const u = uniform(key, [n]).toArray() as Float64Array;
  const idx = Int32Array.from({ length: n }, (_, i) => i);
  return idx.sort((a, b) => u[a]! - u[b]! || a - b);
}

/**
 * Cuts a tensor, or a pytree of tensors sharing their first dimension, into batches of that structure along it; shuffled by an explicit key.
 * @example
 * ```ts
 * const data = { x: arange(10).reshape([5, 2]), y: arange(5) };
 * const it = io.batches(data, { batchSize: 2 });
 * it.length;   // 3
 * [...it].map((b) => b.y.tolist());   // [[0, 1], [2, 3], [4]]
 * const sh = io.batches(data, { batchSize: 5, shuffle: true, key: random.key(0) });
 * [...sh][0].y.shape;   // [5]  (the rows in an order fixed by the key)
 * ```
 */
export function batches<T extends PyTreeOrNode>(data: T, opts: BatchOptions): Batches<T> {
  const op = 'io.batches';
  if (opts === null || typeof opts !== 'object') throw new ValueError(`${op}: expects options {batchSize, shuffle, key, dropLast}, got ${opts === null ? 'null' : typeof opts}`);
  const { batchSize, shuffle = false, key, dropLast = false } = opts;
  if (typeof batchSize !== 'number' || !Number.isInteger(batchSize) || batchSize < 1) throw new ValueError(`${op}: batchSize must be an integer >= 1, got ${String(batchSize)}`);
  const flat = flattenTree(data);
  if (flat.leaves.length === 0) throw new ValueError(`${op}: data has no tensors`);
  flat.leaves.forEach((t, i) => {
    if (t.ndim === 0) throw new ShapeError(`${op}: data at ${flat.paths[i]} is a scalar; every tensor needs a first dimension to batch along`);
  });
  const n = flat.leaves[0]!.shape[0]!;
  flat.leaves.forEach((t, i) => {
    if (t.shape[0] !== n) throw new ShapeError(`${op}: data at ${flat.paths[i]} has shape ${fmtShape(t.shape)}, whose first dimension ${t.shape[0]} differs from ${n} (of ${flat.paths[0]}, shape ${fmtShape(flat.leaves[0]!.shape)})`);
  });
  let order: Int32Array | undefined;
  if (shuffle) {
    if (key === undefined) throw new ValueError(`${op}: shuffle needs an explicit random key (e.g. {shuffle: true, key: random.key(0)}; a new key per epoch)`);
    if (!(key instanceof Tensor) || key.dtype !== 'int32' || key.ndim !== 1 || key.shape[0] !== 2) {
      const got = key instanceof Tensor ? `a ${key.dtype} tensor of shape ${fmtShape(key.shape)}` : key === null ? 'null' : typeof key;
      throw new (key instanceof Tensor && key.dtype !== 'int32' ? DTypeError : ValueError)(`${op}: key must be one random key (an int32 tensor of shape [2] from random.key, split or foldIn), got ${got}`);
    }
    order = permutation(key, n);
  }
  const count = dropLast ? Math.floor(n / batchSize) : Math.ceil(n / batchSize);
  const batch = (b: number): T => {
    const start = b * batchSize,
      end = Math.min(n, start + batchSize);
    const rows = order === undefined ? undefined : tensor(order.subarray(start, end));
    return rebuild(flat, flat.leaves.map((t) => (rows === undefined ? t.slice(s(rg(start, end))) : t.gather(rows, 0)))) as T;
  };
  return {
    length: count,
    *[Symbol.iterator](): Iterator<T> {
      for (let b = 0; b < count; b++) yield batch(b);
    },
  };
}
