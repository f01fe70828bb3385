// Type promotion: rlx.promoteTypes against a table written out by hand from
// NumPy 1.24's np.promote_types, extended with the documented bfloat16 rules;
// the dtypes that real ops produce for every pair; NEP 50 weak JS scalars.
//
// Table source (run with /usr/bin/python3, NumPy 1.24.2):
//   ds = ['bool','int32','float16','float32','float64','complex64','complex128']
//   for a in ds: print(a, [str(np.promote_types(a, b)) for b in ds])
// bfloat16 (no NumPy dtype): bf16 ⊔ f16 = f32, bf16 ⊔ f32 = f32, bf16 ⊔ int32 = f64,
// bf16 ⊔ c64 = c64, and otherwise like float16 (bool → bf16, f64 → f64, c128 → c128).

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { DType } from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';

const b = 'bool', i = 'int32', h = 'float16', bf = 'bfloat16', f = 'float32', d = 'float64', c = 'complex64', z = 'complex128';

// Rows and columns in this order: bool, int32, float16, bfloat16, float32, float64, complex64, complex128.
const ORDER: DType[] = [b, i, h, bf, f, d, c, z];
const TABLE: Record<DType, DType[]> = {
  //           bool int32 f16 bf16 f32 f64 c64 c128
  bool:       [b,   i,    h,  bf,  f,  d,  c,  z],
  int32:      [i,   i,    d,  d,   d,  d,  z,  z],
  float16:    [h,   d,    h,  f,   f,  d,  c,  z],
  bfloat16:   [bf,  d,    f,  bf,  f,  d,  c,  z],
  float32:    [f,   d,    f,  f,   f,  d,  c,  z],
  float64:    [d,   d,    d,  d,   d,  d,  z,  z],
  complex64:  [c,   z,    c,  c,   c,  z,  c,  z],
  complex128: [z,   z,    z,  z,   z,  z,  z,  z],
};
const expected = (x: DType, y: DType): DType => TABLE[x][ORDER.indexOf(y)]!;

describe('promotion table', () => {
  it('covers exactly the rlx dtypes', () => {
    expect([...rlx.DTYPES].sort()).toEqual([...ORDER].sort());
  });

  for (const x of ORDER) {
    it(`promoteTypes(${x}, ·) matches NumPy 1.24 (+ bfloat16 rules)`, () => {
      for (const y of ORDER) expect(rlx.promoteTypes(x, y), `${x} ⊔ ${y}`).toBe(expected(x, y));
    });
  }

  it('promotionTable() agrees with promoteTypes and the table is symmetric', () => {
    const t = rlx.promotionTable();
    for (const x of ORDER) for (const y of ORDER) {
      expect(t[x][y]).toBe(expected(x, y));
      expect(expected(x, y)).toBe(expected(y, x));
    }
  });

  it('the documented bfloat16 rules', () => {
    expect(rlx.promoteTypes('bfloat16', 'float16')).toBe('float32');
    expect(rlx.promoteTypes('bfloat16', 'float32')).toBe('float32');
    expect(rlx.promoteTypes('bfloat16', 'int32')).toBe('float64');
    expect(rlx.promoteTypes('bfloat16', 'complex64')).toBe('complex64');
  });

  it('data without elements is float64, like np.array([]) (bool only when booleans are given)', () => {
    expect(rlx.tensor([]).dtype).toBe('float64');
    expect(rlx.tensor([[], []]).dtype).toBe('float64');
    expect(rlx.tensor([[], []]).shape).toEqual([2, 0]);
    expect(rlx.tensor([true]).dtype).toBe('bool');
  });
  it('toDType accepts names and aliases and rejects unknown names with DTypeError', () => {
    expect(rlx.toDType('f32')).toBe('float32');
    expect(rlx.toDType('bf16')).toBe('bfloat16');
    expect(rlx.toDType('complex')).toBe('complex128');
    for (const bad of ['float8', 'int64', 'Float32', '', 'uint8']) expect(() => rlx.toDType(bad), bad).toThrow(rlx.DTypeError);
  });
});

