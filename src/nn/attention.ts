// nn.MultiheadAttention with PyTorch's parameters and semantics (torch 1.13's
// multi_head_attention_forward): one packed input projection in_proj_weight
// [3E, E] (query, key, value rows in that order) with in_proj_bias [3E], an
// out_proj Linear, masks in PyTorch's MHA convention (a boolean attnMask or
// keyPaddingMask is true where attention is NOT allowed; float masks are
// added to the scores), sequence-first input unless batchFirst.

import { Tensor } from '../tensor/tensor.js';
import type { DTypeLike } from '../tensor/dtype.js';
import type { Key } from '../tensor/random.js';
import { s, rg } from '../tensor/slicing.js';
import { where } from '../tensor/ops/elementwise.js';
import { DTypeError, ShapeError, ValueError } from '../tensor/errors.js';
import { isFloat } from '../tensor/dtype.js';
import { Module } from './module.js';
import { callableClass } from './callable.js';
import { LinearModule } from './linear.js';
import { checkPositiveInt, constParam, layerKey, paramDType, splitKey, uniformParam, xavierBound } from './init.js';
import { checkProbability, checkFloatTensor } from './functional/check.js';
import { linearAs } from './functional/layers.js';
import { attend, causalMask } from './functional/attention.js';

/** Options of nn.MultiheadAttention. */
export interface MultiheadAttentionOptions {
  /** Biases on the input and output projections (default true). */
  bias?: boolean;
  /** Input and output as [N, L, E] instead of [L, N, E] (default false). */
  batchFirst?: boolean;
  /** Dropout on the attention weights in training mode (default 0). */
  dropout?: number;
  /** Parameter dtype (default float32). */
  dtype?: DTypeLike;
  /** Initialisation key (default: the default stream, see nn.manualSeed). */
  key?: Key;
}

/** Options of MultiheadAttention.forward. */
export interface MultiheadAttentionForwardOptions {
  /** [L, S] or [N·numHeads, L, S]: bool (true = not allowed) or float (added); or 'causal' (key j ≤ query i). */
  attnMask?: Tensor | 'causal';
  /** [N, S] ([S] unbatched): bool (true = ignore this key) or float (added). */
  keyPaddingMask?: Tensor;
  /** Return the attention weights too (default true). */
  needWeights?: boolean;
  /** Average the returned weights over heads, [N, L, S] (default true), else [N, numHeads, L, S]. */
  averageAttnWeights?: boolean;
  /** The random key of the attention dropout (training with dropout > 0); not the attention keys, which are forward's second argument. */
  key?: Key;
}

/** A mask as additive float scores of `dtype` (-inf where a bool mask is true). */
const additive = (m: Tensor, dtype: Tensor['dtype']): Tensor => (m.dtype === 'bool' ? where(m, -Infinity, 0).cast(dtype) : m.cast(dtype));

/** The class behind nn.MultiheadAttention (construct it through nn.MultiheadAttention, with or without `new`). */
export class MultiheadAttentionModule extends Module {
  embedDim: number;
  numHeads: number;
  headDim: number;
  dropout: number;
  batchFirst: boolean;
  /** [3·embedDim, embedDim]: the query, key and value projections stacked */
  in_proj_weight: Tensor;
  /** [3·embedDim], or null without bias */
  in_proj_bias: Tensor | null;
  out_proj: LinearModule;

  constructor(embedDim: number, numHeads: number, opts: MultiheadAttentionOptions = {}) {
    super();
    const op = 'MultiheadAttention';
    this.embedDim = checkPositiveInt(op, 'embedDim', embedDim);
    this.numHeads = checkPositiveInt(op, 'numHeads', numHeads);
    if (embedDim % numHeads !== 0) throw new ValueError(`${op}: embedDim ${embedDim} must be divisible by numHeads ${numHeads}`);
    this.headDim = embedDim / numHeads;
    this.dropout = checkProbability(op, 'dropout', opts.dropout ?? 0);
    this.batchFirst = opts.batchFirst ?? false;
    const dtype = paramDType(op, opts.dtype);
    const [kIn, kOut] = splitKey(layerKey(op, opts.key), 2);
    const bias = opts.bias ?? true;
    this.in_proj_weight = uniformParam(kIn!, [3 * embedDim, embedDim], xavierBound(embedDim, 3 * embedDim), dtype);
    this.in_proj_bias = bias ? constParam([3 * embedDim], 0, dtype) : null;
    // PyTorch: out_proj is a Linear initialised as one, then its bias is zeroed.
    this.out_proj = new LinearModule(embedDim, embedDim, { bias, dtype, key: kOut });
    if (bias) this.out_proj.bias = constParam([embedDim], 0, dtype);
  }

