// splat.render: Gaussians and a camera (or several) → image, alpha and
// expected depth, as lazy tensors differentiable with respect to every
// Gaussian tensor. It checks and normalizes the user's input (shapes printed
// on error, dtypes promoted to one float dtype, colours or SH), then binds
// the two stages of ops/ (project, rasterize); their kernels are the js
// reference, the native C++ or WGSL (webgpu, float32) per device.

import { Tensor } from '../tensor/tensor.js';
import { stack } from '../tensor/ops/movement.js';
import { toTensor } from '../tensor/ops/operand.js';
import { DTypeError, ShapeError, ValueError } from '../tensor/errors.js';
import { bindOp } from '../tensor/ops/registered-op.js';
import { DEFAULT_TILE_SIZE, MAX_SH_DEGREE } from './constants.js';
import { cameraAttr } from './ops/project.js';
import type { Camera, Gaussians } from './types.js';
import './ops/rasterize.js';
import './kernels/register.js';

export interface RenderOptions {
  /** RGB behind everything (default [0, 0, 0]); not differentiated. */
  background?: readonly number[];
  /** SH bands used, ≤ the degree the coefficients hold (default: all of them). */
  shDegree?: number;
  /** gsplat's antialiased mode: opacity scaled by √(det Σ / det(Σ + 0.3 I)) (default false). */
  antialiased?: boolean;
  /** Square tile size in pixels (default 16); results do not depend on it. */
  tileSize?: number;
  /** Read every Gaussian tensor first and throw a ValueError naming the first non-finite value (a synchronous read). Without it a Gaussian with a NaN or ±∞ position, rotation, scale or opacity is culled, and a non-finite colour makes its pixels NaN. */
  checkFinite?: boolean;
}

export interface RenderResult {
  /** The colour image, shape [H, W, 3] (or [C, H, W, 3] for C cameras). */
  image: Tensor;
  /** Coverage, 1 − the final transmittance, shape [H, W]. */
  alpha: Tensor;
  /** Expected depth Σ wᵢ zᵢ (camera z, not divided by alpha), shape [H, W]. */
  depth: Tensor;
}

const NAMES = ['means', 'quats', 'scales', 'opacities'] as const;

function isCamera(c: unknown): c is Camera {
  return typeof c === 'object' && c !== null && Array.isArray((c as Camera).viewmat) && Array.isArray((c as Camera).K);
}

/** The Gaussian tensors as one float dtype, with the coefficients [N, K, 3] and the SH degree (−1: colours). */
function normalize(g: Gaussians, opts: RenderOptions): { ts: Tensor[]; shDegree: number } {
  const op = 'splat.render';
  if (typeof g !== 'object' || g === null) throw new ValueError(`${op}: expects Gaussians {means, quats, scales, opacities, colors | sh}, got ${String(g)}`);
  if ((g.colors === undefined) === (g.sh === undefined)) throw new ValueError(`${op}: give exactly one of colors [N, 3] and sh [N, K, 3], got ${g.colors === undefined ? 'neither' : 'both'}`);
  const raw = [...NAMES.map((k) => g[k]), g.colors ?? g.sh].map((x, i) => {
    if (x === undefined) throw new ValueError(`${op}: Gaussians need ${NAMES[i]}`);
    return toTensor(op, x, NAMES[i] ?? (g.colors ? 'colors' : 'sh'));
  });
  let dtype: 'float32' | 'float64' = 'float32';
  raw.forEach((x, i) => {
    if (x.dtype === 'float64') dtype = 'float64';
    else if (x.dtype !== 'float32' && x.dtype !== 'float16' && x.dtype !== 'bfloat16' && x.dtype !== 'int32' && x.dtype !== 'bool') throw new DTypeError(`${op}: ${[...NAMES, g.colors ? 'colors' : 'sh'][i]} must be real, got ${x.dtype}`);
  });
  const [means, quats, scales, opacities, coeffs] = raw.map((x) => (x.dtype === dtype ? x : x.cast(dtype))) as [Tensor, Tensor, Tensor, Tensor, Tensor];
  const n = means.shape[0];
  const shapes = (): string => `means [${means.shape.join(', ')}], quats [${quats.shape.join(', ')}], scales [${scales.shape.join(', ')}], opacities [${opacities.shape.join(', ')}], ${g.colors ? 'colors' : 'sh'} [${coeffs.shape.join(', ')}]`;
  const is = (x: Tensor, s: unknown[]) => x.ndim === s.length && x.shape.every((d, i) => d === s[i]);
  if (means.ndim !== 2 || !is(means, [n, 3]) || !is(quats, [n, 4]) || !is(scales, [n, 3]) || !is(opacities, [n]))
    throw new ShapeError(`${op}: expects means [N, 3], quats [N, 4], scales [N, 3], opacities [N], got ${shapes()}`);
  if (g.colors !== undefined) {
    if (!is(coeffs, [n, 3])) throw new ShapeError(`${op}: colors must be [N, 3], got ${shapes()}`);
    if (opts.shDegree !== undefined) throw new ValueError(`${op}: shDegree applies to sh coefficients, but the Gaussians have colors`);
    return { ts: [means, quats, scales, opacities, coeffs.reshape([n as number, 1, 3])], shDegree: -1 };
  }
  const k = coeffs.shape[1];
  if (coeffs.ndim !== 3 || coeffs.shape[0] !== n || coeffs.shape[2] !== 3 || ![1, 4, 9, 16].includes(k as number)) throw new ShapeError(`${op}: sh must be [N, K, 3] with K = (d + 1)² ∈ {1, 4, 9, 16}, got ${shapes()}`);
  const held = Math.sqrt(k as number) - 1;
  const d = opts.shDegree ?? held;
  if (!Number.isInteger(d) || d < 0 || d > held) throw new ValueError(`${op}: shDegree must be an integer in [0, ${held}] for K = ${k} coefficients (at most ${MAX_SH_DEGREE}), got ${String(d)}`);
  return { ts: [means, quats, scales, opacities, coeffs], shDegree: d };
}

