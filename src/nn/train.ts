// nn.train: the whole supervised training loop in one call, for users who want
// one (the loop it runs is the one the README writes out): mini-batches of
// {x, y} (io.batches, shuffled with an explicit key), one jitted step per
// batch (forward, loss, backward, optimizer update: compiled once), and per
// epoch the mean loss, the accuracy of the argmax when the targets are class
// indices, validation figures when a validation set is given, and images/s.
// A progress bar (src/progress.ts) shows the running loss on a TTY.
//
// The step donates the model and the optimizer state it is given (jit's
// donateArgnums): each step writes its new parameters and moments over the
// previous step's, which only this loop holds. The caller's model and state
// are copied once first, and onEpoch gets a copy, so nothing the caller holds
// is consumed.
//
// The running loss and hit count are summed on the device; the host reads them
// when the bar redraws (at most every 100 ms) and at the end of each epoch —
// not after every step, which would wait for each batch.
//
// amp: the forward runs under nn.amp.autocast (float32 master weights, the
// loss on float32 logits); with float16 the optimizer is wrapped in
// optim.withLossScaling (as PyTorch pairs autocast(float16) with GradScaler),
// all inside the one compiled step.

import type { Tensor } from '../tensor/tensor.js';
import { ValueError } from '../tensor/errors.js';
import { jit } from '../compiler/transforms/jit.js';
import { flatten, unflatten, type PyTreeOrNode } from '../compiler/transforms/pytree.js';
import { fromStorage } from '../tensor/create.js';
import { valueAndGrad } from '../compiler/transforms/grad.js';
import { foldIn, type Key } from '../tensor/random.js';
import { batches } from '../io/batches.js';
import { barFor, progressOption, type ProgressOption } from '../progress.js';
import type { Optimizer, OptimizerState } from '../optim/optimizer.js';
import { withLossScaling, type LossScalerOptions, type LossScalingOptimizer, type LossScaledState } from '../optim/loss-scale.js';
import { autocast, type AmpDtype } from './amp.js';
import { Module } from './module.js';
import { crossEntropy } from './functional/losses.js';

/** A labelled data set: inputs and targets sharing their first dimension. */
export interface Dataset {
  x: Tensor;
  y: Tensor;
}

export interface TrainOptions<M extends Module> {
  /** The optimizer (optim.adam({lr}), ...). */
  optimizer: Optimizer;
  /** loss(model output, targets) → scalar; default nn.functional.crossEntropy. */
  loss?: (output: Tensor, y: Tensor) => Tensor;
  /** Passes over the data (default 1). */
  epochs?: number;
  /** Default 64. */
  batchSize?: number;
  /** The key batches are shuffled with (epoch e uses foldIn(key, e)); required unless shuffle is false. */
  key?: Key;
  /** Default true. */
  shuffle?: boolean;
  /** Drop the last incomplete batch (default true: every step has the same shape, so one compile). */
  dropLast?: boolean;
  /** Data evaluated after each epoch (loss and, for class targets, accuracy). */
  validation?: Dataset;
  /** Optimizer state to continue from (default optimizer.init(model)). */
  state?: OptimizerState;
  /** A bar on stderr when it is a TTY (default), or ProgressOptions, or false. */
  progress?: ProgressOption;
  /** Called after each epoch with its figures (and the model so far). */
  onEpoch?: (e: EpochInfo, model: M) => void;
  /**
   * Mixed precision: the forward (and so the backward) in 'bfloat16' or 'float16' with the model's
   * float32 parameters as master weights, the loss on float32 logits (nn.amp.autocast). Validation runs the same forward.
   */
  amp?: AmpDtype;
  /**
   * Dynamic loss scaling (optim.withLossScaling, GradScaler's rule): true, false, or the scaler's options.
   * Default: on with amp 'float16', off otherwise (PyTorch's pairing). With it, `state` is withLossScaling's
   * state ({step, inner, scale, growthTracker}): pass such a state to continue a run.
   */
  lossScaling?: boolean | LossScalerOptions;
}

/** One epoch's figures. */
export interface EpochInfo {
  epoch: number;
  /** Mean training loss over the epoch's batches. */
  loss: number;
  /** Training accuracy (argmax of the output vs class-index targets), when the targets are integers. */
  accuracy?: number;
  valLoss?: number;
  valAccuracy?: number;
  /** Training examples per second over the epoch (host time, steps included). */
  imagesPerSecond: number;
  /** With loss scaling: the scale at the end of the epoch. */
  lossScale?: number;
  /** With loss scaling: the epoch's steps skipped for an inf/NaN gradient (the scale backed off on each). */
  skippedSteps?: number;
}

