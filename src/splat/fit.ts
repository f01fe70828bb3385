// splat.fit: Gaussians fitted to images by gradient descent through render,
// as 3DGS trains them. The parameters are the pre-activation ones (means, raw
// quaternions, log-scales, logit-opacities, colours or SH), so Adam's steps
// keep scales positive and opacities in (0, 1) without clamping; the loss is
// 3DGS's (1 − λ)·L1 + λ·(1 − SSIM) with λ = 0.2 by default. One valueAndGrad
// per iteration over the parameter list, one realize of everything an
// iteration produces (parameters, moments, loss): the graph never grows, and
// after the first iteration each step is a cached executable. Optional
// densification (fit-densify.ts) clones, splits and prunes between steps.
//
// Views: each iteration renders `viewsPerStep` views (default 1, as 3DGS)
// taken in a seeded shuffled order, so an epoch visits every view once.

import { Tensor } from '../tensor/tensor.js';
import { ShapeError, ValueError } from '../tensor/errors.js';
import { realize } from '../compiler/realize.js';
import { valueAndGrad } from '../compiler/transforms/grad.js';
import { barFor, progressOption, type ProgressOption } from '../progress.js';
import { render } from './render.js';
import { ssim } from './ssim.js';
import { adamSlot, adamStep, type AdamSlot } from './adam.js';
import { activate, mulberry32, PARAM_KEYS, toRaw, type ParamKey, type RawParams } from './fit-params.js';
import { DensifyState, densifyOptions, type DensifyOptions } from './fit-densify.js';
import type { Camera, Gaussians } from './types.js';

const OP = 'splat.fit';

/**
 * Learning rates per parameter group (Adam step sizes on the pre-activation
 * parameters). 3DGS's rates are tuned for 3·10⁴ iterations; the defaults here
 * are larger, tuned on the tests' fits of 10¹–10³ iterations (the 2-D image
 * fit and the 20-view sphere), where 3DGS's rates stall far from the target.
 */
export interface FitLearningRates {
  /** Means, in units of the scene extent (rate = means × extent; default 5e-3, 3DGS 1.6e-4), decayed exponentially to 1/100 of it by the last iteration, as in 3DGS. */
  means?: number;
  /** Raw quaternions (default 5e-3; 3DGS 1e-3). */
  quats?: number;
  /** Log-scales (default 2e-2; 3DGS 5e-3). */
  scales?: number;
  /** Logit-opacities (default 5e-2, 3DGS's). */
  opacities?: number;
  /** Colours (default 5e-2; 3DGS's SH DC rate 2.5e-3). */
  colors?: number;
  /** SH coefficients: the degree-0 band at this rate, higher bands at 1/20 of it (3DGS's ratio); default 5e-2. */
  sh?: number;
}

export interface FitOptions {
  /** The camera of each target image (one camera for one image). */
  cameras: Camera | readonly Camera[];
  /** Adam steps. */
  iterations: number;
  /** Per-group learning rates (see FitLearningRates for the defaults). */
  lr?: FitLearningRates;
  /** Loss = l1·L1 + ssim·(1 − SSIM) (default l1 = 0.8, ssim = 0.2: 3DGS's λ = 0.2). */
  lossWeights?: { l1?: number; ssim?: number };
  /** Densify and prune as 3DGS does (off by default); true for the defaults. */
  densify?: boolean | DensifyOptions;
  /** Views rendered per iteration (default 1, as 3DGS; the loss is their mean). */
  viewsPerStep?: number;
  /** Length unit of the means' learning rate (default: the radius of init's means about their centroid). */
  sceneExtent?: number;
  /** Render background (default [0, 0, 0]). */
  background?: readonly number[];
  /** A progress bar on stderr (default off): true, or {label, stream, enabled, intervalMs}. */
  progress?: ProgressOption;
  /** Seed of the view order and of densification's samples (default 0). */
  seed?: number;
}

export interface FitResult {
  /** The fitted Gaussians, activated (quaternions normalised), realized. */
  gaussians: Gaussians;
  /** The loss of every iteration (of the views that iteration rendered). */
  losses: number[];
  /** PSNR (dB, data range 1, rendered image clamped to [0, 1]) of the final Gaussians, the mean over all views. */
  psnr: number;
  /** The final PSNR of each view. */
  psnrs: number[];
  /** The number of Gaussians after each iteration (changes only with densify). */
  counts: number[];
}

