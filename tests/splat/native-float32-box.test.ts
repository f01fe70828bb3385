// The float32 rasterize passes (native/src/splat/raster_f32.h) visit, per
// splat, only the pixel box of the ellipse σ ≤ L, L just above every σ whose
// float value the α test can accept (raster_prep_f32.cc): one pixel tighter
// on each side than raster_tile.h's box, which the float64 pass keeps. A box
// a hair too tight drops a pixel the js reference adds (α ≥ ALPHA_MIN there),
// which shows in lastIndex. These scenes put a pixel centre exactly on the
// ellipse α = ALPHA_MIN at its leftmost, rightmost, top and bottom points (so
// the pixel sits on the box's edge), and a dense scene of small splats (most
// visits are near box edges) on an image whose tiles end in partial 4 × 2
// blocks, in width and in height (the passes' per-block and per-lane paths). lastIndex must be
// the js reference's exactly; the rest within the usual tolerances.
// (Checked while writing: with the box's level L replaced by thr·(1 − 1e-4)
// in raster_prep_f32.cc, a box about 1e-3 pixel too tight, the extreme-point
// test fails on lastIndex; the dense scene alone does not notice.)

import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../src/backends/native/addon.js';
import { ALPHA_MIN } from '../../src/splat/constants.js';
import type { RasterArgs } from '../../src/splat/kernels/contract.js';
import { jsSplatKernels as J } from '../../src/splat/kernels/js/index.js';
import { hasNativeSplat, nativeSplatKernels } from '../../src/splat/kernels/native.js';
import { mulberry32 } from '../harness/prng.js';
import { describeNative } from '../native/native-harness.js';
import { expectClose, expectEqual, rasterCotangents, rasterGrads, rasterize } from './native-helpers.js';
import { argsOf, type Splat } from './threshold-scenes.js';

/** The float32 rasterize arguments of a list of splats on a width × height image (every radius covers it). */
const argsOn = (splats: Splat[], width: number, height: number): RasterArgs => argsOf(splats, width, height);

/** σ of splat i at the centre of pixel (px, py), as the js reference computes it. */
function sigmaAt(a: RasterArgs, i: number, px: number, py: number): number {
  const dx = a.means2d[2 * i]! - (px + 0.5), dy = a.means2d[2 * i + 1]! - (py + 0.5);
  return 0.5 * (a.conics[3 * i]! * dx * dx + a.conics[3 * i + 2]! * dy * dy) + a.conics[3 * i + 1]! * dx * dy;
}

const addon = nativeAddon();
describeNative('native float32 rasterize: the tightened pixel boxes drop no pixel the js reference draws', () => {
  if (!hasNativeSplat(addon)) {
    it('the addon has the splat kernels', () => {
      throw new Error('the native addon has no splatProjectForward (rebuild it: npm run build:native)');
    });
    return;
  }
  const N = nativeSplatKernels(addon!);

  function compare(a: RasterArgs): void {
    const fj = rasterize(J, a), fn = rasterize(N, a);
    expectEqual('lastIndex', fn.lastIndex, fj.lastIndex);
    for (const k of ['image', 'alpha', 'depth', 'finalT'] as const) expectClose(k, fn[k], fj[k], 1e-4, 1e-4);
    const ct = rasterCotangents(a, 7);
    const gj = rasterGrads(a), gn = rasterGrads(a);
    J.rasterizeBackward(a, fj, ct, gj);
    N.rasterizeBackward(a, fn, ct, gn);
    for (const k of ['means2d', 'conics', 'colors', 'opacities', 'depths'] as const) expectClose(`grad ${k}`, gn[k], gj[k], 2.5e-4, 2e-3);
  }

  it('a pixel centre at the leftmost, rightmost, top or bottom point of the ellipse α = ALPHA_MIN is drawn exactly where js draws it', () => {
    const r = mulberry32(11);
    const u = (lo: number, hi: number) => lo + (hi - lo) * r();
    const W = 77, H = 53;
    const splats: Splat[] = [], target: [number, number][] = [];
    for (let i = 0; i < 400; i++) {
      // Small and large ellipses, some elongated and tilted; the pixel (px, py) is put on the extreme point of σ = ln(255·o).
      const s = Math.exp(u(Math.log(0.05), Math.log(2)));
      const a = s * u(0.3, 1), c = s * u(0.3, 1), b = u(-0.95, 0.95) * Math.sqrt(a * c);
      const o = u(0.3, 0.99), thr = Math.log(255 * o), det = a * c - b * b;
      // Q⁻¹ = [c, −b; −b, a]/det; the extreme in x is along Q⁻¹eₓ, in y along Q⁻¹e_y, scaled to σ = thr.
      const side = i % 4;
      const [ix, iy] = side < 2 ? [c / det, -b / det] : [-b / det, a / det];
      const scale = Math.sqrt((2 * thr) / (side < 2 ? c / det : a / det)) * (side % 2 ? -1 : 1);
      const px = 4 + Math.floor(u(0, W - 8)), py = 4 + Math.floor(u(0, H - 8));
      // dx = u − (px + ½) = −(extreme offset): the pixel centre is mean + offset.
      splats.push({ u: px + 0.5 - ix * scale, v: py + 0.5 - iy * scale, c: [a, b, c], o, z: u(1, 5), col: [u(0, 1), u(0, 1), u(0, 1)] });
      target.push([px, py]);
    }
    const args = argsOn(splats, W, H);
    // After float32 rounding, set each opacity so that α at its pixel is ALPHA_MIN to float precision (as threshold-scenes.ts does).
    let near = 0;
    for (let i = 0; i < splats.length; i++) {
      const [px, py] = target[i]!;
      args.opacities[i] = Math.fround(ALPHA_MIN * Math.exp(sigmaAt(args, i, px, py)));
      const alpha = args.opacities[i]! * Math.exp(-sigmaAt(args, i, px, py));
      if (Math.abs(alpha / ALPHA_MIN - 1) < 1e-6) near++;
    }
    expect(near).toBeGreaterThan(350);
    // Most of the pixels are drawn (α ≥ ALPHA_MIN) by js: the test is about pixels that count.
    const fj = rasterize(J, args);
    expect(fj.lastIndex.some((k) => k > 0)).toBe(true);
    compare(args);
  });

  it('a dense scene of small splats on an image whose tiles end in partial 4 × 2 pixel blocks agrees with js', () => {
    const r = mulberry32(12);
    const u = (lo: number, hi: number) => lo + (hi - lo) * r();
    const W = 93, H = 69; // tiles 16 × 16 with a 13-pixel column (three blocks of 4 and one of 1) and a 5-row strip (two block rows of 2, one of 1)
    const splats: Splat[] = [];
    for (let i = 0; i < 3000; i++) {
      const s = Math.exp(u(Math.log(0.15), Math.log(3))); // radii of about 1 to 8 pixels
      const a = s * u(0.4, 1), c = s * u(0.4, 1), b = u(-0.9, 0.9) * Math.sqrt(a * c);
      splats.push({ u: u(-3, W + 3), v: u(-3, H + 3), c: [a, b, c], o: u(0.05, 0.95), z: u(1, 5), col: [u(0, 1), u(0, 1), u(0, 1)] });
    }
    const args = argsOn(splats, W, H);
    const fj = rasterize(J, args);
    // Many pixels stop (T ≤ T_STOP reached) and many do not: both the saturated and the open paths run.
    const stopped = Array.from(fj.finalT).filter((t) => t < 1e-3).length;
    expect(stopped).toBeGreaterThan(W * H * 0.2);
    expect(stopped).toBeLessThan(W * H * 0.95);
    compare(args);
  });
});
