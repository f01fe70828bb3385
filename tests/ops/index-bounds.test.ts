// gather / scatterAdd indices given as JS data (issue 13): values are checked
// before they are stored as int32. Before the fix Int32Array.from wrapped them
// modulo 2³²: index 2³² took element 0 and 2³² + 1 element 1 (silently wrong),
// 2³¹ was reported as -2147483648, and a Float64Array of indices was not
// checked at all. Every value that is not a valid int32 index (non-integers,
// NaN, ±Infinity, |i| ≥ 2³¹) is now an IndexError naming the op and the value,
// on every device. The kernels' own check (in-int32 indices out of range for
// the axis, when computed) keeps its message.
//
// Expected values are hand-computed (moves of small integers, exact).

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { getBackend } from '../../src/backends/registry.js';
import type { OpaqueKernel } from '../../src/compiler/kernel.js';
import { DEVICES } from '../harness/devices.js';

/** What f threw (fails the test when it threw nothing); tensors are computed. */
function thrown(f: () => unknown): Error {
  let got: unknown;
  try {
    const r = f();
    got = r instanceof rlx.Tensor ? r.tolist() : r;
  } catch (e) {
    return e as Error;
  }
  throw new Error(`expected an error, got ${JSON.stringify(got)}`);
}

// Integers outside int32: each wraps to an in-range index (or to another
// out-of-range one) when stored in an Int32Array unchecked.
const HUGE = [2 ** 32, 2 ** 32 + 1, 2 ** 31, 2 ** 31 + 2, -(2 ** 31) - 1, -(2 ** 32) + 1, 2 ** 53, -(2 ** 53)];
const NOT_INTEGERS = [1.5, -0.5, NaN, Infinity, -Infinity];

