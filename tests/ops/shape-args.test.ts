// Shapes given by the user (issue 13): tensor(data, {shape}), fromStorage,
// zeros/ones/full, broadcastTo, reshape take only non-negative integer dims;
// anything else is a ShapeError naming the op and the shape. Before the fix
// tensor([1, 2], {shape: [-1, -2]}) and {shape: [4, 0.5]} were accepted (their
// products are 2), making a tensor whose shape disagrees with its buffer, and
// broadcastTo took a negative dim as a size.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';

/** What f threw (fails the test when it threw nothing); tensors are computed. */
function thrown(f: () => unknown): Error {
  let got: unknown;
  try {
    const r = f();
    got = r instanceof rlx.Tensor ? { shape: r.symbolicShape, data: [...r.toArray()] } : r;
  } catch (e) {
    return e as Error;
  }
  throw new Error(`expected an error, got ${JSON.stringify(got)}`);
}

// Each has a product equal to a small size (2, 6, 0...) or is otherwise easy to mistake for one.
const BAD_SHAPES: number[][] = [[-1, -2], [4, 0.5], [0.5, 4], [-2], [NaN], [2, NaN], [Infinity], [1.5], [-0.5, -4], [-3, 0]];

describe.each(DEVICES)('user-given shapes on %s', (device) => {
  it('tensor(data, {shape}) and fromStorage refuse negative, fractional and non-finite dims', () => {
    for (const shape of BAD_SHAPES) {
      const label = `[${shape.join(', ')}]`;
      for (const [op, f] of [
        ['tensor', () => rlx.tensor([1, 2], { shape, device })],
        ['tensor', () => rlx.tensor(new Float64Array(2), { shape, device })],
        ['tensor', () => rlx.tensor(new Uint16Array(2), { shape, dtype: 'float16', device })],
        ['tensor', () => rlx.tensor([[1, 2, 3], [4, 5, 6]], { shape, device })],
        ['fromStorage', () => rlx.fromStorage(new Float64Array(2), shape, 'float64', device)],
        ['zeros', () => rlx.zeros(shape, { device })],
        ['ones', () => rlx.ones(shape, { device })],
        ['full', () => rlx.full(shape, 7, { device })],
      ] as const) {
        const e = thrown(f);
        expect(e, `${op} ${label}`).toBeInstanceOf(rlx.ShapeError);
        expect(e.message, `${op} ${label}`).toContain(`${op}:`);
        expect(e.message, `${op} ${label}`).toContain(label);
      }
    }
    expect(thrown(() => rlx.zeros('3' as unknown as number[]))).toBeInstanceOf(rlx.ShapeError);
    // Valid shapes still work.
    expect(rlx.tensor([1, 2, 3, 4, 5, 6], { shape: [2, 3], device }).tolist()).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(rlx.tensor([5], { shape: [], device }).tolist()).toBe(5);
    expect(rlx.tensor([], { shape: [0, 3], device }).shape).toEqual([0, 3]);
    expect(rlx.zeros([0, 2], { device }).shape).toEqual([0, 2]);
    expect(rlx.full([2], 7, { device }).tolist()).toEqual([7, 7]);
  });

  it('full refuses a fill value that is not a number or boolean (it became NaN)', () => {
    const e = thrown(() => rlx.full([2], 'a' as unknown as number, { device }));
    expect(e).toBeInstanceOf(rlx.DTypeError);
    expect(e.message).toContain('full:');
  });

  it('broadcastTo and reshape refuse negative (other than reshape\'s one -1), fractional and NaN dims', () => {
    const x = rlx.tensor([1, 2]).on(device);
    for (const shape of [[-2, 2], [2, -1], [1.5, 2], [NaN, 2], [Infinity, 2]]) {
      const e = thrown(() => x.broadcastTo(shape));
      expect(e, `broadcastTo [${shape}]`).toBeInstanceOf(rlx.ShapeError);
      expect(e.message).toContain('broadcastTo:');
    }
    expect(x.broadcastTo([3, 2]).tolist()).toEqual([[1, 2], [1, 2], [1, 2]]);
    for (const shape of [[-2, -1], [4, 0.5], [NaN], [-1, -1], [Infinity]]) {
      expect(thrown(() => x.reshape(shape)), `reshape [${shape}]`).toBeInstanceOf(rlx.ShapeError);
    }
    expect(x.reshape([-1, 1]).shape).toEqual([2, 1]);
  });

  it('arange refuses non-finite start or stop (a plain RangeError, or a NaN-sized tensor, before)', () => {
    for (const [a, b] of [[0, Infinity], [NaN, 3], [0, NaN], [-Infinity, 0]] as const) {
      expect(thrown(() => rlx.arange(a, b)), `arange(${a}, ${b})`).toBeInstanceOf(rlx.ValueError);
    }
    expect(thrown(() => rlx.arange(NaN))).toBeInstanceOf(rlx.ValueError);
    expect(rlx.arange(3).tolist()).toEqual([0, 1, 2]);
  });

  it('arange takes its options in place of stop or step (arange(5, {dtype}) was a ValueError about stop)', () => {
    const a = rlx.arange(3, { dtype: 'int32' });
    expect([a.dtype, a.tolist()]).toEqual(['int32', [0, 1, 2]]);
    const b = rlx.arange(1, 4, { dtype: 'float32' });
    expect([b.dtype, b.tolist()]).toEqual(['float32', [1, 2, 3]]);
    const c = rlx.arange(1, 6, 2, { dtype: 'int32' });
    expect([c.dtype, c.tolist()]).toEqual(['int32', [1, 3, 5]]);
    expect(rlx.arange(0, 1, 0.25).tolist()).toEqual([0, 0.25, 0.5, 0.75]);
    expect(thrown(() => rlx.arange(1, 2, 3, 4 as never))).toBeInstanceOf(rlx.ValueError);
    expect(thrown(() => rlx.arange('3' as never))).toBeInstanceOf(rlx.ValueError);
  });

  it('eye refuses bad sizes and a non-integer diagonal offset (k = 0.5 gave all zeros)', () => {
    for (const [n, m] of [[-1, 2], [2.5, 2], [NaN, 1], [2, -3]]) expect(thrown(() => rlx.eye(n!, m)), `eye(${n}, ${m})`).toBeInstanceOf(rlx.ShapeError);
    for (const k of [0.5, NaN, Infinity]) expect(thrown(() => rlx.eye(2, 2, { k })), `eye k=${k}`).toBeInstanceOf(rlx.ValueError);
    expect(rlx.eye(2, 3, { k: 1 }).tolist()).toEqual([[0, 1, 0], [0, 0, 1]]);
  });
});
