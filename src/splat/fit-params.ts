// fit's parameters: the pre-activation form of a set of Gaussians that Adam
// steps (means, raw quaternions, log-scales, logit-opacities, colours or the
// SH bands), the maps between it and the activated Gaussians that render
// takes, and the seeded PRNG of fit's choices. Shared by fit.ts and
// fit-densify.ts.

import type { Tensor } from '../tensor/tensor.js';
import { cat } from '../tensor/ops/movement.js';
import { ax, rg, s } from '../tensor/slicing.js';
import type { Gaussians } from './types.js';

/** The seeded host generator of the view order and densification's choices. */
export { mulberry32 } from '../tensor/random/mulberry32.js';

/** The fitted parameters, pre-activation, in a fixed order (the Adam state and gradients follow it). */
export interface RawParams {
  means: Tensor;
  quats: Tensor;
  logScales: Tensor;
  logitOpacities: Tensor;
  /** colors [N,3], or the SH DC band [N,1,3] */
  color: Tensor;
  /** SH bands above 0 [N,K−1,3]; null with colours or degree 0 */
  shRest: Tensor | null;
}

export const PARAM_KEYS = ['means', 'quats', 'logScales', 'logitOpacities', 'color', 'shRest'] as const;
export type ParamKey = (typeof PARAM_KEYS)[number];

/** Activated Gaussians from raw parameters (lazy; render normalises the quaternions). */
export function activate(p: RawParams, useSh: boolean): Gaussians {
  const g: Gaussians = { means: p.means, quats: p.quats, scales: p.logScales.exp(), opacities: p.logitOpacities.sigmoid() };
  if (!useSh) g.colors = p.color;
  else g.sh = p.shRest === null ? p.color : cat([p.color, p.shRest], 1);
  return g;
}

/** Raw parameters of activated Gaussians (lazy): logs of the scales, logits of the opacities, the SH DC band apart. */
export function toRaw(g: Gaussians, useSh: boolean): RawParams {
  const o = g.opacities;
  return {
    means: g.means,
    quats: g.quats,
    logScales: g.scales.log(),
    logitOpacities: o.div(o.neg().add(1)).log(),
    color: useSh ? g.sh!.slice(s(ax(), rg(0, 1))) : g.colors!,
    shRest: useSh && (g.sh!.shape[1] as number) > 1 ? g.sh!.slice(s(ax(), rg(1))) : null,
  };
}
