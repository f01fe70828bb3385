// io.batches: in-order batches are the rows in order (checked against plain
// JS slices), shuffled batches are a permutation of the rows fixed by the key
// (every row once per pass, the pairing of a tree's leaves kept), dropLast,
// re-iteration, jit over batches, and the typed errors.

import { describe, expect, it } from 'vitest';
import '../../src/index.js';
import { arange, tensor, zeros } from '../../src/tensor/create.js';
import { Tensor } from '../../src/tensor/tensor.js';
import * as random from '../../src/tensor/random.js';
import { jit } from '../../src/compiler/transforms/jit.js';
import * as io from '../../src/io/index.js';
import { DTypeError, ShapeError, ValueError } from '../../src/tensor/errors.js';

const N = 11;
const data = () => ({ x: arange(N * 3).reshape([N, 3]), y: arange(N).cast('int32'), extra: [arange(N).mul(10)] });
const rowsOf = (t: Tensor) => t.tolist() as number[][];

describe('io.batches', () => {
  it('in order: consecutive rows, the last batch smaller; the same structure per batch', () => {
    const it = io.batches(data(), { batchSize: 4 });
    expect(it.length).toBe(3);
    const bs = [...it];
    expect(bs.map((b) => b.y.tolist())).toEqual([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10]]);
    expect(rowsOf(bs[2]!.x)).toEqual([[24, 25, 26], [27, 28, 29], [30, 31, 32]]);
    expect((bs[1]!.extra[0] as Tensor).tolist()).toEqual([40, 50, 60, 70]);
    expect(bs[0]!.y.dtype).toBe('int32');
  });

  it('dropLast leaves out the short batch; a single tensor gives tensors', () => {
    const it = io.batches(arange(N), { batchSize: 4, dropLast: true });
    expect(it.length).toBe(2);
    expect([...it].map((b) => b.tolist())).toEqual([[0, 1, 2, 3], [4, 5, 6, 7]]);
    expect(io.batches(arange(3), { batchSize: 5, dropLast: true }).length).toBe(0);
  });

  it('shuffled: every row exactly once per pass, leaves kept paired, the same order for the same key and again on re-iteration', () => {
    const key = random.key(7);
    const it = io.batches(data(), { batchSize: 4, shuffle: true, key });
    const pass = () => [...it].flatMap((b) => {
      const ys = b.y.tolist() as number[];
      // x's row i is [3y, 3y + 1, 3y + 2] and extra is 10y: the leaves stay paired
      expect(rowsOf(b.x)).toEqual(ys.map((y) => [3 * y, 3 * y + 1, 3 * y + 2]));
      expect((b.extra[0] as Tensor).tolist()).toEqual(ys.map((y) => 10 * y));
      return ys;
    });
    const order = pass();
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => i));
    expect(order).not.toEqual(Array.from({ length: N }, (_, i) => i));
    expect(pass()).toEqual(order);
    const again = [...io.batches(data(), { batchSize: 4, shuffle: true, key: random.key(7) })].flatMap((b) => b.y.tolist() as number[]);
    expect(again).toEqual(order);
    const other = [...io.batches(data(), { batchSize: 4, shuffle: true, key: random.key(8) })].flatMap((b) => b.y.tolist() as number[]);
    expect(other).not.toEqual(order);
  });

  it('the order is the stable argsort of random.uniform(key, [n])', () => {
    const key = random.foldIn(random.key(3), 1);
    const u = Array.from(random.uniform(key, [N]).toArray() as Float64Array);
    const want = Array.from({ length: N }, (_, i) => i).sort((a, b) => u[a]! - u[b]!);
    expect([...io.batches(arange(N), { batchSize: N, shuffle: true, key })][0]!.tolist()).toEqual(want);
  });

  it('full batches through a jitted step compile once', () => {
    const f = jit((b: { x: Tensor; y: Tensor }) => b.x.sum().add(b.y.sum()));
    let total = 0;
    for (const b of io.batches({ x: arange(12).reshape([6, 2]), y: arange(6) }, { batchSize: 2, shuffle: true, key: random.key(1) })) total += f(b).item() as number;
    expect(total).toBe(66 + 15);
    expect(f.compiles).toBe(1);
  });

  it('typed errors: shuffle without a key, a bad key, leading dims that differ, scalars, a bad batch size', () => {
    expect(() => io.batches(arange(4), { batchSize: 2, shuffle: true })).toThrow(/shuffle needs an explicit random key/);
    expect(() => io.batches(arange(4), { batchSize: 2, shuffle: true, key: tensor([1, 2]) })).toThrow(DTypeError);
    expect(() => io.batches(arange(4), { batchSize: 2, shuffle: true, key: random.split(random.key(0)) })).toThrow(/key must be one random key/);
    expect(() => io.batches({ x: zeros([4, 2]), y: { z: zeros([5]) } }, { batchSize: 2 })).toThrow(ShapeError);
    expect(() => io.batches({ x: zeros([4, 2]), y: { z: zeros([5]) } }, { batchSize: 2 })).toThrow(/data at \.y\.z has shape \[5\], whose first dimension 5 differs from 4 \(of \.x, shape \[4, 2\]\)/);
    expect(() => io.batches({ x: zeros([4]), s: tensor(1) }, { batchSize: 2 })).toThrow(/data at \.s is a scalar/);
    expect(() => io.batches(arange(4), { batchSize: 0 })).toThrow(/batchSize must be an integer >= 1, got 0/);
    expect(() => io.batches({}, { batchSize: 1 })).toThrow(ValueError);
  });
});
