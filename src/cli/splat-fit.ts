// `rlx splat fit target.png -o fit.ply`: 2-D Gaussian splatting of an image.
// Gaussians on the plane z = 1 in front of a camera at the origin (identity
// view matrix, OpenCV axes: x right, y down) are fitted to the target with
// splat.fit, and the result is written as a 3DGS PLY (or .splat) that
// `rlx splat render` draws back through the camera the command prints.
//
// The camera: focal length f = max(W, H) pixels and the principal point at
// the image centre, so the plane's rectangle [−W/2f, W/2f] × [−H/2f, H/2f]
// fills the image exactly (the longer side is 1 unit). The initial Gaussians
// sit on a grid of about --gaussians cells matching the image's aspect, flat
// discs (standard deviation 0.6 of the grid spacing in the plane, 1 % of it
// across), opacity 0.5, each with the target's colour at its centre pixel
// (an image's analogue of 3DGS starting from coloured SfM points).
//
// Colour is fitted as degree-0 SH (colour = SH_C0·dc + 0.5, clamped at 0 by
// the renderer), not as plain colours: a PLY can only hold SH, and fitted
// plain colours go negative where Gaussians overlap, which the SH path would
// clamp on reading (measured: 38.9 dB fitted, 36.9 dB from the file). So
// the file holds exactly the model that was fitted.

import { basename, extname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fit, psnr } from '../splat/fit.js';
import { camera } from '../splat/camera.js';
import { render } from '../splat/render.js';
import { readPng } from '../splat/io/png.js';
import { readPly, writePly } from '../splat/io/ply.js';
import { readSplat, writeSplat } from '../splat/io/splat-file.js';
import { SH_C0, SH_OFFSET } from '../splat/constants.js';
import type { Camera, Gaussians } from '../splat/types.js';
import { fromStorage } from '../tensor/create.js';
import type { Tensor } from '../tensor/tensor.js';
import { defaultDevice } from '../backends/registry.js';
import { CliFailure, UsageError } from './errors.js';
import { numberOption, type ParsedArgs } from './command.js';
import { firstLine } from './matrix-io.js';
import { fmtMs, onDevice, parseDevice, requireFile } from './splat-args.js';

/** The plane-facing camera of an image of `width` × `height` (see the header). */
export function planeCamera(width: number, height: number): Camera {
  const f = Math.max(width, height);
  return camera({ viewmat: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], K: [f, 0, width / 2, 0, f, height / 2, 0, 0, 1], width, height });
}

/** The grid of about `n` initial Gaussians on the plane z = 1, coloured (SH degree 0) from `target` [H, W, 3] (see the header). */
export function planeGrid(target: Tensor, n: number): Gaussians {
  const [height, width] = target.shape as [number, number, number];
  const f = Math.max(width, height);
  const cols = Math.max(1, Math.round(Math.sqrt((n * width) / height)));
  const rows = Math.max(1, Math.round(n / cols));
  const count = rows * cols;
  const pix = target.toArray() as Float32Array;
  const means = new Float32Array(3 * count),
    quats = new Float32Array(4 * count),
    scales = new Float32Array(3 * count),
    sh = new Float32Array(3 * count);
  // Cells of (W/cols) × (H/rows) pixels; the spacing in world units is that over f.
  const h = Math.max(width / cols, height / rows) / f;
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const k = r * cols + c;
      const u = ((c + 0.5) * width) / cols,
        v = ((r + 0.5) * height) / rows; // image point of the cell centre
      means.set([(u - width / 2) / f, (v - height / 2) / f, 1], 3 * k);
      quats.set([1, 0, 0, 0], 4 * k);
      scales.set([0.6 * h, 0.6 * h, 0.01 * h], 3 * k);
      const p = Math.min(height - 1, Math.floor(v)) * width + Math.min(width - 1, Math.floor(u));
      for (let ch = 0; ch < 3; ch++) sh[3 * k + ch] = (pix[3 * p + ch]! - SH_OFFSET) / SH_C0;
    }
  return {
    means: fromStorage(means, [count, 3], 'float32'),
    quats: fromStorage(quats, [count, 4], 'float32'),
    scales: fromStorage(scales, [count, 3], 'float32'),
    opacities: fromStorage(new Float32Array(count).fill(0.5), [count], 'float32'),
    sh: fromStorage(sh, [count, 1, 3], 'float32'),
  };
}

/** `rlx splat fit target.png [-o fit.ply] [--gaussians N] [--iterations k]`. */
export function fitCommand(args: ParsedArgs, path: string): number {
  const n = numberOption(args, 'gaussians', { positive: true, integer: true }) ?? 4096;
  const iterations = numberOption(args, 'iterations', { positive: true, integer: true }) ?? 200;
  const seed = numberOption(args, 'seed', { integer: true }) ?? 0;
  const out = (args.values['output'] as string | undefined) ?? `${basename(path, extname(path))}.fit.ply`;
  const ext = extname(out).toLowerCase();
  if (ext !== '.ply' && ext !== '.splat') throw new UsageError(`-o must end in .ply or .splat, got '${out}'`);
  if (extname(path).toLowerCase() !== '.png') throw new UsageError(`the target must be a .png image, got '${path}'`);
  const device = parseDevice(args);
  requireFile(path);
  let target: Tensor;
  try {
    target = readPng(path);
  } catch (e) {
    throw new CliFailure(`${path}: ${firstLine(e)}`);
  }
  const [height, width] = target.shape as [number, number, number];
  const cam = planeCamera(width, height);
  let init = planeGrid(target, n);
  if (device !== undefined) {
    init = onDevice(init, device);
    target = target.on(device);
  }
  const before = psnr(render(init, cam).image, target);
  const t0 = performance.now();
  const r = fit(target, init, { cameras: cam, iterations, seed, progress: args.values['quiet'] === true ? false : { label: 'fit' } });
  const t = performance.now() - t0;
  try {
    if (ext === '.ply') writePly(r.gaussians, out);
    else writeSplat(r.gaussians, out);
  } catch (e) {
    throw new CliFailure(`${out}: ${firstLine(e)}`);
  }
  // What the user gets is the file: its PSNR read back (equal to the fit's for .ply; .splat quantizes to 8 bits).
  const written = ext === '.ply' ? readPly(out) : readSplat(out);
  const filePsnr = psnr(render(device === undefined ? written : onDevice(written, device), cam).image, target);
  const count = r.gaussians.means.shape[0] as number;
  const loss = (i: number): string => r.losses[i]!.toPrecision(4);
  console.log(`${path}: ${width}×${height} -> ${out}: ${count} Gaussians, ${iterations} iterations in ${fmtMs(t)} on ${device ?? defaultDevice()}`);
  console.log(`loss ${loss(0)} -> ${loss(r.losses.length - 1)}; PSNR ${before.toFixed(2)} -> ${r.psnr.toFixed(2)} dB (the file rendered back: ${filePsnr.toFixed(2)} dB)`);
  const fovY = (2 * Math.atan(height / (2 * Math.max(width, height))) * 180) / Math.PI;
  console.log(`render it back: rlx splat render ${out} --camera lookat:0,0,0:0,0,1:0,-1,0 --fov ${+fovY.toPrecision(12)} --size ${width}x${height}`);
  return 0;
}
