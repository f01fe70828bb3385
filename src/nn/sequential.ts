// nn.Sequential: modules applied in order, held under '0', '1', ... as
// PyTorch's Sequential holds them (so its state-dict keys are '0.weight', ...).

import type { Tensor } from '../tensor/tensor.js';
import * as random from '../tensor/random.js';
import { ValueError } from '../tensor/errors.js';
import { Module } from './module.js';
import { callableClass } from './callable.js';

/** The class behind nn.Sequential (construct it through nn.Sequential, with or without `new`). */
export class SequentialModule extends Module {
  constructor(...modules: Module[]) {
    super();
    modules.forEach((m, i) => {
      if (!(m instanceof Module)) throw new ValueError(`Sequential: argument ${i} must be a module (nn.Linear(...), nn.ReLU(), ...), got ${m === null ? 'null' : typeof m}`);
      (this as unknown as Record<string, Module>)[String(i)] = m;
    });
  }

  /** The child modules in order. */
  get layers(): Module[] {
    return Object.keys(this).filter((k) => /^\d+$/.test(k)).sort((a, b) => Number(a) - Number(b)).map((k) => (this as unknown as Record<string, Module>)[k]!);
  }

  /** The number of child modules. */
  get length(): number {
    return this.layers.length;
  }

  /** Applies the children in order; opts.key, when given, is folded with each child's index and passed to it (for Dropout). */
  forward(x: Tensor, opts: { key?: random.Key } = {}): Tensor {
    let y = x;
    this.layers.forEach((m, i) => {
      y = opts.key === undefined ? m.forward(y) : m.forward(y, { key: random.foldIn(opts.key, i) });
    });
    return y;
  }
}

/**
 * Modules applied in order (torch.nn.Sequential); children are named '0', '1', ... like PyTorch's.
 * @example
 * ```ts
 * const mlp = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2));
 * mlp.forward(ones([3, 4])).shape;          // [3, 2]
 * Object.keys(mlp.stateDict());             // ['0.weight', '0.bias', '2.weight', '2.bias']
 * ```
 */
export const Sequential = callableClass(SequentialModule);
export type Sequential = SequentialModule;
