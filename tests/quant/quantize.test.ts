// quant.quantize / dequantize / fakeQuant against PyTorch 1.13 goldens
// (tests/quant/golden/make_golden.py: quantize_per_tensor, quantize_per_channel,
// fake_quantize_* values and gradients), exact identities (round-trip error
// ≤ scale/2, packing against the int4 GEMM's host packer), the all-zero and
// tiny-value cases, pytree behaviour under jit, and typed errors.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tensor, zeros, grad, jit, random, tree, Tensor, ShapeError, ValueError, DTypeError } from '../../src/index.js';
import * as quant from '../../src/quant/index.js';
import { DEVICES } from '../harness/devices.js';

const G = JSON.parse(readFileSync(path.join(import.meta.dirname, 'golden/quant.json'), 'utf8'));
const arr = (t: Tensor): number[] => Array.from(t.toArray() as ArrayLike<number>);
const f32 = (v: number[] | number, shape?: number[]) => (Array.isArray(v) ? tensor(v, { dtype: 'float32' }).reshape(shape ?? [v.length]) : tensor(v, { dtype: 'float32' }));

describe.each(DEVICES)('quantize against PyTorch 1.13 on %s', (device) => {
  it('per tensor, symmetric int8: scale max|x|/127 and torch.quantize_per_tensor codes (ties to even)', () => {
    for (const c of G.perTensorSym8) {
      const q = quant.quantize(f32(c.x).on(device));
      expect(q.scales.item(), c.name).toBe(c.scale);
      expect(arr(q.codes), c.name).toEqual(c.codes);
      expect(q.codes.dtype).toBe('int8');
    }
    // the ties case really has ties: code k+½ at scale 2^-4 went to the even neighbour
    const ties = G.perTensorSym8[1];
    expect(ties.scale).toBe(1 / 16);
    expect(ties.codes.slice(-18, -2)).toEqual([-8, -6, -6, -4, -4, -2, -2, 0, 0, 2, 2, 4, 4, 6, 6, 8]);
  });

  it('per channel, symmetric int8 (axis 1 of a 3-d tensor): scales and torch.quantize_per_channel codes', () => {
    const c = G.perChannelSym8;
    const q = quant.quantize(f32(c.x, c.shape).on(device), { axis: c.axis });
    expect(q.layout).toEqual({ kind: 'channel', axis: 1 });
    expect(arr(q.scales)).toEqual(c.scales);
    expect(arr(q.codes)).toEqual(c.codes);
    expect(quant.quantize(f32(c.x, c.shape).on(device), { axis: -2 }).layout).toEqual({ kind: 'channel', axis: 1 });
  });

  it('per tensor, asymmetric int8: scale (max−min)/255, zero point, torch.quantize_per_tensor codes', () => {
    const c = G.perTensorAsym8;
    const q = quant.quantize(f32(c.x, c.shape).on(device), { symmetric: false });
    expect(q.scales.item()).toBe(c.scale);
    expect(q.zeroPoints!.item()).toBe(c.zeroPoint);
    expect(arr(q.codes)).toEqual(c.codes);
  });

  it('per block of 8, 4 bit, symmetric and asymmetric: scales, zero points and codes of torch.fake_quantize_per_channel_affine', () => {
    const c = G.perBlock4;
    const x = f32(c.x, c.shape).on(device);
    for (const [sym, g] of [[true, c.sym], [false, c.asym]] as const) {
      const q = quant.quantize(x, { bits: 4, groupSize: c.groupSize, symmetric: sym });
      expect(q.layout).toEqual({ kind: 'block', axis: 1, blockSize: 8 });
      expect(q.scales.shape).toEqual([3, 4]);
      expect(q.codes.dtype).toBe('uint8');
      expect(q.codes.shape).toEqual([3, 16]);
      expect(arr(q.scales)).toEqual(g.scales);
      if (!sym) expect(arr(q.zeroPoints!)).toEqual(g.zeroPoints);
      // unpacked by the int4 GEMM's host unpacker (an independent implementation of the layout)
      expect(Array.from(quant.unpackInt4(q.codes.toArray() as Uint8Array, 3, 32))).toEqual(g.codes);
    }
  });
});

