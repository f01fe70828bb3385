// Tests of the test harness itself: the naive reference against values printed by
// NumPy 1.24 / CPython (so a bug in the reference cannot hide a bug in rlx), the
// allclose helpers, the shape arbitraries, and the device list.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { compareAllclose, expectAllclose } from './allclose.js';
import { broadcastShapesArb, shapeArb } from './arbitraries.js';
import { DEVICES } from './devices.js';
import * as N from './naive.js';

const ar = (n: number, shape: number[]): N.NArr => N.make(shape, Array.from({ length: n }, (_, i) => i));

describe('devices', () => {
  it('lists the available backends, js always among them', () => {
    expect(DEVICES).toContain('js');
    expect(DEVICES).toEqual(rlx.backends().filter((b) => b.available).map((b) => b.name));
  });
});

describe('allclose', () => {
  it('treats NaN as equal to NaN and infinities as equal only to themselves', () => {
    expectAllclose([NaN, Infinity, -Infinity, 1], [NaN, Infinity, -Infinity, 1]);
    expect(compareAllclose([Infinity], [-Infinity]).pass).toBe(false);
    expect(compareAllclose([Infinity], [1e308]).pass).toBe(false);
    expect(compareAllclose([NaN], [0]).pass).toBe(false);
    expect(compareAllclose([0], [NaN]).pass).toBe(false);
  });
  it('uses |a - e| <= atol + rtol * |e|', () => {
    expect(compareAllclose([1.0000001], [1], { rtol: 1e-6, atol: 0 }).pass).toBe(true);
    expect(compareAllclose([1.00001], [1], { rtol: 1e-6, atol: 0 }).pass).toBe(false);
    expect(compareAllclose([1e-9], [0], { rtol: 0, atol: 1e-8 }).pass).toBe(true);
  });
  it('names the first mismatching index and both values', () => {
    const r = compareAllclose([1, 2, 3.5, 9], [1, 2, 3, 4], { rtol: 0, atol: 0 });
    expect(r.pass).toBe(false);
    expect(r.message).toContain('index 2');
    expect(r.message).toContain('actual 3.5');
    expect(r.message).toContain('expected 3');
    expect(r.message).toContain('2 of 4');
    expect(() => expectAllclose([1], [1, 2])).toThrow(/length mismatch/);
  });
  it('registers toBeAllclose', () => {
    expect(new Float64Array([0.1 + 0.2])).toBeAllclose([0.3]);
    expect([NaN]).toBeAllclose([NaN]);
    expect([1]).not.toBeAllclose([2]);
    expect(() => expect([1, 5]).toBeAllclose([1, 4])).toThrow(/index 1/);
  });
});