function checkInit(init: Gaussians): { n: number; useSh: boolean } {
  if (init === null || typeof init !== 'object' || !(init.means instanceof Tensor)) throw new ValueError(`${OP}: init must be Gaussians {means, quats, scales, opacities, colors | sh}, got ${init === null ? 'null' : typeof init}`);
  if ((init.colors === undefined) === (init.sh === undefined)) throw new ValueError(`${OP}: init must have exactly one of colors and sh`);
  const n = init.means.shape[0] as number;
  if (init.means.ndim !== 2 || init.means.shape[1] !== 3 || n < 1) throw new ShapeError(`${OP}: init.means must be [N, 3] with N ≥ 1, got [${init.means.shape.join(', ')}]`);
  const o = Array.from(init.opacities.toArray() as ArrayLike<number>);
  const badO = o.findIndex((v) => !(v > 0 && v < 1));
  if (badO >= 0) throw new ValueError(`${OP}: init.opacities must lie in (0, 1) (they are fitted as logits), got ${o[badO]} at index ${badO}`);
  const sc = Array.from(init.scales.toArray() as ArrayLike<number>);
  const badS = sc.findIndex((v) => !(v > 0 && Number.isFinite(v)));
  if (badS >= 0) throw new ValueError(`${OP}: init.scales must be positive and finite (they are fitted as logs), got ${sc[badS]} at Gaussian ${Math.floor(badS / 3)}`);
  return { n, useSh: init.sh !== undefined };
}

/** The targets as a list of [H, W, 3] tensors of `dtype`, one per camera, checked against the cameras' sizes. */
function checkTargets(target: Tensor | readonly Tensor[], cams: readonly Camera[], dtype: string): Tensor[] {
  let list: Tensor[];
  if (target instanceof Tensor) list = target.ndim === 4 ? Array.from({ length: target.shape[0] as number }, (_, i) => target.select(0, i)) : [target];
  else if (Array.isArray(target) && target.every((t) => t instanceof Tensor)) list = [...target];
  else throw new ValueError(`${OP}: target must be an image Tensor [H, W, 3], a batch [C, H, W, 3] or a list of images, got ${typeof target}`);
  if (list.length !== cams.length) throw new ShapeError(`${OP}: ${list.length} target image(s) for ${cams.length} camera(s); give one image per camera`);
  return list.map((t, i) => {
    const c = cams[i]!;
    if (t.ndim !== 3 || t.shape[0] !== c.height || t.shape[1] !== c.width || t.shape[2] !== 3) throw new ShapeError(`${OP}: target ${i} must be [${c.height}, ${c.width}, 3] (its camera's height, width, RGB), got [${t.shape.join(', ')}]`);
    return t.cast(dtype as 'float32').realize();
  });
}

function positive(name: string, v: unknown, dflt: number): number {
  const x = v ?? dflt;
  if (!(typeof x === 'number' && x >= 0 && Number.isFinite(x))) throw new ValueError(`${OP}: ${name} must be a finite number ≥ 0, got ${String(x)}`);
  return x;
}

/**
 * PSNR in dB of an image against a target of the same shape, data range 1 (the image is clamped to [0, 1] first, as 3DGS evaluates renders).
 *
 * −10·log10(mean((clamp(image) − target)²)); Infinity for equal images.
 * @example
 * ```ts
 * const target = full([4, 4, 3], 0.5, { dtype: 'float64' });
 * Math.round(splat.psnr(target.add(0.1), target) * 1e6) / 1e6;   // 20
 * splat.psnr(target, target) === Infinity;                      // true
 * ```
 */
export function psnr(image: Tensor, target: Tensor): number {
  if (!(image instanceof Tensor) || !(target instanceof Tensor)) throw new ValueError(`splat.psnr: expects two Tensors, got ${typeof image} and ${typeof target}`);
  if (image.ndim !== target.ndim || image.shape.some((d, i) => d !== target.shape[i])) throw new ShapeError(`splat.psnr: the images' shapes differ: [${image.shape.join(', ')}] and [${target.shape.join(', ')}]`);
  const mse = image.clip(0, 1).sub(target).square().mean().item() as number;
  return mse === 0 ? Infinity : -10 * Math.log10(mse);
}

