// quant.ptq / quant.qat / QuantLinear: models rebuilt (the input unchanged),
// every Linear replaced at any depth, calibrated scales (max|x| recomputed
// here; percentiles against NumPy), the quantized forward equal to its
// definition, jit, QAT's layers and conversion, typed errors.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tensor, jit, grad, random, Tensor, ShapeError, ValueError } from '../../src/index.js';
import * as nn from '../../src/nn/index.js';
import * as optim from '../../src/optim/index.js';
import * as quant from '../../src/quant/index.js';

const G = JSON.parse(readFileSync(path.join(import.meta.dirname, 'golden/quant.json'), 'utf8'));
const arr = (t: Tensor): number[] => Array.from(t.toArray() as ArrayLike<number>);
const f32 = (v: number) => Math.fround(v);

const mlp = () => nn.Sequential(nn.Linear(16, 12, { key: random.key(0) }), nn.ReLU(), nn.Linear(12, 4, { key: random.key(1) }));
const batches = [random.normal(random.key(2), [8, 16]), random.normal(random.key(3), [5, 16]).mul(3)];

describe('quant.ptq', () => {
  it('returns a new model with QuantLinear layers; the input model is unchanged', () => {
    const model = mlp();
    const before = arr(model.forward(batches[0]!));
    const q = quant.ptq(model, batches);
    expect(q).not.toBe(model);
    expect(q.layers[0]).toBeInstanceOf(quant.QuantLinear);
    expect(q.layers[2]).toBeInstanceOf(quant.QuantLinear);
    expect(q.layers[1]).toBeInstanceOf(nn.ReLU);
    expect(model.layers[0]).toBeInstanceOf(nn.Linear);
    expect(model.layers[0]).not.toBeInstanceOf(quant.QuantLinear);
    expect(arr(model.forward(batches[0]!))).toEqual(before);
    expect(Object.keys(q.stateDict())).toEqual(['0.weight_codes', '0.weight_scale', '0.bias', '0.input_scale', '2.weight_codes', '2.weight_scale', '2.bias', '2.input_scale']);
  });

  it("'minmax': each layer's static input scale is max|input| / 127 over every calibration batch", () => {
    const model = mlp();
    const q = quant.ptq(model, batches, { bits: 8 });
    const max0 = Math.max(...batches.map((b) => b.abs().max().item() as number));
    const max2 = Math.max(...batches.map((b) => model.layers[0]!.forward(b).relu().abs().max().item() as number));
    const l0 = q.layers[0] as quant.QuantLinear,
      l2 = q.layers[2] as quant.QuantLinear;
    expect(l0.input_scale!.item()).toBe(f32(max0 / 127));
    expect(l2.input_scale!.item()).toBe(f32(max2 / 127));
    // {x, y} batches (io.batches) calibrate the same
    const q2 = quant.ptq(model, batches.map((x) => ({ x, y: tensor(0) })));
    expect((q2.layers[0] as quant.QuantLinear).input_scale!.item()).toBe(l0.input_scale!.item());
  });

  it("'percentile': the percentile of |input| over all calibration values, as NumPy's np.percentile", () => {
    const g = G.percentile;
    const x1 = tensor(g.x1, { dtype: 'float32' }).reshape([50, 6]),
      x2 = tensor(g.x2, { dtype: 'float32' }).reshape([30, 6]);
    const lin = nn.Linear(6, 2, { key: random.key(4) });
    for (const [p, want] of Object.entries(g.p) as [string, number][]) {
      const q = quant.ptq(lin, [x1, x2], { method: 'percentile', percentile: Number(p) }) as unknown as quant.QuantLinear;
      expect(q.input_scale!.item(), `p = ${p}`).toBeCloseTo(f32(want / 127), 12);
    }
    expect((quant.ptq(lin, [x1, x2], { method: 'percentile', percentile: 100 }) as unknown as quant.QuantLinear).input_scale!.item()).toBe(
      (quant.ptq(lin, [x1, x2]) as unknown as quant.QuantLinear).input_scale!.item(),
    );
  });

  it('a QuantLinear computes scaledMatmul(quantize(x, {scale: input_scale}), quantize(weight, {axis: 0})) + bias', () => {
    const model = mlp();
    const q = quant.ptq(model, batches);
    const lin = model.layers[0] as nn.Linear;
    const ql = q.layers[0] as quant.QuantLinear;
    const x = batches[1]!.cast('float32');
    const want = quant.scaledMatmul(quant.quantize(x, { scale: ql.input_scale! }), quant.quantize(lin.weight, { axis: 0 })).add(lin.bias!);
    expect(arr(ql.forward(x))).toEqual(arr(want));
    // 4 bit: groups along the inputs
    const q4 = quant.ptq(model, batches, { bits: 4, groupSize: 8 });
    const ql4 = q4.layers[0] as quant.QuantLinear;
    expect(ql4.weight_layout).toEqual({ kind: 'block', axis: 1, blockSize: 8 });
    const want4 = quant.scaledMatmul(quant.quantize(x, { scale: ql4.input_scale! }), quant.quantize(lin.weight, { bits: 4, groupSize: 8 })).add(lin.bias!);
    expect(arr(ql4.forward(x))).toEqual(arr(want4));
  });

  it('quantized outputs stay close to the float model (8 bit closer than 4 bit)', () => {
    const model = mlp();
    const x = batches[0]!;
    const ref = model.forward(x);
    const err = (m: nn.Module) => (m.forward(x) as Tensor).sub(ref).abs().max().item() as number;
    const scale = ref.abs().max().item() as number;
    const e8 = err(quant.ptq(model, [x])),
      e4 = err(quant.ptq(model, [x], { bits: 4, groupSize: 8 }));
    expect(e8).toBeLessThan(0.02 * scale);
    expect(e4).toBeLessThan(0.2 * scale);
    expect(e8).toBeLessThan(e4);
    expect(err(quant.ptq(model, [], { activations: 'dynamic' }))).toBeLessThan(0.02 * scale);
  });

  it('replaces Linear layers at any depth in custom modules; 4-bit group sizes fall to an even divisor of in_features', () => {
    class Net extends nn.Module {
      fc = nn.Linear(24, 8, { key: random.key(5) });
      block = nn.Sequential(nn.Linear(8, 6, { key: random.key(6) }), nn.Tanh());
      head = nn.Linear(6, 3, { key: random.key(7) });
      forward(x: Tensor): Tensor {
        return this.head.forward(this.block.forward(this.fc.forward(x).relu()));
      }
    }
    const net = new Net();
    const x = random.normal(random.key(8), [10, 24]);
    const q = quant.ptq(net, [x], { bits: 4, groupSize: 16 });
    expect(q).toBeInstanceOf(Net);
    expect(q.fc).toBeInstanceOf(quant.QuantLinear);
    expect(q.block.layers[0]).toBeInstanceOf(quant.QuantLinear);
    expect(q.head).toBeInstanceOf(quant.QuantLinear);
    expect(net.fc).toBeInstanceOf(nn.Linear);
    expect((q.fc as unknown as quant.QuantLinear).weight_layout).toEqual({ kind: 'block', axis: 1, blockSize: 12 });
    expect((q.head as unknown as quant.QuantLinear).weight_layout).toEqual({ kind: 'block', axis: 1, blockSize: 6 });
    expect(q.forward(x).shape).toEqual([10, 3]);
    // odd in_features cannot be packed
    expect(() => quant.ptq(nn.Sequential(nn.Linear(7, 2)), [random.normal(random.key(9), [2, 7])], { bits: 4 })).toThrow(ShapeError);
    expect(() => quant.ptq(nn.Sequential(nn.Linear(7, 2)), [random.normal(random.key(9), [2, 7])], { bits: 4 })).toThrow(/quant.ptq \(layer '0'\): 4-bit weights pack two inputs per byte, so inFeatures must be even; got 7/);
  });

  it('a quantized model runs under jit with the eager results', () => {
    const q = quant.ptq(mlp(), batches, { bits: 4, groupSize: 4 });
    const f = jit((m: nn.Module, x: Tensor) => m.forward(x) as Tensor);
    expect(arr(f(q, batches[0]!))).toEqual(arr(q.forward(batches[0]!)));
    expect(arr(f(q, batches[0]!))).toEqual(arr(q.forward(batches[0]!)));
    expect(f.compiles).toBe(1);
  });

  it('QuantLinear takes unbatched and float64 inputs', () => {
    const q = quant.ptq(mlp(), batches, { activations: 'dynamic' });
    const x = batches[0]!;
    expect(arr(q.forward(x.select(0, 2)))).toEqual(arr(q.forward(x).select(0, 2)));
    expect(q.forward(x.cast('float64')).dtype).toBe('float64');
    expect(q.forward(x.cast('float32')).dtype).toBe('float32');
  });
});

