// The nn namespace (issue 18): PyTorch-compatible modules as pytrees.
//
// Each layer name (Linear, Conv2d, ...) is at once a factory (nn.Linear(2, 3)),
// the class (new nn.Linear(2, 3), instanceof nn.Linear, extends nn.Linear) and
// the instance type (let m: nn.Linear): see callable.ts.
export { Module } from './module.js';
export type { LoadStateDictOptions, LoadStateDictResult } from './module.js';
export { manualSeed } from './init.js';
export { Linear } from './linear.js';
export type { LinearOptions } from './linear.js';
export { Conv2d } from './conv.js';
export type { Conv2dLayerOptions } from './conv.js';
export { LayerNorm, RMSNorm } from './norm.js';
export type { LayerNormOptions, RMSNormOptions } from './norm.js';
export { Embedding } from './embedding.js';
export type { EmbeddingOptions } from './embedding.js';
export { Dropout } from './dropout.js';
export { ReLU, GELU, SiLU, Tanh, Sigmoid } from './activation.js';
export { Sequential } from './sequential.js';
export { MultiheadAttention } from './attention.js';
export type { MultiheadAttentionOptions, MultiheadAttentionForwardOptions } from './attention.js';
export { TransformerEncoderLayer } from './transformer.js';
export type { TransformerEncoderLayerOptions, TransformerEncoderLayerForwardOptions } from './transformer.js';
export type { CallableClass } from './callable.js';
/** Stateless forms of the layers, losses and activations (torch.nn.functional). */
export * as functional from './functional/index.js';
/** Mixed precision (torch.autocast's place): autocast(fn, 'bfloat16' | 'float16') with float32 master weights. */
export * as amp from './amp.js';
export { train } from './train.js';
export type { TrainOptions, TrainResult, EpochInfo, Dataset } from './train.js';