/** The radius of the means about their centroid (fit's default length unit). */
function extentOf(means: Tensor): number {
  const c = means.mean(0, true);
  const r = means.sub(c).square().sum(1).sqrt().max().item() as number;
  return r > 0 ? r : 1;
}

/**
 * Fits Gaussians to target images seen by known cameras (3DGS's training loop: Adam on the pre-activation parameters, L1 + D-SSIM loss, optional densification).
 *
 * target: an image [H, W, 3] (float, in [0, 1]) or one image per camera (a list, or a batch [C, H, W, 3]).
 * init: the starting Gaussians (activated, as render takes them). Returns the
 * fitted Gaussians, the loss of every iteration and the final PSNR.
 *
 * @example
 * ```ts
 * // A red blob seen by a camera 5 units away; a grey Gaussian learns its place, shape and colour.
 * const cam = splat.lookAt({ eye: [0, 0, -5], target: [0, 0, 0], fovY: 40, width: 32, height: 32 });
 * const f32 = (v: number[], shape: number[]) => tensor(v, { dtype: 'float32', shape });
 * const blob = { means: f32([0.1, -0.2, 0], [1, 3]), quats: f32([1, 0, 0, 0], [1, 4]), scales: f32([0.6, 0.4, 0.01], [1, 3]), opacities: f32([0.9], [1]), colors: f32([0.9, 0.2, 0.1], [1, 3]) };
 * const target = splat.render(blob, cam).image;
 * const init = { means: f32([0, 0, 0], [1, 3]), quats: f32([1, 0, 0, 0], [1, 4]), scales: f32([0.4, 0.4, 0.01], [1, 3]), opacities: f32([0.5], [1]), colors: f32([0.5, 0.5, 0.5], [1, 3]) };
 * const result = splat.fit(target, init, { cameras: cam, iterations: 80, lr: { scales: 0.05, means: 0.02 } });
 * result.losses.length;   // 80
 * result.psnr > 30;       // true
 * ```
 */