export interface TrainResult<M extends Module> {
  model: M;
  state: OptimizerState;
  history: EpochInfo[];
  /** Times the training step was traced and compiled (1 unless shapes changed). */
  compiles: number;
}

/** Integer targets are class indices (accuracy is reported); float targets are regression or probabilities. */
const isClassTarget = (y: Tensor) => (['int32', 'int8', 'uint8'] as string[]).includes(y.dtype);

/**
 * Trains `model` on {x, y} with `opts.optimizer`: shuffled mini-batches, one
 * compiled step per batch, per-epoch loss/accuracy (and validation), a progress bar.
 * @example
 * ```ts
 * const x = random.uniform(random.key(0), [64, 2]);
 * const y = x.sum(-1).gt(1).cast('int32');                       // class 1 above the diagonal
 * const model = nn.Sequential(nn.Linear(2, 8, { key: random.key(1), dtype: 'float64' }), nn.Tanh(), nn.Linear(8, 2, { key: random.key(2), dtype: 'float64' }));
 * const r = nn.train(model, { x, y }, { optimizer: optim.adam({ lr: 0.05 }), epochs: 30, batchSize: 16, key: random.key(3), progress: false });
 * r.history[29]!.accuracy! > 0.9;   // true
 * r.compiles;                       // 1
 * ```
 */
