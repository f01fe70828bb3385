// The layers under the transforms and in training: dropout's masks from
// explicit keys (statistics, reproducibility, its gradient), the issue's
// training loop (Sequential MLP, crossEntropy, valueAndGrad, optim.adam) under
// jit compiling once, vmap over unbatched inputs against the batched layers,
// and the training-mode paths of attention and the encoder layer.

import { describe, expect, it } from 'vitest';
import { tensor, ones, random, grad, valueAndGrad, jit, vmap, type Tensor, type PyTree } from '../../src/index.js';
import * as nn from '../../src/nn/index.js';
import * as optim from '../../src/optim/index.js';

const values = (t: Tensor): number[] => Array.from(t.toArray() as ArrayLike<number>);
const maxAbsDiff = (a: Tensor, b: Tensor): number => values(a).reduce((m, v, i) => Math.max(m, Math.abs(v - values(b)[i]!)), 0);

describe('nn.Dropout with explicit keys', () => {
  it('zeroes a fraction p, scales the rest by 1/(1 - p); the same key gives the same mask; eval and p = 0 pass x through', () => {
    const n = 20000,
      p = 0.3;
    const drop = nn.Dropout(p);
    const y = values(drop.forward(ones([n], { dtype: 'float64' }), { key: random.key(0) }));
    const zeros = y.filter((v) => v === 0).length;
    expect(y.every((v) => v === 0 || Math.abs(v - 1 / (1 - p)) < 1e-15)).toBe(true);
    // Binomial(n, p): 5 standard deviations.
    expect(Math.abs(zeros - n * p)).toBeLessThan(5 * Math.sqrt(n * p * (1 - p)));
    expect(values(drop.forward(ones([50]), { key: random.key(1) }))).toEqual(values(drop.forward(ones([50]), { key: random.key(1) })));
    expect(values(drop.forward(ones([50]), { key: random.key(1) }))).not.toEqual(values(drop.forward(ones([50]), { key: random.key(2) })));
    const x = tensor([1, -2, 3]);
    expect(drop.eval().forward(x)).toBe(x);
    expect(nn.Dropout(0).forward(x)).toBe(x);
    expect(nn.Dropout(1).forward(x, { key: random.key(0) }).tolist()).toEqual([0, -0, 0]);
  });

  it('the gradient is the mask scaled by 1/(1 - p)', () => {
    const key = random.key(3);
    const x = tensor([1, 2, 3, 4, 5, 6, 7, 8], { dtype: 'float64' });
    const y = nn.functional.dropout(x, 0.5, { key });
    const g = grad((xx: Tensor) => nn.functional.dropout(xx, 0.5, { key }).sum())(x);
    expect(values(g)).toEqual(values(y).map((v, i) => v / values(x)[i]!));
  });

  it('under jit a new key is a new input, not a recompile', () => {
    const f = jit((x: Tensor, k: Tensor) => nn.functional.dropout(x, 0.5, { key: k }));
    const a = f(ones([16]), random.key(0));
    const b = f(ones([16]), random.key(1));
    expect(f.compiles).toBe(1);
    expect(values(a)).toEqual(values(nn.functional.dropout(ones([16]), 0.5, { key: random.key(0) })));
    expect(values(a)).not.toEqual(values(b));
  });

  it('Sequential passes each child a key folded with its index', () => {
    const seq = nn.Sequential(nn.Dropout(0.5), nn.Dropout(0.5));
    const key = random.key(4);
    const x = ones([64], { dtype: 'float64' });
    const expected = nn.Dropout(0.5).forward(nn.Dropout(0.5).forward(x, { key: random.foldIn(key, 0) }), { key: random.foldIn(key, 1) });
    expect(values(seq.forward(x, { key }))).toEqual(values(expected));
    expect(() => seq.forward(x)).toThrow(/needs a random key/);
  });
});

