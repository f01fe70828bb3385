// rasterizeBackward of the js kernels against central differences in
// float64: ⟨ct, (rasterize(x + h e) − rasterize(x − h e))/2h⟩ over image,
// alpha and depth with random cotangents, for every component of means2d,
// conics, colours, opacities and depths, on a 12×10 image with tileSize 4
// (splats span several tiles). Away from the discontinuities, and checked:
// every u, v has fractional part in [0.2, 0.8] (bar one on a pixel centre, 5.5) with integer radii, so no
// tile rectangle edge moves under a 1e-6 step; depths are distinct; and a
// brute-force walk over every (pixel, listed splat) asserts that o·e^(−σ)
// is not within 1e-4 (relative) of ALPHA_MAX, α not within 1e-4 of
// ALPHA_MIN and T·(1 − α) not within 1e-4 of T_STOP. One splat has
// opacity 0.9995 > ALPHA_MAX so the clamped branch (no gradient through α)
// is exercised; one pixel's walk stops at T_STOP in the second scene.
// Then the whole render (project → rasterize) against central differences.

import { describe, expect, it } from 'vitest';
import { ALPHA_MAX, ALPHA_MIN, PIXEL_CENTER, T_STOP } from '../../src/splat/constants.js';
import type { ProjectArgs, RasterArgs, RasterCotangents, RasterGrads } from '../../src/splat/kernels/contract.js';
import { jsSplatKernels as K } from '../../src/splat/kernels/js/index.js';
import { camera, centralDiff, dot, mulberry32, pixelList, project, randomArray, rasterArgsFrom, rasterize, viewmat, worldFromCamera, worstGradError } from './js-helpers.js';

/** Splats: (u, v, conic, opacity, depth, radius). */
function scene(background: number[], extra: number[][] = []): RasterArgs {
  const rand = mulberry32(5);
  const s = [
    [3.4, 2.7, 0.35, 0.08, 0.42, 0.6, 2.0, 5],
    [7.6, 5.3, 0.25, -0.1, 0.3, 0.75, 3.1, 6],
    [5.5, 6.5, 0.6, 0.2, 0.5, 0.9995, 4.3, 5], // centred on a pixel centre: clamped there (α = ALPHA_MAX)
    [9.3, 2.4, 0.5, 0.0, 0.2, 0.45, 1.4, 5],
    [2.3, 8.4, 0.3, 0.05, 0.3, 0.7, 2.6, 5],
    ...extra,
  ];
  const n = s.length;
  return {
    dtype: 'float64', n, width: 12, height: 10, tileSize: 4, background,
    means2d: Float64Array.from(s.flatMap((r) => [r[0]!, r[1]!])),
    conics: Float64Array.from(s.flatMap((r) => [r[2]!, r[3]!, r[4]!])),
    opacities: Float64Array.from(s.map((r) => r[5]!)),
    depths: Float64Array.from(s.map((r) => r[6]!)),
    radii: Int32Array.from(s.map((r) => r[7]!)),
    colors: randomArray(rand, 3 * n, 0, 1),
  };
}

/** The smallest relative distance of any (pixel, listed splat) to the three thresholds; and whether ALPHA_MAX clamps / T_STOP stops somewhere. */
function thresholdMargins(a: RasterArgs): { margin: number; clamps: boolean; stops: boolean } {
  let margin = Infinity, clamps = false, stops = false;
  for (let y = 0; y < a.height; y++)
    for (let x = 0; x < a.width; x++) {
      let T = 1;
      for (const i of pixelList(a, x, y)) {
        const dx = a.means2d[2 * i]! - (x + PIXEL_CENTER), dy = a.means2d[2 * i + 1]! - (y + PIXEL_CENTER);
        const s = 0.5 * (a.conics[3 * i]! * dx * dx + a.conics[3 * i + 2]! * dy * dy) + a.conics[3 * i + 1]! * dx * dy;
        const raw = a.opacities[i]! * Math.exp(-s);
        margin = Math.min(margin, Math.abs(raw / ALPHA_MAX - 1), Math.abs(Math.min(raw, ALPHA_MAX) / ALPHA_MIN - 1));
        if (raw > ALPHA_MAX) clamps = true;
        const al = Math.min(ALPHA_MAX, raw);
        if (al < ALPHA_MIN) continue;
        margin = Math.min(margin, Math.abs((T * (1 - al)) / T_STOP - 1));
        if (T * (1 - al) <= T_STOP) {
          stops = true;
          break;
        }
        T *= 1 - al;
      }
    }
  return { margin, clamps, stops };
}

function cotangents(px: number, seed: number): RasterCotangents {
  const r = mulberry32(seed);
  return { image: randomArray(r, 3 * px), alpha: randomArray(r, px), depth: randomArray(r, px) };
}

function rasterGrads(n: number): RasterGrads {
  return { means2d: new Float64Array(2 * n), conics: new Float64Array(3 * n), colors: new Float64Array(3 * n), opacities: new Float64Array(n), depths: new Float64Array(n) };
}