describe('quant.qat', () => {
  it('Linear layers become QatLinear (still nn.Linear, same parameters); forward uses fake-quantized weights', () => {
    const model = mlp();
    const q = quant.qat(model, { bits: 4, groupSize: 8 });
    expect(q.layers[0]).toBeInstanceOf(nn.Linear);
    expect(q.layers[0]).toBeInstanceOf(quant.QatLinearModule);
    expect(model.layers[0]).not.toBeInstanceOf(quant.QatLinearModule);
    expect(Object.keys(q.stateDict())).toEqual(Object.keys(model.stateDict()));
    const lin = model.layers[0] as nn.Linear;
    const x = batches[0]!;
    const want = x.matmul(quant.fakeQuant(lin.weight, { bits: 4, groupSize: 8 }).transpose()).add(lin.bias!);
    expect(arr(q.layers[0]!.forward(x))).toEqual(arr(want));
    // gradients flow to every parameter (straight-through), as a model of the same class
    const g = grad((m: typeof q) => (m.forward(x) as Tensor).square().sum())(q);
    expect(g.layers[0]).toBeInstanceOf(quant.QatLinearModule);
    expect((g.layers[0] as nn.Linear).weight.abs().sum().item() as number).toBeGreaterThan(0);
  });

  it('trains with nn.train (one compile), then ptq converts it with the QAT bits and group size', () => {
    const x = random.normal(random.key(10), [64, 16]);
    const y = x.select(1, 0).gt(0).cast('int32');
    const qm = quant.qat(nn.Sequential(nn.Linear(16, 8, { key: random.key(11) }), nn.ReLU(), nn.Linear(8, 2, { key: random.key(12) })), { bits: 4, groupSize: 8 });
    const r = nn.train(qm, { x, y }, { optimizer: optim.adam({ lr: 0.02 }), epochs: 15, batchSize: 16, key: random.key(13), progress: false });
    expect(r.compiles).toBe(1);
    expect(r.history.at(-1)!.accuracy!).toBeGreaterThan(0.9);
    const conv = quant.ptq(r.model, [x]);
    const l0 = conv.layers[0] as quant.QuantLinear;
    expect(l0.bits).toBe(4);
    expect(l0.weight_layout).toEqual({ kind: 'block', axis: 1, blockSize: 8 });
    expect(quant.ptq(r.model, [x], { bits: 8 }).layers[0]!).toHaveProperty('bits', 8);
  });

  it('with activations: true, the QAT forward is what ptq(..., {activations: "dynamic"}) computes, to float32 rounding', () => {
    const model = mlp();
    const q = quant.qat(model, { bits: 4, groupSize: 4, activations: true });
    const conv = quant.ptq(q, [], { activations: 'dynamic' });
    const x = batches[1]!.cast('float32');
    const a = q.forward(x),
      b = conv.forward(x);
    const scale = a.abs().max().item() as number;
    expect(b.sub(a).abs().max().item() as number).toBeLessThan(1e-5 * scale);
  });
});

