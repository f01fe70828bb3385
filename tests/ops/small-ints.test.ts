// int8 and uint8 beyond the NumPy goldens (small-ints-numpy.test.ts): how they
// are made and read back (storage, toArray, tolist, item, aliases, TypedArray
// inference, creation functions), the data-movement ops on every backend
// (gather, scatterAdd, concat, pad, flip, views), bool and uint8 side by side
// (they share Uint8Array storage), jit/vmap, and autodiff, which treats them
// exactly as it treats int32. Expected values are written out by hand from
// two's-complement arithmetic (x mod 256).

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';

/** x wrapped into int8 / uint8 by hand: ((x mod 256) + 256) mod 256, shifted for int8. */
const u8 = (x: number) => ((x % 256) + 256) % 256;
const i8 = (x: number) => (u8(x) >= 128 ? u8(x) - 256 : u8(x));

describe('int8/uint8: names, storage and reading back', () => {
  it('DTYPES lists them after bool, in promotion order; aliases i8 and u8', () => {
    expect([...rlx.DTYPES]).toEqual(['bool', 'int8', 'uint8', 'int32', 'float16', 'bfloat16', 'float32', 'float64', 'complex64', 'complex128']);
    expect(rlx.tensor([1], { dtype: 'i8' }).dtype).toBe('int8');
    expect(rlx.tensor([1], { dtype: 'u8' }).dtype).toBe('uint8');
    expect(rlx.tensor([1], { dtype: 'int8' }).itemsize).toBe(1);
    expect(rlx.tensor([1], { dtype: 'uint8' }).itemsize).toBe(1);
  });

  it('toArray gives an Int8Array / Uint8Array; tolist and item give numbers (uint8 is not bool)', () => {
    const a = rlx.tensor([[-128, 127], [0, -1]], { dtype: 'int8' });
    const arr = a.toArray();
    expect(arr).toBeInstanceOf(Int8Array);
    expect([...arr]).toEqual([-128, 127, 0, -1]);
    expect(a.tolist()).toEqual([[-128, 127], [0, -1]]);
    const u = rlx.tensor([0, 1, 255], { dtype: 'uint8' });
    expect(u.toArray()).toBeInstanceOf(Uint8Array);
    expect(u.tolist()).toEqual([0, 1, 255]);
    expect(rlx.tensor(1, { dtype: 'uint8' }).item()).toBe(1);
    expect(typeof rlx.tensor(1, { dtype: 'uint8' }).item()).toBe('number');
    expect(rlx.tensor(-7, { dtype: 'int8' }).item()).toBe(-7);
    expect(rlx.tensor(true).item()).toBe(true); // bool, same storage class, still a boolean
  });

  it('a TypedArray keeps its dtype: Int8Array → int8, Uint8Array/Uint8ClampedArray → uint8, Int16Array/Uint16Array → int32', () => {
    expect(rlx.tensor(new Int8Array([-3, 4])).dtype).toBe('int8');
    expect(rlx.tensor(new Uint8Array([3, 250])).dtype).toBe('uint8');
    expect([...rlx.tensor(new Uint8Array([3, 250])).toArray()]).toEqual([3, 250]);
    expect(rlx.tensor(new Uint8ClampedArray([3, 250])).dtype).toBe('uint8');
    expect(rlx.tensor(new Int16Array([-300])).dtype).toBe('int32');
    expect(rlx.tensor(new Uint16Array([60000])).tolist()).toEqual([60000]);
    // The data is copied: writing to the source afterwards changes nothing.
    const src = new Int8Array([1, 2]);
    const t = rlx.tensor(src);
    src[0] = 9;
    expect(t.tolist()).toEqual([1, 2]);
  });

  it('tensor(numbers, {dtype}) converts like astype: truncation toward zero, then modulo 256', () => {
    const v = [1.9, -1.9, 127, 128, 255, 256, -129, 300.7];
    expect(rlx.tensor(v, { dtype: 'int8' }).tolist()).toEqual([1, -1, 127, -128, -1, 0, 127, 44]);
    expect(rlx.tensor(v, { dtype: 'uint8' }).tolist()).toEqual([1, 255, 127, 128, 255, 0, 127, 44]);
    expect(rlx.tensor([true, false], { dtype: 'uint8' }).tolist()).toEqual([1, 0]);
    expect(rlx.tensor(new Int8Array([-1, -128]), { dtype: 'uint8' }).tolist()).toEqual([255, 128]);
  });

  it('zeros / ones / full / arange / eye / zerosLike with int8 and uint8', () => {
    expect(rlx.zeros([2, 2], { dtype: 'int8' }).tolist()).toEqual([[0, 0], [0, 0]]);
    expect(rlx.ones([3], { dtype: 'u8' }).toArray()).toEqual(new Uint8Array([1, 1, 1]));
    expect(rlx.full([2], -5, { dtype: 'int8' }).toArray()).toEqual(new Int8Array([-5, -5]));
    expect(rlx.full([2], 300, { dtype: 'uint8' }).tolist()).toEqual([44, 44]); // a cast of the fill value, as np.full
    expect(rlx.arange(250, 260, { dtype: 'uint8' }).tolist()).toEqual([250, 251, 252, 253, 254, 255, 0, 1, 2, 3]);
    expect(rlx.arange(-2, 2, { dtype: 'int8' }).tolist()).toEqual([-2, -1, 0, 1]);
    expect(rlx.eye(2, 2, { dtype: 'int8' }).tolist()).toEqual([[1, 0], [0, 1]]);
    const z = rlx.zerosLike(rlx.tensor([1, 2], { dtype: 'uint8' }));
    expect([z.dtype, z.tolist()]).toEqual(['uint8', [0, 0]]);
  });
});

