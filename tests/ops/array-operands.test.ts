// Array-like operands (issue 13): wherever the tensor API takes a tensor, nested
// JS arrays and TypedArrays are converted like NumPy's asarray (here: like
// tensor(data), so plain numbers are float64) and then broadcast like NumPy;
// anything else is a typed error naming the op and what it got.
//
// Expected values: the naive float64 reference (tests/harness/naive.ts, NumPy's
// broadcasting written out) for random shapes, and hand-computed exact values
// (small integers, exact in float64) for the named cases. Before the fix a
// nested array became a broadcast literal of its first element
// ([[1,2],[3,4]] + [10,20] gave [[11,12],[13,14]]), a string became NaN and
// [[1,2,3]] threw an internal error.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import * as N from '../harness/naive.js';
import { broadcastShapesArb, expectTensor, FEW, narrOf, runs, toTensor } from '../harness/arbitraries.js';

type Nested = number | Nested[];

/** The nested JS array NumPy's tolist() gives for a (non-empty) naive array. */
function nested(a: N.NArr): Nested {
  let k = 0;
  const build = (d: number): Nested => (d === a.shape.length ? a.data[k++]! : Array.from({ length: a.shape[d]! }, () => build(d + 1)));
  return build(0);
}

/** What f threw (fails the test when it threw nothing). */
function thrown(f: () => unknown): Error {
  try {
    const r = f();
    if (r instanceof rlx.Tensor) r.toArray();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error, nothing was thrown');
}

const EXACT = { rtol: 0, atol: 0 };

const BINARY: { op: 'add' | 'sub' | 'mul' | 'div' | 'maximum' | 'minimum'; f: (x: number, y: number) => number }[] = [
  { op: 'add', f: (x, y) => x + y },
  { op: 'sub', f: (x, y) => x - y },
  { op: 'mul', f: (x, y) => x * y },
  { op: 'div', f: (x, y) => x / y },
  { op: 'maximum', f: (x, y) => Math.max(x, y) },
  { op: 'minimum', f: (x, y) => Math.min(x, y) },
];
const CMP: { op: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'; f: (x: number, y: number) => boolean }[] = [
  { op: 'eq', f: (x, y) => x === y },
  { op: 'ne', f: (x, y) => x !== y },
  { op: 'lt', f: (x, y) => x < y },
  { op: 'le', f: (x, y) => x <= y },
  { op: 'gt', f: (x, y) => x > y },
  { op: 'ge', f: (x, y) => x >= y },
];

// Nested lists cannot spell an empty axis followed by more axes ([[]] is [1, 0]),
// so the random shapes are non-empty; empty operands are a hand case below.
const pairArb = broadcastShapesArb(2, { nonEmpty: true }).chain(([sa, sb]) => fc.tuple(narrOf(sa!, { integers: true, min: -4, max: 4 }), narrOf(sb!, { integers: true, min: -4, max: 4 })));

describe.each(DEVICES)('array-like operands on %s', (device) => {
  const T = (data: rlx.NestedData) => rlx.tensor(data).on(device);

  it('the issue: [[1,2],[3,4]] + [10, 20] broadcasts the row, as NumPy', () => {
    const x = T([[1, 2], [3, 4]]);
    const r = x.add([10, 20]);
    expect(r.dtype).toBe('float64');
    expect(r.device).toBe(device);
    expect(r.tolist()).toEqual([[11, 22], [13, 24]]);
    expect(x.mul([[2], [3]]).tolist()).toEqual([[2, 4], [9, 12]]);
    expect(x.sub([[[1, 1]], [[0, 0]]]).tolist()).toEqual([[[0, 1], [2, 3]], [[1, 2], [3, 4]]]);
    expect(x.pow([2, 0]).tolist()).toEqual([[1, 1], [9, 1]]);
    expect(x.atan2([[1, 1], [1, 1]]).shape).toEqual([2, 2]);
    expect(x.lt([2, 3]).tolist()).toEqual([[true, true], [false, false]]);
    expect(x.eq([[1, 0], [0, 4]]).tolist()).toEqual([[true, false], [false, true]]);
    // Empty operands follow the same rules: [2, 0] + [] (shape [0]) is [2, 0].
    expect(rlx.zeros([2, 0]).on(device).add([]).shape).toEqual([2, 0]);
  });

  it('the issue: [[1,2],[3,4]] + [[1,2,3]] is a ShapeError naming both shapes', () => {
    const e = thrown(() => T([[1, 2], [3, 4]]).add([[1, 2, 3]]));
    expect(e).toBeInstanceOf(rlx.ShapeError);
    expect(e.message).toContain('add');
    expect(e.message).toContain('[2, 2]');
    expect(e.message).toContain('[1, 3]');
    expect(thrown(() => T([1, 2, 3]).maximum([1, 2]))).toBeInstanceOf(rlx.ShapeError);
    expect(thrown(() => rlx.where(T([true, false]), [1, 2, 3], 0))).toBeInstanceOf(rlx.ShapeError);
  });

  it('every binary op and comparison with a nested-array operand = the naive NumPy reference', () => {
    fc.assert(
      fc.property(pairArb, ([a, b]) => {
        const x = toTensor(a, device);
        for (const { op, f } of BINARY) expectTensor(x[op](nested(b) as rlx.NestedData), N.binary(a, b, f), EXACT, `${op} [${a.shape}] [${b.shape}]`);
        for (const { op, f } of CMP) {
          const r = x[op](nested(b) as rlx.NestedData);
          expect(r.dtype).toBe('bool');
          expectTensor(r, N.binary(a, b, (p, q) => (f(p, q) ? 1 : 0)), EXACT, `${op} [${a.shape}] [${b.shape}]`);
        }
        // A 1-D operand as a Float64Array gives the same values.
        if (b.shape.length === 1) expectTensor(x.add(b.data), N.binary(a, b, (p, q) => p + q), EXACT, `add Float64Array [${a.shape}] [${b.shape}]`);
      }),
      runs(FEW),
    );
  });

  it('where: condition, x and y as nested arrays (three-way broadcasting)', () => {
    fc.assert(
      fc.property(
        broadcastShapesArb(3, { nonEmpty: true }).chain(([sc, sx, sy]) => fc.tuple(narrOf(sc!, { integers: true, min: 0, max: 1 }), narrOf(sx!), narrOf(sy!))),
        ([c, a, b]) => {
          const ref = N.ternary(c, a, b, (p, q, r) => (p !== 0 ? q : r));
          const toBool = (v: Nested): rlx.NestedData => (Array.isArray(v) ? v.map(toBool) : v !== 0);
          const cond = toBool(nested(c));
          expectTensor(rlx.where(toTensor(c, device), nested(a) as rlx.NestedData, toTensor(b, device)), ref, EXACT, 'where(tensor, list, tensor)');
          expectTensor(rlx.where(cond, toTensor(a, device), nested(b) as rlx.NestedData), ref, EXACT, 'where(list, tensor, list)');
          expectTensor(toTensor(a, device).where(cond, nested(b) as rlx.NestedData), ref, EXACT, 'x.where(list, list)');
        },
      ),
      runs(FEW),
    );
  });

  it('matmul / dot / outer, cat / stack, clip, complex, cast, zerosLike, scatterAdd updates take array-likes', () => {
    const x = T([[1, 2], [3, 4]]);
    expect(x.matmul([5, 6]).tolist()).toEqual([17, 39]);
    expect(rlx.matmul([[1, 2], [3, 4]], [[5], [6]]).tolist()).toEqual([[17], [39]]);
    expect(rlx.matmul([1, 2], x).tolist()).toEqual([7, 10]);
    expect(rlx.dot([1, 2, 3], [4, 5, 6]).item()).toBe(32);
    expect(x.dot([[1, 0], [0, 1]]).tolist()).toEqual([[1, 2], [3, 4]]);
    expect(x.dot(2).tolist()).toEqual([[2, 4], [6, 8]]);
    expect(rlx.outer([1, 2], [3, 4, 5]).tolist()).toEqual([[3, 4, 5], [6, 8, 10]]);
    expect(x.outer([1, -1]).tolist()).toEqual([[1, -1], [2, -2], [3, -3], [4, -4]]);
    expect(rlx.cat([x, [[5, 6]]]).tolist()).toEqual([[1, 2], [3, 4], [5, 6]]);
    expect(rlx.cat([[1, 2], new Float64Array([3])]).tolist()).toEqual([1, 2, 3]);
    expect(rlx.stack([[1, 2], [3, 4]], 1).tolist()).toEqual([[1, 3], [2, 4]]);
    expect(rlx.stack([x, [[0, 0], [0, 0]]]).shape).toEqual([2, 2, 2]);
    expect(x.clip([2, 0], [[3, 3], [3, 1]]).tolist()).toEqual([[2, 2], [3, 1]]);
    expect(rlx.complex([1, 2], [3, 4]).tolist()).toEqual([[1, 3], [2, 4]]);
    expect(rlx.cast([1.75, -1.75], 'int32').tolist()).toEqual([1, -1]);
    expect(rlx.zerosLike([[1, 2, 3]]).shape).toEqual([1, 3]);
    expect(rlx.onesLike(new Int32Array([4, 5])).tolist()).toEqual([1, 1]);
    expect(T([0, 0, 0]).scatterAdd([0, 2, 0], [1, 2, 3]).tolist()).toEqual([4, 0, 2]);
    expect(T([10, 20, 30]).gather([[0, 2], [-1, 1]]).tolist()).toEqual([[10, 30], [30, 20]]);
    expect(T([10, 20, 30]).gather(1).tolist()).toBe(20);
  });

  it('dtypes: numbers are float64 (as tensor()), booleans bool, {re, im} complex, a TypedArray keeps its dtype', () => {
    const i = rlx.tensor(new Int32Array([1, 2])).on(device);
    expect(i.add(new Int32Array([3, 4])).dtype).toBe('int32');
    expect(i.add([3, 4]).dtype).toBe('float64');
    expect(i.add(3).dtype).toBe('int32'); // a JS scalar stays weak (NEP 50)
    const f = rlx.tensor(new Float32Array([1, 2])).on(device);
    expect(f.mul(new Float32Array([0.5, 0.25])).dtype).toBe('float32');
    expect([...f.mul(new Float32Array([0.5, 0.25])).toArray()]).toEqual([0.5, 0.5]);
    expect(T([true, false]).logicalAnd([true, true]).tolist()).toEqual([true, false]);
    expect(T([true, false]).logicalOr([false, false]).dtype).toBe('bool');
    const z = T([1, 2]).add([{ re: 0, im: 1 }, { re: 1, im: -1 }]);
    expect(z.dtype).toBe('complex128');
    expect(z.tolist()).toEqual([[1, 1], [3, -1]]);
  });

  it('anything that is not array-like is a DTypeError naming the op and what it got', () => {
    const x = T([[1, 2], [3, 4]]);
    const bad: [string, unknown][] = [
      ['the string "hello"', 'hello'],
      ['undefined', undefined],
      ['null', null],
      ['a plain object', { a: 1 }],
      ['function', () => 1],
      ['BigInt', 10n],
      ['a Map', new Map()],
    ];
    for (const [what, v] of bad) {
      for (const [op, f] of [
        ['add', () => x.add(v as rlx.Operand)],
        ['lt', () => x.lt(v as rlx.Operand)],
        ['maximum', () => x.maximum(v as rlx.Operand)],
        ['where', () => rlx.where(v as rlx.Operand, x, 0)],
        ['where', () => x.where(x.gt(1), v as rlx.Operand)],
        ['matmul', () => x.matmul(v as rlx.Operand)],
        ['dot', () => rlx.dot(v as rlx.Operand, x)],
        ['outer', () => x.outer(v as rlx.Operand)],
        ['cat', () => rlx.cat([x, v as rlx.Operand])],
        ['stack', () => rlx.stack([v as rlx.Operand, x])],
        ['complex', () => rlx.complex(x, v as rlx.Operand)],
        ['scatterAdd', () => x.scatterAdd([0], v as rlx.Operand)],
        ['gather', () => x.gather(v as rlx.Operand)],
      ] as const) {
        const e = thrown(f);
        expect(e, `${op}(${what})`).toBeInstanceOf(rlx.DTypeError);
        expect(e.message, `${op}(${what})`).toContain(`${op}:`);
        expect(e.message, `${op}(${what})`).toContain(what);
      }
    }
    // A list that is not a list: cat/stack of a single tensor.
    expect(thrown(() => rlx.cat(x as unknown as rlx.Tensor[]))).toBeInstanceOf(rlx.DTypeError);
    expect(thrown(() => rlx.stack('ab' as unknown as rlx.Tensor[]))).toBeInstanceOf(rlx.DTypeError);
  });

  it('ragged or non-numeric nested data is a ValueError naming the op and the position', () => {
    const x = T([[1, 2], [3, 4]]);
    const ragged = thrown(() => x.add([[1], [1, 2]]));
    expect(ragged).toBeInstanceOf(rlx.ValueError);
    expect(ragged.message).toContain('add');
    expect(ragged.message).toContain('ragged');
    const str = thrown(() => x.mul([['a', 'b']] as unknown as rlx.NestedData));
    expect(str).toBeInstanceOf(rlx.ValueError);
    expect(str.message).toContain('mul');
    expect(str.message).toContain('string');
    expect(thrown(() => rlx.matmul([[1, 2], [3]], x))).toBeInstanceOf(rlx.ValueError);
    expect(thrown(() => rlx.cat([x, [[1, 2], [undefined, 4]] as unknown as rlx.NestedData]))).toBeInstanceOf(rlx.ValueError);
    // {re, im} with a non-number part is not a complex value.
    expect(thrown(() => x.add([{ re: 'a', im: 1 }] as unknown as rlx.NestedData))).toBeInstanceOf(rlx.ValueError);
    expect(thrown(() => rlx.tensor([{ re: 1, im: '2' }] as unknown as rlx.NestedData))).toBeInstanceOf(rlx.ValueError);
  });
});