describe.each(DEVICES)('dequantize and identities on %s', (device) => {
  const x = random.normal(random.key(3), [6, 16]).mul(tensor([0.001, 1, 30, 0.2, 5, 1e-3]).reshape([6, 1])).on(device);
  const layouts = [{}, { axis: 0 }, { axis: 1 }, { groupSize: 4 }, { groupSize: 16 }] as const;

  it('|dequantize(quantize(x)) − x| ≤ scale/2 (symmetric: nothing clips) in every layout, 8 and 4 bits, both symmetries', () => {
    for (const bits of [8, 4] as const)
      for (const symmetric of [true, false])
        for (const l of layouts) {
          const q = quant.quantize(x, { bits, symmetric, ...l });
          const d = quant.dequantize(q);
          expect(d.dtype).toBe(x.dtype);
          expect(d.shape).toEqual([6, 16]);
          // the scale of each element, broadcast to x's shape by dequantizing all-ones codes at zero point 0
          const ones = quant.dequantize(new quant.QuantizedTensor({ ...q, zeroPoints: null, codes: bits === 8 ? q.codes.mul(0).add(1).cast('int8') : q.codes.mul(0).add(17).cast('uint8') }));
          const err = d.sub(x).abs().sub(ones.mul(0.5 + 2e-5));
          expect(err.max().item() as number, `bits ${bits} sym ${symmetric} ${JSON.stringify(l)}`).toBeLessThanOrEqual(1e-12);
        }
  });

  it('codes stay in range: symmetric ±127 / ±7, asymmetric −128..127 / −8..7, and max|x| maps to ±qmax', () => {
    const q8 = quant.quantize(x, { axis: 0 });
    const c8 = arr(q8.codes);
    expect(Math.max(...c8.map(Math.abs))).toBe(127);
    const q4 = unpacked(quant.quantize(x, { bits: 4, groupSize: 4 }));
    expect(Math.max(...q4.map(Math.abs))).toBe(7);
    const a4 = unpacked(quant.quantize(x, { bits: 4, symmetric: false, groupSize: 4 }));
    expect(Math.min(...a4)).toBeGreaterThanOrEqual(-8);
    expect(Math.max(...a4)).toBeLessThanOrEqual(7);
  });

  it('an all-zero tensor (and all-zero channels) quantize to code 0 with the smallest normal scale: no NaN', () => {
    for (const l of layouts) {
      for (const symmetric of [true, false]) {
        const q = quant.quantize(zeros([6, 16]).on(device), { ...l, symmetric });
        expect(arr(q.scales).every((v) => v === 2 ** -126), JSON.stringify(l)).toBe(true);
        expect(arr(quant.dequantize(q)).every((v) => v === 0)).toBe(true);
        if (!symmetric) expect(arr(q.zeroPoints!).every((v) => v === -128)).toBe(true); // qmin − round(min/scale): min = 0 sits at qmin
      }
    }
    const mixed = quant.quantize(tensor([[0, 0], [1, -2]]).on(device), { axis: 0 });
    expect(arr(quant.dequantize(mixed))[0]).toBe(0);
    expect(arr(mixed.codes)).toEqual([0, 0, 64, -127]);
  });

  it('tiny values keep their resolution (a float32 subnormal max|x| still gives finite codes)', () => {
    const t = tensor([1e-40, -3e-40, 0, 2e-39], { dtype: 'float32' }).on(device);
    const q = quant.quantize(t);
    expect(arr(q.codes).every(Number.isFinite)).toBe(true);
    expect(arr(quant.dequantize(q)).every(Number.isFinite)).toBe(true);
    const u = tensor([1e-30, -3e-30, 0, 2e-30], { dtype: 'float32' }).on(device);
    expect(arr(quant.quantize(u).codes)).toEqual([42, -127, 0, 85]); // PyTorch's eps (2^-23) floor would give all zeros
  });

  it('float64 and float16 inputs dequantize to their own dtype', () => {
    for (const dtype of ['float64', 'float16'] as const) {
      const q = quant.quantize(x.cast(dtype), { axis: 0 });
      expect(q.dtype).toBe(dtype);
      expect(quant.dequantize(q).dtype).toBe(dtype);
    }
  });

  it('given scales and zero points are used as given', () => {
    const q = quant.quantize(tensor([0.1, 0.26, -0.3, 5]).on(device), { scale: 0.1 });
    expect(arr(q.codes)).toEqual([1, 3, -3, 50]);
    const a = quant.quantize(tensor([0.1, 0.26, -0.3, 50]).on(device), { scale: 0.1, zeroPoint: -10, symmetric: false });
    expect(arr(a.codes)).toEqual([-9, -7, -13, 127]);
    const c = quant.quantize(tensor([[1, 2], [3, 4]]).on(device), { axis: 1, scale: tensor([1, 0.5]) });
    expect(arr(c.codes)).toEqual([1, 4, 3, 8]);
  });
});

