// The stateless forms of the simple layers (torch.nn.functional's linear,
// layer_norm, rms_norm, embedding, dropout): the modules call these with
// their parameters, and users call them with their own.

import { Tensor } from '../../tensor/tensor.js';
import { where } from '../../tensor/ops/elementwise.js';
import { stopGradient } from '../../tensor/ops/custom-call.js';
import * as random from '../../tensor/random.js';
import { type DType, isFloat } from '../../tensor/dtype.js';
import { DTypeError, ShapeError, ValueError } from '../../tensor/errors.js';
import { checkFloatTensor, checkProbability, checkTensor } from './check.js';

/**
 * x·weightᵀ + bias: x [..., in], weight [out, in], bias [out] or null → [..., out].
 * @example
 * ```ts
 * nn.functional.linear(tensor([[1, 2]]), tensor([[1, 1], [0, 1]]), tensor([0.5, 0])).tolist();   // [[3.5, 2]]
 * ```
 */
export function linear(x: Tensor, weight: Tensor, bias: Tensor | null = null): Tensor {
  return linearAs('linear', x, weight, bias);
}

/** linear with errors naming `op` (the layer that calls it). */
export function linearAs(op: string, x: Tensor, weight: Tensor, bias: Tensor | null): Tensor {
  checkTensor(op, 'input', x);
  checkTensor(op, 'weight', weight);
  if (weight.ndim !== 2) throw new ShapeError(`${op}: weight must be 2-D [out, in], got [${weight.shape}]`);
  const [out, inF] = weight.shape as [number, number];
  if (x.ndim < 1 || x.shape[x.ndim - 1] !== inF) throw new ShapeError(`${op}: input's last dim must be inFeatures = ${inF}, got input shape [${x.shape}] (last dim ${x.ndim ? x.shape[x.ndim - 1] : 'none'})`);
  const y = x.matmul(weight.transpose());
  if (bias === null || bias === undefined) return y;
  if (bias.ndim !== 1 || bias.shape[0] !== out) throw new ShapeError(`${op}: bias must have shape [${out}], got [${bias.shape}]`);
  return y.add(bias);
}

/** normalizedShape as a list, checked against the trailing dims of x. */
function trailingAxes(op: string, x: Tensor, normalizedShape: number | readonly number[]): number[] {
  const ns = typeof normalizedShape === 'number' ? [normalizedShape] : [...normalizedShape];
  const tail = x.shape.slice(x.ndim - ns.length);
  if (ns.length > x.ndim || ns.some((d, i) => d !== tail[i])) throw new ShapeError(`${op}: input's trailing dims must be normalizedShape [${ns}], got input shape [${x.shape}]`);
  return ns.map((_, i) => x.ndim - ns.length + i);
}

/** Checks that an affine parameter has the normalized shape. */
function checkAffine(op: string, name: string, p: Tensor, ns: readonly number[]): void {
  if (p.ndim !== ns.length || p.shape.some((d, i) => d !== ns[i])) throw new ShapeError(`${op}: ${name} must have normalizedShape [${ns}], got [${p.shape}]`);
}

/**
 * Layer normalisation over the trailing `normalizedShape` dims: (x - mean) / √(var + eps) · weight + bias (biased variance, as PyTorch).
 * @example
 * ```ts
 * nn.functional.layerNorm(tensor([[1, 3]]), [2], { eps: 0 }).tolist();   // [[-1, 1]]
 * ```
 */
export function layerNorm(x: Tensor, normalizedShape: number | readonly number[], opts: LayerNormFnOptions = {}): Tensor {
  return layerNormAs('layerNorm', x, normalizedShape, opts);
}

/** Options of layerNorm: the affine parameters (normalizedShape each, optional) and eps (default 1e-5). */
export interface LayerNormFnOptions {
  weight?: Tensor | null;
  bias?: Tensor | null;
  eps?: number;
}

/** layerNorm with errors naming `op` (the layer that calls it). */
export function layerNormAs(op: string, x: Tensor, normalizedShape: number | readonly number[], opts: LayerNormFnOptions): Tensor {
  checkFloatTensor(op, 'input', x);
  const axes = trailingAxes(op, x, normalizedShape);
  const ns = x.shape.slice(axes[0] ?? x.ndim);
  const eps = opts.eps ?? 1e-5;
  const mean = x.mean(axes, true);
  const centered = x.sub(mean);
  const variance = centered.square().mean(axes, true);
  let y = centered.mul(variance.add(eps).rsqrt());
  if (opts.weight) (checkAffine(op, 'weight', opts.weight, ns), (y = y.mul(opts.weight)));
  if (opts.bias) (checkAffine(op, 'bias', opts.bias, ns), (y = y.add(opts.bias)));
  return y;
}

/** torch.finfo(dtype).eps: RMSNorm's default eps. */
const FINFO_EPS: Partial<Record<DType, number>> = { float64: 2 ** -52, float32: 2 ** -23, float16: 2 ** -10, bfloat16: 2 ** -7 };

