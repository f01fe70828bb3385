// Gaussian splatting as image fitting: 2-D Gaussians learn a picture.
//
// The target is a procedural image (colour blobs, a soft diagonal edge, a
// thin ring). A grid of grey, half-transparent flat Gaussians on the plane
// z = 1 faces a camera at the origin whose image that plane fills exactly,
// and splat.fit moves them (Adam on means, rotations, log-scales,
// logit-opacities and colours; loss 0.8·L1 + 0.2·(1 − SSIM)) until their
// rendering matches the target.
//
// What is checked: the PSNR of the fitted rendering against the target
// (≥ 30 dB at the default size), far above the grey start, and a loss that
// falls. The target, the fitted image and the fitted Gaussians (3DGS PLY)
// are written to --out.
//   node examples/splat-fit.mjs [--out dir] [--plot out.html]

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as rlx from '../dist/index.js';
import { isMain } from './_script.mjs';
const { splat, plot } = rlx;

/** The target [size, size, 3]: smooth blobs, a soft edge and a ring, values in [0, 1]. */
export function targetImage(size) {
  const out = new Float32Array(size * size * 3);
  for (let i = 0; i < size; i++)
    for (let j = 0; j < size; j++) {
      const y = (i + 0.5) / size, x = (j + 0.5) / size;
      const b1 = Math.exp(-((x - 0.3) ** 2 + (y - 0.35) ** 2) / 0.02);
      const b2 = Math.exp(-((x - 0.7) ** 2 + (y - 0.6) ** 2) / 0.03);
      const b3 = Math.exp(-((x - 0.45) ** 2 + (y - 0.8) ** 2) / 0.01);
      const edge = 1 / (1 + Math.exp(-(x + 0.5 * y - 0.8) / 0.01));
      const ring = Math.abs(Math.hypot(x - 0.7, y - 0.25) - 0.12) < 0.02 ? 1 : 0;
      const rgb = [0.1 + 0.8 * b1 + 0.3 * edge, 0.15 + 0.7 * b2 + 0.2 * ring, 0.2 + 0.6 * b3 + 0.4 * edge * (1 - ring)];
      for (let c = 0; c < 3; c++) out[(i * size + j) * 3 + c] = Math.min(1, rgb[c]);
    }
  return rlx.tensor(out, { shape: [size, size, 3], dtype: 'float32' });
}

/** The camera at the origin looking down +z (OpenCV axes) whose image the square [−1/2, 1/2]² of the plane z = 1 fills. */
export function planeCamera(size) {
  return splat.camera({ viewmat: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], K: [size, 0, size / 2, 0, size, size / 2, 0, 0, 1], width: size, height: size });
}

/** grid × grid grey flat Gaussians covering that square (σ = 0.6 of the spacing in the plane, 1 % across), opacity 0.5. */
export function gridGaussians(grid) {
  const n = grid * grid, h = 1 / grid;
  const means = new Float32Array(3 * n), quats = new Float32Array(4 * n), scales = new Float32Array(3 * n);
  for (let a = 0; a < grid; a++)
    for (let b = 0; b < grid; b++) {
      const k = a * grid + b;
      means.set([-0.5 + (b + 0.5) * h, -0.5 + (a + 0.5) * h, 1], 3 * k);
      quats.set([1, 0, 0, 0], 4 * k);
      scales.set([0.6 * h, 0.6 * h, 0.01 * h], 3 * k);
    }
  const t = (data, shape) => rlx.tensor(data, { shape, dtype: 'float32' });
  return { means: t(means, [n, 3]), quats: t(quats, [n, 4]), scales: t(scales, [n, 3]), opacities: t(new Float32Array(n).fill(0.5), [n]), colors: t(new Float32Array(3 * n).fill(0.5), [n, 3]) };
}

/** PSNR in dB (data range 1) of an image against the target, the image clamped to [0, 1]. */
function psnr(image, target) {
  const a = image.toArray(), b = target.toArray();
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (Math.min(1, Math.max(0, a[i])) - b[i]) ** 2;
  return -10 * Math.log10(s / a.length);
}

export function run({ size = 128, grid = 32, iterations = 60, outDir } = {}) {
  const target = targetImage(size);
  const cam = planeCamera(size);
  const init = gridGaussians(grid);
  const initImage = splat.render(init, cam).image;
  const before = psnr(initImage, target);
  const t0 = performance.now();
  const r = splat.fit(target, init, { cameras: cam, iterations, progress: true });
  const seconds = (performance.now() - t0) / 1000;
  const fitted = splat.render(r.gaussians, cam).image;
  const after = psnr(fitted, target);
  const files = outDir ? { target: join(outDir, 'target.png'), fitted: join(outDir, 'fitted.png'), ply: join(outDir, 'fitted.ply') } : undefined;
  if (files) {
    splat.savePng(target, files.target);
    splat.savePng(fitted, files.fitted);
    splat.writePly(r.gaussians, files.ply);
  }
  return { size, n: grid * grid, iterations, seconds, before, after, reported: r.psnr, losses: r.losses, files, target, initImage, fitted };
}

if (isMain(import.meta.url)) {
  const argv = process.argv.slice(2);
  const opt = (name) => (argv.indexOf(name) >= 0 ? argv[argv.indexOf(name) + 1] : undefined);
  const outDir = opt('--out') ?? 'splat-fit-out';
  mkdirSync(outDir, { recursive: true });
  const o = run({ outDir });
  console.log(`fit ${o.n} 2-D Gaussians to a ${o.size}×${o.size} image: ${o.iterations} iterations in ${o.seconds.toFixed(1)} s`);
  console.log(`loss ${o.losses[0].toFixed(4)} -> ${o.losses[o.losses.length - 1].toFixed(4)}`);
  console.log(`PSNR ${o.before.toFixed(2)} dB (grey start) -> ${o.after.toFixed(2)} dB (splat.fit reports ${o.reported.toFixed(2)} dB)`);
  console.log(`files: ${o.files.target}, ${o.files.fitted}, ${o.files.ply}`);
  const plotFile = opt('--plot');
  if (plotFile !== undefined) {
    const fig = plot.subplots(1, 4, { title: `2-D Gaussians fitted to an image (PSNR ${o.after.toFixed(1)} dB)`, titles: ['target', 'start', 'fitted', 'loss'], height: 320 });
    fig.add(plot.image(o.target), 1, 1).add(plot.image(o.initImage), 1, 2).add(plot.image(o.fitted), 1, 3);
    fig.add(plot.line(rlx.tensor(o.losses), { logY: true, xlabel: 'iteration' }), 1, 4);
    await fig.save(plotFile);
    console.log(`figure -> ${plotFile}`);
  }
}