describe.each(DEVICES)('int8/uint8 data movement and mixed graphs on %s', (device) => {
  const I8 = (v: number[], shape?: number[]) => rlx.tensor(v, { dtype: 'int8', ...(shape ? { shape } : {}) }).on(device);
  const U8 = (v: number[], shape?: number[]) => rlx.tensor(v, { dtype: 'uint8', ...(shape ? { shape } : {}) }).on(device);

  it('gather, concat, pad, flip, transpose and slices move the bytes unchanged', () => {
    const a = I8([-128, -1, 0, 1, 127, 5], [2, 3]);
    expect(a.gather(rlx.tensor([2, 0, 2], { dtype: 'int32' }), 1).tolist()).toEqual([[0, -128, 0], [5, 1, 5]]);
    expect(rlx.cat([a, I8([9, -9, 3], [1, 3])], 0).tolist()).toEqual([[-128, -1, 0], [1, 127, 5], [9, -9, 3]]);
    expect(a.pad([[0, 0], [1, 1]], -7).tolist()).toEqual([[-7, -128, -1, 0, -7], [-7, 1, 127, 5, -7]]);
    expect(a.flip(1).tolist()).toEqual([[0, -1, -128], [5, 127, 1]]);
    expect(a.transpose().tolist()).toEqual([[-128, 1], [-1, 127], [0, 5]]);
    const u = U8([255, 0, 128, 7], [2, 2]);
    expect(u.gather(rlx.tensor([1], { dtype: 'int32' }), 0).tolist()).toEqual([[128, 7]]);
    expect(rlx.cat([u, u], 1).tolist()).toEqual([[255, 0, 255, 0], [128, 7, 128, 7]]);
    expect(u.pad(1, 200).tolist()).toEqual([[200, 200, 200, 200], [200, 255, 0, 200], [200, 128, 7, 200], [200, 200, 200, 200]]);
    expect(rlx.stack([u.T, u]).shape).toEqual([2, 2, 2]);
  });

  it('int8/uint8 indices (tensors or TypedArrays) are widened to int32 for gather and scatterAdd', () => {
    const x = rlx.tensor([10, 20, 30, 40]).on(device);
    expect(x.gather(U8([3, 0])).tolist()).toEqual([40, 10]);
    expect(x.gather(I8([-1, 1])).tolist()).toEqual([40, 20]);
    expect(x.gather(new Uint8Array([2, 2])).tolist()).toEqual([30, 30]);
    expect(x.gather(new Int8Array([-4])).tolist()).toEqual([10]);
    expect(x.scatterAdd(new Uint8Array([1, 1]), rlx.tensor([1, 2]).on(device)).tolist()).toEqual([10, 23, 30, 40]);
    expect(() => x.gather(U8([4])).toArray()).toThrow(rlx.IndexError);
  });

  it('linalg takes int8/uint8 matrices as float64, like int32 (NumPy)', () => {
    const d = rlx.linalg.det(I8([2, 1, 1, 3], [2, 2]));
    expect(d.dtype).toBe('float64');
    expect(d.item()).toBeCloseTo(5, 12);
  });

  it('scatterAdd wraps like np.add.at on int8 (127 + 1 → -128) and uint8 (255 + 2 → 1)', () => {
    const x = I8([127, 0, -128]);
    const r = x.scatterAdd(rlx.tensor([0, 2, 2], { dtype: 'int32' }), I8([1, -1, -1]));
    expect(r.dtype).toBe('int8');
    expect(r.tolist()).toEqual([i8(127 + 1), 0, i8(-128 - 2)]);
    const y = U8([255, 3]).scatterAdd(rlx.tensor([0, 0], { dtype: 'int32' }), U8([1, 1]));
    expect(y.tolist()).toEqual([u8(257), 3]);
  });

  it('a long fused chain wraps at every step like the same ops realized one by one', () => {
    const vals = Array.from({ length: 40 }, (_, i) => ((i * 37) % 256) - 128);
    const x = I8(vals);
    const fused = x.mul(3).add(x).sub(100).mul(x).maximum(-5);
    let want = vals.map((v) => i8(v * 3));
    want = want.map((v, i) => i8(v + vals[i]!));
    want = want.map((v) => i8(v - 100));
    want = want.map((v, i) => i8(v * vals[i]!));
    want = want.map((v) => Math.max(v, -5));
    expect(fused.tolist()).toEqual(want);
    let stepwise = x.mul(3).realize();
    for (const f of [(t: rlx.Tensor) => t.add(x), (t: rlx.Tensor) => t.sub(100), (t: rlx.Tensor) => t.mul(x), (t: rlx.Tensor) => t.maximum(-5)]) stepwise = f(stepwise).realize();
    expect(stepwise.tolist()).toEqual(want);
  });

  it('bool and uint8 in one graph stay apart though both are Uint8Array bytes', () => {
    const u = U8([0, 2, 255, 1]);
    const b = u.gt(1); // bool
    const sum = b.cast('uint8').add(u); // uint8: 0+0, 1+2, 1+255 → 0, 1+0... wraps
    expect(sum.dtype).toBe('uint8');
    expect(sum.tolist()).toEqual([0, 3, u8(256), 1]);
    expect(b.logicalAnd(u.ne(0)).tolist()).toEqual([false, true, true, false]);
    expect(rlx.where(b, u, U8([9, 9, 9, 9])).tolist()).toEqual([9, 2, 255, 9]);
    // A boolean added to uint8 is uint8 (bool ⊔ uint8); uint8 ⊔ bool cast back to bool tests != 0.
    expect(b.add(u).dtype).toBe('uint8');
    expect(u.cast('bool').tolist()).toEqual([false, true, true, true]);
  });

  it('clip, where with scalars, and comparisons with int32 tensors', () => {
    const x = I8([-128, -3, 0, 9, 127]);
    expect(x.clip(-5, 100).tolist()).toEqual([-5, -3, 0, 9, 100]);
    expect(x.clip(-5, 100).dtype).toBe('int8');
    expect(rlx.where(x.gt(0), x, -1).tolist()).toEqual([-1, -1, -1, 9, 127]);
    expect(rlx.where(x.gt(0), x, -1).dtype).toBe('int8');
    expect(x.lt(rlx.tensor([0, 0, 0, 0, 200], { dtype: 'int32' })).tolist()).toEqual([true, true, false, false, true]);
    expect(() => rlx.where(x.gt(0), x, 1000)).toThrow(rlx.DTypeError);
  });

  it('jit and vmap take int8/uint8 inputs and keep their dtypes', () => {
    const f = rlx.jit((a: rlx.Tensor, b: rlx.Tensor) => a.add(b).mul(2));
    const a = I8([100, -100, 5]),
      b = I8([27, -28, 1]);
    const r = f(a, b) as rlx.Tensor;
    expect(r.dtype).toBe('int8');
    expect(r.tolist()).toEqual([i8(254), i8(-256), 12]);
    const rows = rlx.vmap((row: rlx.Tensor) => row.max())(U8([1, 250, 3, 4, 5, 6], [2, 3])) as rlx.Tensor;
    expect(rows.dtype).toBe('uint8');
    expect(rows.tolist()).toEqual([250, 6]);
  });
});

