// Bad calls are typed errors, from the TS wrapper and from the addon itself
// (its C++ checks, reached directly), and the process lives on.

import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../../src/backends/native/addon.js';
import type { LinalgKernels } from '../../../src/linalg/kernels/contract.js';
import { DTypeError, ShapeError, ValueError } from '../../../src/tensor/errors.js';
import { K, describeNative } from './helpers.js';

type Arg = number | string | boolean | null | Float32Array | Float64Array | Int32Array;
interface Case {
  kernel: keyof LinalgKernels;
  fn: string;
  args: () => Arg[];
  sizes: number[];
  /** Indices of the Float arrays. */
  arrays: number[];
}

/** b identity matrices m×n, float64. */
function eyes(b: number, m: number, n: number): Float64Array {
  const a = new Float64Array(b * m * n);
  for (let k = 0; k < b; k++) for (let i = 0; i < Math.min(m, n); i++) a[k * m * n + i * n + i] = 1 + i;
  return a;
}
const f = (n: number) => new Float64Array(n).fill(1);

const CASES: Case[] = [
  { kernel: 'cholesky', fn: 'linalgCholesky', args: () => ['float64', 2, 3, eyes(2, 3, 3), f(18), true], sizes: [1, 2], arrays: [3, 4] },
  { kernel: 'triangularSolve', fn: 'linalgTriangularSolve', args: () => ['float64', 2, 3, 2, eyes(2, 3, 3), f(12), f(12), true, 0, false], sizes: [1, 2, 3], arrays: [4, 5, 6] },
  { kernel: 'lu', fn: 'linalgLu', args: () => ['float64', 2, 4, 3, eyes(2, 4, 3), f(24), new Int32Array(6), new Int32Array(8)], sizes: [1, 2, 3], arrays: [4, 5] },
  { kernel: 'solve', fn: 'linalgSolve', args: () => ['float64', 2, 3, 2, eyes(2, 3, 3), f(12), f(12)], sizes: [1, 2, 3], arrays: [4, 5, 6] },
  { kernel: 'det', fn: 'linalgDet', args: () => ['float64', 2, 3, eyes(2, 3, 3), f(2), f(2)], sizes: [1, 2], arrays: [3, 4, 5] },
  { kernel: 'det', fn: 'linalgDet', args: () => ['float64', 2, 3, eyes(2, 3, 3), f(2), null], sizes: [1, 2], arrays: [3, 4] },
  { kernel: 'inv', fn: 'linalgInv', args: () => ['float64', 2, 3, eyes(2, 3, 3), f(18)], sizes: [1, 2], arrays: [3, 4] },
  { kernel: 'qr', fn: 'linalgQr', args: () => ['float64', 2, 4, 3, eyes(2, 4, 3), f(24), f(18), false], sizes: [1, 2, 3], arrays: [4, 5, 6] },
  { kernel: 'eigh', fn: 'linalgEigh', args: () => ['float64', 2, 3, eyes(2, 3, 3), f(6), f(18), true], sizes: [1, 2], arrays: [3, 4, 5] },
  { kernel: 'svd', fn: 'linalgSvd', args: () => ['float64', 2, 4, 3, eyes(2, 4, 3), f(6), f(24), f(18), false], sizes: [1, 2, 3], arrays: [4, 5, 6, 7] },
  { kernel: 'eig', fn: 'linalgEig', args: () => ['float64', 2, 3, eyes(2, 3, 3), f(12), f(36)], sizes: [1, 2], arrays: [3, 4, 5] },
  { kernel: 'lstsq', fn: 'linalgLstsq', args: () => ['float64', 2, 4, 3, 2, eyes(2, 4, 3), f(16), f(12), f(6), new Int32Array(2), -1], sizes: [1, 2, 3, 4], arrays: [5, 6, 7, 8] },
];

const callTs = (c: Case, args: Arg[]) => (K()[c.kernel] as (...a: Arg[]) => Int32Array)(...args);
const callRaw = (c: Case, args: Arg[]) => (nativeAddon()![c.fn] as (...a: Arg[]) => Int32Array)(...args);
const withArg = (args: Arg[], i: number, v: Arg) => args.map((x, j) => (j === i ? v : x));

