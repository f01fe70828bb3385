// splat.ssim: the structural similarity index (Wang et al. 2004) as the 3DGS
// training code computes it (utils/loss_utils.py `ssim`: conv2d with an 11×11
// Gaussian window, σ = 1.5, padding = 5, zero padding, per channel; the mean of
// the SSIM map over pixels and channels). fit's loss uses 1 − ssim, so it is
// built from rlx tensor ops only: lazy, fused by the compiler and
// differentiable by autodiff like any other expression.
//
// The 2-D window is the outer product of a 1-D Gaussian, so the blur is two
// 1-D passes. Each pass is a sum of shifted slices of a zero-padded image
// (Σ_k g_k · x[i + k − r]): 11 loads of one fused kernel per pass, O(11·HWC),
// where a banded-matrix product would cost O(H·HWC) and run badly on the js
// backend. The blur carries its own VJP (itself: see blurOp). Border pixels
// average over a truncated window with zeros outside ('same' output, as in
// 3DGS), which is not the 'valid'-only SSIM of scikit-image; the difference is
// a few per cent at the border and it is what 3DGS's D-SSIM loss optimizes.

import { Tensor } from '../tensor/tensor.js';
import { DTypeError, ShapeError, ValueError } from '../tensor/errors.js';
import { isFloat } from '../tensor/dtype.js';
import { s, ax, rg } from '../tensor/slicing.js';
import { customVjp } from '../compiler/transforms/custom.js';

export interface SsimOptions {
  /** L, the value range of the images (1 for [0, 1] images, 255 for 8-bit); C1 = (0.01 L)², C2 = (0.03 L)². Default 1. */
  dataRange?: number;
  /** Side of the Gaussian window, odd (default 11). */
  windowSize?: number;
  /** Standard deviation of the Gaussian window in pixels (default 1.5). */
  sigma?: number;
  /** 'mean' (default): the mean SSIM, a 0-d tensor; 'none': the SSIM map, the images' shape. */
  reduction?: 'mean' | 'none';
}

const OP = 'splat.ssim';

/** The normalised 1-D Gaussian window g_k ∝ exp(−(k − r)² / 2σ²), k = 0..2r (3DGS's gaussian()). */
function gaussianWindow(size: number, sigma: number): number[] {
  const r = (size - 1) / 2;
  const g = Array.from({ length: size }, (_, k) => Math.exp(-((k - r) ** 2) / (2 * sigma * sigma)));
  const total = g.reduce((a, b) => a + b, 0);
  return g.map((v) => v / total);
}

/** One 1-D pass of the window g along `axis` of t, which is zero-padded by r on that axis: Σ_k g_k · t[k : k + n]. */
function blurPass(t: Tensor, g: readonly number[], axis: number): Tensor {
  const r = (g.length - 1) / 2;
  const n = (t.shape[axis] as number) - 2 * r;
  let acc: Tensor | null = null;
  g.forEach((w, k) => {
    const axes = t.shape.map((_, i) => (i === axis ? rg(k, k + n) : ax()));
    const term = t.slice(s(...axes)).mul(w);
    acc = acc === null ? term : acc.add(term);
  });
  return acc!;
}

/**
 * The 2-D blur of x [..., H, W, C] with the window g gᵀ, zero padding,
 * 'same' output: pad H, pass along H, pad W, pass along W. The pads are
 * kernels of their own (the fuser does not fuse through a pad), so the second
 * pass reads a computed buffer (11 taps a pixel per pass) instead of
 * recomputing the first pass under each of its taps (121).
 */
function separableBlur(x: Tensor, g: readonly number[], hAxis: number): Tensor {
  const r = (g.length - 1) / 2;
  const padOn = (axis: number) => x.shape.map((_, i): [number, number] => (i === axis ? [r, r] : [0, 0]));
  const alongH = blurPass(x.pad(padOn(hAxis), 0), g, hAxis);
  return blurPass(alongH.pad(padOn(hAxis + 1), 0), g, hAxis + 1);
}

/**
 * separableBlur with its VJP given: zero-padded 'same' convolution with a
 * symmetric window is a symmetric linear map (B[i][j] = g[i − j + r] =
 * B[j][i]), so its VJP is the blur itself. Autodiff through the shifted
 * slices would give the same numbers as a pad per tap (11 kernels a pass).
 */
function blurOp(g: readonly number[], hAxis: number): (x: Tensor) => Tensor {
  // One function per window and axis: a custom node's rules are part of the
  // compile cache's key, so a fresh closure per call would compile every call.
  const key = `${hAxis}:${g.join(',')}`;
  let op = BLUR_OPS.get(key);
  if (op === undefined) {
    op = customVjp(
      (x: Tensor) => separableBlur(x, g, hAxis),
      (_primals, _out, ct) => [separableBlur(ct, g, hAxis)],
    );
    BLUR_OPS.set(key, op);
  }
  return op;
}
const BLUR_OPS = new Map<string, (x: Tensor) => Tensor>();

