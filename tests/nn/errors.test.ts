// Typed errors of the nn layers and functionals: each names the layer (or
// function), what it got and what it expected.

import { describe, expect, it } from 'vitest';
import { tensor, ones, zeros, random, ShapeError, ValueError, DTypeError, IndexError } from '../../src/index.js';
import * as nn from '../../src/nn/index.js';

const F = nn.functional;
const i32 = (v: number[]) => tensor(v, { dtype: 'int32' });

describe('nn typed errors', () => {
  it('Linear: input last dim ≠ inFeatures is a ShapeError naming the layer and both sizes', () => {
    const fc = nn.Linear(4, 2);
    expect(() => fc.forward(ones([3, 5]))).toThrow(ShapeError);
    expect(() => fc.forward(ones([3, 5]))).toThrow(/Linear: .*inFeatures = 4.*\[3,5\].*last dim 5/);
    expect(() => nn.Linear(0, 2)).toThrow(ValueError);
  });

  it('Conv2d: channel mismatch, bad groups, kernel larger than the input, bad options', () => {
    const conv = nn.Conv2d(3, 4, 3);
    expect(() => conv.forward(zeros([1, 2, 8, 8], { dtype: 'float32' }))).toThrow(/Conv2d: input has 2 channels .* expects 3/);
    expect(() => conv.forward(zeros([1, 3, 2, 2], { dtype: 'float32' }))).toThrow(ShapeError);
    expect(() => conv.forward(zeros([3, 8], { dtype: 'float32' }))).toThrow(ShapeError);
    expect(() => nn.Conv2d(3, 4, 3, { groups: 2 })).toThrow(/divisible by groups = 2/);
    expect(() => nn.Conv2d(3, 4, 3, { padding: 'same', stride: 2 })).toThrow(ValueError);
    expect(() => nn.Conv2d(3, 4, [3, 0] as never)).toThrow(ValueError);
  });

  it('norms: trailing dims that are not normalizedShape', () => {
    expect(() => nn.LayerNorm(4).forward(ones([2, 5]))).toThrow(/LayerNorm: input's trailing dims must be normalizedShape \[4\], got input shape \[2,5\]/);
    expect(() => nn.RMSNorm([2, 3]).forward(ones([3, 2]))).toThrow(ShapeError);
    expect(() => nn.LayerNorm(4).forward(tensor([[1, 2, 3, 4]], { dtype: 'int32' }))).toThrow(DTypeError);
  });

  it('Embedding: float indices, a bad paddingIdx; an out-of-range index when computed', () => {
    const e = nn.Embedding(5, 2);
    expect(() => e.forward(tensor([1, 2]))).toThrow(DTypeError);
    expect(() => nn.Embedding(5, 2, { paddingIdx: 5 })).toThrow(ValueError);
    expect(() => e.forward(i32([7])).toArray()).toThrow(IndexError);
  });

  it('Dropout and the layers with dropout: training without a key says to pass one or call eval()', () => {
    expect(() => nn.Dropout(0.2).forward(ones([3]))).toThrow(ValueError);
    expect(() => nn.Dropout(0.2).forward(ones([3]))).toThrow(/Dropout: .*pass \{ key \}.*eval\(\)/);
    expect(() => nn.Dropout(1.5)).toThrow(/probability/);
    const layer = nn.TransformerEncoderLayer(4, 2, { dimFeedforward: 8 });
    expect(() => layer.forward(ones([3, 4], { dtype: 'float32' }))).toThrow(/TransformerEncoderLayer: training with dropout = 0.1 needs a random key/);
    const mha = nn.MultiheadAttention(4, 2, { dropout: 0.5 });
    const x = ones([3, 4], { dtype: 'float32' });
    expect(() => mha.forward(x, x, x)).toThrow(/MultiheadAttention: training with dropout = 0.5/);
  });

  it('MultiheadAttention: embedDim not divisible by numHeads, wrong widths, wrong mask shapes', () => {
    expect(() => nn.MultiheadAttention(6, 4)).toThrow(/divisible by numHeads/);
    const mha = nn.MultiheadAttention(4, 2);
    const x = ones([3, 2, 4], { dtype: 'float32' });
    expect(() => mha.forward(ones([3, 2, 5], { dtype: 'float32' }), x, x)).toThrow(/query's last dim must be embedDim = 4/);
    expect(() => mha.forward(x, x, x, { attnMask: zeros([2, 3], { dtype: 'bool' }) })).toThrow(/attnMask must be \[L, S\] = \[3, 3\]/);
    expect(() => mha.forward(x, x, x, { keyPaddingMask: zeros([3, 2], { dtype: 'bool' }) })).toThrow(/keyPaddingMask must be \[2,3\]/);
    expect(() => mha.forward(x, x, x, { attnMask: zeros([3, 3], { dtype: 'int32' }) })).toThrow(DTypeError);
  });

  it('Sequential takes modules only', () => {
    expect(() => nn.Sequential(nn.ReLU(), (() => 1) as never)).toThrow(/Sequential: argument 1 must be a module/);
  });

  it('crossEntropy: target shapes, dtypes and indices; options', () => {
    const logits = ones([2, 3]);
    expect(() => F.crossEntropy(logits, i32([0, 1, 2]))).toThrow(/class-index target must have shape \[2\]/);
    expect(() => F.crossEntropy(logits, ones([2, 4]))).toThrow(/probability target must have the input's shape \[2,3\]/);
    expect(() => F.crossEntropy(logits, tensor([true, false]))).toThrow(DTypeError);
    expect(() => F.crossEntropy(logits, i32([0, 3]))).toThrow(/target 3 at flat position 1 is out of range for 3 classes/);
    expect(() => F.crossEntropy(logits, i32([0, -1]))).toThrow(IndexError);
    expect(F.crossEntropy(logits, i32([0, -1]), { ignoreIndex: -1 }).item()).toBeCloseTo(Math.log(3), 14);
    expect(() => F.crossEntropy(logits, ones([2, 3]), { ignoreIndex: 0 })).toThrow(/ignoreIndex applies to class-index targets/);
    expect(() => F.crossEntropy(logits, i32([0, 1]), { weight: ones([2]) })).toThrow(/weight must have shape \[3\]/);
    expect(() => F.crossEntropy(logits, i32([0, 1]), { reduction: 'avg' as never })).toThrow(/reduction must be/);
    expect(() => F.crossEntropy(logits, i32([0, 1]), { labelSmoothing: 2 })).toThrow(ValueError);
    expect(() => F.mseLoss(ones([2]), ones([3]))).toThrow(ShapeError);
  });

  it('scaledDotProductAttention and dropout: shapes, mask kinds, probabilities', () => {
    const q = ones([2, 3, 4]);
    expect(() => F.scaledDotProductAttention(q, ones([2, 5, 3]), ones([2, 5, 4]))).toThrow(/share their last dim/);
    expect(() => F.scaledDotProductAttention(q, q, ones([2, 4, 4]))).toThrow(/same sequence length/);
    expect(() => F.scaledDotProductAttention(q, q, q, { mask: 'upper' as never })).toThrow(ValueError);
    expect(() => F.scaledDotProductAttention(q, q, q, { mask: ones([4, 4]) })).toThrow(ShapeError);
    expect(() => F.scaledDotProductAttention(q, q, q, { dropoutP: 0.5 })).toThrow(/needs a random key/);
    expect(() => F.dropout(q, -0.1, { key: random.key(0) })).toThrow(/probability in \[0, 1\]/);
    expect(() => F.linear([1, 2] as never, ones([2, 2]))).toThrow(/input must be a Tensor/);
  });

  it('loadStateDict names missing, unexpected and mis-shaped PyTorch keys', () => {
    const mha = nn.MultiheadAttention(4, 2);
    const sd = mha.stateDict();
    const { ['out_proj.bias']: _drop, ...partial } = sd;
    expect(() => mha.loadStateDict(partial)).toThrow(/missing keys: out_proj.bias/);
    expect(() => mha.loadStateDict({ ...sd, 'out_proj.weight': ones([4, 5]) })).toThrow(/'out_proj.weight' has shape \[4,5\]/);
  });
});
