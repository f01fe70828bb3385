// quant.scaledMatmul against dequantize-then-matmul in float64 (every
// supported layout pair, zero points on either side, batched activations),
// to float32 rounding; exact integer identities; jit; typed errors.

import { describe, expect, it } from 'vitest';
import { tensor, matmul, jit, random, Tensor, ShapeError, ValueError } from '../../src/index.js';
import * as quant from '../../src/quant/index.js';
import { DEVICES } from '../harness/devices.js';
import { codesOf, layoutView } from '../../src/quant/quantized.js';

const arr = (t: Tensor): number[] => Array.from(t.toArray() as ArrayLike<number>);

/** (|codes| + |zero point|) · scale per element, float64: the size of each term before zero points cancel. */
function termSize(q: quant.QuantizedTensor): Tensor {
  const lv = layoutView(q.shape, q.layout);
  let c = lv.view(codesOf(q).cast('float64').abs());
  if (q.zeroPoints) c = c.add(lv.expand(q.zeroPoints.cast('float64').abs()));
  return lv.back(c.mul(lv.expand(q.scales.cast('float64'))));
}

/** max over elements of |y − ref| / Σ_k size(a_k)·size(b_k): the error relative to the size of the terms. */
function relErr(y: Tensor, a: quant.QuantizedTensor, b: quant.QuantizedTensor): number {
  const A = quant.dequantize(a).cast('float64'),
    B = quant.dequantize(b).cast('float64');
  const ref = matmul(A, B.transpose());
  const mag = matmul(termSize(a), termSize(b).transpose()).add(1e-300);
  expect(y.dtype).toBe('float32');
  expect(y.shape).toEqual(ref.shape);
  return y.cast('float64').sub(ref).abs().div(mag).max().item() as number;
}

describe.each(DEVICES)('scaledMatmul on %s', (device) => {
  const M = 3,
    K = 32,
    N = 5;
  const x = random.normal(random.key(1), [M, K]).mul(tensor([0.01, 1, 40]).reshape([M, 1])).add(0.3).on(device);
  const w = random.normal(random.key(2), [N, K]).mul(tensor([1, 0.001, 3, 0.2, 7]).reshape([N, 1])).on(device);
  const acts: [string, quant.QuantizedTensor][] = [
    ['per row', quant.quantize(x, { groupSize: K })],
    ['per row (axis -2)', quant.quantize(x, { axis: -2 })],
    ['per tensor', quant.quantize(x)],
    ['per row, asymmetric', quant.quantize(x, { groupSize: K, symmetric: false })],
    ['per tensor, asymmetric', quant.quantize(x, { symmetric: false })],
    ['per row, 4 bit', quant.quantize(x, { groupSize: K, bits: 4 })],
  ];
  const weights: [string, quant.QuantizedTensor][] = [
    ['int8 per channel', quant.quantize(w, { axis: 0 })],
    ['int8 per tensor', quant.quantize(w)],
    ['int8 per channel, asymmetric', quant.quantize(w, { axis: 0, symmetric: false })],
    ['int4 groups of 8', quant.quantize(w, { bits: 4, groupSize: 8 })],
    ['int4 groups of 8, asymmetric', quant.quantize(w, { bits: 4, groupSize: 8, symmetric: false })],
    ['int4 per channel', quant.quantize(w, { bits: 4, axis: 0 })],
    ['int4 per tensor, asymmetric', quant.quantize(w, { bits: 4, symmetric: false })],
  ];

  it('= dequantize(a) · dequantize(b)ᵀ (float64) to float32 rounding, every activation × weight layout', () => {
    for (const [an, a] of acts)
      for (const [bn, b] of weights) {
        const e = relErr(quant.scaledMatmul(a, b), a, b);
        // int8: one int32→float32 rounding and two products; int4: rounding once from float64, zero-point
        // corrections in float32 (relative to the terms before they cancel: termSize)
        expect(e, `${an} × ${bn}`).toBeLessThan(b.bits === 8 && a.symmetric && b.symmetric ? 4 * 2 ** -24 : 40 * 2 ** -24);
      }
  });

  it('batched activations [2, M, K] match the per-batch products', () => {
    const xb = random.normal(random.key(3), [2, M, K]).on(device);
    for (const [bn, b] of weights) {
      const a = quant.quantize(xb, { groupSize: K });
      const y = quant.scaledMatmul(a, b);
      expect(y.shape).toEqual([2, M, N]);
      for (const i of [0, 1]) {
        const ai = quant.quantize(xb.select(0, i), { groupSize: K });
        expect(arr(ai.scales)).toEqual(arr(a.scales.select(0, i)));
        expect(arr(y.select(0, i)), bn).toEqual(arr(quant.scaledMatmul(ai, b)));
      }
    }
  });

  it('exact on integers: unit scales give the integer product; power-of-two group scales give it scaled exactly', () => {
    const ai = [...Array(M * K)].map((_, i) => ((i * 37) % 255) - 127);
    const bi = [...Array(N * K)].map((_, i) => ((i * 11) % 15) - 7);
    const a = quant.quantize(tensor(ai, { dtype: 'float32' }).reshape([M, K]).on(device), { scale: 1 });
    const b8 = quant.quantize(tensor(bi, { dtype: 'float32' }).reshape([N, K]).on(device), { scale: 1 });
    const want = [...Array(M * N)].map((_, p) => {
      const m = Math.floor(p / N),
        n = p % N;
      let acc = 0;
      for (let k = 0; k < K; k++) acc += ai[m * K + k]! * bi[n * K + k]!;
      return acc;
    });
    expect(arr(quant.scaledMatmul(a, b8))).toEqual(want);
    // 4 bit, groups of 8, scale 2^-g for group g: Σ_g 2^-g Σ_k a b
    const gScale = tensor([...Array(N)].flatMap(() => [1, 0.5, 0.25, 0.125]), { dtype: 'float32' }).reshape([N, 4]);
    const bf = tensor(bi, { dtype: 'float32' }).reshape([N, 4, 8]).mul(gScale.expandDims(-1)).reshape([N, K]);
    const b4 = quant.quantize(bf.on(device), { bits: 4, groupSize: 8, scale: gScale });
    expect(Array.from(quant.unpackInt4(b4.codes.toArray() as Uint8Array, N, K))).toEqual(bi);
    const want4 = [...Array(M * N)].map((_, p) => {
      const m = Math.floor(p / N),
        n = p % N;
      let acc = 0;
      for (let k = 0; k < K; k++) acc += ai[m * K + k]! * bi[n * K + k]! * 2 ** -Math.floor(k / 8);
      return acc;
    });
    expect(arr(quant.scaledMatmul(a, b4))).toEqual(want4);
    // zero points: a with z = 5 (codes shifted by 5) gives the same product
    const az = quant.quantize(tensor(ai.map((v) => Math.max(-123, Math.min(122, v))), { dtype: 'float32' }).reshape([M, K]).on(device), { scale: 1, symmetric: false, zeroPoint: 5 });
    const wantZ = [...Array(M * N)].map((_, p) => {
      const m = Math.floor(p / N),
        n = p % N;
      let acc = 0;
      for (let k = 0; k < K; k++) acc += Math.max(-123, Math.min(122, ai[m * K + k]!)) * bi[n * K + k]!;
      return acc;
    });
    expect(arr(quant.scaledMatmul(az, b8))).toEqual(wantZ);
  });

  it('a float tensor is quantized per row (8-bit symmetric); a vector gives a vector', () => {
    const b = weights[0]![1];
    expect(arr(quant.scaledMatmul(x, b))).toEqual(arr(quant.scaledMatmul(quant.quantize(x, { groupSize: K }), b)));
    const v = x.select(0, 1);
    const yv = quant.scaledMatmul(v, b);
    expect(yv.shape).toEqual([N]);
    expect(arr(yv)).toEqual(arr(quant.scaledMatmul(x, b).select(0, 1)));
  });

  it('under jit, with quantized operands as arguments', () => {
    const f = jit((a: quant.QuantizedTensor, b: quant.QuantizedTensor) => quant.scaledMatmul(a, b));
    for (const [, b] of [weights[0]!, weights[4]!]) expect(arr(f(acts[3]![1], b))).toEqual(arr(quant.scaledMatmul(acts[3]![1], b)));
  });
});

