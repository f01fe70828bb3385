// The splat-local Adam optimizer: fit's update rule, kept functional (state in,
// state out) over a list of tensors because rlx has no optimizer module yet.
// When one arrives, fit should move to it; until then this file is the only
// optimizer in the package and it is not exported from the package root.
//
// Adam (Kingma & Ba 2015) with bias correction, as torch.optim.Adam computes
// it (the 3DGS code's optimizer, eps = 1e-15 there):
//   m ← β₁ m + (1 − β₁) g,   v ← β₂ v + (1 − β₂) g²,
//   p ← p − lr · m̂ / (√v̂ + ε),   m̂ = m / (1 − β₁ᵗ),   v̂ = v / (1 − β₂ᵗ).
// adamStep is lazy: fit realizes every parameter, moment and the loss of an
// iteration in one call (compiler/realize.ts), so a loop keeps bounded graphs
// and each iteration is one cached executable. Densification edits the rows of parameters and moments
// together (gatherRows / appendRows below).

import type { Tensor } from '../tensor/tensor.js';
import { zerosLike } from '../tensor/create.js';
import { cat } from '../tensor/ops/movement.js';

/** Adam's state for one parameter tensor. */
export interface AdamSlot {
  /** First moment (same shape as the parameter). */
  m: Tensor;
  /** Second moment. */
  v: Tensor;
}

export interface AdamHyper {
  beta1: number;
  beta2: number;
  eps: number;
}

/** torch.optim.Adam's defaults with 3DGS's ε. */
export const ADAM_DEFAULTS: AdamHyper = { beta1: 0.9, beta2: 0.999, eps: 1e-15 };

/** Fresh (zero) moments for a parameter. */
export function adamSlot(p: Tensor): AdamSlot {
  return { m: zerosLike(p).realize(), v: zerosLike(p).realize() };
}

/**
 * One Adam step (t counts from 1) of parameter p with gradient g at rate lr:
 * the new parameter and slot, lazy (the caller realizes them).
 */
export function adamStep(p: Tensor, g: Tensor, slot: AdamSlot, t: number, lr: number, h: AdamHyper = ADAM_DEFAULTS): { p: Tensor; slot: AdamSlot } {
  const m = slot.m.mul(h.beta1).add(g.mul(1 - h.beta1));
  const v = slot.v.mul(h.beta2).add(g.mul(g).mul(1 - h.beta2));
  const c1 = 1 - h.beta1 ** t,
    c2 = 1 - h.beta2 ** t;
  // lr·m̂/(√v̂ + ε) with the bias corrections folded into scalars.
  const next = p.sub(m.mul(lr / c1).div(v.div(c2).sqrt().add(h.eps)));
  return { p: next, slot: { m, v } };
}

/** Rows `index` (int32 [M]) of a parameter and of its moments (pruning, the originals of a split). */
export function gatherRows(p: Tensor, slot: AdamSlot, index: Tensor): { p: Tensor; slot: AdamSlot } {
  return { p: p.gather(index, 0).realize(), slot: { m: slot.m.gather(index, 0).realize(), v: slot.v.gather(index, 0).realize() } };
}

/** Appends new rows to a parameter; their moments start at zero (3DGS's cat_tensors_to_optimizer). */
export function appendRows(p: Tensor, slot: AdamSlot, rows: Tensor): { p: Tensor; slot: AdamSlot } {
  const z = zerosLike(rows);
  return { p: cat([p, rows], 0).realize(), slot: { m: cat([slot.m, z], 0).realize(), v: cat([slot.v, z], 0).realize() } };
}
