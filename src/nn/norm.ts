// Normalisation layers over the trailing dims: nn.LayerNorm (PyTorch's,
// weight ones and bias zeros) and nn.RMSNorm (PyTorch 2's, weight ones, eps
// defaulting to the input dtype's machine epsilon).

import type { Tensor } from '../tensor/tensor.js';
import type { DTypeLike } from '../tensor/dtype.js';
import { ValueError } from '../tensor/errors.js';
import { Module } from './module.js';
import { callableClass } from './callable.js';
import { checkPositiveInt, constParam, paramDType } from './init.js';
import { layerNormAs, rmsNormAs } from './functional/layers.js';

/** Options of nn.LayerNorm. */
export interface LayerNormOptions {
  /** Added to the variance (default 1e-5). */
  eps?: number;
  /** Learn weight (ones) and bias (zeros) of the normalized shape (default true). */
  elementwiseAffine?: boolean;
  /** With elementwiseAffine: learn the bias too (default true; PyTorch 2.1's option). */
  bias?: boolean;
  /** Parameter dtype (default float32). */
  dtype?: DTypeLike;
}

/** Options of nn.RMSNorm. */
export interface RMSNormOptions {
  /** Added to the mean square (default: the input dtype's machine epsilon, torch.finfo(dtype).eps). */
  eps?: number;
  /** Learn a weight (ones) of the normalized shape (default true). */
  elementwiseAffine?: boolean;
  /** Parameter dtype (default float32). */
  dtype?: DTypeLike;
}

function normalizedShapeOf(op: string, shape: number | readonly number[]): number[] {
  const ns = typeof shape === 'number' ? [shape] : Array.isArray(shape) ? [...(shape as number[])] : null;
  if (ns === null || ns.length === 0) throw new ValueError(`${op}: normalizedShape must be a positive integer or a non-empty list of them, got ${JSON.stringify(shape)}`);
  ns.forEach((d) => checkPositiveInt(op, 'normalizedShape', d));
  return ns;
}

function checkEps(op: string, eps: unknown): number {
  if (typeof eps !== 'number' || !(eps >= 0) || !Number.isFinite(eps)) throw new ValueError(`${op}: eps must be a finite number ≥ 0, got ${String(eps)}`);
  return eps;
}

/** The class behind nn.LayerNorm (construct it through nn.LayerNorm, with or without `new`). */
export class LayerNormModule extends Module {
  normalizedShape: number[];
  eps: number;
  elementwiseAffine: boolean;
  /** normalizedShape, ones; null without elementwiseAffine */
  weight: Tensor | null;
  /** normalizedShape, zeros; null without elementwiseAffine or bias */
  bias: Tensor | null;

  constructor(normalizedShape: number | readonly number[], opts: LayerNormOptions = {}) {
    super();
    this.normalizedShape = normalizedShapeOf('LayerNorm', normalizedShape);
    this.eps = checkEps('LayerNorm', opts.eps ?? 1e-5);
    this.elementwiseAffine = opts.elementwiseAffine ?? true;
    const dtype = paramDType('LayerNorm', opts.dtype);
    this.weight = this.elementwiseAffine ? constParam(this.normalizedShape, 1, dtype) : null;
    this.bias = this.elementwiseAffine && opts.bias !== false ? constParam(this.normalizedShape, 0, dtype) : null;
  }

  /** x [..., *normalizedShape] → the same shape, normalised over the trailing dims. */
  forward(x: Tensor): Tensor {
    return layerNormAs('LayerNorm', x, this.normalizedShape, { weight: this.weight, bias: this.bias, eps: this.eps });
  }
}

/**
 * Layer normalisation over the trailing dims (torch.nn.LayerNorm): nn.LayerNorm(normalizedShape, {eps = 1e-5, elementwiseAffine = true, bias, dtype}).
 * @example
 * ```ts
 * const ln = nn.LayerNorm(2, { dtype: 'float64' });
 * ln.forward(tensor([[1, 3], [5, 5]])).tolist();   // [[-0.9999950000374997, 0.9999950000374997], [0, 0]]
 * ```
 */
export const LayerNorm = callableClass(LayerNormModule);
export type LayerNorm = LayerNormModule;

/** The class behind nn.RMSNorm (construct it through nn.RMSNorm, with or without `new`). */
export class RMSNormModule extends Module {
  normalizedShape: number[];
  /** null: the input dtype's machine epsilon */
  eps: number | null;
  elementwiseAffine: boolean;
  /** normalizedShape, ones; null without elementwiseAffine */
  weight: Tensor | null;

  constructor(normalizedShape: number | readonly number[], opts: RMSNormOptions = {}) {
    super();
    this.normalizedShape = normalizedShapeOf('RMSNorm', normalizedShape);
    this.eps = opts.eps === undefined ? null : checkEps('RMSNorm', opts.eps);
    this.elementwiseAffine = opts.elementwiseAffine ?? true;
    this.weight = this.elementwiseAffine ? constParam(this.normalizedShape, 1, paramDType('RMSNorm', opts.dtype)) : null;
  }

  /** x [..., *normalizedShape] → the same shape, divided by its root mean square over the trailing dims. */
  forward(x: Tensor): Tensor {
    return rmsNormAs('RMSNorm', x, this.normalizedShape, { weight: this.weight, eps: this.eps ?? undefined });
  }
}

/**
 * Root-mean-square normalisation over the trailing dims (torch 2's nn.RMSNorm): nn.RMSNorm(normalizedShape, {eps, elementwiseAffine = true, dtype}).
 * @example
 * ```ts
 * const rms = nn.RMSNorm(2, { eps: 0, dtype: 'float64' });
 * rms.forward(tensor([[3, 4]])).tolist();   // [[0.848528137423857, 1.131370849898476]]
 * ```
 */
export const RMSNorm = callableClass(RMSNormModule);
export type RMSNorm = RMSNormModule;
