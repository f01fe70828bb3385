// The js splat kernels' forward against an independent NumPy reference
// (tests/splat/golden/splat_ref.py, written from the contract's
// text: matrix products for the projection, a brute-force per-pixel
// compositor): four scenes with colours and SH degrees 1–3, antialiased on
// and off, rotated cameras, an odd tile size, and Gaussians behind the
// camera, straddling or behind the near plane, beyond far, outside the
// image, beyond the Jacobian clamp and of zero scale. float64: radii and
// lastIndex exact, floats to 1e-10. float32 storage agrees with float64.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectArgs, SplatDType } from '../../src/splat/kernels/contract.js';
import { arr, project, rasterArgsFrom, rasterize } from './js-helpers.js';
import '../harness/allclose.js';

interface Scene {
  n: number; k: number; shDegree: number; antialiased: boolean; tileSize: number; background: number[];
  camera: ProjectArgs['camera'];
  means: number[]; quats: number[]; scales: number[]; opacities: number[]; coeffs: number[];
}
interface Case { name: string; scene: Scene; project: Record<string, number[]>; raster: Record<string, number[]> }
const G = JSON.parse(readFileSync(join(import.meta.dirname, 'golden', 'splat_ref.json'), 'utf8')) as { cases: Case[] };

function args(s: Scene, dtype: SplatDType): ProjectArgs {
  return {
    dtype, n: s.n, k: s.k, shDegree: s.shDegree, antialiased: s.antialiased, camera: s.camera,
    means: arr(dtype, s.means), quats: arr(dtype, s.quats), scales: arr(dtype, s.scales), opacities: arr(dtype, s.opacities), coeffs: arr(dtype, s.coeffs),
  };
}

function render(s: Scene, dtype: SplatDType) {
  const p = project(args(s, dtype));
  const r = rasterize(rasterArgsFrom(p, s.n, dtype, s.camera.width, s.camera.height, s.tileSize, s.background));
  return { p, r };
}

describe('js splat kernels vs the NumPy reference (float64)', () => {
  it('has the scenes the reference was asked for', () => {
    expect(G.cases.length).toBe(4);
    for (const c of G.cases) {
      const culled = c.project.radii!.filter((r) => r === 0).length;
      expect(culled).toBeGreaterThanOrEqual(6); // behind, behind near, beyond far, outside the image
      expect(c.raster.lastIndex!.some((l) => l >= 3)).toBe(true); // pixels composite several splats
    }
  });
  for (const c of G.cases) {
    it(c.name, () => {
      const { p, r } = render(c.scene, 'float64');
      expect(Array.from(p.radii)).toEqual(c.project.radii);
      for (const key of ['means2d', 'conics', 'depths', 'colors', 'opacities'] as const) expect(p[key], key).toBeAllclose(c.project[key]!, { rtol: 1e-10, atol: 1e-10 });
      expect(Array.from(r.lastIndex)).toEqual(c.raster.lastIndex);
      for (const key of ['image', 'alpha', 'depth', 'finalT'] as const) expect(r[key], key).toBeAllclose(c.raster[key]!, { rtol: 1e-10, atol: 1e-10 });
    });
  }
});

describe('float32 storage agrees with float64', () => {
  for (const c of G.cases) {
    it(c.name, () => {
      const a = render(c.scene, 'float64'), b = render(c.scene, 'float32');
      expect(b.p.means2d).toBeInstanceOf(Float32Array);
      expect(Array.from(b.p.radii)).toEqual(Array.from(a.p.radii));
      for (const key of ['means2d', 'conics', 'depths', 'colors', 'opacities'] as const) expect(b.p[key], key).toBeAllclose(a.p[key], { rtol: 1e-5, atol: 1e-5 });
      for (const key of ['image', 'alpha', 'depth'] as const) expect(b.r[key], key).toBeAllclose(a.r[key], { rtol: 1e-5, atol: 1e-5 });
    });
  }
});