describe.each(DEVICES)('gather / scatterAdd index values on %s', (device) => {
  const x = () => rlx.tensor([10, 20, 30]).on(device);
  const m = () => rlx.tensor([[1, 2, 3], [4, 5, 6]]).on(device);

  it('integers outside int32 are an IndexError naming the index, as number[], nested lists and TypedArrays', () => {
    for (const v of HUGE) {
      const cases: [string, () => unknown][] = [
        ['gather number[]', () => x().gather([0, v])],
        ['gather scalar', () => x().gather(v)],
        ['gather nested', () => m().gather([[0], [v]], 1)],
        ['gather Float64Array', () => x().gather(new Float64Array([v, 1]))],
        ['scatterAdd number[]', () => x().scatterAdd([v], [1])],
        ['scatterAdd Float64Array', () => m().scatterAdd(new Float64Array([1, v]), 1, 0)],
      ];
      for (const [what, f] of cases) {
        const e = thrown(f);
        expect(e, `${what} ${v}`).toBeInstanceOf(rlx.IndexError);
        expect(e.message, `${what} ${v}`).toContain(what.startsWith('gather') ? 'gather:' : 'scatterAdd:');
        expect(e.message, `${what} ${v}`).toContain(`index ${v} `);
      }
    }
    // float32 storage holds 2³¹ exactly.
    const f32 = thrown(() => x().gather(new Float32Array([2 ** 31])));
    expect(f32).toBeInstanceOf(rlx.IndexError);
    expect(f32.message).toContain('index 2147483648 ');
  });

  it('non-integer index values (fractional, NaN, ±Infinity) are an IndexError, as number[] and TypedArrays', () => {
    for (const v of NOT_INTEGERS) {
      for (const [what, f] of [
        ['gather', () => x().gather([v])],
        ['gather', () => x().gather(new Float64Array([0, v]))],
        ['gather', () => x().gather(new Float32Array([v]))],
        ['gather', () => m().gather([[0, 1], [v, 0]], 1)],
        ['scatterAdd', () => x().scatterAdd([0, v], [1, 1])],
        ['scatterAdd', () => x().scatterAdd(new Float64Array([v]), [1])],
      ] as const) {
        const e = thrown(f);
        expect(e, `${what} ${v}`).toBeInstanceOf(rlx.IndexError);
        expect(e.message, `${what} ${v}`).toContain(`${what}:`);
        expect(e.message, `${what} ${v}`).toContain(String(v));
      }
    }
  });

  it('boolean or complex index data and non-int32 index tensors are a DTypeError', () => {
    expect(thrown(() => x().gather([true, false]))).toBeInstanceOf(rlx.DTypeError);
    expect(thrown(() => x().gather([{ re: 1, im: 0 }]))).toBeInstanceOf(rlx.DTypeError);
    expect(thrown(() => x().gather(rlx.tensor([0, 1]).on(device)))).toBeInstanceOf(rlx.DTypeError);
    expect(thrown(() => x().scatterAdd(rlx.tensor([0.5]).on(device), [1]))).toBeInstanceOf(rlx.DTypeError);
  });

  it('int32 edge values: -2³¹ and 2³¹ - 1 reach the kernel and are out of range there; valid indices still work', () => {
    const lo = thrown(() => x().gather([-(2 ** 31)]));
    expect(lo).toBeInstanceOf(rlx.IndexError);
    expect(lo.message).toContain('gather: index -2147483648 is out of range for an axis of size 3');
    const hi = thrown(() => x().scatterAdd([2 ** 31 - 1], [1]));
    expect(hi).toBeInstanceOf(rlx.IndexError);
    expect(hi.message).toContain('scatterAdd: index 2147483647 is out of range for an axis of size 3');
    // Integral floats are indices: -0, 2.0, and the same as TypedArrays.
    expect(x().gather([-0, 2, -3, -1]).tolist()).toEqual([10, 30, 10, 30]);
    expect(x().gather(new Float64Array([2, 0])).tolist()).toEqual([30, 10]);
    expect(x().gather(new Float32Array([1])).tolist()).toEqual([20]);
    expect(x().gather(new Int32Array([-1, 0])).tolist()).toEqual([30, 10]);
    expect(m().gather([[2, 0], [-1, 1]], 1).tolist()).toEqual([[[3, 1], [3, 2]], [[6, 4], [6, 5]]]);
    expect(x().scatterAdd(new Float64Array([0, 0, -1]), [1, 2, 3]).tolist()).toEqual([13, 20, 33]);
  });
});

// The kernels themselves take int32 index buffers only: a float buffer would let
// 1.5 or NaN pass the range test and be truncated to a wrong row.
describe.each(DEVICES)('%s gather / scatterAdd kernels refuse a non-Int32Array index buffer', (device) => {
  const kernel = (name: 'gather' | 'scatterAdd'): OpaqueKernel => ({
    kind: 'opaque',
    op: name,
    name,
    inputs: name === 'gather' ? [0, 1] : [0, 1, 3],
    out: 2,
    inShapes: name === 'gather' ? [[3], [1]] : [[3], [1], [1]],
    inDTypes: name === 'gather' ? ['float64', 'int32'] : ['float64', 'int32', 'float64'],
    outShape: name === 'gather' ? [1] : [3],
    outDType: 'float64',
    fused: [name],
    attrs: { axis: 0 },
  });

  it('gather and scatterAdd with Float64Array indices [1.5] throw a DTypeError and write nothing', () => {
    const backend = getBackend(device);
    for (const name of ['gather', 'scatterAdd'] as const) {
      const k = kernel(name);
      const out = new Float64Array(name === 'gather' ? 1 : 3).fill(-7);
      const bufs = [new Float64Array([10, 20, 30]), new Float64Array([1.5]), out, new Float64Array([1])];
      const compiled = backend.compileKernel(k, [k.inShapes[0]!, k.inShapes[1]!, k.outShape, [1]]);
      expect(thrown(() => compiled.run(bufs, new Map())), name).toBeInstanceOf(rlx.DTypeError);
      expect([...out], name).toEqual(name === 'gather' ? [-7] : [-7, -7, -7]);
    }
  });
});
