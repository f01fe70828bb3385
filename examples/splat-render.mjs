// Gaussian splatting: render a procedural scene from its ring of cameras.
//
// The scene is splat.scenes.sphereShell: flat Gaussians tangent to a sphere of
// radius R, coloured by their normal. All views render in one call
// (splat.render with a list of cameras gives [C, H, W, 3]) and are written as
// PNGs, with a checkerboard plane for a second picture.
//
// What is checked: the geometry of the picture. A sphere of radius R seen
// from distance d has a circular silhouette of angular radius asin(R/d), so
// through a pinhole of focal length f (pixels) its image is a disc of radius
// f·tan(asin(R/d)) centred on the image centre; the disc measured from the
// alpha channel (pixels with alpha > 1/2) must have that radius to within the
// Gaussians' own size in pixels. And depth: a checkerboard plane (one
// opaque layer) seen by a camera aimed at its centre from distance D has, at
// the image centre, an expected depth divided by alpha of D (render's depth
// is Σ wᵢzᵢ over the Gaussians' centres, which straddle the ray symmetrically).
//   node examples/splat-render.mjs [--out dir] [--plot out.html]

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as rlx from '../dist/index.js';
import { isMain } from './_script.mjs';
const { splat, plot } = rlx;

export function run({ n = 4000, radius = 1, views = 4, width = 160, height = 120, outDir } = {}) {
  const { gaussians, cameras } = splat.scenes.sphereShell({ n, radius, views, width, height });
  const t0 = performance.now();
  const { image, alpha } = splat.render(gaussians, cameras);
  const images = image.toArray(), alphas = alpha.toArray();
  const ms = (performance.now() - t0) / cameras.length;
  const spacing = radius * Math.sqrt((4 * Math.PI) / n); // the lattice spacing; each disc has σ ≈ spacing/2
  const results = cameras.map((cam, c) => {
    const f = cam.K[4];
    // The camera centre is −Rᵀt for viewmat [R | t]; its distance to the sphere's centre (the origin) is |t|.
    const v = cam.viewmat;
    const d = Math.hypot(v[3], v[7], v[11]);
    const expectedRadius = f * Math.tan(Math.asin(radius / d));
    const a = alphas.subarray(c * width * height, (c + 1) * width * height);
    let covered = 0;
    for (let i = 0; i < a.length; i++) if (a[i] > 0.5) covered++;
    const measuredRadius = Math.sqrt(covered / Math.PI);
    const file = outDir ? join(outDir, `shell-${c}.png`) : undefined;
    if (file) splat.savePng(rlx.tensor(images.subarray(c * width * height * 3, (c + 1) * width * height * 3), { shape: [height, width, 3], dtype: 'float32' }), file);
    return { camera: c, d, focal: f, expectedRadius, measuredRadius, pixelSigma: (f * spacing) / 2 / (d - radius), file };
  });
  // The checkerboard plane from its first camera (aimed at the plane's centre, the origin).
  const b = splat.scenes.checkerboardPlane({ n: 4096, views: 1, width, height });
  const cam = b.cameras[0];
  const boardRender = splat.render(b.gaussians, cam);
  const bd = boardRender.depth.toArray(), ba = boardRender.alpha.toArray();
  // The image centre is the corner shared by the four middle pixels: their mean straddles it symmetrically.
  const mid = [[height / 2 - 1, width / 2 - 1], [height / 2 - 1, width / 2], [height / 2, width / 2 - 1], [height / 2, width / 2]].map(([i, j]) => i * width + j);
  const board = {
    distance: Math.hypot(cam.viewmat[3], cam.viewmat[7], cam.viewmat[11]),
    centreDepth: mid.reduce((acc, k) => acc + bd[k] / ba[k], 0) / 4,
    centreAlpha: mid.reduce((acc, k) => acc + ba[k], 0) / 4,
    file: outDir ? join(outDir, 'checkerboard.png') : undefined,
  };
  if (board.file) splat.savePng(boardRender.image, board.file);
  return { n, radius, width, height, msPerView: ms, results, board, image };
}

if (isMain(import.meta.url)) {
  const argv = process.argv.slice(2);
  const opt = (name) => (argv.indexOf(name) >= 0 ? argv[argv.indexOf(name) + 1] : undefined);
  const outDir = opt('--out') ?? 'splat-render-out';
  mkdirSync(outDir, { recursive: true });
  const o = run({ outDir });
  console.log(`sphere shell: ${o.n} Gaussians, radius ${o.radius}, ${o.results.length} views ${o.width}×${o.height}, ${o.msPerView.toFixed(0)} ms per view`);
  for (const r of o.results) {
    console.log(`view ${r.camera}: distance ${r.d.toFixed(3)}, silhouette radius ${r.measuredRadius.toFixed(2)} px (pinhole f·tan(asin(R/d)) = ${r.expectedRadius.toFixed(2)} px, splat σ ≈ ${r.pixelSigma.toFixed(2)} px) -> ${r.file}`);
  }
  console.log(`checkerboard plane from distance ${o.board.distance.toFixed(3)}: depth at the image centre ${o.board.centreDepth.toFixed(4)} (alpha ${o.board.centreAlpha.toFixed(4)}) -> ${o.board.file}`);
  const plotFile = opt('--plot');
  if (plotFile !== undefined) {
    const fig = plot.subplots(1, o.results.length, { title: 'sphere shell from its ring of cameras', titles: o.results.map((r) => `view ${r.camera}`), height: 300 });
    o.results.forEach((r, c) => fig.add(plot.image(o.image.select(0, c)), 1, c + 1));
    await fig.save(plotFile);
    console.log(`figure -> ${plotFile}`);
  }
}
