// Initialisation: PyTorch's distributions (bounds and moments, since values
// cannot match torch's generator), keys (explicit, and the default stream that
// nn.manualSeed restarts), dtypes; and the callable-class pattern (factory,
// new, instanceof, extends).

import { describe, expect, it } from 'vitest';
import { random, grad, tensor, type Tensor } from '../../src/index.js';
import * as nn from '../../src/nn/index.js';
import { Module } from '../../src/nn/module.js';

const values = (t: Tensor): number[] => Array.from(t.toArray() as ArrayLike<number>);
const mean = (a: number[]): number => a.reduce((s, v) => s + v, 0) / a.length;
const variance = (a: number[]): number => {
  const m = mean(a);
  return a.reduce((s, v) => s + (v - m) ** 2, 0) / a.length;
};

/** U(-b, b): every sample inside, the extremes reached, mean 0 and variance b²/3 within 5 standard errors. */
function expectUniform(t: Tensor, b: number): void {
  const a = values(t);
  const n = a.length;
  expect(Math.max(...a.map(Math.abs))).toBeLessThanOrEqual(b);
  expect(Math.max(...a)).toBeGreaterThan(b * (1 - 20 / n));
  expect(Math.min(...a)).toBeLessThan(-b * (1 - 20 / n));
  expect(Math.abs(mean(a))).toBeLessThan((5 * b) / Math.sqrt(3 * n));
  // Var of U(-b, b) is b²/3; the sample variance's standard error is √(4/45)·b²/√n.
  expect(Math.abs(variance(a) - b * b / 3)).toBeLessThan((5 * Math.sqrt(4 / 45) * b * b) / Math.sqrt(n));
}

describe('nn initialisation (PyTorch distributions)', () => {
  it('Linear: weight and bias U(-1/√in, 1/√in), float32 by default', () => {
    const fc = nn.Linear(400, 300, { key: random.key(1) });
    expect(fc.weight.shape).toEqual([300, 400]);
    expect(fc.weight.dtype).toBe('float32');
    expectUniform(fc.weight, 1 / Math.sqrt(400));
    const wide = nn.Linear(25, 4000, { key: random.key(2), dtype: 'float64' });
    expect(wide.bias!.dtype).toBe('float64');
    expectUniform(wide.bias!, 1 / 5);
    expect(nn.Linear(3, 2, { bias: false }).bias).toBeNull();
  });

  it('Conv2d: U(-1/√fan_in, 1/√fan_in) with fan_in = inCh/groups·kh·kw', () => {
    const conv = nn.Conv2d(8, 64, [3, 2], { groups: 2, key: random.key(3) });
    expect(conv.weight.shape).toEqual([64, 4, 3, 2]);
    expectUniform(conv.weight, 1 / Math.sqrt(4 * 3 * 2));
    const many = nn.Conv2d(2, 3000, 1, { key: random.key(4) });
    expectUniform(many.bias!, 1 / Math.sqrt(2));
  });

  it('Embedding: N(0, 1); the padding row starts at zero', () => {
    const e = nn.Embedding(500, 40, { key: random.key(5), paddingIdx: -1 });
    const a = values(e.weight.slice({ kind: 'slice', axes: [{ kind: 'rg', start: 0, end: 499, step: 1 }] }));
    expect(Math.abs(mean(a))).toBeLessThan(5 / Math.sqrt(a.length));
    expect(Math.abs(variance(a) - 1)).toBeLessThan(5 * Math.sqrt(2 / a.length));
    expect(e.paddingIdx).toBe(499);
    expect(values(e.weight.select(0, 499))).toEqual([...Array(40)].map(() => 0));
  });

  it('LayerNorm ones and zeros; RMSNorm ones; no parameters without elementwiseAffine', () => {
    const ln = nn.LayerNorm([2, 3]);
    expect(ln.weight!.tolist()).toEqual([[1, 1, 1], [1, 1, 1]]);
    expect(ln.bias!.tolist()).toEqual([[0, 0, 0], [0, 0, 0]]);
    expect(nn.LayerNorm(4, { elementwiseAffine: false }).parameters()).toEqual([]);
    expect(Object.keys(nn.LayerNorm(4, { bias: false }).stateDict())).toEqual(['weight']);
    expect(nn.RMSNorm(3).weight!.tolist()).toEqual([1, 1, 1]);
  });

  it('MultiheadAttention: xavier-uniform in_proj_weight, zero biases, out_proj a Linear with U(-1/√E, 1/√E) weight and zero bias', () => {
    const E = 64;
    const mha = nn.MultiheadAttention(E, 4, { key: random.key(6) });
    expect(Object.keys(mha.stateDict())).toEqual(['in_proj_weight', 'in_proj_bias', 'out_proj.weight', 'out_proj.bias']);
    expect(mha.out_proj).toBeInstanceOf(nn.Linear);
    expectUniform(mha.in_proj_weight, Math.sqrt(6 / (E + 3 * E)));
    expectUniform(mha.out_proj.weight, 1 / Math.sqrt(E));
    expect(values(mha.in_proj_bias!).every((v) => v === 0)).toBe(true);
    expect(values(mha.out_proj.bias!).every((v) => v === 0)).toBe(true);
    expect(Object.keys(nn.MultiheadAttention(8, 2, { bias: false }).stateDict())).toEqual(['in_proj_weight', 'out_proj.weight']);
  });

  it("TransformerEncoderLayer: PyTorch's state-dict keys in PyTorch's order", () => {
    const layer = nn.TransformerEncoderLayer(8, 2, { dimFeedforward: 16 });
    expect(Object.entries(layer.stateDict()).map(([k, v]) => [k, v.shape])).toEqual([
      ['self_attn.in_proj_weight', [24, 8]],
      ['self_attn.in_proj_bias', [24]],
      ['self_attn.out_proj.weight', [8, 8]],
      ['self_attn.out_proj.bias', [8]],
      ['linear1.weight', [16, 8]],
      ['linear1.bias', [16]],
      ['linear2.weight', [8, 16]],
      ['linear2.bias', [8]],
      ['norm1.weight', [8]],
      ['norm1.bias', [8]],
      ['norm2.weight', [8]],
      ['norm2.bias', [8]],
    ]);
    expect(layer.dropout).toBeInstanceOf(nn.Dropout);
    expect(layer.dropout1.p).toBe(0.1);
  });
});