const unpacked = (q: quant.QuantizedTensor): number[] => Array.from(quant.unpackInt4(q.codes.toArray() as Uint8Array, q.codes.size / (q.shape.at(-1)! / 2), q.shape.at(-1)!));

describe.each(DEVICES)('fakeQuant against PyTorch 1.13 on %s', (device) => {
  it('given scale: values and gradients of torch.fake_quantize_per_tensor_affine (8/4 bit, symmetric/asymmetric)', () => {
    for (const c of G.fakeQuantPerTensor) {
      const label = `bits ${c.bits} sym ${c.symmetric}`;
      const opts = { bits: c.bits, symmetric: c.symmetric, scale: c.scale, ...(c.symmetric ? {} : { zeroPoint: c.zeroPoint }) };
      const x = f32(c.x).on(device);
      expect(arr(quant.fakeQuant(x, opts)), label).toEqual(c.y);
      expect(arr(grad((v: Tensor) => quant.fakeQuant(v, opts).sum())(x)), label).toEqual(c.grad);
      // some elements clip, so the mask is exercised
      expect(c.grad.filter((g: number) => g === 0).length, label).toBeGreaterThan(0);
    }
  });

  it('per channel with min-max scales from x: values and the weighted-sum gradient', () => {
    const c = G.fakeQuantPerChannel;
    const x = f32(c.x, c.shape).on(device);
    const w = tensor([...Array(48).keys()], { dtype: 'float32' }).reshape([4, 12]);
    expect(arr(quant.fakeQuant(x, { axis: 0 }))).toEqual(c.y);
    expect(arr(grad((v: Tensor) => quant.fakeQuant(v, { axis: 0 }).mul(w).sum())(x))).toEqual(c.grad);
  });

  it('forward = dequantize(quantize(x)) bit for bit, in every layout, float32 and float64', () => {
    const x = random.normal(random.key(5), [4, 8]).on(device);
    for (const dtype of ['float32', 'float64'] as const)
      for (const l of [{}, { axis: 1 }, { groupSize: 4, bits: 4 as const }, { symmetric: false }, { symmetric: false, bits: 4 as const, groupSize: 2 }]) {
        const xd = x.cast(dtype);
        expect(arr(quant.fakeQuant(xd, l)), JSON.stringify(l)).toEqual(arr(quant.dequantize(quant.quantize(xd, l)).cast(dtype)));
      }
  });

  it('under jit and vmap-free grad of a float64 loss: the gradient is the clip mask times the cotangent', () => {
    const x = tensor([-1, -0.2, 0.05, 0.3, 2], { dtype: 'float64' }).on(device);
    const f = jit((v: Tensor) => grad((u: Tensor) => quant.fakeQuant(u, { bits: 4, scale: 0.1 }).mul(tensor([1, 2, 3, 4, 5], { dtype: 'float64' })).sum())(v));
    expect(arr(f(x))).toEqual([0, 2, 3, 4, 0]);
  });
});

