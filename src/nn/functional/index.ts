// nn.functional: the stateless operations behind the layers (PyTorch's
// torch.nn.functional), for users who hold their own parameters.
export { relu, gelu, silu, softmax, logSoftmax } from './activations.js';
export type { GeluApproximate } from './activations.js';
export { crossEntropy, mseLoss } from './losses.js';
export type { CrossEntropyOptions, Reduction } from './losses.js';
export { linear, layerNorm, rmsNorm, embedding, dropout } from './layers.js';
export type { DropoutOptions, LayerNormFnOptions, RMSNormFnOptions } from './layers.js';
export { scaledDotProductAttention } from './attention.js';
export type { AttentionMask, AttentionOptions } from './attention.js';
export { conv2d } from './conv.js';
export type { Conv2dOptions, Pair } from './conv.js';