  /**
   * query [L, N, E] (batchFirst: [N, L, E]; unbatched [L, E]), key and value [S, N, E] → [output like query, weights or null].
   */
  forward(query: Tensor, key: Tensor, value: Tensor, opts: MultiheadAttentionForwardOptions = {}): [Tensor, Tensor | null] {
    const op = 'MultiheadAttention';
    const E = this.embedDim,
      H = this.numHeads,
      D = this.headDim;
    for (const [name, t] of [['query', query], ['key', key], ['value', value]] as const) {
      checkFloatTensor(op, name, t);
      if (t.ndim !== query.ndim || (t.ndim !== 2 && t.ndim !== 3)) throw new ShapeError(`${op}: query, key and value must all be 3-D (batched) or all 2-D (unbatched), got [${query.shape}], [${key.shape}], [${value.shape}]`);
      if (t.shape[t.ndim - 1] !== E) throw new ShapeError(`${op}: ${name}'s last dim must be embedDim = ${E}, got [${t.shape}]`);
    }
    const unbatched = query.ndim === 2;
    // To [N, L, E].
    const toBatchFirst = (t: Tensor): Tensor => (unbatched ? t.expandDims(0) : this.batchFirst ? t : t.swapaxes(0, 1));
    const q0 = toBatchFirst(query),
      k0 = toBatchFirst(key),
      v0 = toBatchFirst(value);
    const [N, L] = q0.shape as [number, number];
    const S = k0.shape[1]!;
    if (k0.shape[0] !== N || v0.shape[0] !== N || v0.shape[1] !== S) throw new ShapeError(`${op}: query, key and value must share the batch size and key and value the sequence length, got [${query.shape}], [${key.shape}], [${value.shape}]`);
    const rows = (i: number) => s(rg(i * E, (i + 1) * E));
    const proj = (x: Tensor, i: number): Tensor => {
      const b = this.in_proj_bias === null ? null : this.in_proj_bias.slice(rows(i));
      return linearAs(op, x, this.in_proj_weight.slice(rows(i)), b).reshape([N, -1, H, D]).swapaxes(1, 2); // [N, H, len, D]
    };
    const q = proj(q0, 0),
      k = proj(k0, 1),
      v = proj(v0, 2);

    // Masks, as one additive float tensor broadcasting to the scores [N, H, L, S] (or 'causal' alone).
    let mask: Tensor | 'causal' | undefined;
    const am = opts.attnMask;
    if (am === 'causal') mask = 'causal';
    else if (am !== undefined) {
      if (!(am instanceof Tensor)) throw new ValueError(`${op}: attnMask must be a tensor or 'causal', got ${am === null ? 'null' : typeof am}`);
      if (am.dtype !== 'bool' && !isFloat(am.dtype)) throw new DTypeError(`${op}: attnMask must be bool (true = not allowed) or float (added), got ${am.dtype}`);
      if (am.ndim === 2 && am.shape[0] === L && am.shape[1] === S) mask = additive(am, q.dtype);
      else if (am.ndim === 3 && am.shape[0] === N * H && am.shape[1] === L && am.shape[2] === S) mask = additive(am, q.dtype).reshape([N, H, L, S]);
      else throw new ShapeError(`${op}: attnMask must be [L, S] = [${L}, ${S}] or [N·numHeads, L, S] = [${N * H}, ${L}, ${S}], got [${am.shape}]`);
    }
    const kpm = opts.keyPaddingMask;
    if (kpm !== undefined) {
      if (!(kpm instanceof Tensor)) throw new ValueError(`${op}: keyPaddingMask must be a tensor, got ${kpm === null ? 'null' : typeof kpm}`);
      if (kpm.dtype !== 'bool' && !isFloat(kpm.dtype)) throw new DTypeError(`${op}: keyPaddingMask must be bool (true = ignore) or float (added), got ${kpm.dtype}`);
      const want = unbatched ? [S] : [N, S];
      if (kpm.ndim !== want.length || kpm.shape.some((d, i) => d !== want[i])) throw new ShapeError(`${op}: keyPaddingMask must be [${want}], got [${kpm.shape}]`);
      const pad = additive(kpm, q.dtype).reshape([N, 1, 1, S]);
      mask = mask === undefined ? pad : mask === 'causal' ? additive(causalMask(L, S).logicalNot(), q.dtype).add(pad) : mask.add(pad);
    }
    const p = this.training ? this.dropout : 0;
    if (p > 0 && opts.key === undefined) throw new ValueError(`${op}: training with dropout = ${p} needs a random key: pass { key } to forward (random.key(seed), split per step) or call eval()`);
    const { output, weights } = attend(op, q, k, v, { mask, dropoutP: p, key: opts.key });
    const merged = output.swapaxes(1, 2).reshape([N, L, E]);
    let out = this.out_proj.forward(merged);
    out = unbatched ? out.reshape([L, E]) : this.batchFirst ? out : out.swapaxes(0, 1);
    if (opts.needWeights === false) return [out, null];
    let w = opts.averageAttnWeights === false ? weights : weights.mean(1);
    if (unbatched) w = w.reshape(w.shape.slice(1));
    return [out, w];
  }
}

/**
 * Multi-head attention with PyTorch's packed projections (torch.nn.MultiheadAttention): nn.MultiheadAttention(embedDim, numHeads, {bias, batchFirst, dropout, dtype, key}); forward returns [output, weights | null].
 * @example
 * ```ts
 * const mha = nn.MultiheadAttention(8, 2, { batchFirst: true, key: random.key(0) });
 * const x = ones([3, 5, 8], { dtype: 'float32' });
 * const [y, w] = mha.forward(x, x, x);
 * y.shape;    // [3, 5, 8]
 * w!.shape;   // [3, 5, 5]
 * Object.keys(mha.stateDict());   // ['in_proj_weight', 'in_proj_bias', 'out_proj.weight', 'out_proj.bias']
 * ```
 */
export const MultiheadAttention = callableClass(MultiheadAttentionModule);
export type MultiheadAttention = MultiheadAttentionModule;
