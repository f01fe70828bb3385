// nn.Linear: y = x·weightᵀ + bias, PyTorch's layout (weight [out, in]) and
// initialisation (U(-1/√in, 1/√in) for weight and bias).

import type { Tensor } from '../tensor/tensor.js';
import type { DTypeLike } from '../tensor/dtype.js';
import type { Key } from '../tensor/random.js';
import { Module } from './module.js';
import { callableClass } from './callable.js';
import { checkPositiveInt, fanInBound, layerKey, paramDType, splitKey, uniformParam } from './init.js';
import { linearAs } from './functional/layers.js';

/** Options of nn.Linear. */
export interface LinearOptions {
  /** Learn an additive bias (default true). */
  bias?: boolean;
  /** Parameter dtype (default float32). */
  dtype?: DTypeLike;
  /** Initialisation key (default: the default stream, see nn.manualSeed). */
  key?: Key;
}

/** The class behind nn.Linear (construct it through nn.Linear, with or without `new`). */
export class LinearModule extends Module {
  inFeatures: number;
  outFeatures: number;
  /** [outFeatures, inFeatures] */
  weight: Tensor;
  /** [outFeatures], or null without bias */
  bias: Tensor | null;

  constructor(inFeatures: number, outFeatures: number, opts: LinearOptions = {}) {
    super();
    this.inFeatures = checkPositiveInt('Linear', 'inFeatures', inFeatures);
    this.outFeatures = checkPositiveInt('Linear', 'outFeatures', outFeatures);
    const dtype = paramDType('Linear', opts.dtype);
    const [kw, kb] = splitKey(layerKey('Linear', opts.key), 2);
    const bound = fanInBound(inFeatures);
    this.weight = uniformParam(kw!, [outFeatures, inFeatures], bound, dtype);
    this.bias = opts.bias === false ? null : uniformParam(kb!, [outFeatures], bound, dtype);
  }

  /** x [..., inFeatures] → [..., outFeatures]. */
  forward(x: Tensor): Tensor {
    return linearAs('Linear', x, this.weight, this.bias);
  }
}

/**
 * A fully connected layer y = x·weightᵀ + bias (torch.nn.Linear): nn.Linear(inFeatures, outFeatures, {bias, dtype, key}).
 * @example
 * ```ts
 * const fc = nn.Linear(3, 2, { key: random.key(0) });
 * fc.forward(ones([4, 3])).shape;     // [4, 2]
 * fc instanceof nn.Linear;            // true
 * Object.keys(fc.stateDict());        // ['weight', 'bias']
 * ```
 */
export const Linear = callableClass(LinearModule);
export type Linear = LinearModule;
