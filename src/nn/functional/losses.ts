// Losses (torch.nn.functional.cross_entropy and mse_loss), with PyTorch's
// reductions and normalisations: a weighted 'mean' divides by the summed
// weights of the counted targets, label smoothing mixes in the uniform
// distribution, ignored targets count nowhere.

import { Tensor } from '../../tensor/tensor.js';
import { arange } from '../../tensor/create.js';
import { where } from '../../tensor/ops/elementwise.js';
import { isFloat } from '../../tensor/dtype.js';
import { DTypeError, IndexError, ShapeError, ValueError } from '../../tensor/errors.js';
import { checkFloatTensor, checkTensor } from './check.js';
import { logSoftmax } from './activations.js';

/** How per-element losses are combined: averaged, summed, or returned as they are. */
export type Reduction = 'mean' | 'sum' | 'none';

/** Options of crossEntropy (PyTorch's names, camelCase). */
export interface CrossEntropyOptions {
  /** 'mean' (default), 'sum' or 'none'. */
  reduction?: Reduction;
  /** ε in [0, 1]: the target becomes (1 - ε)·target + ε/C (default 0). */
  labelSmoothing?: number;
  /** A class index whose targets count nowhere (class-index targets only; PyTorch's default -100). */
  ignoreIndex?: number;
  /** A rescaling weight per class, [C]. */
  weight?: Tensor;
}

function checkReduction(op: string, r: unknown): Reduction {
  if (r !== 'mean' && r !== 'sum' && r !== 'none') throw new ValueError(`${op}: reduction must be 'mean', 'sum' or 'none', got ${String(r)}`);
  return r;
}

const sameShape = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((d, i) => d === b[i]);

/**
 * Cross entropy between logits `input` ([C], [N, C] or [N, C, d1, ...]) and `target`: class indices (an integer tensor of input's shape without the class axis) or class probabilities (a float tensor of input's shape).
 * @example
 * ```ts
 * const logits = tensor([[2, 0, 0], [0, 0, 0]]);
 * nn.functional.crossEntropy(logits, tensor([0, 2], { dtype: 'int32' }), { reduction: 'none' }).tolist();   // [0.23954476622188414, 1.0986122886681098]  (log(e² + 2) - 2, log 3)
 * nn.functional.crossEntropy(logits, tensor([[1, 0, 0], [0, 0, 1]]), { reduction: 'sum' }).item();   // 1.338157054889994  (the same two terms, summed)
 * ```
 */