function checkRaster(a: RasterArgs, seed: number): void {
  const ct = cotangents(a.width * a.height, seed);
  const fwd = rasterize(a);
  const g = rasterGrads(a.n);
  K.rasterizeBackward(a, fwd, ct, g);
  const f = () => {
    const o = rasterize(a);
    return dot(ct.image, o.image) + dot(ct.alpha, o.alpha) + dot(ct.depth, o.depth);
  };
  for (const key of ['means2d', 'conics', 'colors', 'opacities', 'depths'] as const) {
    const fd = centralDiff(a[key], f, 1e-6);
    const w = worstGradError(g[key], fd);
    expect(w.rel, `${key}[${w.index}]: analytic ${w.g}, central difference ${w.fd}`).toBeLessThan(1e-6);
  }
  // the clamped splat (2) gets no gradient through α where it clamps, but still some elsewhere
  expect(g.opacities[2]).not.toBe(0);
}

describe('rasterizeBackward vs central differences (float64)', () => {
  it('five splats over several tiles, a black background', () => {
    const a = scene([0, 0, 0]);
    const m = thresholdMargins(a);
    expect(m.margin).toBeGreaterThan(1e-4);
    expect(m.clamps).toBe(true);
    checkRaster(a, 1);
  });

  it('a coloured background, and dense splats so some pixels stop at T_STOP', () => {
    // four near-opaque splats in front of the others, centred on tile (1, 1): pixels there stop at T_STOP
    const dense = [
      [5.45, 5.35, 0.1, 0.0, 0.1, 0.97, 0.5, 6],
      [5.6, 5.4, 0.12, 0.01, 0.1, 0.96, 0.6, 6],
      [5.3, 5.7, 0.1, -0.01, 0.12, 0.95, 0.7, 6],
      [5.7, 5.25, 0.11, 0.0, 0.1, 0.94, 0.8, 6],
    ];
    const a = scene([0.3, 0.6, 0.9], dense);
    const m = thresholdMargins(a);
    expect(m.margin).toBeGreaterThan(1e-4);
    expect(m.stops).toBe(true);
    checkRaster(a, 2);
  });
});

describe('project → rasterize composed, against central differences (float64)', () => {
  it('SH degree 2, antialiased: gradient of ⟨ct, render⟩ for every input', () => {
    const rand = mulberry32(21);
    const V = viewmat(0.1, 0.2, -0.05, [0.0, 0.1, 0.2]);
    const cam = camera(12, 10, { viewmat: V, fx: 10, fy: 10, cx: 6.1, cy: 4.9 });
    const ts = [[-0.5, 0.3, 3.0], [0.4, -0.3, 3.5], [0.1, 0.2, 2.2], [-0.2, -0.4, 4.0]];
    const n = ts.length, k = 9;
    const a: ProjectArgs = {
      dtype: 'float64', n, k, shDegree: 2, antialiased: true, camera: cam,
      means: Float64Array.from(ts.flatMap((t) => worldFromCamera(V, t))), quats: randomArray(rand, 4 * n),
      scales: randomArray(rand, 3 * n, 0.15, 0.35), opacities: randomArray(rand, n, 0.4, 0.8), coeffs: randomArray(rand, 3 * k * n, -0.3, 0.3),
    };
    const bg = [0.2, 0.1, 0.4];
    const render = () => {
      const p = project(a);
      return { p, r: rasterize(rasterArgsFrom(p, n, 'float64', 12, 10, 4, bg)) };
    };
    const base = render();
    const radii = Array.from(base.p.radii);
    expect(radii.every((r) => r > 0)).toBe(true);
    expect(thresholdMargins(rasterArgsFrom(base.p, n, 'float64', 12, 10, 4, bg)).margin).toBeGreaterThan(1e-4);
    const ct = cotangents(120, 9);
    // backward: rasterize, then project
    const rg = rasterGrads(n);
    K.rasterizeBackward(rasterArgsFrom(base.p, n, 'float64', 12, 10, 4, bg), base.r, ct, rg);
    const pg = { means: new Float64Array(3 * n), quats: new Float64Array(4 * n), scales: new Float64Array(3 * n), opacities: new Float64Array(n), coeffs: new Float64Array(3 * k * n) };
    K.projectBackward(a, base.p.radii, { means2d: rg.means2d, conics: rg.conics, depths: rg.depths, colors: rg.colors, opacities: rg.opacities }, pg);
    const f = () => {
      const { p, r } = render();
      expect(Array.from(p.radii)).toEqual(radii); // tile lists unchanged by the step
      return dot(ct.image, r.image) + dot(ct.alpha, r.alpha) + dot(ct.depth, r.depth);
    };
    for (const key of ['means', 'quats', 'scales', 'opacities', 'coeffs'] as const) {
      const fd = centralDiff(a[key], f, 1e-6);
      const w = worstGradError(pg[key], fd);
      expect(w.rel, `${key}[${w.index}]: analytic ${w.g}, central difference ${w.fd}`).toBeLessThan(1e-6);
    }
  });
});
