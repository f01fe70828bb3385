// Scaled dot-product attention (PyTorch 2's F.scaled_dot_product_attention,
// written out as its math reference): softmax(q·kᵀ·scale + mask)·v, with the
// mask kinds: none, causal, boolean (true = attend, PyTorch's convention for
// this function) and additive float. MultiheadAttention uses the same core
// (attend below), which also hands back the weights.

import { Tensor } from '../../tensor/tensor.js';
import { where } from '../../tensor/ops/elementwise.js';
import { arange } from '../../tensor/create.js';
import { isFloat } from '../../tensor/dtype.js';
import type { Key } from '../../tensor/random.js';
import { DTypeError, ShapeError, ValueError } from '../../tensor/errors.js';
import { broadcastShapes } from '../../tensor/shape.js';
import { checkFloatTensor, checkProbability, checkTensor } from './check.js';
import { softmax } from './activations.js';
import { dropoutAs } from './layers.js';

/** Which query–key pairs attend: all ('none'), key j ≤ query i ('causal'), a boolean tensor (true = attend) or a float tensor added to the scores. */
export type AttentionMask = 'none' | 'causal' | Tensor;

/** Options of scaledDotProductAttention. */
export interface AttentionOptions {
  /** Default 'none'; tensors broadcast against the scores [..., L, S]. */
  mask?: AttentionMask;
  /** Multiplies q·kᵀ; default 1/√E (E = q's last dim). */
  scale?: number;
  /** Dropout on the attention weights (default 0); needs `key` when > 0. */
  dropoutP?: number;
  /** The random key of the dropout mask. */
  key?: Key;
}

/** [L, S] booleans, true where key j ≤ query i (PyTorch's is_causal: the upper-left triangle). */
export function causalMask(L: number, S: number): Tensor {
  return arange(L, { dtype: 'int32' }).reshape([L, 1]).ge(arange(S, { dtype: 'int32' }).reshape([1, S]));
}

/** The attention output and its weights (softmax(q·kᵀ·scale + mask), after dropout). */
export function attend(op: string, q: Tensor, k: Tensor, v: Tensor, opts: AttentionOptions): { output: Tensor; weights: Tensor } {
  checkFloatTensor(op, 'query', q);
  checkFloatTensor(op, 'key', k);
  checkFloatTensor(op, 'value', v);
  if (q.ndim < 2 || k.ndim < 2 || v.ndim < 2) throw new ShapeError(`${op}: query, key and value must be at least 2-D [..., L, E], got [${q.shape}], [${k.shape}], [${v.shape}]`);
  const E = q.shape[q.ndim - 1]!,
    L = q.shape[q.ndim - 2]!,
    S = k.shape[k.ndim - 2]!;
  if (k.shape[k.ndim - 1] !== E) throw new ShapeError(`${op}: query and key must share their last dim, got [${q.shape}] and [${k.shape}]`);
  if (v.shape[v.ndim - 2] !== S) throw new ShapeError(`${op}: key and value must have the same sequence length (dim -2), got [${k.shape}] and [${v.shape}]`);
  const scale = opts.scale ?? 1 / Math.sqrt(E);
  if (typeof scale !== 'number' || !Number.isFinite(scale)) throw new ValueError(`${op}: scale must be a finite number, got ${String(scale)}`);
  const p = checkProbability(op, 'dropoutP', opts.dropoutP ?? 0);
  let scores = q.matmul(k.swapaxes(-1, -2)).mul(scale);
  const mask = opts.mask ?? 'none';
  if (mask === 'causal') {
    scores = where(causalMask(L, S), scores, -Infinity);
  } else if (mask instanceof Tensor) {
    broadcastShapes(op, mask.shape, scores.shape);
    if (mask.dtype === 'bool') scores = where(mask, scores, -Infinity);
    else if (isFloat(mask.dtype)) scores = scores.add(mask.cast(scores.dtype));
    else throw new DTypeError(`${op}: a mask tensor must be bool (true = attend) or float (added to the scores), got ${mask.dtype}`);
  } else if (mask !== 'none') {
    throw new ValueError(`${op}: mask must be 'none', 'causal' or a tensor, got ${String(mask)}`);
  }
  let weights = softmax(scores, -1);
  if (p > 0) weights = dropoutAs(op, weights, p, { key: opts.key });
  return { output: weights.matmul(v), weights };
}

/**
 * softmax(q·kᵀ·scale + mask)·v for q [..., L, E], k [..., S, E], v [..., S, Ev] → [..., L, Ev] (PyTorch's scaled_dot_product_attention; a boolean mask is true where attention is allowed).
 * @example
 * ```ts
 * const q = tensor([[1, 0], [0, 1]]), v = tensor([[1], [3]]);
 * nn.functional.scaledDotProductAttention(q, q, v, { mask: 'causal' }).select(0, 0).tolist();   // [1]  (query 0 sees key 0 only)
 * nn.functional.scaledDotProductAttention(q, q, v, { scale: 0 }).tolist();   // [[2], [2]]
 * ```
 */
export function scaledDotProductAttention(q: Tensor, k: Tensor, v: Tensor, opts: AttentionOptions = {}): Tensor {
  checkTensor('scaledDotProductAttention', 'query', q);
  return attend('scaledDotProductAttention', q, k, v, opts).output;
}
