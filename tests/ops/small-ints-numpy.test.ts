// int8 and uint8 against NumPy 1.24 on every backend: casts (astype), wrap-around
// arithmetic, comparisons, unary ops, mixed-dtype promotion, reductions, matmul,
// NEP 50 weak scalars and printing. The expected values come from
// tests/golden/small_ints.json, written by tests/golden/gen_small_ints.py.
//
// Where rlx's dtype differs from NumPy's, by design (src/tensor/dtype.ts):
//   int16 (int8 ⊔ uint8)                      → int32 (rlx has no int16)
//   int64 / uint64 (sum, prod, cumsum, argmax) → int32 (rlx has no 64-bit ints)
// The values are the same (the goldens' sums and products fit int32).
// NEP 50's OverflowError for an out-of-range scalar is rlx's DTypeError.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as rlx from '../../src/index.js';
import type { DType } from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';

type Num = number | 'nan' | 'inf' | '-inf';
interface Cast { from: DType; to: DType; values: Num[]; want: Num[] }
interface Arith { op: string; dtypes: DType[]; a: Num[]; b?: Num[]; dtype: string; want: Num[] }
interface Red { op: string; dtype_in: DType; shape: number[]; x: Num[]; axis: number | null; dtype: string; shape_out: number[]; want: Num[] }
interface Mm { dtype_in: DType; a: Num[]; a_shape: number[]; b: Num[]; b_shape: number[]; dtype: string; want: Num[] }
interface Weak { op: string; dtype_in: DType; x: Num[]; scalar: number | boolean; dtype?: string; want?: Num[]; error?: string }
interface Fmt { dtype: DType; shape: number[]; values: Num[]; str: string; repr: string }
interface Golden { numpy: string; casts: Cast[]; arithmetic: Arith[]; reductions: Red[]; matmul: Mm[]; weak: Weak[]; format: Fmt[] }

const G = JSON.parse(readFileSync(new URL('../golden/small_ints.json', import.meta.url), 'utf8')) as Golden;

const num = (v: Num): number => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);
const nums = (vs: Num[]): number[] => vs.map(num);
/** NumPy's result dtype as rlx names it (the deviations in the header). */
const rlxDType = (d: string): DType => (d === 'int16' || d === 'int64' || d === 'uint64' ? 'int32' : (d as DType));

/** Exact equality (NaN equals NaN, -0 equals 0 as NumPy's == does), or within `ulps` float16 ulps. */
function compare(got: ArrayLike<number>, want: number[], what: string, f16ulps = 0): void {
  expect(got.length, `${what}: length`).toBe(want.length);
  const bad: string[] = [];
  for (let i = 0; i < want.length; i++) {
    const g = got[i]!,
      w = want[i]!;
    if (Number.isNaN(w) ? Number.isNaN(g) : g === w) continue;
    // One float16 ulp at w: 2^(floor(log2|w|) - 10), at least the subnormal step.
    const ulp = Math.max(2 ** -24, 2 ** (Math.floor(Math.log2(Math.abs(w))) - 10));
    if (f16ulps > 0 && Number.isFinite(w) && Math.abs(g - w) <= f16ulps * ulp) continue;
    bad.push(`[${i}] got ${g}, want ${w}`);
  }
  expect(bad.slice(0, 8), `${what}: ${bad.length} of ${want.length} differ`).toEqual([]);
}

const BINARY: Record<string, (a: rlx.Tensor, b: rlx.Tensor) => rlx.Tensor> = {
  add: (a, b) => a.add(b),
  subtract: (a, b) => a.sub(b),
  multiply: (a, b) => a.mul(b),
  maximum: (a, b) => a.maximum(b),
  minimum: (a, b) => a.minimum(b),
  equal: (a, b) => a.eq(b),
  not_equal: (a, b) => a.ne(b),
  less: (a, b) => a.lt(b),
  less_equal: (a, b) => a.le(b),
  greater: (a, b) => a.gt(b),
  greater_equal: (a, b) => a.ge(b),
  power: (a, b) => a.pow(b),
};
const UNARY: Record<string, (a: rlx.Tensor) => rlx.Tensor> = {
  negative: (a) => a.neg(),
  absolute: (a) => a.abs(),
  sign: (a) => a.sign(),
  sqrt: (a) => a.sqrt(),
  exp: (a) => a.exp(),
  sin: (a) => a.sin(),
};
const WEAK: Record<string, (a: rlx.Tensor, s: number | boolean) => rlx.Tensor> = {
  add: (a, s) => a.add(s),
  subtract: (a, s) => a.sub(s),
  multiply: (a, s) => a.mul(s),
  maximum: (a, s) => a.maximum(s),
};

describe('the goldens', () => {
  it('come from NumPy 1.24 and cover every section', () => {
    expect(G.numpy.startsWith('1.24')).toBe(true);
    expect([G.casts.length, G.arithmetic.length, G.reductions.length, G.matmul.length, G.weak.length, G.format.length]).toEqual([22, 60, 20, 2, 24, 8]);
  });
});