describeNative('native linalg kernels: bad calls', () => {
  describe.each(CASES)('$kernel', (c) => {
    it('a valid call works (the cases below differ from it in one argument)', () => {
      expect(Array.from(callTs(c, c.args()))).toEqual([0, 0]);
      expect(Array.from(callRaw(c, c.args()))).toEqual([0, 0]);
    });

    it('wrong lengths: ShapeError in TS, RangeError from the addon', () => {
      for (const i of c.arrays) {
        const a = c.args();
        const short = withArg(a, i, new Float64Array((a[i] as Float64Array).length - 1));
        const long = withArg(a, i, new Float64Array((a[i] as Float64Array).length + 1));
        expect(() => callTs(c, short)).toThrow(ShapeError);
        expect(() => callRaw(c, short)).toThrow(RangeError);
        expect(() => callRaw(c, long)).toThrow(RangeError);
        expect(() => callRaw(c, short)).toThrow(new RegExp(`rlx native ${c.fn}: .*must have length`));
      }
    });

    it('wrong dtypes: DTypeError in TS, TypeError from the addon', () => {
      for (const i of c.arrays) {
        const a = c.args();
        const bad = withArg(a, i, new Float32Array((a[i] as Float64Array).length));
        expect(() => callTs(c, bad)).toThrow(DTypeError);
        expect(() => callRaw(c, bad)).toThrow(TypeError);
        expect(() => callRaw(c, withArg(a, i, [1, 2, 3] as unknown as Arg))).toThrow(TypeError);
      }
      expect(() => callTs(c, withArg(c.args(), 0, 'int32'))).toThrow(DTypeError);
      expect(() => callRaw(c, withArg(c.args(), 0, 'int32'))).toThrow(TypeError);
      // The dtype decides the storage: float32 with Float64Arrays is a mismatch.
      expect(() => callRaw(c, withArg(c.args(), 0, 'float32'))).toThrow(TypeError);
      expect(() => callRaw(c, withArg(c.args(), 0, 'complex128'))).toThrow(RangeError);
    });

    it('negative, fractional and huge sizes are rejected', () => {
      for (const i of c.sizes) {
        for (const v of [-1, -(2 ** 31), 1.5, NaN, 2 ** 31, 2 ** 60]) {
          const bad = withArg(c.args(), i, v);
          expect(() => callTs(c, bad), `size ${i} = ${v}`).toThrow(ShapeError);
          expect(() => callRaw(c, bad), `size ${i} = ${v}`).toThrow(v === 1.5 || Number.isNaN(v) ? TypeError : RangeError);
        }
      }
    });

    it('wrong argument count and non-boolean flags are TypeErrors from the addon', () => {
      const a = c.args();
      expect(() => callRaw(c, a.slice(0, -1))).toThrow(TypeError);
      expect(() => callRaw(c, [...a, 1])).toThrow(TypeError);
      expect(() => callRaw(c, [])).toThrow(TypeError);
    });
  });

  it('outputs sharing memory with an input are rejected', () => {
    const a = eyes(1, 3, 3);
    expect(() => K().cholesky('float64', 1, 3, a, a, true)).toThrow(ValueError);
    expect(() => nativeAddon()!.linalgCholesky('float64', 1, 3, a, a, true)).toThrow(RangeError);
    const buf = new Float64Array(20);
    const rhs = buf.subarray(0, 6),
      out = buf.subarray(3, 9);
    expect(() => K().solve('float64', 1, 3, 2, a, rhs, out)).toThrow(ValueError);
    expect(() => nativeAddon()!.linalgSolve('float64', 1, 3, 2, a, rhs, out)).toThrow(/shares memory/);
    // Disjoint views of one buffer are fine.
    expect(Array.from(nativeAddon()!.linalgSolve('float64', 1, 3, 2, a, buf.subarray(0, 6), buf.subarray(6, 12)))).toEqual([0]);
    expect(() => K().inv('float64', 1, 3, a, a)).toThrow(ValueError);
    expect(() => nativeAddon()!.linalgInv('float64', 1, 3, a, a)).toThrow(/shares memory/);
    const d = new Float64Array(2);
    expect(() => K().det('float64', 1, 3, a, d.subarray(0, 1), d.subarray(0, 1))).toThrow(ValueError);
    expect(() => nativeAddon()!.linalgDet('float64', 1, 3, a, d.subarray(0, 1), d.subarray(0, 1))).toThrow(/shares memory/);
    expect(() => nativeAddon()!.linalgDet('float64', 1, 3, a, a.subarray(0, 1), null)).toThrow(/shares memory/);
    const s = new Float64Array(3);
    expect(() => nativeAddon()!.linalgSvd('float64', 1, 3, 3, a, s, s, new Float64Array(9), false)).toThrow(RangeError);
    // Through the TS wrappers too (their quick test of a plain call must not let any of these through).
    expect(() => K().det('float64', 1, 3, a, a.subarray(0, 1), null)).toThrow(ValueError);
    expect(() => K().inv('float64', 1, 3, a, a.subarray(0, 9))).toThrow(ValueError);
    expect(() => K().solve('float64', 1, 3, 2, a, rhs, rhs)).toThrow(ValueError);
    expect(() => K().cholesky('float64', 1, 3, a, buf.subarray(2, 11), true)).not.toThrow(); // disjoint from a (another buffer)
    const big = new Float64Array(30);
    big.set(a);
    expect(() => K().inv('float64', 1, 3, big.subarray(0, 9), big.subarray(5, 14))).toThrow(ValueError);
    expect(Array.from(K().inv('float64', 1, 3, big.subarray(0, 9), big.subarray(9, 18)))).toEqual([0]); // disjoint views of one buffer
    expect(Array.from(K().solve('float64', 1, 3, 2, a, buf.subarray(0, 6), buf.subarray(6, 12)))).toEqual([0]);
  });

  it('svd: u and vh both or neither; triangularSolve: trans in 0..2', () => {
    const a = eyes(1, 3, 3);
    expect(() => K().svd('float64', 1, 3, 3, a, new Float64Array(3), new Float64Array(9), null, false)).toThrow(ValueError);
    expect(() => nativeAddon()!.linalgSvd('float64', 1, 3, 3, a, new Float64Array(3), new Float64Array(9), null, false)).toThrow(TypeError);
    expect(() => K().triangularSolve('float64', 1, 3, 1, a, f(3), f(3), true, 3 as 0, false)).toThrow(ValueError);
    expect(() => nativeAddon()!.linalgTriangularSolve('float64', 1, 3, 1, a, f(3), f(3), true, 3 as 0, false)).toThrow(RangeError);
    expect(() => nativeAddon()!.linalgLstsq('float64', 1, 3, 3, 1, a, f(3), f(3), f(3), new Int32Array(1), NaN)).toThrow(RangeError);
  });

  it('the process lives: a valid call after all the bad ones', () => {
    const out = new Float64Array(9);
    expect(Array.from(K().cholesky('float64', 1, 3, eyes(1, 3, 3), out, true))).toEqual([0]);
    expect(out[8]).toBeCloseTo(Math.sqrt(3), 14);
  });
});
