// Hand-checkable identities of the js splat kernels: an isotropic Gaussian
// straight ahead (conic, radius, means2d, depth, antialiased opacity by
// hand), SH colours along the optical axis, an opaque front splat hiding
// the back one, T_STOP and ALPHA_MIN honoured, ties in depth broken by
// index, image = background and alpha = 0 where nothing is drawn,
// alpha = 1 − finalT, depth = Σ depth·α·T.

import { describe, expect, it } from 'vitest';
import { ALPHA_MAX, SH_C0, SH_C1 } from '../../src/splat/constants.js';
import type { ProjectArgs, RasterArgs } from '../../src/splat/kernels/contract.js';
import { camera, project, rasterize } from './js-helpers.js';

function one(mean: number[], scale: number, o: Partial<ProjectArgs> = {}): ProjectArgs {
  return {
    dtype: 'float64', n: 1, k: 1, shDegree: -1, antialiased: false, camera: camera(64, 48, { fx: 100, fy: 100, cx: 32, cy: 24 }),
    means: Float64Array.from(mean), quats: Float64Array.of(0.3, -0.5, 0.2, 0.9), scales: Float64Array.of(scale, scale, scale),
    opacities: Float64Array.of(0.7), coeffs: Float64Array.of(0.2, 0.4, 0.6), ...o,
  };
}

/** n splats given as rows (u, v, c0, c1, c2, opacity, depth, radius, r, g, b). */
function splats(rows: number[][], width: number, height: number, tileSize = 4, background = [0, 0, 0]): RasterArgs {
  return {
    dtype: 'float64', n: rows.length, width, height, tileSize, background,
    means2d: Float64Array.from(rows.flatMap((r) => [r[0]!, r[1]!])), conics: Float64Array.from(rows.flatMap((r) => [r[2]!, r[3]!, r[4]!])),
    opacities: Float64Array.from(rows.map((r) => r[5]!)), depths: Float64Array.from(rows.map((r) => r[6]!)), radii: Int32Array.from(rows.map((r) => r[7]!)),
    colors: Float64Array.from(rows.flatMap((r) => [r[8]!, r[9]!, r[10]!])),
  };
}

describe('project: an isotropic Gaussian', () => {
  // σ = 0.05 at depth 2, f = 100: the 2-D std is 100·0.05/2 = 2.5 px, so a = c = 6.25 + 0.3 = 6.55, b = 0.
  const a = 6.25 + 0.3;
  it('straight ahead: means2d = (cx, cy), conic = (1/a, 0, 1/a), radius = ⌈3√(a + √0.1)⌉ = 8, depth 2', () => {
    const p = project(one([0, 0, 2], 0.05));
    expect(Array.from(p.means2d)).toEqual([32, 24]);
    expect(p.conics[0]).toBeCloseTo(1 / a, 14);
    expect(p.conics[1]).toBeCloseTo(0, 14);
    expect(p.conics[2]).toBeCloseTo(1 / a, 14);
    expect(p.radii[0]).toBe(8);
    expect(p.depths[0]).toBe(2);
    expect(Array.from(p.colors)).toEqual([0.2, 0.4, 0.6]); // colours as given
    expect(p.opacities[0]).toBe(0.7);
  });
  it('antialiased: opacity·√(det₀/det) = 0.7·6.25/6.55', () => {
    const p = project(one([0, 0, 2], 0.05, { antialiased: true }));
    expect(p.opacities[0]).toBeCloseTo((0.7 * 6.25) / 6.55, 14);
  });
  it('off axis: u = fx·x/z + cx (x/z = 0.1 is inside the clamp, so the conic is the rotated-away one)', () => {
    const p = project(one([0.2, -0.1, 2], 0.05));
    expect(p.means2d[0]).toBeCloseTo(100 * 0.1 + 32, 12);
    expect(p.means2d[1]).toBeCloseTo(100 * -0.05 + 24, 12);
  });
});

