// nn.Embedding: a lookup table of numEmbeddings rows of size embeddingDim
// (PyTorch's weight [num, dim], initialised N(0, 1); the padding row, if
// any, starts at zero and gets no gradient).

import type { Tensor } from '../tensor/tensor.js';
import type { DTypeLike } from '../tensor/dtype.js';
import type { Key } from '../tensor/random.js';
import { ValueError } from '../tensor/errors.js';
import { where } from '../tensor/ops/elementwise.js';
import { arange } from '../tensor/create.js';
import { Module } from './module.js';
import { callableClass } from './callable.js';
import { checkPositiveInt, layerKey, normalParam, paramDType } from './init.js';
import { embeddingAs } from './functional/layers.js';

/** Options of nn.Embedding. */
export interface EmbeddingOptions {
  /** A row that starts at zero and is never updated (its lookups pass no gradient). */
  paddingIdx?: number;
  /** Parameter dtype (default float32). */
  dtype?: DTypeLike;
  /** Initialisation key (default: the default stream, see nn.manualSeed). */
  key?: Key;
}

/** The class behind nn.Embedding (construct it through nn.Embedding, with or without `new`). */
export class EmbeddingModule extends Module {
  numEmbeddings: number;
  embeddingDim: number;
  /** normalised to a non-negative row index; null when there is none */
  paddingIdx: number | null;
  /** [numEmbeddings, embeddingDim] */
  weight: Tensor;

  constructor(numEmbeddings: number, embeddingDim: number, opts: EmbeddingOptions = {}) {
    super();
    this.numEmbeddings = checkPositiveInt('Embedding', 'numEmbeddings', numEmbeddings);
    this.embeddingDim = checkPositiveInt('Embedding', 'embeddingDim', embeddingDim);
    const p = opts.paddingIdx;
    if (p !== undefined && (!Number.isInteger(p) || p < -numEmbeddings || p >= numEmbeddings)) throw new ValueError(`Embedding: paddingIdx must be an integer in [-${numEmbeddings}, ${numEmbeddings}), got ${p}`);
    this.paddingIdx = p === undefined ? null : p < 0 ? p + numEmbeddings : p;
    let w = normalParam(layerKey('Embedding', opts.key), [numEmbeddings, embeddingDim], paramDType('Embedding', opts.dtype));
    if (this.paddingIdx !== null) w = where(arange(numEmbeddings, { dtype: 'int32' }).eq(this.paddingIdx).reshape([numEmbeddings, 1]), 0, w).realize();
    this.weight = w;
  }

  /** Integer indices of any shape → [...indices.shape, embeddingDim]. */
  forward(indices: Tensor): Tensor {
    return embeddingAs('Embedding', indices, this.weight, this.paddingIdx === null ? {} : { paddingIdx: this.paddingIdx });
  }
}

/**
 * A lookup table of learned vectors (torch.nn.Embedding): nn.Embedding(numEmbeddings, embeddingDim, {paddingIdx, dtype, key}).
 * @example
 * ```ts
 * const emb = nn.Embedding(10, 4, { key: random.key(0) });
 * emb.forward(tensor([[1, 2, 3]], { dtype: 'int32' })).shape;   // [1, 3, 4]
 * ```
 */
export const Embedding = callableClass(EmbeddingModule);
export type Embedding = EmbeddingModule;