describe('ptq / qat / QuantLinear errors', () => {
  it('name the function, what they got and what they expected', () => {
    const m = mlp();
    expect(() => quant.ptq(m, batches, { method: 'mse' as 'minmax' })).toThrow(new ValueError("quant.ptq: method must be 'minmax' or 'percentile', got mse"));
    expect(() => quant.ptq(m, batches, { method: 'percentile', percentile: 0 })).toThrow(/percentile must be a number in \(0, 100\], got 0/);
    expect(() => quant.ptq(m, [])).toThrow(/needs at least one calibration batch \(or pass activations: 'dynamic'\)/);
    expect(() => quant.ptq(m, [[1, 2] as unknown as Tensor])).toThrow(/calibration batch 0 must be a Tensor or \{x: Tensor\}, got object/);
    expect(() => quant.ptq(m, batches, { bits: 2 as 8 })).toThrow(/quant.ptq: bits must be 8 or 4, got 2/);
    expect(() => quant.ptq({} as nn.Module, batches)).toThrow(/model must be an nn.Module/);
    expect(() => quant.qat(m, { bits: 16 as 8 })).toThrow(/quant.qat: bits must be 8 or 4, got 16/);
    expect(() => quant.QuantLinear(tensor([[1]]) as unknown as quant.QuantizedTensor)).toThrow(/quant.QuantLinear: weight must be a QuantizedTensor .* got a Tensor/);
    const w = quant.quantize(random.normal(random.key(1), [3, 4]), { axis: 0 });
    expect(() => quant.QuantLinear(w, tensor([1, 2]))).toThrow(/bias must be a Tensor of shape \[3\], got shape \[2\]/);
    expect(() => quant.QuantLinear(w, null, { inputScale: 0 })).toThrow(/inputScale must be a positive finite number/);
    expect(() => quant.QuantLinear(w).forward(tensor([[1, 2]]))).toThrow(/input's last dim must be inFeatures = 4, got input shape \[1,2\]/);
  });
});