describe('nn keys', () => {
  it('the same key gives the same parameters, another key others', () => {
    const a = nn.Linear(4, 3, { key: random.key(9) });
    const b = nn.Linear(4, 3, { key: random.key(9) });
    const c = nn.Linear(4, 3, { key: random.key(10) });
    expect(values(a.weight)).toEqual(values(b.weight));
    expect(values(a.bias!)).toEqual(values(b.bias!));
    expect(values(a.weight)).not.toEqual(values(c.weight));
    expect(values(a.weight)).not.toEqual(values(a.bias!).concat(values(a.bias!), values(a.bias!), values(a.bias!)));
  });

  it('without a key: the default stream, restarted by manualSeed; consecutive layers differ', () => {
    nn.manualSeed(123);
    const first = [nn.Linear(3, 3), nn.Linear(3, 3)];
    nn.manualSeed(123);
    const again = [nn.Linear(3, 3), nn.Linear(3, 3)];
    expect(values(first[0]!.weight)).toEqual(values(again[0]!.weight));
    expect(values(first[1]!.weight)).toEqual(values(again[1]!.weight));
    expect(values(first[0]!.weight)).not.toEqual(values(first[1]!.weight));
    nn.manualSeed(124);
    expect(values(nn.Linear(3, 3).weight)).not.toEqual(values(first[0]!.weight));
    expect(() => nn.manualSeed(1.5)).toThrow(/seed must be an integer/);
  });

  it('parameters are computed buffers, not pending random ops', () => {
    expect(nn.Linear(3, 2).weight.isRealized).toBe(true);
    expect(nn.Embedding(3, 2).weight.isRealized).toBe(true);
  });
});

describe('nn layers are callable classes', () => {
  it('with or without new, instanceof the layer and Module, subclassable, rebuilt by grad as the same class', () => {
    const a = nn.Linear(2, 3);
    const b = new nn.Linear(2, 3);
    for (const m of [a, b]) {
      expect(m).toBeInstanceOf(nn.Linear);
      expect(m).toBeInstanceOf(Module);
      expect(m).not.toBeInstanceOf(nn.Conv2d);
    }
    class Scaled extends nn.Linear {
      override forward(x: Tensor): Tensor {
        return super.forward(x).mul(2);
      }
    }
    const s = new Scaled(2, 1, { dtype: 'float64' });
    s.loadStateDict({ weight: tensor([[1, 1]]), bias: tensor([0]) });
    expect(s.forward(tensor([[1, 2]])).tolist()).toEqual([[6]]);
    expect(s).toBeInstanceOf(nn.Linear);
    const g = grad((m: Scaled) => m.forward(tensor([[1, 2]])).sum())(s);
    expect(g).toBeInstanceOf(Scaled);
    expect(g.weight.tolist()).toEqual([[2, 4]]);
  });
});
