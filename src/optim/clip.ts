// Gradient clipping by global norm, torch.nn.utils.clip_grad_norm_'s formula:
// the norm of the per-tensor norms, coef = maxNorm / (norm + 1e-6) clamped to
// at most 1, every gradient scaled by coef. Functional (returns new gradients)
// and traceable: the clamp is arithmetic, not a branch, so it runs inside jit.

import type { PyTreeOrNode } from '../compiler/transforms/pytree.js';
import { Tensor } from '../tensor/tensor.js';
import { full, zeros } from '../tensor/create.js';
import { promoteTypes, type DType } from '../tensor/dtype.js';
import { ValueError } from '../tensor/errors.js';
import { flattenTree, checkFloatLeaves, rebuild } from './tree.js';

export interface ClipOptions {
  /** 2 (Euclidean, the default) or Infinity (largest magnitude). */
  normType?: 2 | number;
}

/** The clipped leaves and the total norm (before clipping), for a list of gradient tensors. */
export function clipLeaves(op: string, grads: readonly Tensor[], maxNorm: number, normType = 2): { leaves: Tensor[]; norm: Tensor } {
  if (typeof maxNorm !== 'number' || !(maxNorm >= 0) || !Number.isFinite(maxNorm)) throw new ValueError(`${op}: maxNorm must be a finite number >= 0, got ${typeof maxNorm === 'number' ? maxNorm : typeof maxNorm}`);
  if (normType !== 2 && normType !== Infinity) throw new ValueError(`${op}: normType must be 2 or Infinity, got ${String(normType)}`);
  if (grads.length === 0) return { leaves: [], norm: zeros([]) };
  const dtype = grads.map((g) => g.dtype as DType).reduce(promoteTypes);
  // Per-tensor norms in each gradient's dtype, then the norm of those (torch stacks them).
  const norms = grads.map((g) => (normType === 2 ? g.square().sum().sqrt() : g.abs().max()).cast(dtype));
  const norm = normType === 2 ? norms.map((n) => n.square()).reduce((a, b) => a.add(b)).sqrt() : norms.reduce((a, b) => a.maximum(b));
  // torch evaluates maxNorm / (norm + 1e-6) as (norm + 1e-6).reciprocal() * maxNorm (Tensor.__rtruediv__).
  const coef = full([], 1, { dtype }).div(norm.add(1e-6)).mul(maxNorm).minimum(1);
  return { leaves: grads.map((g) => g.mul(coef.cast(g.dtype))), norm };
}

/**
 * Scales gradients so that their global norm is at most maxNorm (torch.nn.utils.clip_grad_norm_): returns the clipped gradients and the norm before clipping.
 * @example
 * ```ts
 * const { grads, norm } = optim.clipGradNorm({ w: tensor([3, 4]) }, 1);
 * norm.item();   // 5
 * grads.w.tolist();   // [0.599999880000024, 0.799999840000032]  (coef = 1 / (5 + 1e-6))
 * ```
 */
export function clipGradNorm<G extends PyTreeOrNode>(grads: G, maxNorm: number, opts: ClipOptions = {}): { grads: G; norm: Tensor } {
  const op = 'optim.clipGradNorm';
  const flat = flattenTree(grads);
  checkFloatLeaves(op, 'grads', flat);
  const { leaves, norm } = clipLeaves(op, flat.leaves, maxNorm, opts.normType ?? 2);
  return { grads: rebuild(flat, leaves) as G, norm };
}