export function fit(target: Tensor | readonly Tensor[], init: Gaussians, opts: FitOptions): FitResult {
  if (opts === null || typeof opts !== 'object') throw new ValueError(`${OP}: expects an options object {cameras, iterations, ...}, got ${String(opts)}`);
  const cams: readonly Camera[] = Array.isArray(opts.cameras) ? (opts.cameras as readonly Camera[]) : [opts.cameras as Camera];
  if (cams.length === 0 || cams.some((c) => c === null || typeof c !== 'object' || !Array.isArray(c.viewmat))) throw new ValueError(`${OP}: cameras must be a camera or a non-empty list of cameras (splat.camera / splat.lookAt)`);
  const iterations = opts.iterations;
  if (!(Number.isInteger(iterations) && iterations >= 0)) throw new ValueError(`${OP}: iterations must be an integer ≥ 0, got ${String(iterations)}`);
  const { useSh } = checkInit(init);
  const dtype = init.means.dtype;
  const targets = checkTargets(target, cams, dtype);
  const lr = opts.lr ?? {};
  const wL1 = positive('lossWeights.l1', opts.lossWeights?.l1, 0.8),
    wSsim = positive('lossWeights.ssim', opts.lossWeights?.ssim, 0.2);
  const perStep = opts.viewsPerStep ?? 1;
  if (!(Number.isInteger(perStep) && perStep >= 1 && perStep <= cams.length)) throw new ValueError(`${OP}: viewsPerStep must be an integer in [1, ${cams.length}], got ${String(perStep)}`);
  const extent = opts.sceneExtent ?? extentOf(init.means);
  if (!(extent > 0 && Number.isFinite(extent))) throw new ValueError(`${OP}: sceneExtent must be a positive finite number, got ${String(extent)}`);
  const background = opts.background ? [...opts.background] : [0, 0, 0];
  const bar = barFor(progressOption(OP, opts.progress), OP, iterations);
  const seed = opts.seed ?? 0;
  const rand = mulberry32(seed);
  const dens = opts.densify ? new DensifyState(densifyOptions(OP, opts.densify === true ? {} : opts.densify, iterations), cams, extent, seed) : null;

  const rates: Record<ParamKey, number> = {
    means: positive('lr.means', lr.means, 5e-3) * extent,
    quats: positive('lr.quats', lr.quats, 5e-3),
    logScales: positive('lr.scales', lr.scales, 2e-2),
    logitOpacities: positive('lr.opacities', lr.opacities, 5e-2),
    color: useSh ? positive('lr.sh', lr.sh, 5e-2) : positive('lr.colors', lr.colors, 5e-2),
    shRest: positive('lr.sh', lr.sh, 5e-2) / 20,
  };
  let raw = toRaw(init, useSh);
  for (const k of PARAM_KEYS) if (raw[k] !== null) raw[k] = raw[k]!.realize();
  let slots = Object.fromEntries(PARAM_KEYS.map((k) => [k, raw[k] === null ? null : adamSlot(raw[k]!)])) as Record<ParamKey, AdamSlot | null>;

  const lossOf = (ps: Tensor[], views: number[]): Tensor => {
    const p = Object.fromEntries(PARAM_KEYS.map((k, i) => [k, ps[i] ?? null])) as unknown as RawParams;
    const g = activate(p, useSh);
    let total: Tensor | null = null;
    for (const v of views) {
      const img = render(g, cams[v]!, { background }).image;
      const t = targets[v]!;
      let l = img.sub(t).abs().mean().mul(wL1);
      if (wSsim > 0) l = l.add(ssim(img, t).neg().add(1).mul(wSsim));
      total = total === null ? l : total.add(l);
    }
    return views.length === 1 ? total! : total!.div(views.length);
  };

  const losses: number[] = [],
    counts: number[] = [];
  let order: number[] = [];
  for (let it = 0; it < iterations; it++) {
    const views: number[] = [];
    while (views.length < perStep) {
      if (order.length === 0) order = shuffled(cams.length, rand);
      views.push(order.pop()!);
    }
    const present = PARAM_KEYS.filter((k) => raw[k] !== null);
    const [loss, grads] = valueAndGrad((ps: Tensor[]) => lossOf(ps, views))(PARAM_KEYS.map((k) => raw[k]!).filter((x) => x !== null)) as [Tensor, Tensor[]];
    // 3DGS's exponential decay of the means' rate, to 1/100 at the end.
    const decay = iterations > 1 ? 0.01 ** (it / (iterations - 1)) : 1;
    const next: Partial<Record<ParamKey, { p: Tensor; slot: AdamSlot }>> = {};
    present.forEach((k, i) => {
      next[k] = adamStep(raw[k]!, grads[i]!, slots[k]!, it + 1, k === 'means' ? rates.means * decay : rates[k]);
    });
    const meansGrad = dens?.wantsGradient(it) ? grads[0]! : null;
    realize([loss.node, ...present.flatMap((k) => [next[k]!.p.node, next[k]!.slot.m.node, next[k]!.slot.v.node]), ...(meansGrad ? [meansGrad.node] : [])]);
    for (const k of present) {
      raw[k] = next[k]!.p;
      slots[k] = next[k]!.slot;
    }
    const lv = loss.item() as number;
    if (!Number.isFinite(lv)) throw new ValueError(`${OP}: the loss became ${lv} at iteration ${it}; lower the learning rates`);
    losses.push(lv);
    if (dens) {
      if (meansGrad) dens.accumulate(raw, meansGrad, views);
      const edited = dens.step(it, raw, slots);
      if (edited) ({ raw, slots } = edited);
    }
    counts.push(raw.means.shape[0] as number);
    bar?.update(it + 1, () => `loss ${lv.toPrecision(4)} N ${raw.means.shape[0]}`);
  }

  const fitted = activate(raw, useSh);
  const qn = fitted.quats.div(fitted.quats.square().sum(1, true).sqrt());
  const gaussians: Gaussians = { means: raw.means, quats: qn.realize(), scales: fitted.scales.realize(), opacities: fitted.opacities.realize() };
  if (useSh) gaussians.sh = fitted.sh!.realize();
  else gaussians.colors = raw.color;
  const psnrs = cams.map((c, v) => psnr(render(gaussians, c, { background }).image, targets[v]!));
  const meanPsnr = psnrs.reduce((a, b) => a + b, 0) / psnrs.length;
  bar?.done(`loss ${losses.length ? losses[losses.length - 1]!.toPrecision(4) : '-'} PSNR ${meanPsnr.toFixed(2)} dB`);
  return { gaussians, losses, psnr: meanPsnr, psnrs, counts };
}

/** 0..n−1 in a random order (Fisher–Yates). */
function shuffled(n: number, rand: () => number): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}
