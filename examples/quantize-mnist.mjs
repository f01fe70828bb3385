// Quantizing the Fashion-MNIST MLP (784-256-10, examples/fashion-mnist.mjs):
// test accuracy of the float model, of INT8 and INT4 post-training
// quantization (quant.ptq, calibrated on training images), and of INT4
// quantization-aware training (quant.qat, trained with the same
// initialisation, data order and budget as the float model, then converted
// by quant.ptq). Every quantized model runs its Linear layers in integer
// arithmetic (quant.scaledMatmul: int8 × int8 → int32 GEMM for INT8, the
// group-wise INT4 GEMM for INT4, activations int8 with calibrated scales).
//   node examples/quantize-mnist.mjs [--epochs 2] [--train 60000] [--test 10000] [--seeds 3] [--group 128]

import * as rlx from '../dist/index.js';
import { isMain } from './_script.mjs';
import { load, accuracy } from './fashion-mnist.mjs';
const { nn, optim, io, random, quant } = rlx;

/** The MLP of examples/fashion-mnist.mjs, initialised from `seed`. */
export function mlp(seed, hidden = 256) {
  const initKey = random.foldIn(random.key(seed), 0);
  return nn.Sequential(nn.Linear(784, hidden, { key: random.foldIn(initKey, 0) }), nn.ReLU(), nn.Linear(hidden, 10, { key: random.foldIn(initKey, 1) }));
}

/** Trains `model` with Adam (lr 1e-3, batches of 128, shuffled from `seed`) for `epochs`. */
export function fit(model, train, { epochs, seed, batchSize = 128, lr = 1e-3 }) {
  const shuffleKey = random.foldIn(random.key(seed), 1);
  return nn.train(model, { x: train.x, y: train.y }, { optimizer: optim.adam({ lr }), epochs, batchSize, key: shuffleKey, progress: false }).model;
}

/**
 * Accuracies for one seed: float, INT8 PTQ, INT4 PTQ (group `groupSize`),
 * INT4 QAT (unless `qat` is false). Calibration: the first `calibration`
 * training images in batches of 256.
 */
export function run({ epochs = 2, trainLimit = 60000, testLimit = 10000, seed = 0, groupSize = 128, calibration = 2048, qat = true, train, test } = {}) {
  train ??= load('train', trainLimit);
  test ??= load('test', testLimit);
  const calib = [...io.batches({ x: train.x.slice(rlx.s(rlx.rg(0, Math.min(calibration, train.n)))) }, { batchSize: 256 })];
  const float = fit(mlp(seed), train, { epochs, seed });
  const int8 = quant.ptq(float, calib, { bits: 8 });
  const int4 = quant.ptq(float, calib, { bits: 4, groupSize });
  const models = { float, int8, int4 };
  if (qat) models.int4Qat = quant.ptq(fit(quant.qat(mlp(seed), { bits: 4, groupSize }), train, { epochs, seed }), calib);
  return { models, accuracy: Object.fromEntries(Object.entries(models).map(([k, m]) => [k, accuracy(m, test)])) };
}

if (isMain(import.meta.url)) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i < 0 ? dflt : Number(process.argv[i + 1]);
  };
  const epochs = arg('epochs', 2),
    seeds = arg('seeds', 3),
    groupSize = arg('group', 128);
  const train = load('train', arg('train', 60000));
  const test = load('test', arg('test', 10000));
  const pct = (v) => (100 * v).toFixed(2).padStart(6);
  let g1 = Math.min(groupSize, 784);
  while (784 % g1 || g1 % 2) g1--; // ptq's group size for the 784 inputs (an even divisor)
  console.log(`Fashion-MNIST MLP 784-256-10, ${epochs} epochs on ${train.n} images, test accuracy (%) on ${test.n} images; INT4 groups of ${g1} (first layer), ${Math.min(groupSize, 256)} (second)`);
  console.log('seed   float    INT8 PTQ        INT4 PTQ        INT4 QAT');
  for (let seed = 0; seed < seeds; seed++) {
    const t0 = performance.now();
    const { accuracy: a } = run({ epochs, seed, groupSize, train, test });
    const d = (v) => `${pct(v)} (${(100 * (v - a.float)).toFixed(2).padStart(5)})`;
    console.log(`${seed}    ${pct(a.float)}  ${d(a.int8)}  ${d(a.int4)}  ${d(a.int4Qat)}   ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}