describe('nn in training', () => {
  it("the issue's loop: Sequential MLP, crossEntropy, valueAndGrad and optim.adam under jit, compiled once, the loss falling", () => {
    const model = nn.Sequential(nn.Linear(8, 16, { key: random.key(0) }), nn.ReLU(), nn.Linear(16, 3, { key: random.key(1) }));
    const opt = optim.adam({ lr: 1e-2 });
    // optim's init/step are typed over PyTree, which leaves out modules (PyTreeOrNode has them): hence the casts.
    let state = opt.init(model as unknown as PyTree);
    const step = jit((m: nn.Sequential, s: typeof state, x: Tensor, y: Tensor) => {
      const [loss, g] = valueAndGrad((mm: nn.Sequential) => nn.functional.crossEntropy(mm.forward(x), y))(m);
      const r = opt.step(m as unknown as PyTree, g as unknown as PyTree, s);
      return [loss, r.params, r.state] as const;
    });
    const x = random.normal(random.key(2), [32, 8], { dtype: 'float32' });
    // Labels a linear rule of the inputs can learn.
    const y = x.matmul(random.normal(random.key(3), [8, 3], { dtype: 'float32' })).argmax(1).cast('int32');
    let m: nn.Sequential = model;
    const losses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const [loss, p, s] = step(m, state, x, y);
      losses.push(loss.item() as number);
      m = p as unknown as nn.Sequential;
      state = s as typeof state;
    }
    expect(step.compiles).toBe(1);
    expect(m).toBeInstanceOf(nn.Sequential);
    expect(m.layers[0]).toBeInstanceOf(nn.Linear);
    expect(losses[29]!).toBeLessThan(losses[0]! * 0.5);
  });

  it('MultiheadAttention and TransformerEncoderLayer in training: reproducible from the key, different from eval, the same as eval when dropout is 0', () => {
    const layer = nn.TransformerEncoderLayer(8, 2, { dimFeedforward: 16, dropout: 0.2, dtype: 'float64', key: random.key(5) });
    const x = random.normal(random.key(6), [4, 2, 8]);
    const a = layer.forward(x, { key: random.key(7) });
    expect(values(a)).toEqual(values(layer.forward(x, { key: random.key(7) })));
    const evalOut = layer.eval().forward(x);
    expect(maxAbsDiff(a, evalOut)).toBeGreaterThan(1e-3);
    const noDrop = nn.TransformerEncoderLayer(8, 2, { dimFeedforward: 16, dropout: 0, dtype: 'float64', key: random.key(5) });
    expect(maxAbsDiff(noDrop.forward(x), evalOut)).toBe(0);
    const mha = nn.MultiheadAttention(8, 2, { dropout: 0.5, dtype: 'float64', key: random.key(8) });
    const [, w] = mha.forward(x, x, x, { key: random.key(9), averageAttnWeights: false });
    const ws = values(w!);
    expect(ws.some((v) => v === 0)).toBe(true); // dropped weights
    expect(ws.every((v) => v >= 0)).toBe(true);
  });
});

describe('nn under vmap', () => {
  it('Conv2d on a batch of unbatched images equals the batched layer', () => {
    const conv = nn.Conv2d(2, 3, 3, { padding: 1, stride: [1, 2], dtype: 'float64', key: random.key(0) });
    const xs = random.normal(random.key(1), [4, 2, 5, 6]);
    const per = vmap((x: Tensor) => conv.forward(x))(xs);
    expect(per.shape).toEqual([4, 3, 5, 3]);
    expect(maxAbsDiff(per, conv.forward(xs))).toBeLessThan(1e-14);
  });

  it('MultiheadAttention on unbatched sequences equals the batched layer (batchFirst)', () => {
    const mha = nn.MultiheadAttention(8, 2, { batchFirst: true, dtype: 'float64', key: random.key(2) });
    const xs = random.normal(random.key(3), [3, 5, 8]);
    const per = vmap((x: Tensor) => mha.forward(x, x, x)[0])(xs);
    expect(maxAbsDiff(per, mha.forward(xs, xs, xs)[0])).toBeLessThan(1e-14);
  });

  it('per-example gradients of a Linear layer (vmap of grad) sum to the batch gradient', () => {
    const fc = nn.Linear(3, 2, { dtype: 'float64', key: random.key(4) });
    const xs = random.normal(random.key(5), [6, 3]);
    const perExample = vmap((x: Tensor) => grad((m: nn.Linear) => m.forward(x).square().sum())(fc).weight)(xs);
    const batch = grad((m: nn.Linear) => m.forward(xs).square().sum())(fc).weight;
    expect(maxAbsDiff(perExample.sum(0), batch)).toBeLessThan(1e-13);
  });
});
