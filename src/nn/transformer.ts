// nn.TransformerEncoderLayer as torch 1.13 computes it: self-attention and a
// feed-forward block, each with dropout and a residual connection, LayerNorm
// after each (post-norm) or before (normFirst). Submodules carry torch's
// names (self_attn, linear1, dropout, linear2, norm1, norm2, dropout1,
// dropout2), so its state dict is PyTorch's.

import type { Tensor } from '../tensor/tensor.js';
import type { DTypeLike } from '../tensor/dtype.js';
import type { Key } from '../tensor/random.js';
import { ValueError } from '../tensor/errors.js';
import { Module } from './module.js';
import { callableClass } from './callable.js';
import { MultiheadAttentionModule } from './attention.js';
import { LinearModule } from './linear.js';
import { LayerNormModule } from './norm.js';
import { DropoutModule } from './dropout.js';
import { checkPositiveInt, layerKey, splitKey } from './init.js';
import { relu, gelu } from './functional/activations.js';
import { checkProbability } from './functional/check.js';

/** Options of nn.TransformerEncoderLayer (PyTorch's, camelCase). */
export interface TransformerEncoderLayerOptions {
  /** Width of the feed-forward block (default 2048). */
  dimFeedforward?: number;
  /** Dropout rate everywhere: attention weights, feed-forward, both residual branches (default 0.1). */
  dropout?: number;
  /** The feed-forward activation (default 'relu'). */
  activation?: 'relu' | 'gelu';
  /** eps of both LayerNorms (default 1e-5). */
  layerNormEps?: number;
  /** Input and output as [N, L, E] instead of [L, N, E] (default false). */
  batchFirst?: boolean;
  /** LayerNorm before each block (pre-norm) instead of after the residual sum (default false). */
  normFirst?: boolean;
  /** Parameter dtype (default float32). */
  dtype?: DTypeLike;
  /** Initialisation key (default: the default stream, see nn.manualSeed). */
  key?: Key;
}

/** Options of TransformerEncoderLayer.forward. */
export interface TransformerEncoderLayerForwardOptions {
  /** The self-attention mask (MultiheadAttention's attnMask: [L, S] bool (true = not allowed) or float, or 'causal'). */
  srcMask?: Tensor | 'causal';
  /** [N, S] bool (true = padding) or float (MultiheadAttention's keyPaddingMask). */
  srcKeyPaddingMask?: Tensor;
  /** The random key of the dropouts (training with dropout > 0). */
  key?: Key;
}

/** The class behind nn.TransformerEncoderLayer (construct it through nn.TransformerEncoderLayer, with or without `new`). */
export class TransformerEncoderLayerModule extends Module {
  self_attn: MultiheadAttentionModule;
  linear1: LinearModule;
  dropout: DropoutModule;
  linear2: LinearModule;
  normFirst: boolean;
  norm1: LayerNormModule;
  norm2: LayerNormModule;
  dropout1: DropoutModule;
  dropout2: DropoutModule;
  activation: 'relu' | 'gelu';

  constructor(dModel: number, nhead: number, opts: TransformerEncoderLayerOptions = {}) {
    super();
    const op = 'TransformerEncoderLayer';
    checkPositiveInt(op, 'dModel', dModel);
    checkPositiveInt(op, 'nhead', nhead);
    const dff = checkPositiveInt(op, 'dimFeedforward', opts.dimFeedforward ?? 2048);
    const p = checkProbability(op, 'dropout', opts.dropout ?? 0.1);
    const activation = opts.activation ?? 'relu';
    if (activation !== 'relu' && activation !== 'gelu') throw new ValueError(`${op}: activation must be 'relu' or 'gelu', got ${String(activation)}`);
    const eps = opts.layerNormEps ?? 1e-5;
    const dtype = opts.dtype;
    const [ka, k1, k2] = splitKey(layerKey(op, opts.key), 3);
    this.self_attn = new MultiheadAttentionModule(dModel, nhead, { dropout: p, batchFirst: opts.batchFirst ?? false, dtype, key: ka });
    this.linear1 = new LinearModule(dModel, dff, { dtype, key: k1 });
    this.dropout = new DropoutModule(p);
    this.linear2 = new LinearModule(dff, dModel, { dtype, key: k2 });
    this.normFirst = opts.normFirst ?? false;
    this.norm1 = new LayerNormModule(dModel, { eps, dtype });
    this.norm2 = new LayerNormModule(dModel, { eps, dtype });
    this.dropout1 = new DropoutModule(p);
    this.dropout2 = new DropoutModule(p);
    this.activation = activation;
  }

  /** src [L, N, E] (batchFirst: [N, L, E]; unbatched [L, E]) → the same shape. */
  forward(src: Tensor, opts: TransformerEncoderLayerForwardOptions = {}): Tensor {
    const p = this.dropout.p;
    if (this.training && p > 0 && opts.key === undefined) throw new ValueError(`TransformerEncoderLayer: training with dropout = ${p} needs a random key: pass { key } to forward (random.key(seed), split per step) or call eval()`);
    const keys = opts.key === undefined ? [] : splitKey(opts.key, 4);
    const selfAttention = (x: Tensor): Tensor => {
      const [y] = this.self_attn.forward(x, x, x, { attnMask: opts.srcMask, keyPaddingMask: opts.srcKeyPaddingMask, needWeights: false, key: keys[0] });
      return this.dropout1.forward(y, { key: keys[1] });
    };
    const feedForward = (x: Tensor): Tensor => {
      const h = this.linear1.forward(x);
      const a = this.activation === 'gelu' ? gelu(h) : relu(h);
      return this.dropout2.forward(this.linear2.forward(this.dropout.forward(a, { key: keys[2] })), { key: keys[3] });
    };
    let x = src;
    if (this.normFirst) {
      x = x.add(selfAttention(this.norm1.forward(x)));
      x = x.add(feedForward(this.norm2.forward(x)));
    } else {
      x = this.norm1.forward(x.add(selfAttention(x)));
      x = this.norm2.forward(x.add(feedForward(x)));
    }
    return x;
  }
}

/**
 * A transformer encoder layer (torch.nn.TransformerEncoderLayer): nn.TransformerEncoderLayer(dModel, nhead, {dimFeedforward = 2048, dropout = 0.1, activation, layerNormEps, batchFirst, normFirst, dtype, key}).
 * @example
 * ```ts
 * const layer = nn.TransformerEncoderLayer(16, 4, { dimFeedforward: 32, batchFirst: true, key: random.key(0) }).eval();
 * layer.forward(ones([2, 5, 16], { dtype: 'float32' })).shape;   // [2, 5, 16]
 * Object.keys(layer.stateDict()).slice(0, 3);   // ['self_attn.in_proj_weight', 'self_attn.in_proj_bias', 'self_attn.out_proj.weight']
 * ```
 */
export const TransformerEncoderLayer = callableClass(TransformerEncoderLayerModule);
export type TransformerEncoderLayer = TransformerEncoderLayerModule;