export function crossEntropy(input: Tensor, target: Tensor, opts: CrossEntropyOptions = {}): Tensor {
  const op = 'crossEntropy';
  checkFloatTensor(op, 'input', input);
  checkTensor(op, 'target', target);
  if (input.ndim < 1) throw new ShapeError(`${op}: input must have a class axis ([C], [N, C] or [N, C, ...]), got a scalar`);
  const reduction = checkReduction(op, opts.reduction ?? 'mean');
  const ls = opts.labelSmoothing ?? 0;
  if (typeof ls !== 'number' || !(ls >= 0 && ls <= 1)) throw new ValueError(`${op}: labelSmoothing must be in [0, 1], got ${String(ls)}`);
  const classAxis = input.ndim === 1 ? 0 : 1;
  const C = input.shape[classAxis]!;
  // The weight as [1, C, 1, ...]: it broadcasts against the input along the class axis.
  let w: Tensor | undefined;
  if (opts.weight !== undefined) {
    w = checkFloatTensor(op, 'weight', opts.weight);
    if (!sameShape(w.shape, [C])) throw new ShapeError(`${op}: weight must have shape [${C}] (one per class), got [${w.shape}]`);
    w = w.reshape(input.shape.map((d, i) => (i === classAxis ? d : 1)));
  }
  const logp = logSoftmax(input, classAxis);

  if (isFloat(target.dtype)) {
    // Class probabilities.
    if (opts.ignoreIndex !== undefined) throw new ValueError(`${op}: ignoreIndex applies to class-index targets, not to probabilities (target is ${target.dtype})`);
    if (!sameShape(target.shape, input.shape)) throw new ShapeError(`${op}: a probability target must have the input's shape [${input.shape}], got [${target.shape}]`);
    const t = ls > 0 ? target.mul(1 - ls).add(ls / C) : target;
    const prod = w ? logp.mul(t).mul(w) : logp.mul(t);
    const per = prod.sum(classAxis).neg();
    if (reduction === 'none') return per;
    const total = per.sum();
    return reduction === 'sum' ? total : total.div(input.size / C);
  }

  // Class indices.
  if (target.dtype === 'bool' || target.dtype.startsWith('complex')) throw new DTypeError(`${op}: target must be class indices (an integer tensor) or probabilities (a float tensor), got ${target.dtype}`);
  const want = input.shape.filter((_, i) => i !== classAxis);
  if (!sameShape(target.shape, want)) throw new ShapeError(`${op}: class-index target must have shape [${want}] (the input [${input.shape}] without its class axis ${classAxis}), got [${target.shape}]`);
  const ignoreIndex = opts.ignoreIndex ?? -100;
  if (!Number.isInteger(ignoreIndex)) throw new ValueError(`${op}: ignoreIndex must be an integer, got ${ignoreIndex}`);
  if (target.isRealized) checkIndices(op, target, C, ignoreIndex);
  const classes = arange(C, { dtype: 'int32' }).reshape(input.shape.map((d, i) => (i === classAxis ? d : 1)));
  const tgt = target.cast('int32'); // any integer dtype; int32 compares with every ignoreIndex
  const oneHot = tgt.expandDims(classAxis).eq(classes);
  const counted = tgt.ne(ignoreIndex);
  const picked = where(oneHot, logp, 0).sum(classAxis); // logp[n, target[n]]
  const wy = w ? where(counted, where(oneHot, w, 0).sum(classAxis), 0) : undefined;
  const nllPer = where(counted, wy ? picked.mul(wy) : picked, 0).neg();
  const denominator = (): Tensor => (wy ? wy.sum() : counted.cast(input.dtype).sum());
  const reduce = (per: Tensor): Tensor => (reduction === 'none' ? per : reduction === 'sum' ? per.sum() : per.sum().div(denominator()));
  const nll = reduce(nllPer);
  if (ls === 0) return nll;
  const smoothPer = where(counted, (w ? logp.mul(w) : logp).sum(classAxis), 0).neg();
  return nll.mul(1 - ls).add(reduce(smoothPer).mul(ls / C));
}

/** Class indices known now (a realized target): each in [0, C) or the ignored index (PyTorch's check). */
function checkIndices(op: string, target: Tensor, C: number, ignoreIndex: number): void {
  const a = target.toArray() as ArrayLike<number>;
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (v !== ignoreIndex && !(v >= 0 && v < C)) throw new IndexError(`${op}: target ${v} at flat position ${i} is out of range for ${C} classes`);
  }
}

/**
 * Mean squared error between `input` and `target` of the same shape (reduction 'mean', 'sum' or 'none').
 * @example
 * ```ts
 * nn.functional.mseLoss(tensor([1, 2, 3]), tensor([1, 0, 0])).item();   // 4.333333333333333
 * ```
 */
export function mseLoss(input: Tensor, target: Tensor, opts: { reduction?: Reduction } = {}): Tensor {
  checkTensor('mseLoss', 'input', input);
  checkTensor('mseLoss', 'target', target);
  const reduction = checkReduction('mseLoss', opts.reduction ?? 'mean');
  if (!sameShape(input.shape, target.shape)) throw new ShapeError(`mseLoss: input [${input.shape}] and target [${target.shape}] must have the same shape`);
  const sq = input.sub(target).square();
  return reduction === 'none' ? sq : reduction === 'sum' ? sq.sum() : sq.mean();
}
