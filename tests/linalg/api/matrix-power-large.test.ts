// linalg.matrixPower with exponents of 2^31 and above (issue 13): the binary
// powering used 32-bit bit operations, so such exponents gave wrong powers.
// [[1, 1], [0, 1]]^n = [[1, n], [0, 1]] and [[-1]]^n = (-1)^n are exact for
// every safe-integer n; non-integers and unsafe integers throw ValueError.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';

const L = rlx.linalg;
const vals = (t: rlx.Tensor) => Array.from(t.toArray() as ArrayLike<number>);

describe.each(DEVICES)('matrixPower with large exponents on %s', (device) => {
  const shear = rlx.tensor([1, 1, 0, 1], { dtype: 'float64', shape: [2, 2] }).on(device);
  it.each([2 ** 31, 2 ** 31 + 3, 2 ** 32 + 1, 2 ** 40 + 5, 2 ** 52 + 1, Number.MAX_SAFE_INTEGER])('[[1, 1], [0, 1]]^%s = [[1, n], [0, 1]]', (n) => {
    expect(vals(L.matrixPower(shear, n))).toEqual([1, n, 0, 1]);
  });

  it('(-1)^n for odd and even n above 2^32, and negative exponents', () => {
    const m = rlx.tensor([-1], { dtype: 'float64', shape: [1, 1] }).on(device);
    expect(vals(L.matrixPower(m, 2 ** 32 + 1))).toEqual([-1]);
    expect(vals(L.matrixPower(m, 2 ** 33))).toEqual([1]);
    expect(vals(L.matrixPower(m, -(2 ** 31 + 1)))).toEqual([-1]);
    expect(vals(L.matrixPower(shear, -(2 ** 31)))).toEqual([1, -(2 ** 31), 0, 1]);
  });

  it.each([0.5, 2 ** 53, -(2 ** 53), 1e300, NaN, Infinity])('exponent %s throws ValueError', (n) => {
    expect(() => L.matrixPower(shear, n)).toThrow(rlx.ValueError);
    expect(() => L.matrixPower(shear, n)).toThrow(/matrixPower/);
  });
});
