// The accuracy cost of mixed precision: the Fashion-MNIST MLP of
// examples/fashion-mnist.mjs (784-256-10, Adam 1e-3, batch 128) trained by
// nn.train in float32, with amp 'bfloat16' and with amp 'float16' (dynamic loss
// scaling, PyTorch's pairing), over several seeds; the same initial weights and
// batch order for each precision at a seed. Printed: test accuracy of the
// float32 master weights, test accuracy with the AMP forward (how the model
// would be served), the last epoch's mean training loss, and for float16 the
// final loss scale and the steps skipped for an overflow. --unscaled adds a
// row 'float16-unscaled' (amp float16 with lossScaling: false): what the loss
// scale buys on this model.
//
// float16/bfloat16 are storage types in rlx (each op computes in float32 and
// rounds what it stores to 16 bits), so this measures the numerics of AMP, not
// its speed: on a CPU the casts make it slower, not faster.
//   node examples/amp-mnist.mjs [--epochs 2] [--train 60000] [--seeds 0,1,2] [--unscaled] [--precisions float32,float16]

import * as rlx from '../dist/index.js';
import { isMain } from './_script.mjs';
import { load } from './fashion-mnist.mjs';
const { nn, optim, io, jit, random } = rlx;

export const PRECISIONS = ['float32', 'bfloat16', 'float16'];

/** Accuracy on (x, y) in batches of 1000, with the float32 forward or under autocast(amp). */
function accuracy(model, { x, y, n }, amp) {
  const fwd = amp ? nn.amp.autocast((m, xb) => m.forward(xb), amp) : (m, xb) => m.forward(xb);
  const predict = jit((m, xb) => fwd(m, xb).argmax(-1));
  let correct = 0;
  for (const b of io.batches({ x, y }, { batchSize: 1000 })) correct += predict(model, b.x).eq(b.y).cast('int32').sum().item();
  return correct / n;
}

/** One training run; `precision` is 'float32', 'bfloat16', 'float16' or 'float16-unscaled' (no loss scaling). */
export function trainOne({ precision, seed, train, test, epochs = 2, batchSize = 128, hidden = 256, lr = 1e-3 }) {
  const key = random.key(seed);
  const initKey = random.foldIn(key, 0);
  const model = nn.Sequential(nn.Linear(784, hidden, { key: random.foldIn(initKey, 0) }), nn.ReLU(), nn.Linear(hidden, 10, { key: random.foldIn(initKey, 1) }));
  const amp = precision === 'float32' ? undefined : precision === 'float16-unscaled' ? 'float16' : precision;
  const t0 = performance.now();
  const r = nn.train(model, { x: train.x, y: train.y }, { optimizer: optim.adam({ lr }), epochs, batchSize, key: random.foldIn(key, 1), amp, lossScaling: precision === 'float16', progress: false });
  const seconds = (performance.now() - t0) / 1000;
  const last = r.history[r.history.length - 1];
  return {
    precision,
    seed,
    testAccuracy: accuracy(r.model, test),
    ampTestAccuracy: amp ? accuracy(r.model, test, amp) : undefined,
    loss: last.loss,
    lossScale: last.lossScale,
    skippedSteps: r.history.reduce((n, h) => n + (h.skippedSteps ?? 0), 0),
    weightDtype: r.model.layers[0].weight.dtype,
    compiles: r.compiles,
    seconds,
  };
}

export function run({ epochs = 2, trainLimit = 60000, testLimit = 10000, seeds = [0, 1, 2], precisions = PRECISIONS, log = () => {} } = {}) {
  const train = load('train', trainLimit);
  const test = load('test', testLimit);
  const rows = [];
  for (const seed of seeds) {
    for (const precision of precisions) {
      const r = trainOne({ precision, seed, train, test, epochs });
      log(`seed ${seed} ${precision.padEnd(8)}  test ${(100 * r.testAccuracy).toFixed(2)} %${r.ampTestAccuracy !== undefined ? ` (amp forward ${(100 * r.ampTestAccuracy).toFixed(2)} %)` : ''}  loss ${r.loss.toFixed(4)}${r.lossScale !== undefined ? `  scale ${r.lossScale}, ${r.skippedSteps} skipped` : ''}  ${r.seconds.toFixed(0)} s`);
      rows.push(r);
    }
  }
  const summary = precisions.map((precision) => {
    const rs = rows.filter((r) => r.precision === precision);
    const mean = (f) => rs.reduce((a, r) => a + f(r), 0) / rs.length;
    const base = rows.filter((r) => r.precision === 'float32');
    // the accuracy change against float32 at the same seed, averaged
    const delta = base.length === rs.length ? mean((r) => r.testAccuracy - base.find((b) => b.seed === r.seed).testAccuracy) : undefined;
    return {
      precision,
      meanTestAccuracy: mean((r) => r.testAccuracy),
      minTestAccuracy: Math.min(...rs.map((r) => r.testAccuracy)),
      maxTestAccuracy: Math.max(...rs.map((r) => r.testAccuracy)),
      meanAmpTestAccuracy: precision === 'float32' ? undefined : mean((r) => r.ampTestAccuracy),
      meanDeltaVsFloat32: delta,
      meanLoss: mean((r) => r.loss),
    };
  });
  return { rows, summary };
}

/** The summary as a Markdown table. */
export function table(summary) {
  const pct = (v) => (v === undefined ? '—' : `${(100 * v).toFixed(2)} %`);
  const lines = ['| precision | test accuracy, mean (min–max) | Δ vs float32 (same seed) | with the AMP forward | last-epoch loss |', '|---|---|---|---|---|'];
  for (const s of summary) {
    const d = s.meanDeltaVsFloat32 === undefined || s.precision === 'float32' ? '—' : `${s.meanDeltaVsFloat32 >= 0 ? '+' : ''}${(100 * s.meanDeltaVsFloat32).toFixed(2)} pt`;
    lines.push(`| ${s.precision} | ${pct(s.meanTestAccuracy)} (${pct(s.minTestAccuracy)}–${pct(s.maxTestAccuracy)}) | ${d} | ${pct(s.meanAmpTestAccuracy)} | ${s.meanLoss.toFixed(4)} |`);
  }
  return lines.join('\n');
}

if (isMain(import.meta.url)) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i < 0 ? dflt : process.argv[i + 1];
  };
  const precisions = arg('precisions', undefined)?.split(',') ?? (process.argv.includes('--unscaled') ? [...PRECISIONS, 'float16-unscaled'] : PRECISIONS);
  const r = run({ epochs: Number(arg('epochs', 2)), trainLimit: Number(arg('train', 60000)), seeds: String(arg('seeds', '0,1,2')).split(',').map(Number), precisions, log: console.log });
  console.log(`\n${table(r.summary)}`);
}
