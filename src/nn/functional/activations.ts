// Activation functions and softmax (torch.nn.functional's relu, gelu, silu,
// softmax, log_softmax), built from the tensor ops so grad, vmap and jit see
// through them.

import type { Tensor } from '../../tensor/tensor.js';
import { ValueError } from '../../tensor/errors.js';
import { stopGradient } from '../../tensor/ops/custom-call.js';
import { checkTensor } from './check.js';

/** GELU's two forms: the exact x·Φ(x), or PyTorch's tanh approximation. */
export type GeluApproximate = 'none' | 'tanh';

/**
 * max(x, 0), with derivative 0 at 0 (PyTorch's).
 * @example
 * ```ts
 * nn.functional.relu(tensor([-1, 0, 2])).tolist();   // [0, 0, 2]
 * ```
 */
export function relu(x: Tensor): Tensor {
  return checkTensor('relu', 'input', x).relu();
}

const SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);

/**
 * GELU: x·Φ(x) exactly (approximate 'none', the default) or 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) ('tanh').
 * @example
 * ```ts
 * nn.functional.gelu(tensor([0, 1])).tolist();   // [0, 0.8413447460685429]
 * nn.functional.gelu(tensor([1]), { approximate: 'tanh' }).tolist();   // [0.8411919906082768]
 * ```
 */
export function gelu(x: Tensor, opts: { approximate?: GeluApproximate } = {}): Tensor {
  checkTensor('gelu', 'input', x);
  const approximate = opts.approximate ?? 'none';
  if (approximate === 'none') return x.gelu();
  if (approximate !== 'tanh') throw new ValueError(`gelu: approximate must be 'none' or 'tanh', got ${String(approximate)}`);
  const inner = x.add(x.mul(x).mul(x).mul(0.044715)).mul(SQRT_2_OVER_PI);
  return x.mul(0.5).mul(inner.tanh().add(1));
}

/**
 * SiLU (swish): x·sigmoid(x).
 * @example
 * ```ts
 * nn.functional.silu(tensor([0, 1])).tolist();   // [0, 0.7310585786300049]
 * ```
 */
export function silu(x: Tensor): Tensor {
  return checkTensor('silu', 'input', x).mul(x.sigmoid());
}

/**
 * Softmax along `axis` (the last by default): exp(x - max) / Σ exp(x - max).
 * @example
 * ```ts
 * nn.functional.softmax(tensor([0, Math.log(3)])).tolist();   // [0.25, 0.75]
 * ```
 */
export function softmax(x: Tensor, axis = -1): Tensor {
  checkTensor('softmax', 'input', x);
  // The shift only guards exp against overflow: softmax does not depend on it, so no gradient flows through it.
  const e = x.sub(stopGradient(x.max(axis, true))).exp();
  return e.div(e.sum(axis, true));
}

/**
 * log(softmax(x)) along `axis` (the last by default), computed as x - logsumexp(x).
 * @example
 * ```ts
 * nn.functional.logSoftmax(tensor([0, 0])).tolist();   // [-0.6931471805599453, -0.6931471805599453]
 * ```
 */
export function logSoftmax(x: Tensor, axis = -1): Tensor {
  checkTensor('logSoftmax', 'input', x);
  return x.sub(x.logsumexp(axis, true));
}