describe.each(DEVICES)('ops produce the promoted dtypes on %s', (device) => {
  const one = (dt: DType) => rlx.ones([2], { dtype: dt }).on(device);
  // True for bool (full(·, 2, {dtype: 'bool'}) itself is tested in casts.test.ts).
  const two = (dt: DType) => rlx.full([2], dt === 'bool' ? 1 : 2, { dtype: dt }).on(device);

  it('add / mul / maximum of every dtype pair: dtype from the table, values computed in it', () => {
    const bad: string[] = [];
    const check = (what: string, got: unknown, want: unknown) => {
      if (JSON.stringify(got) !== JSON.stringify(want)) bad.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    };
    for (const x of ORDER) {
      for (const y of ORDER) {
        const want = expected(x, y);
        const vy = y === 'bool' ? 1 : 2; // two('bool') is True
        const s = one(x).add(two(y));
        check(`${x} + ${y} dtype`, s.dtype, want);
        const sum = want === 'bool' ? 1 : 1 + vy;
        check(`${x} + ${y} values`, [...s.toArray()], want.startsWith('complex') ? [sum, 0, sum, 0] : [sum, sum]);
        check(`${x} * ${y} dtype`, one(x).mul(two(y)).dtype, want);
        if (!want.startsWith('complex')) {
          check(`maximum(${x}, ${y}) dtype`, one(x).maximum(two(y)).dtype, want);
          check(`maximum(${x}, ${y}) values`, [...one(x).maximum(two(y)).toArray()], [vy, vy]);
        }
      }
    }
    expect(bad, `${bad.length} of ${ORDER.length ** 2} pairs wrong`).toEqual([]);
  });

  it('comparisons give bool for every real pair; where promotes its branches', () => {
    const cond = rlx.tensor([true, false]).on(device);
    const bad: string[] = [];
    for (const x of ORDER) {
      for (const y of ORDER) {
        if (!x.startsWith('complex') && !y.startsWith('complex')) {
          const r = one(x).lt(two(y));
          if (r.dtype !== 'bool') bad.push(`${x} < ${y} dtype ${r.dtype}`);
          const v = [...r.toArray()];
          const want = y === 'bool' ? [0, 0] : [1, 1];
          if (JSON.stringify(v) !== JSON.stringify(want)) bad.push(`${x} < ${y}: got ${JSON.stringify(v)}, want ${JSON.stringify(want)}`);
        }
        if (one(x).eq(two(y)).dtype !== 'bool') bad.push(`${x} == ${y} not bool`);
        const w = rlx.where(cond, one(x), two(y));
        if (w.dtype !== expected(x, y)) bad.push(`where(${x}, ${y}) dtype ${w.dtype}`);
      }
    }
    expect(bad, `${bad.length} wrong`).toEqual([]);
  });

  it('division is inexact: int32 / int32 → float64, and bool / bool → float64 like NumPy (np.true_divide)', () => {
    expect(one('int32').div(two('int32')).dtype).toBe('float64');
    expect([...one('int32').div(two('int32')).toArray()]).toEqual([0.5, 0.5]);
    expect(one('float32').div(two('float32')).dtype).toBe('float32');
    expect(one('float16').div(two('int32')).dtype).toBe('float64');
    expect(one('bool').div(2).dtype).toBe('float64');
    // NumPy 1.24: (np.array([True]) / np.array([True])).dtype == float64
    expect(one('bool').div(one('bool')).dtype).toBe('float64');
  });
});

describe.each(DEVICES)('weak JS scalars (NEP 50) on %s', (device) => {
  const t = (dt: DType, v: number[] = [1, 2]) => rlx.tensor(v, { dtype: dt }).on(device);

  it('a float scalar keeps a float tensor dtype; an int scalar keeps an int/float dtype', () => {
    const r = t('float32').add(2.5);
    expect(r.dtype).toBe('float32');
    expect([...r.toArray()]).toEqual([3.5, 4.5]);
    expect(t('float32').mul(0.1).toArray()).toEqual(new Float32Array([Math.fround(Math.fround(0.1) * 1), Math.fround(Math.fround(0.1) * 2)]));
    expect(t('float16').add(2.5).dtype).toBe('float16');
    expect(t('bfloat16').add(1).dtype).toBe('bfloat16');
    expect(t('float64').add(1).dtype).toBe('float64');
    expect(t('complex64').add(2.5).dtype).toBe('complex64');
    expect(t('complex128').mul(3).dtype).toBe('complex128');
  });

  it('int32 + 2 → int32, int32 + 2.5 → float64, int32 + true → int32', () => {
    const a = t('int32', [1, -4]);
    expect(a.add(2).dtype).toBe('int32');
    expect([...a.add(2).toArray()]).toEqual([3, -2]);
    const r = a.add(2.5);
    expect(r.dtype).toBe('float64');
    expect([...r.toArray()]).toEqual([3.5, -1.5]);
    expect(a.add(true).dtype).toBe('int32');
    expect(a.mul(-3).dtype).toBe('int32');
  });

  it('bool tensors: + true → bool, + 1 → int32, + 1.5 → float64', () => {
    const a = rlx.tensor([true, false]).on(device);
    expect(a.logicalOr(true).dtype).toBe('bool');
    expect(a.add(true).dtype).toBe('bool');
    expect(a.add(1).dtype).toBe('int32');
    expect([...a.add(1).toArray()]).toEqual([2, 1]);
    expect(a.add(1.5).dtype).toBe('float64');
    expect(a.add(1.5).toArray()).toEqual(new Float64Array([2.5, 1.5]));
  });

  it('float32 + a complex value built with rlx.complex stays single precision (complex64)', () => {
    const x = t('float32', [1.5, -2]);
    const j = rlx.complex(rlx.zerosLike(x), 1); // 1j with the float32 tensor's precision (weak 1)
    expect(j.dtype).toBe('complex64');
    const r = x.add(j);
    expect(r.dtype).toBe('complex64');
    expect([...r.toArray()]).toEqual([1.5, 1, -2, 1]);
    expect(rlx.complex(x, 0.5).dtype).toBe('complex64');
    expect(rlx.complex(t('float64'), 0.5).dtype).toBe('complex128');
    expect(rlx.complex(t('int32'), 1).dtype).toBe('complex128');
    expect([...rlx.complex(x, 0.5).toArray()]).toEqual([1.5, 0.5, -2, 0.5]);
  });

  it('scalars never change the shape and broadcast against 0-d tensors', () => {
    const s0 = rlx.tensor(3, { dtype: 'float32' }).on(device);
    expect(s0.add(1).shape).toEqual([]);
    expect(s0.add(1).item()).toBe(4);
    expect(s0.add(1).dtype).toBe('float32');
  });
});
