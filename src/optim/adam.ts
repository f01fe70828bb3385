// Adam and AdamW (Kingma & Ba 2015; Loshchilov & Hutter 2019) as torch.optim
// 1.13 computes them (_single_tensor_adam / _single_tensor_adamw), t the step
// number counting from 1:
//   AdamW only:  p = p · (1 − lr·wd)                 (decoupled weight decay)
//   Adam only:   g = g + wd·p                        (L2 weight decay)
//   m = β₁·m + (1 − β₁)·g,   v = β₂·v + (1 − β₂)·g²
//   v̂max = max(v̂max, v) with amsgrad, used in place of v below
//   p = p − (lr / (1 − β₁ᵗ)) · m / (√v / √(1 − β₂ᵗ) + ε)
// The bias corrections are float64 scalars of the step count tensor (torch
// computes them as Python floats), cast to the param's dtype where they meet it.

import { widestFloat } from '../backends/registry.js';
import { Tensor } from '../tensor/tensor.js';
import { full } from '../tensor/create.js';
import { ValueError } from '../tensor/errors.js';
import { checkLearningRate, checkRate, type LearningRate } from './schedule.js';
import { makeOptimizer, coef, type CommonOptions, type Optimizer, type StepContext } from './optimizer.js';

export interface AdamOptions extends CommonOptions {
  /** A number or a schedule of the step count (default 1e-3). */
  lr?: LearningRate;
  /** Decay rates [β₁, β₂] of the moment estimates (default [0.9, 0.999]). */
  betas?: readonly [number, number];
  /** Added to the denominator (default 1e-8). */
  eps?: number;
  /** Adam: L2 penalty added to the gradient (default 0); AdamW: decoupled decay rate (default 1e-2). */
  weightDecay?: number;
  /** Keep the running maximum of v (AMSGrad, Reddi et al. 2018); adds a maxExpAvgSq buffer. */
  amsgrad?: boolean;
}

/** The shared Adam/AdamW rule; `decoupled` chooses AdamW's weight decay. */
function adamFamily(name: string, opts: AdamOptions, decoupled: boolean): Optimizer {
  if (opts === null || typeof opts !== 'object') throw new ValueError(`${name}: expects options {lr, betas, eps, weightDecay, amsgrad}, got ${opts === null ? 'null' : typeof opts}`);
  const lr = checkLearningRate(name, opts.lr ?? 1e-3);
  const betas = opts.betas ?? [0.9, 0.999];
  if (!Array.isArray(betas) || betas.length !== 2 || !betas.every((b) => typeof b === 'number' && b >= 0 && b < 1)) {
    throw new ValueError(`${name}: betas must be two numbers in [0, 1), got ${JSON.stringify(betas)}`);
  }
  const [beta1, beta2] = betas;
  const eps = checkRate(name, 'eps', opts.eps ?? 1e-8);
  const weightDecay = checkRate(name, 'weightDecay', opts.weightDecay ?? (decoupled ? 1e-2 : 0));
  const amsgrad = opts.amsgrad ?? false;
  interface Prepared {
    /** −lr / (1 − β₁ᵗ) */
    negStepSize: Tensor;
    /** √(1 − β₂ᵗ) */
    bc2Sqrt: Tensor;
    /** 1 − lr·wd (AdamW) */
    decay: number | Tensor;
  }
  return makeOptimizer(name, lr, opts, {
    slots: amsgrad ? ['expAvg', 'expAvgSq', 'maxExpAvgSq'] : ['expAvg', 'expAvgSq'],
    prepare(ctx: StepContext): Prepared {
      // float64 as torch's Python floats, or the widest float a device without float64 has (webgpu: float32).
      const wide = widestFloat(ctx.count.device);
      const t = ctx.count.add(1).cast(wide);
      const bc1 = full([], beta1, { dtype: wide }).pow(t).neg().add(1);
      const bc2 = full([], beta2, { dtype: wide }).pow(t).neg().add(1);
      const lrT = typeof ctx.lr === 'number' ? full([], ctx.lr, { dtype: wide }) : ctx.lr.cast(wide);
      const decay = typeof ctx.lr === 'number' ? 1 - ctx.lr * weightDecay : ctx.lr.mul(weightDecay).neg().add(1);
      return { negStepSize: lrT.div(bc1).neg(), bc2Sqrt: bc2.sqrt(), decay };
    },
    update(p, g, [m, v, vmax], _ctx, prepared) {
      const { negStepSize, bc2Sqrt, decay } = prepared as Prepared;
      if (weightDecay !== 0) {
        if (decoupled) p = p.mul(coef(decay, p.dtype));
        else g = g.add(p.mul(weightDecay));
      }
      const m1 = m!.mul(beta1).add(g.mul(1 - beta1));
      const v1 = v!.mul(beta2).add(g.mul(g).mul(1 - beta2));
      const slots = [m1, v1];
      let vUsed = v1;
      if (amsgrad) {
        vUsed = vmax!.maximum(v1);
        slots.push(vUsed);
      }
      const denom = vUsed.sqrt().div(bc2Sqrt.cast(p.dtype)).add(eps);
      // torch's addcdiv_: p + (value · m) / denom
      return { param: p.add(m1.mul(negStepSize.cast(p.dtype)).div(denom)), slots };
    },
  });
}

/**
 * Adam with L2 weight decay and optional AMSGrad (torch.optim.Adam's update); state {step, expAvg, expAvgSq, maxExpAvgSq?}.
 * @example
 * ```ts
 * const opt = optim.adam({ lr: 0.1 });
 * const params = { w: tensor([1, 2]) };
 * const r = opt.step(params, { w: tensor([0.5, -3]) }, opt.init(params));
 * r.params.w.tolist();   // [0.900000002, 2.0999999996666667]  (the first step moves each weight by lr·sign(g), less ε's share)
 * ```
 */
export function adam(opts: AdamOptions = {}): Optimizer {
  return adamFamily('optim.adam', opts, false);
}

/**
 * AdamW: Adam with decoupled weight decay p ← p·(1 − lr·wd) (torch.optim.AdamW's update, weightDecay 1e-2 by default).
 * @example
 * ```ts
 * const opt = optim.adamw({ lr: 0.1, weightDecay: 0.5 });
 * const params = { w: tensor([1, 2]) };
 * const r = opt.step(params, { w: tensor([0, 0]) }, opt.init(params));
 * r.params.w.tolist();   // [0.95, 1.9]  (a zero gradient leaves only the decay)
 * ```
 */
export function adamw(opts: AdamOptions = {}): Optimizer {
  return adamFamily('optim.adamw', opts, true);
}
