// Contract cases of rlx.tree and rlx.nn (issue 18): the tree utilities are
// differentiable and batchable wherever their f is; modules are checked through
// their forward passes (each layer's own file of tests compares with PyTorch).

import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import type { Table, InSpec } from './checks.js';

const U = (lo: number, hi: number, ...shape: number[]): InSpec => ({ shape, lo, hi });

const { tree, nn, random } = rlx;
const F = nn.functional;
const key = (i: number) => random.foldIn(random.key(13), i);
const f64 = { dtype: 'float64' as const };
/** A float64 tensor of fixed values (closed over: the inputs under test are the specs). */
const fixed = (shape: number[], k: number) => random.uniform(key(100 + k), shape, { dtype: 'float64', minval: -0.5, maxval: 0.5 });

export const nnCases: Table = {
  'tree.map': { specs: [U(-1, 1, 3)], f: (x: Tensor) => tree.map((a, b) => a.sin().mul(b), { a: x, b: [x] } as const, { a: x.add(1), b: [x] }).a },
  'tree.leaves': { specs: [U(-1, 1, 2, 2)], f: (x: Tensor) => tree.leaves([x, { y: x.mul(2) }])[1]!.exp() },
  'tree.flatten': { specs: [U(-1, 1, 3)], f: (x: Tensor) => tree.flatten({ p: x }).leaves[0]!.square() },
  'tree.unflatten': { specs: [U(-1, 1, 3)], f: (x: Tensor) => (tree.unflatten(tree.flatten({ p: x }).def, [x.cos()]) as { p: Tensor }).p },
  'tree.registerPytreeNode': { none: 'compiler' },
  'nn.Module': { none: 'class' },
  'nn.manualSeed': { none: 'key' },
  'nn.train': { none: 'readout' },
  'nn.amp.autocast': { none: 'precision' },

  // ---- layers: forward as a function of the input (float64 parameters from fixed keys) ----
  'nn.Linear': { specs: [U(-1, 1, 2, 3)], f: (x: Tensor) => nn.Linear(3, 2, { key: key(1), ...f64 }).forward(x) },
  'nn.Conv2d': { specs: [U(-1, 1, 1, 2, 5, 5)], f: (x: Tensor) => nn.Conv2d(2, 2, 3, { padding: 1, stride: 2, key: key(2), ...f64 }).forward(x) },
  'nn.LayerNorm': { specs: [U(-1, 1, 2, 4)], f: (x: Tensor) => nn.LayerNorm(4, f64).forward(x) },
  'nn.RMSNorm': { specs: [U(-1, 1, 2, 4)], f: (x: Tensor) => nn.RMSNorm(4, f64).forward(x) },
  'nn.Embedding': { specs: [U(-1, 1, 5, 3)], f: (w: Tensor) => { const e = nn.Embedding(5, 3, { key: key(3), ...f64 }); e.loadStateDict({ weight: w }); return e.forward(rlx.tensor([4, 0, 2], { dtype: 'int32' })); } },
  'nn.Dropout': { specs: [U(-1, 1, 6)], f: (x: Tensor) => nn.Dropout(0.5).forward(x, { key: key(4) }) },
  'nn.ReLU': { specs: [U(0.1, 1, 4)], f: (x: Tensor) => nn.ReLU().forward(x.sub(0.55)) },
  'nn.GELU': { specs: [U(-1, 1, 4)], f: (x: Tensor) => nn.GELU({ approximate: 'tanh' }).forward(x) },
  'nn.SiLU': { specs: [U(-1, 1, 4)], f: (x: Tensor) => nn.SiLU().forward(x) },
  'nn.Tanh': { specs: [U(-1, 1, 4)], f: (x: Tensor) => nn.Tanh().forward(x) },
  'nn.Sigmoid': { specs: [U(-1, 1, 4)], f: (x: Tensor) => nn.Sigmoid().forward(x) },
  'nn.Sequential': { specs: [U(-1, 1, 2, 3)], f: (x: Tensor) => nn.Sequential(nn.Linear(3, 4, { key: key(5), ...f64 }), nn.Tanh(), nn.Linear(4, 2, { key: key(6), ...f64 })).forward(x) },
  'nn.MultiheadAttention': { specs: [U(-1, 1, 3, 1, 4)], f: (x: Tensor) => nn.MultiheadAttention(4, 2, { key: key(7), ...f64 }).forward(x, x, x)[0] },
  'nn.TransformerEncoderLayer': {
    specs: [U(-1, 1, 1, 3, 4)],
    f: (x: Tensor) => nn.TransformerEncoderLayer(4, 2, { dimFeedforward: 6, activation: 'gelu', batchFirst: true, key: key(8), ...f64 }).eval().forward(x),
  },

  // ---- nn.functional ----
  'nn.functional.relu': { specs: [U(0.1, 1, 4)], f: (x: Tensor) => F.relu(x.sub(0.55)) },
  'nn.functional.gelu': { specs: [U(-1, 1, 4)], f: (x: Tensor) => F.gelu(x) },
  'nn.functional.silu': { specs: [U(-1, 1, 4)], f: (x: Tensor) => F.silu(x) },
  'nn.functional.softmax': { specs: [U(-1, 1, 2, 3)], f: (x: Tensor) => F.softmax(x) },
  'nn.functional.logSoftmax': { specs: [U(-1, 1, 2, 3)], f: (x: Tensor) => F.logSoftmax(x, 0) },
  'nn.functional.crossEntropy': [
    { label: 'class indices, label smoothing', specs: [U(-1, 1, 3, 4)], f: (x: Tensor) => F.crossEntropy(x, rlx.tensor([0, 3, 1], { dtype: 'int32' }), { labelSmoothing: 0.1 }) },
    { label: 'probabilities', specs: [U(-1, 1, 2, 3), U(0.1, 1, 2, 3)], f: (x: Tensor, p: Tensor) => F.crossEntropy(x, p.div(p.sum(-1, true))) },
  ],
  'nn.functional.mseLoss': { specs: [U(-1, 1, 3), U(-1, 1, 3)], f: (a: Tensor, b: Tensor) => F.mseLoss(a, b) },
  'nn.functional.linear': { specs: [U(-1, 1, 2, 3), U(-1, 1, 4, 3)], f: (x: Tensor, w: Tensor) => F.linear(x, w, fixed([4], 1)) },
  'nn.functional.layerNorm': { specs: [U(-1, 1, 2, 4)], f: (x: Tensor) => F.layerNorm(x, 4, { weight: fixed([4], 2), bias: fixed([4], 3) }) },
  'nn.functional.rmsNorm': { specs: [U(-1, 1, 2, 4)], f: (x: Tensor) => F.rmsNorm(x, [4]) },
  'nn.functional.embedding': { specs: [U(-1, 1, 4, 2)], f: (w: Tensor) => F.embedding(rlx.tensor([[3, 1], [0, 3]], { dtype: 'int32' }), w) },
  'nn.functional.dropout': { specs: [U(-1, 1, 5)], f: (x: Tensor) => F.dropout(x, 0.3, { key: key(9) }) },
  'nn.functional.scaledDotProductAttention': { specs: [U(-1, 1, 2, 3, 4), U(-1, 1, 2, 3, 4), U(-1, 1, 2, 3, 4)], f: (q: Tensor, k: Tensor, v: Tensor) => F.scaledDotProductAttention(q, k, v, { mask: 'causal' }) },
  'nn.functional.conv2d': { specs: [U(-1, 1, 1, 2, 4, 4), U(-1, 1, 3, 2, 2, 2)], f: (x: Tensor, w: Tensor) => F.conv2d(x, w, null, { dilation: 2 }) },
};
