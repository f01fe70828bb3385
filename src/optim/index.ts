// optim: functional optimizers with PyTorch's update rules (sgd, adam, adamw),
// learning-rate schedules, and gradient clipping. This file only re-exports.

export { sgd } from './sgd.js';
export type { SgdOptions } from './sgd.js';
export { adam, adamw } from './adam.js';
export type { AdamOptions } from './adam.js';
export { clipGradNorm } from './clip.js';
export type { ClipOptions } from './clip.js';
export { lossScaler, withLossScaling } from './loss-scale.js';
export type { LossScaler, LossScalerOptions, LossScaleState, LossScaledState, LossScalingOptimizer } from './loss-scale.js';
export type { Optimizer, OptimizerState, CommonOptions } from './optimizer.js';
export type { Schedule, LearningRate } from './schedule.js';
/** Learning-rate schedules of the step count (torch.optim.lr_scheduler / optax): constant, cosine, linear, step, warmup, join. */
export * as schedules from './schedules.js';
