// Type promotion: rlx.promoteTypes against NumPy 1.24's np.result_type for
// every pair of the dtypes both have (tests/golden/promotion.json, written by
// tests/golden/gen_promotion.py), plus the documented rules where NumPy has no
// answer or rlx deviates; the dtypes that real ops produce for every pair;
// NEP 50 weak JS scalars.
//
// Where rlx is not NumPy (src/tensor/dtype.ts):
//   int8 ⊔ uint8 = int32 (NumPy: int16, which rlx does not have; int32 is the
//   smallest rlx dtype holding both).
//   bfloat16 (no NumPy dtype): bf16 ⊔ f16 = f32, bf16 ⊔ f32 = f32, bf16 ⊔ int32 = f64,
//   bf16 ⊔ int8/uint8 = bf16 (its 8 significant bits hold them; JAX and PyTorch agree),
//   bf16 ⊔ c64 = c64, and otherwise like float16 (bool → bf16, f64 → f64, c128 → c128).

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as rlx from '../../src/index.js';
import type { DType } from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';

interface PromotionGolden {
  numpy: string;
  dtypes: DType[];
  table: Record<string, Record<string, string>>;
}
const GOLDEN = JSON.parse(readFileSync(new URL('../golden/promotion.json', import.meta.url), 'utf8')) as PromotionGolden;

/** rlx's documented answers where NumPy's differs or does not exist (the header above). */
const BF16: Record<DType, DType> = {
  bool: 'bfloat16', int8: 'bfloat16', uint8: 'bfloat16', int32: 'float64', float16: 'float32', bfloat16: 'bfloat16',
  float32: 'float32', float64: 'float64', complex64: 'complex64', complex128: 'complex128',
};
const deviation = (x: DType, y: DType): DType | undefined => {
  if (x === 'bfloat16') return BF16[y];
  if (y === 'bfloat16') return BF16[x];
  if ((x === 'int8' && y === 'uint8') || (x === 'uint8' && y === 'int8')) return 'int32';
  return undefined;
};

const ORDER: DType[] = [...rlx.DTYPES];
const expected = (x: DType, y: DType): DType => deviation(x, y) ?? (GOLDEN.table[x]![y] as DType);

describe('promotion table', () => {
  it('the golden covers every rlx dtype but bfloat16 (NumPy has none), and rlx has no dtype NumPy names that it lacks', () => {
    expect(GOLDEN.numpy.startsWith('1.24')).toBe(true);
    expect([...GOLDEN.dtypes, 'bfloat16'].sort()).toEqual([...ORDER].sort());
    const named = new Set(GOLDEN.dtypes.flatMap((a) => Object.values(GOLDEN.table[a]!)));
    // int16 (int8 ⊔ uint8) is the only NumPy answer that is not an rlx dtype: the documented deviation.
    expect([...named].filter((d) => !ORDER.includes(d as DType))).toEqual(['int16']);
    expect(GOLDEN.table['int8']!['uint8']).toBe('int16');
  });

  for (const x of ORDER) {
    it(`promoteTypes(${x}, ·) matches NumPy 1.24's np.result_type (+ the documented rules)`, () => {
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

  it('the documented rules', () => {
    expect(rlx.promoteTypes('bfloat16', 'float16')).toBe('float32');
    expect(rlx.promoteTypes('bfloat16', 'float32')).toBe('float32');
    expect(rlx.promoteTypes('bfloat16', 'int32')).toBe('float64');
    expect(rlx.promoteTypes('bfloat16', 'int8')).toBe('bfloat16');
    expect(rlx.promoteTypes('uint8', 'bfloat16')).toBe('bfloat16');
    expect(rlx.promoteTypes('bfloat16', 'complex64')).toBe('complex64');
    expect(rlx.promoteTypes('int8', 'uint8')).toBe('int32');
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
    expect(rlx.toDType('i8')).toBe('int8');
    expect(rlx.toDType('u8')).toBe('uint8');
    expect(rlx.toDType('uint8')).toBe('uint8');
    for (const bad of ['float8', 'int64', 'Float32', '', 'uint16', 'int16', 'U8']) expect(() => rlx.toDType(bad), bad).toThrow(rlx.DTypeError);
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
