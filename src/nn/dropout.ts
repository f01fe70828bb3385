// nn.Dropout with explicit random keys: forward(x, {key}) in training mode
// draws its mask from the key (no hidden generator state, so jit and vmap see
// a pure function); eval() makes it the identity.

import type { Tensor } from '../tensor/tensor.js';
import type { Key } from '../tensor/random.js';
import { Module } from './module.js';
import { callableClass } from './callable.js';
import { dropoutAs } from './functional/layers.js';
import { checkProbability } from './functional/check.js';

/** The class behind nn.Dropout (construct it through nn.Dropout, with or without `new`). */
export class DropoutModule extends Module {
  p: number;

  constructor(p = 0.5) {
    super();
    this.p = checkProbability('Dropout', 'p', p);
  }

  /** Training (the default mode): zeroes elements with probability p (needs opts.key) and scales the rest by 1/(1 - p); eval mode: x. */
  forward(x: Tensor, opts: { key?: Key } = {}): Tensor {
    return dropoutAs('Dropout', x, this.p, { key: opts.key, training: this.training });
  }
}

/**
 * Dropout with an explicit random key (torch.nn.Dropout): nn.Dropout(p = 0.5); forward(x, {key}) in training mode, identity after eval().
 * @example
 * ```ts
 * const drop = nn.Dropout(0.5);
 * drop.forward(ones([4]), { key: random.key(0) }).shape;   // [4]
 * drop.eval().forward(ones([2])).tolist();                  // [1, 1]
 * ```
 */
export const Dropout = callableClass(DropoutModule);
export type Dropout = DropoutModule;