describe('project: SH colour along the optical axis (direction (0, 0, 1))', () => {
  it('degree 0: C0·k + 0.5; degree 1: + C1·z·k₂; a negative channel clamps at 0', () => {
    const c = [0.3, -0.2, -3, /* band 1 */ 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
    const p0 = project(one([0, 0, 2], 0.05, { shDegree: 0, k: 4, coeffs: Float64Array.from(c) }));
    expect(p0.colors[0]).toBeCloseTo(SH_C0 * 0.3 + 0.5, 14);
    expect(p0.colors[1]).toBeCloseTo(SH_C0 * -0.2 + 0.5, 14);
    expect(p0.colors[2]).toBe(0);
    const p1 = project(one([0, 0, 2], 0.05, { shDegree: 1, k: 4, coeffs: Float64Array.from(c) }));
    // basis at (0, 0, 1): (C0, −C1·y, C1·z, −C1·x) = (C0, 0, C1, 0): only coefficient 2 (0.4, 0.5, 0.6) adds
    expect(p1.colors[0]).toBeCloseTo(SH_C0 * 0.3 + SH_C1 * 0.4 + 0.5, 14);
    expect(p1.colors[1]).toBeCloseTo(SH_C0 * -0.2 + SH_C1 * 0.5 + 0.5, 14);
    expect(p1.colors[2]).toBe(0);
  });
});

describe('rasterize identities', () => {
  const conic = [0.2, 0, 0.2];
  it('an opaque front splat hides the back one (α = ALPHA_MAX, then the back one would cross T_STOP)', () => {
    const front = [4.5, 4.5, ...conic, 1, 1.0, 4, 1, 0, 0];
    const back = [4.5, 4.5, ...conic, 0.95, 2.0, 4, 0, 1, 0];
    const r = rasterize(splats([back, front], 8, 8, 4, [0, 0, 1]));
    const p = 4 * 8 + 4; // the pixel whose centre is (4.5, 4.5)
    expect(r.image[3 * p]).toBeCloseTo(ALPHA_MAX, 15);
    expect(r.image[3 * p + 1]).toBe(0);
    expect(r.image[3 * p + 2]).toBeCloseTo(1 - ALPHA_MAX, 15);
    expect(r.lastIndex[p]).toBe(1);
    expect(r.finalT[p]).toBeCloseTo(1 - ALPHA_MAX, 15);
  });
  it('T_STOP: 20 splats of α = 0.5 at a pixel centre: 13 added (0.5¹⁴ ≤ 1e-4 < 0.5¹³)', () => {
    const rows = Array.from({ length: 20 }, (_, i) => [1.5, 1.5, ...conic, 0.5, 1 + i, 3, (i + 1) / 20, 0, 1]);
    const r = rasterize(splats(rows, 3, 3, 4));
    const p = 1 * 3 + 1;
    expect(r.lastIndex[p]).toBe(13);
    expect(r.finalT[p]).toBe(0.5 ** 13);
    expect(r.alpha[p]).toBe(1 - 0.5 ** 13);
    let red = 0, depth = 0;
    for (let i = 0; i < 13; i++) {
      red += ((i + 1) / 20) * 0.5 * 0.5 ** i;
      depth += (1 + i) * 0.5 * 0.5 ** i;
    }
    expect(r.image[3 * p]).toBeCloseTo(red, 15);
    expect(r.image[3 * p + 2]).toBeCloseTo(1 - 0.5 ** 13, 15);
    expect(r.depth[p]).toBeCloseTo(depth, 14);
  });
  it('ALPHA_MIN: opacity 0.0039 < 1/255 is skipped, 0.004 is drawn', () => {
    const r = rasterize(splats([[0.5, 0.5, ...conic, 0.0039, 1, 2, 1, 1, 1], [0.5, 0.5, ...conic, 0.004, 2, 2, 1, 1, 1]], 1, 1, 4, [0.5, 0.5, 0.5]));
    expect(r.lastIndex[0]).toBe(2); // the first (skipped) is position 0, the drawn one position 1
    expect(r.image[0]).toBeCloseTo(0.004 + 0.996 * 0.5, 15);
    const skipOnly = rasterize(splats([[0.5, 0.5, ...conic, 0.0039, 1, 2, 1, 1, 1]], 1, 1, 4, [0.5, 0.5, 0.5]));
    expect(skipOnly.lastIndex[0]).toBe(0);
    expect(Array.from(skipOnly.image)).toEqual([0.5, 0.5, 0.5]);
  });
  it('equal depths: the lower index is in front', () => {
    const r = rasterize(splats([[0.5, 0.5, ...conic, 0.5, 1, 2, 1, 0, 0], [0.5, 0.5, ...conic, 0.5, 1, 2, 0, 1, 0]], 1, 1));
    expect(Array.from(r.image)).toEqual([0.5, 0.25, 0]);
  });
  it('image = background, alpha = 0, depth = 0 where nothing is drawn; alpha = 1 − finalT everywhere; depth = z·α for one splat', () => {
    const bg = [0.1, 0.2, 0.3];
    const r = rasterize(splats([[3.5, 3.5, 1, 0, 1, 0.8, 5, 3, 1, 1, 1]], 16, 12, 4, bg));
    let far = 0;
    for (let p = 0; p < 16 * 12; p++) {
      expect(r.alpha[p]).toBe(1 - r.finalT[p]!);
      if (r.lastIndex[p] === 0) {
        far++;
        expect([r.image[3 * p], r.image[3 * p + 1], r.image[3 * p + 2], r.alpha[p], r.depth[p]]).toEqual([...bg, 0, 0]);
      } else {
        expect(r.depth[p]).toBeCloseTo(5 * r.alpha[p]!, 14);
        expect(r.image[3 * p]).toBeCloseTo(r.alpha[p]! + r.finalT[p]! * 0.1, 14);
      }
    }
    expect(far).toBeGreaterThan(150);
    const centre = 3 * 16 + 3;
    expect(r.alpha[centre]).toBeCloseTo(0.8, 15);
  });
});