describe('scaledMatmul errors', () => {
  const x = random.normal(random.key(4), [3, 8]);
  const w = random.normal(random.key(5), [4, 8]);
  it('names the function, what it got and what it expected', () => {
    expect(() => quant.scaledMatmul(x, quant.quantize(random.normal(random.key(6), [4, 6])))).toThrow(ShapeError);
    expect(() => quant.scaledMatmul(x, quant.quantize(random.normal(random.key(6), [4, 6])))).toThrow(/quant.scaledMatmul: a \[..., M, K\] and b \[N, K\] must share K; got a \[3,8\], b \[4,6\]/);
    expect(() => quant.scaledMatmul(x, quant.quantize(w, { groupSize: 4 }))).toThrow(ValueError);
    expect(() => quant.scaledMatmul(x, quant.quantize(w, { groupSize: 4 }))).toThrow(/8-bit weights must be quantized per tensor or per output channel/);
    expect(() => quant.scaledMatmul(quant.quantize(x, { groupSize: 4 }), quant.quantize(w, { axis: 0 }))).toThrow(/activations must be quantized per tensor or per row/);
    expect(() => quant.scaledMatmul(quant.quantize(x, { axis: 1 }), quant.quantize(w, { axis: 0 }))).toThrow(/activations must be quantized per tensor or per row/);
    expect(() => quant.scaledMatmul(x, quant.quantize(w, { axis: 1, bits: 4 }))).toThrow(/4-bit weights per channel must be along axis 0/);
    expect(() => quant.scaledMatmul(x, w as unknown as quant.QuantizedTensor)).toThrow(/b must be a QuantizedTensor .* got a Tensor/);
    expect(() => quant.scaledMatmul(x, quant.quantize(random.normal(random.key(6), [2, 4, 8])))).toThrow(/b must be a matrix \[N, K\], got shape \[2,4,8\]/);
  });
});