describe('autodiff treats int8/uint8 as it treats int32 (not differentiable)', () => {
  it('grad with respect to an int8 or uint8 argument throws the TransformError it throws for int32', () => {
    const f = (x: rlx.Tensor) => x.cast('float64').sum();
    const msg = (d: 'int32' | 'int8' | 'uint8'): string => {
      try {
        rlx.grad(f)(rlx.tensor([1, 2], { dtype: d }));
      } catch (e) {
        expect(e).toBeInstanceOf(rlx.TransformError);
        return (e as Error).message;
      }
      throw new Error(`grad of a ${d} argument did not throw`);
    };
    expect(msg('int8')).toBe(msg('int32').replace('int32', 'int8'));
    expect(msg('uint8')).toContain('only float and complex values are differentiable');
  });

  it('a float path through a cast to int8 has zero gradient, as through int32', () => {
    const through = (d: 'int32' | 'int8' | 'uint8') => (x: rlx.Tensor) => x.cast(d).cast('float64').mul(x).sum();
    const x = rlx.tensor([1.5, 2.5, -3.5]);
    // d/dx (int(x) * x) with int(x) constant: int(x) (truncated; wrapped for the 8-bit types).
    expect([...rlx.grad(through('int32'))(x).toArray()]).toEqual([1, 2, -3]);
    expect([...rlx.grad(through('int8'))(x).toArray()]).toEqual([1, 2, -3]);
    expect([...rlx.grad(through('uint8'))(x).toArray()]).toEqual([1, 2, 253]);
  });
});