function checkOptions(o: SsimOptions): { L: number; size: number; sigma: number; reduction: 'mean' | 'none' } {
  if (o === null || typeof o !== 'object') throw new ValueError(`${OP}: options must be an object {dataRange, windowSize, sigma, reduction}, got ${String(o)}`);
  const L = o.dataRange ?? 1,
    size = o.windowSize ?? 11,
    sigma = o.sigma ?? 1.5,
    reduction = o.reduction ?? 'mean';
  if (!(typeof L === 'number' && L > 0 && Number.isFinite(L))) throw new ValueError(`${OP}: dataRange must be a positive finite number, got ${String(L)}`);
  if (!(Number.isInteger(size) && size >= 1 && size % 2 === 1)) throw new ValueError(`${OP}: windowSize must be an odd positive integer, got ${String(size)}`);
  if (!(typeof sigma === 'number' && sigma > 0 && Number.isFinite(sigma))) throw new ValueError(`${OP}: sigma must be a positive finite number, got ${String(sigma)}`);
  if (reduction !== 'mean' && reduction !== 'none') throw new ValueError(`${OP}: reduction must be 'mean' or 'none', got ${String(reduction)}`);
  return { L, size, sigma, reduction };
}

/**
 * The structural similarity of two images [H, W, C] or [H, W] (any leading batch axes: [..., H, W, C]), as 3DGS computes it.
 *
 * 11×11 Gaussian window (σ = 1.5), C1 = (0.01·L)², C2 = (0.03·L)², zero padding
 * with 'same' output, mean over pixels and channels (a 0-d tensor of the
 * images' dtype; `reduction: 'none'` gives the map). Lazy and differentiable
 * in both images: fit minimises 1 − ssim. Equal images give exactly 1.
 *
 * @example
 * ```ts
 * const a = random.uniform(random.key(0), [16, 16, 3]);
 * splat.ssim(a, a).item();                               // 1
 * Number(splat.ssim(zeros([8, 8]), ones([8, 8])).item()) < 1e-3; // true
 * ```
 */
export function ssim(a: Tensor, b: Tensor, opts: SsimOptions = {}): Tensor {
  if (!(a instanceof Tensor) || !(b instanceof Tensor)) throw new ValueError(`${OP}: expects two Tensors, got ${a instanceof Tensor ? 'a Tensor' : typeof a} and ${b instanceof Tensor ? 'a Tensor' : typeof b}`);
  const { L, size, sigma, reduction } = checkOptions(opts);
  const shape = a.shape;
  if (a.ndim < 2) throw new ShapeError(`${OP}: images must be [H, W] or [..., H, W, C], got shape [${shape.join(', ')}]`);
  if (b.ndim !== a.ndim || b.shape.some((d, i) => d !== shape[i])) throw new ShapeError(`${OP}: the images' shapes differ: [${shape.join(', ')}] and [${b.shape.join(', ')}]`);
  if (shape.some((d) => typeof d !== 'number')) throw new ShapeError(`${OP}: dynamic shapes are not supported, got [${shape.join(', ')}]`);
  if (!isFloat(a.dtype) || !isFloat(b.dtype)) throw new DTypeError(`${OP}: images must be real floating point, got ${a.dtype} and ${b.dtype}`);
  const gray = a.ndim === 2;
  const x = gray ? a.expandDims(2) : a,
    y = gray ? b.expandDims(2) : b;
  const hAxis = x.ndim - 3;
  const g = gaussianWindow(size, sigma);
  // Five blurs, not one of the stacked maps: unstacking's VJP writes each
  // map's cotangent into a zero [5, ..., H, W, C] tensor (a pad each).
  const blur = blurOp(g, hAxis);
  const [muX, muY, exx, eyy, exy] = [x, y, x.mul(x), y.mul(y), x.mul(y)].map((t) => blur(t)) as [Tensor, Tensor, Tensor, Tensor, Tensor];
  const muXX = muX.mul(muX),
    muYY = muY.mul(muY),
    muXY = muX.mul(muY);
  const varX = exx.sub(muXX),
    varY = eyy.sub(muYY),
    cov = exy.sub(muXY);
  const c1 = (0.01 * L) ** 2,
    c2 = (0.03 * L) ** 2;
  const num = muXY.mul(2).add(c1).mul(cov.mul(2).add(c2));
  const den = muXX.add(muYY).add(c1).mul(varX.add(varY).add(c2));
  const map = num.div(den);
  if (reduction === 'none') return gray ? map.squeeze(2) : map;
  return map.mean();
}
