// Sums over a leading axis of a contiguous [R, K] operand take the interpreter's
// row-at-a-time path (native/src/interp/exec_reduce.cc, sumRows): the same bits as
// the js backend's sequential sums (each output adds r = 0, 1, ... in double), for
// float32 and float64, chunks of outputs past the 256-wide block, one row, one
// column, awkward values (±0, ±∞, NaN, cancellation), and the layouts that must
// not take it (a transposed view, a sum of an expression) still equal js.

import { expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { describeNative } from './native-harness.js';

/** Values with cancellation and a spread of magnitudes (deterministic). */
const vals = (n: number, seed: number) => Float64Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + seed * 78.233) * 10 ** (((i * 7 + seed) % 9) - 4));

const same = (a: rlx.Tensor, b: rlx.Tensor) => {
  const x = Array.from(a.toArray() as Float64Array),
    y = Array.from(b.toArray() as Float64Array);
  expect(x.length).toBe(y.length);
  for (let i = 0; i < x.length; i++) expect(Object.is(x[i], y[i]) || (Number.isNaN(x[i]) && Number.isNaN(y[i])), `element ${i}: ${x[i]} vs ${y[i]}`).toBe(true);
};

describeNative('row-wise leading-axis sums on native', () => {
  it('equal js bit for bit over shapes, dtypes and keepdims', () => {
    for (const dtype of ['float32', 'float64'] as const)
      for (const [R, K] of [[128, 256], [1, 300], [300, 1], [7, 513], [1000, 3], [33, 1024]] as const) {
        const data = vals(R * K, R + K);
        const on = (device: string) => rlx.tensor(data, { dtype, device }).reshape([R, K]);
        same(on('native').sum(0), on('js').sum(0));
        same(on('native').sum(0, true), on('js').sum(0, true));
      }
  });

  it('keeps ±0, ±∞ and NaN as the sequential sum does', () => {
    const col = [-0, -0, 0, Infinity, -Infinity, NaN, 1e308, 1e308, -1e308, 3];
    const K = 4;
    const data = new Float64Array(col.length * K);
    col.forEach((v, r) => {
      data[r * K] = v; // column 0: the awkward values in order
      data[r * K + 1] = r < 2 ? -0 : 0; // -0 + -0 + 0 ... = 0
      data[r * K + 2] = r === 6 || r === 7 ? 1e308 : 0; // overflows to ∞
      data[r * K + 3] = r < 2 ? -0 : -0; // all -0: the sum from +0 stays +0
    });
    for (const dtype of ['float64', 'float32'] as const) {
      const on = (device: string) => rlx.tensor(data, { dtype, device }).reshape([col.length, K]);
      same(on('native').sum(0), on('js').sum(0));
    }
  });

  it('other layouts (a transposed view, a sum of an expression, a middle axis) still equal js', () => {
    const data = vals(64 * 96, 5);
    const on = (device: string) => rlx.tensor(data, { dtype: 'float32', device }).reshape([64, 96]);
    same(on('native').transpose([1, 0]).sum(0), on('js').transpose([1, 0]).sum(0));
    same(on('native').mul(2).add(1).sum(0), on('js').mul(2).add(1).sum(0));
    const on3 = (device: string) => rlx.tensor(data, { dtype: 'float64', device }).reshape([8, 8, 96]);
    same(on3('native').sum(1), on3('js').sum(1));
  });
});
