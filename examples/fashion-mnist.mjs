// Fashion-MNIST with a two-layer perceptron: the training loop of issue 18 as
// written there, compiled once (forward, backward and the Adam update as one
// jitted graph), on Debian's dataset-fashion-mnist IDX files.
//
// What is checked: test accuracy after the given epochs (≥ 85 % after 2
// epochs of the full 60,000 images at the defaults), a loss that falls, and
// one compile for the whole run (no retracing per step).
//   node examples/fashion-mnist.mjs [--epochs 2] [--train 60000] [--plot out.html]

import * as rlx from '../dist/index.js';
import { isMain } from './_script.mjs';
const { nn, optim, io, jit, valueAndGrad, random, s, rg } = rlx;

export const DATA = '/usr/share/datasets/fashion-mnist';

/** Fashion-MNIST's pixel mean and standard deviation over the training set (of pixel / 255): inputs are standardized with them. */
export const PIXEL_MEAN = 0.286, PIXEL_STD = 0.353;

/** Images as standardized float32, flattened to [n, 784], and int32 labels; the first `limit` of the file. */
export function load(split, limit = Infinity) {
  const prefix = split === 'train' ? 'train' : 't10k';
  let x = io.readIdx(`${DATA}/${prefix}-images-idx3-ubyte.gz`);
  let y = io.readIdx(`${DATA}/${prefix}-labels-idx1-ubyte.gz`);
  const n = Math.min(limit, x.shape[0]);
  x = x.slice(s(rg(0, n))).reshape([n, 784]).cast('float32').div(255).sub(PIXEL_MEAN).div(PIXEL_STD).realize();
  y = y.slice(s(rg(0, n))).cast('int32').realize();
  return { x, y, n };
}

/** Accuracy of `model` on (x, y), in batches of 1000 (argmax of the logits). */
export function accuracy(model, { x, y, n }) {
  const predict = jit((m, xb) => m.forward(xb).argmax(-1));
  let correct = 0;
  for (const b of io.batches({ x, y }, { batchSize: 1000 })) correct += predict(model, b.x).eq(b.y).cast('int32').sum().item();
  return correct / n;
}

export function run({ epochs = 2, trainLimit = 60000, testLimit = 10000, batchSize = 128, hidden = 256, lr = 1e-3, seed = 0, log = () => {} } = {}) {
  const train = load('train', trainLimit);
  const test = load('test', testLimit);
  const key = random.key(seed);
  const initKey = random.foldIn(key, 0),
    shuffleKey = random.foldIn(key, 1);
  const model0 = nn.Sequential(nn.Linear(784, hidden, { key: random.foldIn(initKey, 0) }), nn.ReLU(), nn.Linear(hidden, 10, { key: random.foldIn(initKey, 1) }));

  const opt = optim.adam({ lr });
  let model = model0;
  let state = opt.init(model);
  const step = jit((m, s, x, y) => {
    const [loss, g] = valueAndGrad((mm) => nn.functional.crossEntropy(mm.forward(x), y))(m);
    const r = opt.step(m, g, s);
    return [loss, r.params, r.state];
  });

  const losses = [];
  const t0 = performance.now();
  let images = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    let sum = 0,
      count = 0;
    for (const b of io.batches({ x: train.x, y: train.y }, { batchSize, shuffle: true, key: random.foldIn(shuffleKey, epoch), dropLast: true })) {
      const [loss, m, s] = step(model, state, b.x, b.y);
      model = m;
      state = s;
      sum += loss.item();
      count++;
      images += batchSize;
    }
    losses.push(sum / count);
    log(`epoch ${epoch + 1}: mean loss ${(sum / count).toFixed(4)}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  return { model, losses, testAccuracy: accuracy(model, test), imagesPerSecond: images / seconds, compiles: step.compiles };
}

if (isMain(import.meta.url)) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i < 0 ? dflt : Number(process.argv[i + 1]);
  };
  const r = run({ epochs: arg('epochs', 2), trainLimit: arg('train', 60000), log: console.log });
  console.log(`test accuracy ${(100 * r.testAccuracy).toFixed(2)} %, ${r.imagesPerSecond.toFixed(0)} images/s, ${r.compiles} compile(s)`);
}
