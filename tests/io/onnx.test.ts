// io.loadOnnx against PyTorch 1.13 (golden/make_onnx.py exports the models with torch.onnx and records
// PyTorch's outputs): an MLP (Gemm, Relu, erf-GELU, Tanh), a 2-layer TransformerEncoderLayer stack at opset 14
// with dynamic batch and sequence axes (shape arithmetic: Shape/Gather/Unsqueeze/Concat/Cast; LayerNorm spelled
// ReduceMean/Sub/Pow/Sqrt/Div) and at opset 17 (LayerNormalization). Outputs match PyTorch within 1e-5 (float32,
// max |difference|, outputs of magnitude ~1); the same weights through nn + safetensors give the same outputs, and
// gradients through the imported graph equal those of the nn model.

import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { grad, jit, type Tensor } from '../../src/index.js';
import * as nn from '../../src/nn/index.js';
import * as io from '../../src/io/index.js';

const GOLDEN = path.join(import.meta.dirname, 'golden');
const ref = io.loadSafetensors(path.join(GOLDEN, 'onnx_io.safetensors'));

function maxAbsDiff(a: Tensor, b: Tensor): number {
  expect(a.shape).toEqual(b.shape);
  const x = a.toArray() as ArrayLike<number>;
  const y = b.toArray() as ArrayLike<number>;
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]! - y[i]!));
  return m;
}

const encoder = () => nn.Sequential(...Array.from({ length: 2 }, () => nn.TransformerEncoderLayer(64, 4, { dimFeedforward: 128, activation: 'gelu', batchFirst: true, dropout: 0 }))).eval();

describe('io.loadOnnx: PyTorch-exported models', () => {
  it('MLP (opset 14, dynamic batch): metadata, and run() matches PyTorch within 1e-5', () => {
    const m = io.loadOnnx(path.join(GOLDEN, 'mlp.onnx'));
    expect(m.opset).toBe(14);
    expect(m.producer).toBe('pytorch 1.13.0');
    expect(m.inputs).toEqual([{ name: 'x', dtype: 'float32', shape: ['batch', 16] }]);
    expect(m.outputs).toEqual([{ name: 'y', dtype: 'float32', shape: ['batch', 8] }]);
    expect(Object.keys(m.weights).sort()).toEqual(['0.bias', '0.weight', '2.bias', '2.weight', '4.bias', '4.weight']);
    const y = m.run({ x: ref['mlp_x']! })['y']!;
    expect(maxAbsDiff(y, ref['mlp_y']!)).toBeLessThan(1e-5);
    // A different batch size through the same model (dynamic axis): rows are independent, so rows 1..2 of the batch.
    const part = m.run({ x: ref['mlp_x']!.slice({ kind: 'slice', axes: [{ kind: 'rg', start: 1, end: 3, step: 1 }] }) })['y']!;
    expect(maxAbsDiff(part, ref['mlp_y']!.slice({ kind: 'slice', axes: [{ kind: 'rg', start: 1, end: 3, step: 1 }] }))).toBeLessThan(1e-5);
  });

  it('MLP: gradients through the imported graph equal the nn model\'s with the same weights', () => {
    const m = io.loadOnnx(path.join(GOLDEN, 'mlp.onnx'));
    const model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.GELU(), nn.Linear(32, 8), nn.Tanh());
    model.loadStateDict(m.weights);
    const x = ref['mlp_x']!;
    const gOnnx = grad((w: Record<string, Tensor>) => m.forward({ x }, w)['y']!.square().sum())(m.weights) as Record<string, Tensor>;
    const gNn = grad((mm: typeof model) => mm.forward(x).square().sum())(model);
    const gNnDict = gNn.stateDict();
    for (const k of Object.keys(m.weights)) expect(maxAbsDiff(gOnnx[k]!, gNnDict[k]!)).toBeLessThan(1e-5);
    const gx = grad((xx: Tensor) => m.forward({ x: xx })['y']!.sum())(x);
    const gxNn = grad((xx: Tensor) => model.forward(xx).sum())(x);
    expect(maxAbsDiff(gx, gxNn)).toBeLessThan(1e-5);
  });

  it('MLP: forward() under jit and func() as a graph Func give run()\'s values', () => {
    const m = io.loadOnnx(path.join(GOLDEN, 'mlp.onnx'));
    const x = ref['mlp_x']!;
    const f = jit((xx: Tensor) => m.forward({ x: xx })['y']!);
    expect(maxAbsDiff(f(x), ref['mlp_y']!)).toBeLessThan(1e-5);
    const func = m.func({ x: [4, 16] });
    expect(func.inputNames).toEqual(['x', ...Object.keys(m.weights)]);
    expect(func.paramNames).toEqual(Object.keys(m.weights));
    const out = func.compile().run({ x, ...m.weights }) as Record<string, Tensor>;
    expect(maxAbsDiff(out['y']!, ref['mlp_y']!)).toBeLessThan(1e-5);
  });

  it('encoder (opset 14, dynamic batch and sequence) matches PyTorch within 1e-5 at two shapes', () => {
    const m = io.loadOnnx(path.join(GOLDEN, 'encoder14.onnx'));
    expect(m.inputs).toEqual([{ name: 'x', dtype: 'float32', shape: ['batch', 'seq', 64] }]);
    expect(maxAbsDiff(m.run({ x: ref['enc_x']! })['y']!, ref['enc_y']!)).toBeLessThan(1e-5);
    expect(maxAbsDiff(m.run({ x: ref['enc_x2']! })['y']!, ref['enc_y2']!)).toBeLessThan(1e-5);
  });

  it('encoder (opset 17, LayerNormalization) matches PyTorch within 1e-5, and nn + safetensors agrees with it', () => {
    const m = io.loadOnnx(path.join(GOLDEN, 'encoder17.onnx'));
    const viaOnnx = m.run({ x: ref['enc_x']! })['y']!;
    expect(maxAbsDiff(viaOnnx, ref['enc_y']!)).toBeLessThan(1e-5);
    const model = encoder();
    model.loadStateDict(io.loadSafetensors(path.join(GOLDEN, 'encoder_state.safetensors')));
    const viaNn = model.forward(ref['enc_x']!);
    expect(maxAbsDiff(viaNn, ref['enc_y']!)).toBeLessThan(1e-5);
    expect(maxAbsDiff(viaNn, viaOnnx)).toBeLessThan(1e-5);
  });

  it('a wrong input is refused by name', () => {
    const m = io.loadOnnx(path.join(GOLDEN, 'mlp.onnx'));
    expect(() => m.run({ x: ref['enc_x']! })).toThrow(io.OnnxError);
    expect(() => m.run({ x: ref['enc_x']! })).toThrow(/input 'x' must have shape \[batch, 16\], got \[2, 5, 64\]/);
    expect(() => m.run({})).toThrow(/missing input 'x'/);
    expect(() => m.run({ x: ref['mlp_x']!, z: ref['mlp_x']! })).toThrow(/unknown input 'z'/);
  });
});