export function train<M extends Module>(model: M, data: Dataset, opts: TrainOptions<M>): TrainResult<M> {
  if (!(model instanceof Module)) throw new ValueError(`nn.train: model must be an nn.Module, got ${model === null ? 'null' : typeof model}`);
  if (!data || typeof data !== 'object' || !data.x || !data.y) throw new ValueError('nn.train: data must be {x, y} tensors');
  if (!opts || typeof opts.optimizer?.step !== 'function') throw new ValueError('nn.train: opts.optimizer must be an optimizer (optim.adam({lr}), ...)');
  const epochs = opts.epochs ?? 1;
  const batchSize = opts.batchSize ?? 64;
  if (!Number.isInteger(epochs) || epochs < 0) throw new ValueError(`nn.train: epochs must be a non-negative integer, got ${String(epochs)}`);
  const shuffle = opts.shuffle ?? true;
  if (shuffle && opts.key === undefined) throw new ValueError('nn.train: shuffling needs an explicit random key ({key: random.key(seed)}), or pass shuffle: false');
  const lossFn = opts.loss ?? ((out: Tensor, y: Tensor) => crossEntropy(out, y));
  const classes = isClassTarget(data.y);
  const amp = opts.amp;
  if (amp !== undefined && amp !== 'bfloat16' && amp !== 'float16') throw new ValueError(`nn.train: amp must be 'bfloat16' or 'float16', got ${typeof amp === 'string' ? `'${amp}'` : String(amp)}`);
  const ls = opts.lossScaling ?? amp === 'float16';
  if (typeof ls !== 'boolean' && (ls === null || typeof ls !== 'object')) throw new ValueError(`nn.train: lossScaling must be true, false or the loss scaler's options, got ${ls === null ? 'null' : typeof ls}`);
  const scaled: LossScalingOptimizer | undefined = ls === false ? undefined : withLossScaling(opts.optimizer, ls === true ? {} : ls);
  const opt: Optimizer = scaled ?? opts.optimizer;
  const prog = progressOption('nn.train', opts.progress);
  const forward = amp ? autocast((mm: Module, x: Tensor) => mm.forward(x) as Tensor, amp) : (mm: Module, x: Tensor) => mm.forward(x) as Tensor;

  // The forward pass's output comes back as valueAndGrad's aux, so the hits are counted without a second forward.
  const lossAndHits = (mm: Module, x: Tensor, y: Tensor): [Tensor, Tensor] => {
    const out = forward(mm, x);
    const loss = lossFn(out, y);
    return [loss, classes ? out.argmax(-1).eq(y).cast('float64').sum() : loss.mul(0)];
  };
  const step = jit((m: Module, s: OptimizerState, x: Tensor, y: Tensor) => {
    // With loss scaling the scaled loss is differentiated and the unscaled one reported.
    const [[, [loss, hits]], g] = valueAndGrad(
      (mm: Module) => {
        const [l, h] = lossAndHits(mm, x, y);
        return [scaled ? scaled.scale(l, s as LossScaledState) : l, [l, h]] as [Tensor, [Tensor, Tensor]];
      },
      { hasAux: true },
    )(m);
    const r = opt.step(m, g, s);
    return [loss, r.params, r.state, hits] as const;
  }, { donateArgnums: [0, 1] });
  const evaluate = jit((m: Module, x: Tensor, y: Tensor) => {
    const out = forward(m, x);
    const loss = lossFn(out, y).mul(x.shape[0]!);
    return classes ? [loss, out.argmax(-1).eq(y).cast('float64').sum()] : [loss];
  });

  let m: Module = ownCopy(model);
  let state = opts.state !== undefined ? ownCopy(opts.state) : opt.init(m);
  if (scaled && !((state as Partial<LossScaledState>).inner instanceof Object && (state as Partial<LossScaledState>).scale instanceof Object))
    throw new ValueError('nn.train: with loss scaling, state must be a withLossScaling state ({step, inner, scale, growthTracker}), as a loss-scaled run returns it');
  const history: EpochInfo[] = [];
  const skippedSoFar = () => {
    const st = state as LossScaledState;
    return (st.step.item() as number) - (st.inner.step.item() as number);
  };
  let skippedBefore = scaled ? skippedSoFar() : 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    const data$ = batches({ x: data.x, y: data.y }, { batchSize, shuffle, key: shuffle ? foldIn(opts.key!, epoch) : undefined, dropLast: opts.dropLast ?? true });
    const bar = barFor(prog, `epoch ${epoch + 1}/${epochs}`, data$.length);
    const t0 = performance.now();
    let lossSum: Tensor | undefined, correct: Tensor | undefined;
    let seen = 0,
      steps = 0;
    for (const b of data$) {
      const [loss, nextModel, nextState, hits] = step(m, state, b.x, b.y);
      m = nextModel;
      state = nextState;
      lossSum = lossSum ? lossSum.add(loss) : loss;
      if (classes) correct = correct ? correct.add(hits) : hits;
      seen += b.x.shape[0]!;
      steps++;
      // Sum on the device, read back only when the bar redraws: realize keeps the running sums from growing into long graphs.
      lossSum = lossSum.realize();
      if (correct) correct = correct.realize();
      if (bar) bar.update(steps, () => `loss ${((lossSum!.item() as number) / steps).toFixed(4)}`);
    }
    const seconds = (performance.now() - t0) / 1000;
    const info: EpochInfo = { epoch, loss: steps ? (lossSum!.item() as number) / steps : NaN, imagesPerSecond: seen / seconds };
    if (classes && correct) info.accuracy = (correct.item() as number) / seen;
    if (scaled) {
      const skipped = skippedSoFar();
      Object.assign(info, { lossScale: (state as LossScaledState).scale.item() as number, skippedSteps: skipped - skippedBefore });
      skippedBefore = skipped;
    }
    if (opts.validation) Object.assign(info, validate(evaluate, m, opts.validation, batchSize, classes));
    bar?.done(`loss ${info.loss.toFixed(4)}${info.accuracy !== undefined ? `, accuracy ${(100 * info.accuracy).toFixed(2)} %` : ''}, ${info.imagesPerSecond.toFixed(0)} images/s`);
    history.push(info);
    opts.onEpoch?.(info, ownCopy(m) as M);
  }
  return { model: m as M, state, history, compiles: step.compiles };
}

/** Loss and accuracy of `m` on a data set, in batches (the last one may be smaller: a second compile at most). */
function validate(evaluate: (m: Module, x: Tensor, y: Tensor) => unknown, m: Module, d: Dataset, batchSize: number, classes: boolean): Pick<EpochInfo, 'valLoss' | 'valAccuracy'> {
  let loss = 0,
    correct = 0;
  const n = d.x.shape[0]!;
  for (const b of batches({ x: d.x, y: d.y }, { batchSize: Math.max(batchSize, 256) })) {
    const r = evaluate(m, b.x, b.y) as Tensor[];
    loss += r[0]!.item() as number;
    if (classes) correct += r[1]!.item() as number;
  }
  return classes ? { valLoss: loss / n, valAccuracy: correct / n } : { valLoss: loss / n };
}

/** The same pytree with every tensor copied into memory of its own: what the donating step may consume. */
function ownCopy<T>(t: T): T {
  const { leaves, def } = flatten(t as PyTreeOrNode);
  return unflatten(
    def,
    leaves.map((l) => fromStorage(l.realize().node.data!.slice(), l.shape, l.dtype, l.node.device)),
  ) as T;
}
