// Stochastic gradient descent with momentum, dampening, Nesterov and L2
// weight decay, as torch.optim.SGD (1.13, _single_tensor_sgd) computes it:
//   d = g + wd·p
//   b = d at the first step, else μ·b + (1 − τ)·d     (μ momentum, τ dampening)
//   d = d + μ·b (Nesterov) or b
//   p = p − lr·d

import { where } from '../tensor/ops/elementwise.js';
import { ValueError } from '../tensor/errors.js';
import { checkLearningRate, checkRate, type LearningRate } from './schedule.js';
import { makeOptimizer, coef, type CommonOptions, type Optimizer } from './optimizer.js';

export interface SgdOptions extends CommonOptions {
  /** A number or a schedule of the step count. */
  lr: LearningRate;
  /** Momentum factor μ (0: plain SGD, no buffer in the state). */
  momentum?: number;
  /** Dampening τ of the momentum buffer's new gradient. */
  dampening?: number;
  /** Nesterov momentum (needs momentum > 0 and dampening 0, as torch). */
  nesterov?: boolean;
  /** L2 penalty: wd·p is added to the gradient. */
  weightDecay?: number;
}

/**
 * SGD with optional momentum, Nesterov and weight decay (torch.optim.SGD's update); state {step, momentumBuffer?}.
 * @example
 * ```ts
 * const opt = optim.sgd({ lr: 0.1 });
 * const params = { w: tensor([1, 2]) };
 * const r = opt.step(params, { w: tensor([10, -10]) }, opt.init(params));
 * r.params.w.tolist();   // [0, 3]
 * ```
 */
export function sgd(opts: SgdOptions): Optimizer {
  const name = 'optim.sgd';
  if (opts === null || typeof opts !== 'object') throw new ValueError(`${name}: expects options {lr, momentum, dampening, nesterov, weightDecay}, got ${opts === null ? 'null' : typeof opts}`);
  const lr = checkLearningRate(name, opts.lr);
  const momentum = checkRate(name, 'momentum', opts.momentum ?? 0);
  const dampening = checkRate(name, 'dampening', opts.dampening ?? 0, { negative: true });
  const weightDecay = checkRate(name, 'weightDecay', opts.weightDecay ?? 0);
  const nesterov = opts.nesterov ?? false;
  if (nesterov && (momentum <= 0 || dampening !== 0)) throw new ValueError(`${name}: Nesterov momentum needs momentum > 0 and dampening 0, got momentum ${momentum} and dampening ${dampening}`);
  return makeOptimizer(name, lr, opts, {
    slots: momentum !== 0 ? ['momentumBuffer'] : [],
    prepare: (ctx) => ctx.count.eq(0),
    update(p, g, [buf], ctx, first) {
      let d = weightDecay !== 0 ? g.add(p.mul(weightDecay)) : g;
      const slots = [];
      if (momentum !== 0) {
        // torch starts the buffer at the first step's d (not μ·0 + (1 − τ)·d).
        const b = where(first as typeof p, d, buf!.mul(momentum).add(d.mul(1 - dampening)));
        slots.push(b);
        d = nesterov ? d.add(b.mul(momentum)) : b;
      }
      return { param: p.sub(d.mul(coef(ctx.lr, p.dtype))), slots };
    },
  });
}