describe.each(DEVICES)('int8/uint8 against NumPy on %s', (device) => {
  const t = (values: Num[], dtype: DType, shape?: number[]) => rlx.tensor(nums(values), { dtype, ...(shape ? { shape } : {}) }).on(device);

  it('casts: astype from float64/float32/float16/int32 to int8/uint8, and from int8/uint8 to every dtype', () => {
    for (const c of G.casts) {
      // The source tensor holds exactly the golden's source values (float32/float16 inputs are exact there).
      const src = t(c.values, c.from);
      compare(src.toArray(), nums(c.values), `${c.from} source`);
      const r = src.cast(c.to);
      expect(r.dtype).toBe(c.to);
      compare(r.toArray(), nums(c.want), `cast ${c.from} -> ${c.to}`);
    }
  });

  it('inside a fused kernel, values wrap at every op (not only when stored)', () => {
    // The int8/uint8 value is consumed by a cast to float64 in the same kernel:
    // a missing wrap would show as 128 or -1 here, where a store would hide it.
    for (const c of G.casts.filter((x) => x.from === 'float64')) {
      const fused = t(c.values, 'float64').mul(1).cast(c.to).cast('float64');
      compare(fused.toArray(), nums(c.want), `fused cast float64 -> ${c.to} -> float64`);
    }
    for (const c of G.arithmetic.filter((x) => ['add', 'subtract', 'multiply', 'power'].includes(x.op) && x.dtypes[0] === x.dtypes[1])) {
      const fused = BINARY[c.op]!(t(c.a, c.dtypes[0]!), t(c.b!, c.dtypes[1]!)).cast('float64');
      compare(fused.toArray(), nums(c.want), `fused ${c.op}(${c.dtypes.join(', ')}) -> float64`);
      // A comparison consuming the wrapped sum in the same kernel (127 + 1 > 0 is false in int8).
      const sign = BINARY[c.op]!(t(c.a, c.dtypes[0]!), t(c.b!, c.dtypes[1]!)).gt(0);
      compare(sign.toArray(), nums(c.want).map((v) => (v > 0 ? 1 : 0)), `fused ${c.op}(${c.dtypes.join(', ')}) > 0`);
    }
  });

  it('binary ops wrap like NumPy; comparisons; int8 ⊔ uint8 is int32 with NumPy int16 values', () => {
    for (const c of G.arithmetic.filter((x) => x.b !== undefined)) {
      const r = BINARY[c.op]!(t(c.a, c.dtypes[0]!), t(c.b!, c.dtypes[1]!));
      const what = `${c.op}(${c.dtypes.join(', ')})`;
      expect(r.dtype, what).toBe(rlxDType(c.dtype));
      compare(r.toArray(), nums(c.want), what);
    }
  });

  it('unary ops: neg/abs wrap (abs(-128) is -128 in int8), sqrt/exp/sin give float16 like NumPy', () => {
    for (const c of G.arithmetic.filter((x) => x.b === undefined)) {
      const r = UNARY[c.op]!(t(c.a, c.dtypes[0]!));
      const what = `${c.op}(${c.dtypes[0]})`;
      expect(r.dtype, what).toBe(rlxDType(c.dtype));
      // float16 results: rlx and NumPy both compute in float32 and round; allow one float16 ulp for libm.
      compare(r.toArray(), nums(c.want), what, c.dtype === 'float16' ? 1 : 0);
    }
  });

  it('reductions: sum/prod/cumsum accumulate in int32 (NumPy int64/uint64), max/min keep the dtype, argmax is int32, mean float64', () => {
    for (const c of G.reductions) {
      const x = t(c.x, c.dtype_in, c.shape);
      const ax = c.axis ?? undefined;
      const r =
        c.op === 'sum' ? x.sum(ax) : c.op === 'prod' ? x.prod(ax) : c.op === 'max' ? x.max(ax) : c.op === 'min' ? x.min(ax)
        : c.op === 'argmax' ? x.argmax(ax) : c.op === 'argmin' ? x.argmin(ax) : c.op === 'cumsum' ? x.cumsum(ax) : x.mean(ax);
      const what = `${c.op}(${c.dtype_in}, axis ${c.axis})`;
      expect(r.dtype, what).toBe(rlxDType(c.dtype));
      expect(r.shape, what).toEqual(c.shape_out);
      compare(r.toArray(), nums(c.want), what);
    }
  });

  it('matmul of int8/uint8 keeps the dtype and wraps like NumPy', () => {
    for (const c of G.matmul) {
      const r = t(c.a, c.dtype_in, c.a_shape).matmul(t(c.b, c.dtype_in, c.b_shape));
      expect(r.dtype).toBe(rlxDType(c.dtype));
      compare(r.toArray(), nums(c.want), `matmul ${c.dtype_in}`);
    }
  });

  it('weak JS scalars (NEP 50): in-range integers keep int8/uint8, floats give float64, out-of-range integers throw', () => {
    for (const c of G.weak) {
      const x = t(c.x, c.dtype_in);
      const what = `${c.op}(${c.dtype_in}, ${String(c.scalar)})`;
      if (c.error) {
        expect(() => WEAK[c.op]!(x, c.scalar), what).toThrow(rlx.DTypeError);
        expect(() => WEAK[c.op]!(x, c.scalar), what).toThrow(new RegExp(`scalar ${String(c.scalar)} is out of range for ${c.dtype_in}`));
        continue;
      }
      const r = WEAK[c.op]!(x, c.scalar);
      expect(r.dtype, what).toBe(rlxDType(c.dtype!));
      compare(r.toArray(), nums(c.want!), what);
    }
  });

  it("printing: str and repr are NumPy's, character for character", () => {
    for (const c of G.format) {
      const x = t(c.values, c.dtype, c.shape);
      expect(x.toString(), `str ${c.dtype} ${JSON.stringify(c.shape)}`).toBe(c.str);
      expect(x.repr(), `repr ${c.dtype} ${JSON.stringify(c.shape)}`).toBe(c.repr);
    }
  });
});
