// nn.Conv2d: 2-D convolution over NCHW input (functional/conv.ts's im2col),
// PyTorch's weight layout [out, in/groups, kh, kw] and initialisation
// (U(-1/√fan_in, 1/√fan_in), fan_in = in/groups·kh·kw, for weight and bias).

import type { Tensor } from '../tensor/tensor.js';
import type { DTypeLike } from '../tensor/dtype.js';
import type { Key } from '../tensor/random.js';
import { ValueError } from '../tensor/errors.js';
import { Module } from './module.js';
import { callableClass } from './callable.js';
import { checkPositiveInt, fanInBound, layerKey, paramDType, splitKey, uniformParam } from './init.js';
import { conv2dAs, pairOf, type Pair } from './functional/conv.js';

/** Options of nn.Conv2d (PyTorch's; padding mode is zeros). */
export interface Conv2dLayerOptions {
  stride?: Pair;
  padding?: Pair | 'valid' | 'same';
  dilation?: Pair;
  groups?: number;
  /** Learn an additive bias per output channel (default true). */
  bias?: boolean;
  /** Parameter dtype (default float32). */
  dtype?: DTypeLike;
  /** Initialisation key (default: the default stream, see nn.manualSeed). */
  key?: Key;
}

/** The class behind nn.Conv2d (construct it through nn.Conv2d, with or without `new`). */
export class Conv2dModule extends Module {
  inChannels: number;
  outChannels: number;
  kernelSize: [number, number];
  stride: [number, number];
  padding: [number, number] | 'valid' | 'same';
  dilation: [number, number];
  groups: number;
  /** [outChannels, inChannels/groups, kh, kw] */
  weight: Tensor;
  /** [outChannels], or null without bias */
  bias: Tensor | null;

  constructor(inChannels: number, outChannels: number, kernelSize: Pair, opts: Conv2dLayerOptions = {}) {
    super();
    const op = 'Conv2d';
    this.inChannels = checkPositiveInt(op, 'inChannels', inChannels);
    this.outChannels = checkPositiveInt(op, 'outChannels', outChannels);
    this.kernelSize = pairOf(op, 'kernelSize', kernelSize, 1);
    this.stride = pairOf(op, 'stride', opts.stride ?? 1, 1);
    const padding = opts.padding ?? 0;
    this.padding = padding === 'valid' || padding === 'same' ? padding : pairOf(op, 'padding', padding, 0);
    if (padding === 'same' && (this.stride[0] !== 1 || this.stride[1] !== 1)) throw new ValueError(`${op}: padding 'same' needs stride 1, got stride [${this.stride}]`);
    this.dilation = pairOf(op, 'dilation', opts.dilation ?? 1, 1);
    this.groups = checkPositiveInt(op, 'groups', opts.groups ?? 1);
    if (inChannels % this.groups !== 0 || outChannels % this.groups !== 0) throw new ValueError(`${op}: inChannels ${inChannels} and outChannels ${outChannels} must both be divisible by groups = ${this.groups}`);
    const dtype = paramDType(op, opts.dtype);
    const [kw, kb] = splitKey(layerKey(op, opts.key), 2);
    const fanIn = (inChannels / this.groups) * this.kernelSize[0] * this.kernelSize[1];
    const bound = fanInBound(fanIn);
    this.weight = uniformParam(kw!, [outChannels, inChannels / this.groups, ...this.kernelSize], bound, dtype);
    this.bias = opts.bias === false ? null : uniformParam(kb!, [outChannels], bound, dtype);
  }

  /** x [N, inChannels, H, W] (or [inChannels, H, W]) → [N, outChannels, Ho, Wo]. */
  forward(x: Tensor): Tensor {
    return conv2dAs('Conv2d', x, this.weight, this.bias, { stride: this.stride, padding: this.padding, dilation: this.dilation, groups: this.groups });
  }
}

/**
 * A 2-D convolution layer over NCHW input (torch.nn.Conv2d): nn.Conv2d(inChannels, outChannels, kernelSize, {stride, padding, dilation, groups, bias, dtype, key}).
 * @example
 * ```ts
 * const conv = nn.Conv2d(3, 8, 3, { padding: 1, key: random.key(0) });
 * conv.forward(zeros([2, 3, 16, 16], { dtype: 'float32' })).shape;   // [2, 8, 16, 16]
 * conv.weight.shape;                                                // [8, 3, 3, 3]
 * ```
 */
export const Conv2d = callableClass(Conv2dModule);
export type Conv2d = Conv2dModule;