describe('QuantizedTensor as a pytree node', () => {
  it('jit takes and returns it; tree.leaves sees codes, scales (and zero points)', () => {
    const x = random.normal(random.key(7), [3, 8]);
    const q = quant.quantize(x, { bits: 4, groupSize: 4, symmetric: false });
    expect(tree.leaves(q).length).toBe(3);
    expect(tree.leaves(quant.quantize(x)).length).toBe(2);
    const deq = jit((qq: quant.QuantizedTensor) => quant.dequantize(qq));
    expect(arr(deq(q))).toEqual(arr(quant.dequantize(q)));
    const requant = jit((v: Tensor) => quant.quantize(v, { axis: 0 }));
    const r = requant(x);
    expect(r).toBeInstanceOf(quant.QuantizedTensor);
    expect(r.layout).toEqual({ kind: 'channel', axis: 0 });
    expect(arr(r.codes)).toEqual(arr(quant.quantize(x, { axis: 0 }).codes));
  });
});

describe('typed errors name the function, what it got and what it expected', () => {
  const x = tensor([[1, 2, 3], [4, 5, 6]]);
  it('quantize', () => {
    expect(() => quant.quantize(x, { bits: 3 as 8 })).toThrow(new ValueError('quant.quantize: bits must be 8 or 4, got 3'));
    expect(() => quant.quantize(x, { axis: 2 })).toThrow(ValueError);
    expect(() => quant.quantize(x, { axis: 2 })).toThrow(/axis must be an integer in \[-2, 2\).*got 2/);
    expect(() => quant.quantize(x, { groupSize: 2 })).toThrow(ShapeError);
    expect(() => quant.quantize(x, { groupSize: 2 })).toThrow(/groupSize 2 must divide the last axis \(size 3\)/);
    expect(() => quant.quantize(x, { axis: 0, groupSize: 3 })).toThrow(/not both/);
    expect(() => quant.quantize(x, { bits: 4 })).toThrow(/must be even; got shape \[2,3\]/);
    expect(() => quant.quantize(tensor([1, 2], { dtype: 'int32' }))).toThrow(DTypeError);
    expect(() => quant.quantize([1, 2] as unknown as Tensor)).toThrow(/quant.quantize: expected a Tensor, got object/);
    expect(() => quant.quantize(x, { scale: -1 })).toThrow(/scale must be positive and finite, got -1/);
    expect(() => quant.quantize(x, { axis: 0, scale: tensor([1, 2, 3]) })).toThrow(/scale for layout channel must have shape \[2\], got \[3\]/);
    expect(() => quant.quantize(x, { scale: 1, zeroPoint: 3 })).toThrow(/zeroPoint needs symmetric: false/);
    expect(() => quant.quantize(x, { scale: 1, symmetric: false, zeroPoint: 300 })).toThrow(/zeroPoint must be an integer in \[-128, 127\], got 300/);
  });
  it('fakeQuant and dequantize', () => {
    expect(() => quant.fakeQuant(x, { groupSize: 0 })).toThrow(/quant.fakeQuant: groupSize must be a positive integer, got 0/);
    expect(() => quant.dequantize(x as unknown as quant.QuantizedTensor)).toThrow(/quant.dequantize: expected a QuantizedTensor .* got a Tensor/);
  });
  it('QuantizedTensor checks its fields', () => {
    const q = quant.quantize(x, { axis: 0 });
    expect(() => new quant.QuantizedTensor({ ...q, codes: q.codes.cast('int32') })).toThrow(/8-bit codes must be int8, got int32/);
    expect(() => new quant.QuantizedTensor({ ...q, scales: tensor([1, 2, 3]) })).toThrow(/scales .* must have shape \[2\], got \[3\]/);
  });
});