/** Throws a ValueError naming the first non-finite value of the Gaussian tensors. */
function checkFinite(ts: Tensor[], colors: boolean): void {
  const names = [...NAMES, colors ? 'colors' : 'sh'];
  ts.forEach((t, i) => {
    const a = t.toArray() as Float32Array | Float64Array;
    for (let j = 0; j < a.length; j++) {
      if (!Number.isFinite(a[j]!)) {
        const row = t.ndim > 1 ? Math.floor(j / (a.length / (t.shape[0] as number))) : j;
        throw new ValueError(`splat.render: ${names[i]} has a non-finite value ${a[j]} at Gaussian ${row} (flat index ${j}); checkFinite is on`);
      }
    }
  });
}

/**
 * Renders Gaussians through a camera (or each of several): image [H, W, 3], alpha [H, W] and expected depth [H, W], differentiable with respect to every Gaussian tensor.
 * @example
 * ```ts
 * const cam = splat.lookAt({ eye: [0, 0, -4], target: [0, 0, 0], fovY: 50, width: 32, height: 32 });
 * const g = {
 *   means: tensor([[0, 0, 0]], { dtype: 'float32' }), quats: tensor([[1, 0, 0, 0]], { dtype: 'float32' }),
 *   scales: tensor([[0.5, 0.5, 0.5]], { dtype: 'float32' }), opacities: tensor([0.9], { dtype: 'float32' }),
 *   colors: tensor([[1, 0.5, 0]], { dtype: 'float32' }),
 * };
 * const { image, alpha } = splat.render(g, cam);
 * image.shape;                                   // [32, 32, 3]
 * Number(alpha.max().item()) > 0.85;             // true  (the splat's centre: opacity 0.9 at σ ≈ 0)
 * const dColors = grad((c: Tensor) => splat.render({ ...g, colors: c }, cam).image.sum())(g.colors);
 * dColors.shape;                                 // [1, 3]
 * ```
 */
export function render(g: Gaussians, camera: Camera | readonly Camera[], options: RenderOptions = {}): RenderResult {
  const op = 'splat.render';
  const cams = Array.isArray(camera) ? (camera as readonly Camera[]) : [camera as Camera];
  if (cams.length === 0) throw new ValueError(`${op}: expects a camera or a non-empty list of cameras, got []`);
  cams.forEach((c, i) => {
    if (!isCamera(c)) throw new ValueError(`${op}: camera${Array.isArray(camera) ? ` ${i}` : ''} must come from splat.camera or splat.lookAt, got ${typeof c === 'object' ? JSON.stringify(c) : String(c)}`);
    if (c.width !== cams[0]!.width || c.height !== cams[0]!.height) throw new ShapeError(`${op}: every camera of a batch must have one image size, got ${cams[0]!.width}×${cams[0]!.height} and ${c.width}×${c.height} (camera ${i})`);
  });
  const bg = options.background ?? [0, 0, 0];
  if (!Array.isArray(bg) || bg.length !== 3 || bg.some((v) => typeof v !== 'number' || !Number.isFinite(v))) throw new ValueError(`${op}: background must be 3 finite numbers, got ${JSON.stringify(bg)}`);
  const tileSize = options.tileSize ?? DEFAULT_TILE_SIZE;
  if (!Number.isInteger(tileSize) || tileSize < 1 || tileSize > 256) throw new ValueError(`${op}: tileSize must be an integer in [1, 256], got ${String(tileSize)}`);
  const { ts, shDegree } = normalize(g, options);
  if (options.checkFinite) checkFinite(ts, g.colors !== undefined);
  const antialiased = options.antialiased ?? false;
  const frames = cams.map((c) => {
    const [fx, , cx, , fy, cy] = c.K as number[];
    const camAttr = cameraAttr({ viewmat: c.viewmat, fx: fx!, fy: fy!, cx: cx!, cy: cy!, width: c.width, height: c.height, near: c.near, far: c.far });
    const [means2d, conics, depths, radii, colors, opacities] = bindOp('splat.project', ts, { camera: camAttr, shDegree, antialiased }) as Tensor[];
    const [image, alpha, depth] = bindOp('splat.rasterize', [means2d!, conics!, colors!, opacities!, depths!, radii!], { width: c.width, height: c.height, tileSize, background: [...bg] }) as Tensor[];
    return { image: image!, alpha: alpha!, depth: depth! };
  });
  if (!Array.isArray(camera)) return frames[0]!;
  return { image: stack(frames.map((f) => f.image)), alpha: stack(frames.map((f) => f.alpha)), depth: stack(frames.map((f) => f.depth)) };
}