/**
 * RMS normalisation over the trailing `normalizedShape` dims (PyTorch 2's rms_norm): x / √(mean(x²) + eps) · weight; eps defaults to the dtype's machine epsilon.
 * @example
 * ```ts
 * nn.functional.rmsNorm(tensor([[3, 4]]), [2], { eps: 0 }).tolist();   // [[0.848528137423857, 1.131370849898476]]
 * ```
 */
export function rmsNorm(x: Tensor, normalizedShape: number | readonly number[], opts: RMSNormFnOptions = {}): Tensor {
  return rmsNormAs('rmsNorm', x, normalizedShape, opts);
}

/** Options of rmsNorm: the weight (normalizedShape, optional) and eps (default: the input dtype's machine epsilon). */
export interface RMSNormFnOptions {
  weight?: Tensor | null;
  eps?: number;
}

/** rmsNorm with errors naming `op` (the layer that calls it). */
export function rmsNormAs(op: string, x: Tensor, normalizedShape: number | readonly number[], opts: RMSNormFnOptions): Tensor {
  checkFloatTensor(op, 'input', x);
  const axes = trailingAxes(op, x, normalizedShape);
  const ns = x.shape.slice(axes[0] ?? x.ndim);
  const eps = opts.eps ?? FINFO_EPS[x.dtype]!;
  let y = x.mul(x.square().mean(axes, true).add(eps).rsqrt());
  if (opts.weight) (checkAffine(op, 'weight', opts.weight, ns), (y = y.mul(opts.weight)));
  return y;
}

/**
 * Rows of `weight` [num, dim] picked by integer `indices` (any shape) → [...indices.shape, dim]; rows at paddingIdx get no gradient.
 * @example
 * ```ts
 * nn.functional.embedding(tensor([2, 0], { dtype: 'int32' }), tensor([[1, 1], [2, 2], [3, 3]])).tolist();   // [[3, 3], [1, 1]]
 * ```
 */
export function embedding(indices: Tensor, weight: Tensor, opts: { paddingIdx?: number } = {}): Tensor {
  return embeddingAs('embedding', indices, weight, opts);
}

/** embedding with errors naming `op` (the layer that calls it). */
export function embeddingAs(op: string, indices: Tensor, weight: Tensor, opts: { paddingIdx?: number }): Tensor {
  checkTensor(op, 'indices', indices);
  checkTensor(op, 'weight', weight);
  if (weight.ndim !== 2) throw new ShapeError(`${op}: weight must be 2-D [num, dim], got [${weight.shape}]`);
  if (isFloat(indices.dtype) || indices.dtype === 'bool' || indices.dtype.startsWith('complex')) throw new DTypeError(`${op}: indices must be an integer tensor, got ${indices.dtype}`);
  const idx = indices.cast('int32');
  const rows = weight.gather(idx, 0);
  if (opts.paddingIdx === undefined) return rows;
  // PyTorch never updates the padding row: its lookups pass values but no gradient.
  const num = weight.shape[0]!;
  const pad = opts.paddingIdx < 0 ? opts.paddingIdx + num : opts.paddingIdx;
  if (!Number.isInteger(pad) || pad < 0 || pad >= num) throw new ValueError(`${op}: paddingIdx must be an integer in [-${num}, ${num}), got ${opts.paddingIdx}`);
  return where(idx.eq(pad).expandDims(-1), stopGradient(rows), rows);
}

/** Options of dropout. */
export interface DropoutOptions {
  /** The random key that draws the mask (needed when training with p > 0). */
  key?: random.Key;
  /** False: pass x through (evaluation); default true. */
  training?: boolean;
}

/**
 * Zeroes each element with probability p and scales the rest by 1/(1 - p) (training); identity when not training or p = 0.
 * @example
 * ```ts
 * const y = nn.functional.dropout(ones([1000]), 0.5, { key: random.key(0) });
 * y.max().item();                           // 2
 * nn.functional.dropout(ones([2]), 0.5, { training: false }).tolist();   // [1, 1]
 * ```
 */
export function dropout(x: Tensor, p: number, opts: DropoutOptions = {}): Tensor {
  return dropoutAs('dropout', x, p, opts);
}

/** dropout with errors naming `op` (the layer that calls it). */
export function dropoutAs(op: string, x: Tensor, p: number, opts: DropoutOptions): Tensor {
  checkTensor(op, 'input', x);
  checkProbability(op, 'p', p);
  if (opts.training === false || p === 0) return x;
  if (p === 1) return x.mul(0);
  if (opts.key === undefined) throw new ValueError(`${op}: training with p = ${p} needs a random key to draw the mask: pass { key } (random.key(seed), split per step) or call eval() on the module`);
  const keep = random.bernoulli(checkTensor(op, 'key', opts.key), 1 - p, x.shape);
  return where(keep, x.div(1 - p), 0);
}
