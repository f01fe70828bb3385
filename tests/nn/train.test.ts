// nn.train (src/nn/train.ts): one call trains a classifier with one compile,
// reports per-epoch figures that agree with an independent evaluation, draws
// its bar only on a TTY, and rejects bad input with typed errors.
import { describe, expect, it } from 'vitest';
import { nn, optim, random, tensor, tree, ValueError, type Tensor } from '../../src/index.js';

/** Two Gaussian blobs in 2-D (class 0 around (−1, −1), class 1 around (1, 1)), float64. */
function blobs(n: number, seed: number) {
  const noise = random.normal(random.key(seed), [n, 2], { dtype: 'float64' }).mul(0.5);
  const y = tensor(Int32Array.from({ length: n }, (_, i) => i % 2));
  const centre = y.cast('float64').mul(2).sub(1).reshape([n, 1]);
  return { x: noise.add(centre), y };
}
const mlp = () => nn.Sequential(nn.Linear(2, 8, { key: random.key(1), dtype: 'float64' }), nn.Tanh(), nn.Linear(8, 2, { key: random.key(2), dtype: 'float64' }));

describe('nn.train', () => {
  it('learns separable blobs with one compile; the reported accuracy equals a recount with the returned model', () => {
    const train = blobs(256, 3), val = blobs(128, 4);
    const epochs: number[] = [];
    const r = nn.train(mlp(), train, { optimizer: optim.adam({ lr: 0.05 }), epochs: 5, batchSize: 32, key: random.key(5), validation: val, progress: false, onEpoch: (e) => epochs.push(e.epoch) });
    expect(epochs).toEqual([0, 1, 2, 3, 4]);
    expect(r.compiles).toBe(1);
    expect(r.history[4]!.loss).toBeLessThan(r.history[0]!.loss);
    expect(r.history[4]!.accuracy!).toBeGreaterThan(0.95);
    const pred = (r.model.forward(val.x) as Tensor).argmax(-1);
    const recount = (pred.eq(val.y).cast('int32').sum().item() as number) / 128;
    expect(r.history[4]!.valAccuracy).toBeCloseTo(recount, 12);
    // validation loss = crossEntropy of the whole set (the per-batch sums are exact multiples)
    expect(r.history[4]!.valLoss).toBeCloseTo(nn.functional.crossEntropy(r.model.forward(val.x) as Tensor, val.y).item() as number, 10);
    expect(r.history[4]!.imagesPerSecond).toBeGreaterThan(0);
  });

  it('is deterministic for a key, and continues from a returned state', () => {
    const d = blobs(64, 6);
    const run = () => nn.train(mlp(), d, { optimizer: optim.sgd({ lr: 0.1, momentum: 0.9 }), epochs: 2, batchSize: 16, key: random.key(7), progress: false });
    const a = run(), b = run();
    expect(a.history.map((h) => h.loss)).toEqual(b.history.map((h) => h.loss));
    const c = nn.train(a.model, d, { optimizer: optim.sgd({ lr: 0.1, momentum: 0.9 }), epochs: 1, batchSize: 16, key: random.key(8), state: a.state, progress: false });
    expect((c.state.step as Tensor).item()).toBe(12); // 2 epochs × 4 batches, then 4 more
  });

  it("donates only its own copies: the caller's model and state and the models onEpoch got stay readable and unchanged", () => {
    const d = blobs(64, 14);
    const model = mlp();
    const opt = optim.adam({ lr: 0.05 });
    const state = opt.init(model);
    const before = (t: unknown) => (tree.leaves(t as never) as Tensor[]).map((l) => Array.from(l.toArray() as Float64Array));
    const [m0, s0] = [before(model), before(state)];
    const seen: nn.Module[] = [];
    const r = nn.train(model, d, { optimizer: opt, state, epochs: 3, batchSize: 16, key: random.key(15), progress: false, onEpoch: (_e, m) => seen.push(m) });
    expect(before(model)).toEqual(m0);
    expect(before(state)).toEqual(s0);
    expect(seen).toHaveLength(3);
    // Each epoch's model is its own: later epochs (whose steps donate the loop's model) left it as it was.
    const snap = seen.map((m) => before(m));
    expect(snap[0]).not.toEqual(snap[2]);
    expect(snap[2]).toEqual(before(r.model));
    expect(((r.state as { step: Tensor }).step).item()).toBe(12);
  });

  it('regression targets: a custom loss, no accuracy', () => {
    const x = random.uniform(random.key(9), [64, 1], { dtype: 'float64' });
    const y = x.mul(3).add(1);
    const model = nn.Linear(1, 1, { key: random.key(10), dtype: 'float64' });
    const r = nn.train(model, { x, y }, { optimizer: optim.adam({ lr: 0.1 }), loss: (o, t) => nn.functional.mseLoss(o, t), epochs: 150, batchSize: 16, key: random.key(11), progress: false });
    expect(r.history[0]!.accuracy).toBeUndefined();
    expect(r.model.weight.item()).toBeCloseTo(3, 1);
    expect(r.model.bias!.item()).toBeCloseTo(1, 1);
  });

  it('draws a bar on a TTY stream and nothing otherwise', () => {
    const d = blobs(32, 12);
    const lines: string[] = [];
    const stream = { isTTY: true, columns: 100, write: (s: string) => (lines.push(s), true) };
    nn.train(mlp(), d, { optimizer: optim.adam({ lr: 0.01 }), epochs: 1, batchSize: 8, key: random.key(13), progress: { stream, intervalMs: 0 } });
    expect(lines.join('')).toMatch(/epoch 1\/1/);
    expect(lines.join('')).toMatch(/images\/s/);
    const quiet: string[] = [];
    nn.train(mlp(), d, { optimizer: optim.adam({ lr: 0.01 }), epochs: 1, batchSize: 8, key: random.key(13), progress: { stream: { isTTY: false, write: (s: string) => (quiet.push(s), true) } } });
    expect(quiet).toEqual([]);
  });

  it('typed errors: no key for shuffling, not a module, no optimizer', () => {
    const d = blobs(16, 14);
    expect(() => nn.train(mlp(), d, { optimizer: optim.adam({ lr: 0.01 }), progress: false })).toThrow(/explicit random key/);
    expect(() => nn.train({} as never, d, { optimizer: optim.adam({ lr: 0.01 }) })).toThrow(ValueError);
    expect(() => nn.train(mlp(), d, {} as never)).toThrow(/optimizer/);
  });
});