describe('naive reference against NumPy / CPython', () => {
  it('pySliceIndices matches slice.indices', () => {
    // (start, stop, step, n) -> (start, stop, length) as printed by CPython 3.
    const cases: [number | undefined, number | undefined, number, number, number, number, number][] = [
      [undefined, undefined, -1, 5, 4, -1, 5],
      [3, undefined, -2, 5, 3, -1, 2],
      [-1, -6, -1, 5, 4, -1, 5],
      [10, -10, -3, 5, 4, -1, 2],
      [-10, 10, 2, 5, 0, 5, 3],
      [1, 1, 1, 5, 1, 1, 0],
      [4, 0, -1, 0, -1, -1, 0],
      [undefined, undefined, -1, 0, -1, -1, 0],
      [-2, undefined, 1, 5, 3, 5, 2],
      [2, -1, -1, 5, 2, 4, 0],
      [0, 5, 7, 5, 0, 5, 1],
      [-100, 100, -1, 3, -1, 2, 0],
    ];
    for (const [st, sp, step, n, es, ee, len] of cases) {
      const r = N.pySliceIndices(st, sp, step, n);
      expect([r.start, r.stop, r.length], JSON.stringify([st, sp, step, n])).toEqual([es, ee, len]);
    }
  });
  it('slice with negative steps: a[::-1, 2:0:-1, -3:]', () => {
    const r = N.slice(ar(24, [2, 3, 4]), [{ step: -1 }, { start: 2, stop: 0, step: -1 }, { start: -3 }]);
    expect(r.shape).toEqual([2, 2, 3]);
    expect([...r.data]).toEqual([21, 22, 23, 17, 18, 19, 9, 10, 11, 5, 6, 7]);
  });
  it('var with ddof over two axes', () => {
    expectAllclose(N.variance(ar(24, [2, 3, 4]), [0, 2], false, 1).data, [42.57142857142857, 42.57142857142857, 42.57142857142857]);
  });
  it('take with 2-D negative indices', () => {
    const r = N.take(ar(24, [2, 3, 4]), N.make([2, 2], [2, -1, 0, 0]), 2);
    expect(r.shape).toEqual([2, 3, 2, 2]);
    expect([...r.data]).toEqual([2, 3, 0, 0, 6, 7, 4, 4, 10, 11, 8, 8, 14, 15, 12, 12, 18, 19, 16, 16, 22, 23, 20, 20]);
  });
  it('batched matmul of a transposed slice', () => {
    const a = N.slice(ar(24, [2, 3, 4]), [{}, {}, { stop: 2 }]);
    const r = N.matmul(N.transpose(a, [0, 2, 1]), ar(6, [3, 2]));
    expect(r.shape).toEqual([2, 2, 2]);
    expect([...r.data]).toEqual([40, 52, 46, 61, 112, 160, 118, 169]);
    expect(N.matmul(ar(3, [3]), ar(3, [3])).shape).toEqual([]);
    expect(N.matmul(ar(3, [3]), ar(6, [3, 2])).data).toEqual(new Float64Array([10, 13]));
  });
  it('scatterAdd accumulates repeated and negative indices (np.add.at)', () => {
    const r = N.scatterAdd(N.filled([4], 0), N.make([3], [1, 1, -1]), N.make([3], [1, 2, 3]), 0);
    expect([...r.data]).toEqual([0, 3, 0, 3]);
  });
  it('pad, cumsum, argmax with NaN, max propagating NaN', () => {
    expect([...N.pad(N.make([1, 2], [1, 2]), [[1, 0], [0, 2]], 7).data]).toEqual([7, 7, 7, 7, 1, 2, 7, 7]);
    expect([...N.cumsum(ar(24, [2, 3, 4]), 1).data.slice(0, 12)]).toEqual([0, 1, 2, 3, 4, 6, 8, 10, 12, 15, 18, 21]);
    expect([...N.argReduce(N.make([2, 3], [1, NaN, 3, 3, 3, 1]), 'argmax', 1).data]).toEqual([1, 0]);
    expect(N.reduce(N.make([2], [1, NaN]), 'max').data[0]).toBeNaN();
    expect(() => N.reduce(N.filled([3, 0], 0), 'max', 1)).toThrow(N.NaiveShapeError);
    expect(N.reduce(N.filled([0, 3], 0), 'max', 1).shape).toEqual([0]);
  });
  it('roundF16 matches np.float16; roundBF16 rounds to 8 significant bits, ties to even', () => {
    const f16: [number, number][] = [
      [0.1, 0.0999755859375],
      [65519, 65504],
      [65520, Infinity],
      [2 ** -24, 5.960464477539063e-8],
      [2 ** -25, 0],
      [3 * 2 ** -25, 1.1920928955078125e-7],
      [1 / 3, 0.333251953125],
      [-2.7182818, -2.71875],
    ];
    for (const [x, want] of f16) expect(N.roundF16(x), String(x)).toBe(want);
    expect(N.roundBF16(0.1)).toBe(0.10009765625);
    expect(N.roundBF16(1 + 2 ** -8)).toBe(1);
    expect(N.roundBF16(1 + 3 * 2 ** -8)).toBe(1 + 2 ** -6);
    expect(N.roundBF16(3.4e38)).toBe(Infinity);
    expect(N.roundBF16(NaN)).toBeNaN();
  });
  it('broadcasting and concat/stack', () => {
    expect(N.broadcastShapes([2, 1, 3], [4, 1], [])).toEqual([2, 4, 3]);
    expect(() => N.broadcastShapes([2, 3], [3, 2])).toThrow(N.NaiveShapeError);
    expect([...N.binary(N.make([2, 1], [1, 2]), N.make([3], [10, 20, 30]), (x, y) => x + y).data]).toEqual([11, 21, 31, 12, 22, 32]);
    const c = N.concat([ar(2, [1, 2]), N.make([2, 2], [5, 6, 7, 8])], 0);
    expect(c.shape).toEqual([3, 2]);
    expect([...c.data]).toEqual([0, 1, 5, 6, 7, 8]);
    const s = N.stack([ar(2, [2]), N.make([2], [5, 6])], 1);
    expect(s.shape).toEqual([2, 2]);
    expect([...s.data]).toEqual([0, 5, 1, 6]);
  });
});

describe('arbitraries', () => {
  it('draw broadcast-compatible shapes, with empty and unit dims', () => {
    let sawZero = false,
      sawOne = false;
    fc.assert(
      fc.property(broadcastShapesArb(3), shapeArb(), (shapes, s) => {
        N.broadcastShapes(...shapes);
        expect(s.length).toBeLessThanOrEqual(4);
        sawZero ||= s.includes(0);
        sawOne ||= s.includes(1);
      }),
      { numRuns: 200 },
    );
    expect(sawZero && sawOne).toBe(true);
  });
});
