// Activation layers (torch.nn.ReLU, GELU, SiLU, Tanh, Sigmoid): parameterless
// modules, so they can sit in a Sequential.

import type { Tensor } from '../tensor/tensor.js';
import { ValueError } from '../tensor/errors.js';
import { Module } from './module.js';
import { callableClass } from './callable.js';
import { relu, gelu, silu, type GeluApproximate } from './functional/activations.js';
import { checkTensor } from './functional/check.js';

/** The class behind nn.ReLU. */
export class ReLUModule extends Module {
  /** max(x, 0) */
  forward(x: Tensor): Tensor {
    return relu(x);
  }
}

/** The class behind nn.GELU. */
export class GELUModule extends Module {
  approximate: GeluApproximate;
  constructor(opts: { approximate?: GeluApproximate } = {}) {
    super();
    const a = opts.approximate ?? 'none';
    if (a !== 'none' && a !== 'tanh') throw new ValueError(`GELU: approximate must be 'none' or 'tanh', got ${String(a)}`);
    this.approximate = a;
  }
  /** x·Φ(x), or its tanh approximation */
  forward(x: Tensor): Tensor {
    return gelu(x, { approximate: this.approximate });
  }
}

/** The class behind nn.SiLU. */
export class SiLUModule extends Module {
  /** x·sigmoid(x) */
  forward(x: Tensor): Tensor {
    return silu(x);
  }
}

/** The class behind nn.Tanh. */
export class TanhModule extends Module {
  /** tanh(x) */
  forward(x: Tensor): Tensor {
    return checkTensor('Tanh', 'input', x).tanh();
  }
}

/** The class behind nn.Sigmoid. */
export class SigmoidModule extends Module {
  /** 1 / (1 + exp(-x)) */
  forward(x: Tensor): Tensor {
    return checkTensor('Sigmoid', 'input', x).sigmoid();
  }
}

/**
 * The ReLU layer, max(x, 0) (torch.nn.ReLU).
 * @example
 * ```ts
 * nn.ReLU().forward(tensor([-1, 2])).tolist();   // [0, 2]
 * ```
 */
export const ReLU = callableClass(ReLUModule);
export type ReLU = ReLUModule;

/**
 * The GELU layer (torch.nn.GELU): exact x·Φ(x), or {approximate: 'tanh'}.
 * @example
 * ```ts
 * nn.GELU().forward(tensor([1])).tolist();                          // [0.8413447460685429]
 * nn.GELU({ approximate: 'tanh' }).forward(tensor([1])).tolist();   // [0.8411919906082768]
 * ```
 */
export const GELU = callableClass(GELUModule);
export type GELU = GELUModule;

/**
 * The SiLU (swish) layer, x·sigmoid(x) (torch.nn.SiLU).
 * @example
 * ```ts
 * nn.SiLU().forward(tensor([0])).tolist();   // [0]
 * ```
 */
export const SiLU = callableClass(SiLUModule);
export type SiLU = SiLUModule;

/**
 * The tanh layer (torch.nn.Tanh).
 * @example
 * ```ts
 * nn.Tanh().forward(tensor([0])).tolist();   // [0]
 * ```
 */
export const Tanh = callableClass(TanhModule);
export type Tanh = TanhModule;

/**
 * The logistic sigmoid layer (torch.nn.Sigmoid).
 * @example
 * ```ts
 * nn.Sigmoid().forward(tensor([0])).tolist();   // [0.5]
 * ```
 */
export const Sigmoid = callableClass(SigmoidModule);
export type Sigmoid = SigmoidModule;
