// Contract cases of rlx.optim and rlx.io (issue 18). Each optimizer is
// checked as the function (params, grads) → params after two steps (the
// second uses the first step's state: momentum buffers, moments); inputs are
// kept away from zero where |g| = √(g²) has its kink. The io readers and
// writers take files and bytes (their own tests compare with NumPy-written files).

import type { Tensor } from '../../src/tensor/tensor.js';
import * as optim from '../../src/optim/index.js';
import type { Table, InSpec } from './checks.js';

const V = (n: number, lo = -1, hi = 1): InSpec => ({ shape: [n], lo, hi });
/** Gradients in [0.5, 1.5]: away from zero, where Adam's √(g²) has its kink. */
const away = (n: number): InSpec => ({ shape: [n], lo: 0.5, hi: 1.5 });

/** Params after two steps of `opt` with gradients g and g/2 (the second step reads the state the first wrote). */
const twoSteps = (opt: optim.Optimizer) => (p: Tensor, g: Tensor): Tensor => {
  const r1 = opt.step({ p }, { p: g }, opt.init({ p }));
  return opt.step(r1.params, { p: g.mul(0.5) }, r1.state).params.p;
};

/** A loss scaler with a power-of-two scale (its products are exact). */
const scaler = optim.lossScaler({ initScale: 8 });

export const optimIoCases: Table = {
  'optim.sgd': [
    { specs: [V(3), V(3)], f: twoSteps(optim.sgd({ lr: 0.1 })) },
    { label: 'nesterov, weight decay, cosine lr', specs: [V(3), V(3)], f: twoSteps(optim.sgd({ lr: optim.schedules.cosine({ lr: 0.1, steps: 4 }), momentum: 0.9, nesterov: true, weightDecay: 0.01 })) },
  ],
  'optim.adam': [
    { specs: [V(3), away(3)], f: twoSteps(optim.adam({ lr: 0.1, weightDecay: 0.01 })) },
    { label: 'amsgrad', specs: [V(3), away(3)], f: twoSteps(optim.adam({ lr: 0.1, amsgrad: true })) },
  ],
  'optim.adamw': { specs: [V(3), away(3)], f: twoSteps(optim.adamw({ lr: 0.1, clipNorm: 0.5 })) },
  'optim.clipGradNorm': [
    { specs: [V(4)], f: (g) => optim.clipGradNorm({ g }, 0.3).grads.g },
    { label: 'norm', specs: [V(4)], f: (g) => optim.clipGradNorm({ g, h: g.mul(2) }, 0.3).norm },
  ],
  // Schedules as functions of a (float64) tensor of step counts.
  'optim.withLossScaling': { label: 'momentum SGD, scale 4 (the gradients passed are the scaled loss\'s)', specs: [V(3), V(3)], f: twoSteps(optim.withLossScaling(optim.sgd({ lr: 0.1, momentum: 0.9 }), { initScale: 4 })) },
  'optim.lossScaler': [
    { label: 'scale', specs: [V(3)], f: (l) => scaler.scale(l, scaler.init()) },
    { label: 'unscale', specs: [V(3)], f: (g) => scaler.unscale({ g }, scaler.init()).grads.g },
  ],
  'optim.schedules.constant': { specs: [V(3, 0.5, 4)], f: (t) => optim.schedules.constant(0.1)(t), ad: 'zero' },
  'optim.schedules.cosine': { specs: [V(3, 0.5, 3.5)], f: (t) => optim.schedules.cosine({ lr: 0.1, steps: 4, minLr: 0.01 })(t) },
  'optim.schedules.linear': { specs: [V(3, 0.5, 3.5)], f: (t) => optim.schedules.linear({ from: 0.01, to: 0.1, steps: 4 })(t) },
  'optim.schedules.step': { specs: [V(3, 0.1, 0.9)], f: (t) => optim.schedules.step({ lr: 0.1, stepSize: 2 })(t.mul(5)), ad: 'zero' },
  'optim.schedules.warmup': { specs: [V(3, 0.5, 7.5)], f: (t) => optim.schedules.warmup({ lr: 0.1, steps: 8, then: optim.schedules.cosine({ lr: 0.1, steps: 10 }) })(t) },
  'optim.schedules.join': { specs: [V(3, 0.2, 1.8)], f: (t) => optim.schedules.join([optim.schedules.linear({ from: 0, to: 1, steps: 2 }), optim.schedules.constant(1)], [2])(t) },
  'io.loadSafetensors': { none: 'io' },
  'io.saveSafetensors': { none: 'io' },
  'io.readSafetensorsHeader': { none: 'io' },
  'io.batches': { none: 'io' },
  'io.SafetensorsError': { none: 'error' },
  'io.TensorFileError': { none: 'error' },
  'io.readIdx': { none: 'io' },
  'io.IdxError': { none: 'error' },
  'io.readGguf': { none: 'io' },
  'io.writeGguf': { none: 'io' },
  'io.GgufError': { none: 'error' },
  'io.loadOnnx': { none: 'io' },
  'io.OnnxModel': { none: 'class' },
  'io.OnnxError': { none: 'error' },
};
