// projectBackward of the js kernels against central differences in float64:
// ⟨ct, (project(x + h e) − project(x − h e))/2h⟩ for every component of
// every input (means, quats, scales, opacities, colours or SH coefficients
// of degree 0–3), antialiased on and off, random cotangents on every float
// output. The scene is built away from the discontinuities: Gaussians well
// inside the image and depth range (no cull flips), no radius on an integer
// boundary (radius is not an output that FD sees, only through culls),
// Gaussians beyond the Jacobian clamp by a wide margin (the clamped branch
// is exercised, the clamp boundary is not), SH colour channels far from 0
// except one channel driven well below 0 (the clamped branch, zero gradient).

import { describe, expect, it } from 'vitest';
import type { ProjectArgs, ProjectCotangents, ProjectGrads } from '../../src/splat/kernels/contract.js';
import { cameraFrame } from '../../src/splat/kernels/js/camera.js';
import { jsSplatKernels as K } from '../../src/splat/kernels/js/index.js';
import { camera, centralDiff, dot, mulberry32, project, randomArray, viewmat, worldFromCamera, worstGradError } from './js-helpers.js';

function scene(shDegree: number, antialiased: boolean, seed: number): ProjectArgs {
  const rand = mulberry32(seed);
  const V = viewmat(0.2, -0.15, 0.1, [0.1, -0.2, 0.3]);
  const cam = camera(12, 10, { viewmat: V, fx: 11, fy: 10.5, cx: 5.7, cy: 5.2 });
  // camera-space centres: four inside the view, one right of and one above the Jacobian clamp (limits ≈ 0.7)
  const ts = [[-0.4, 0.3, 2.5], [0.5, -0.2, 3.2], [0.1, 0.45, 2.1], [-0.3, -0.5, 3.8], [3.0, 0.2, 3.0], [0.3, -2.9, 2.6]];
  const n = ts.length;
  const k = shDegree < 0 ? 1 : (shDegree + 1) ** 2 + (shDegree === 1 ? 3 : 0); // degree 1 with extra stored coefficients
  const means = Float64Array.from(ts.flatMap((t) => worldFromCamera(V, t)));
  const quats = randomArray(rand, 4 * n);
  const scales = Float64Array.from({ length: 3 * n }, (_, j) => (j >= 12 ? 0.5 : 0.12) + 0.25 * rand());
  const opacities = randomArray(rand, n, 0.3, 0.9);
  const coeffs = shDegree < 0 ? randomArray(rand, 3 * n, 0, 1) : randomArray(rand, 3 * k * n, -0.3, 0.3);
  if (shDegree >= 0) coeffs[3 * k * 2] = -4; // Gaussian 2's DC red: colour well below 0, clamped
  return { dtype: 'float64', n, k, shDegree, antialiased, camera: cam, means, quats, scales, opacities, coeffs };
}

function cotangents(n: number, seed: number): ProjectCotangents {
  const r = mulberry32(seed);
  return { means2d: randomArray(r, 2 * n), conics: randomArray(r, 3 * n), depths: randomArray(r, n), colors: randomArray(r, 3 * n), opacities: randomArray(r, n) };
}

function grads(a: ProjectArgs): ProjectGrads {
  return { means: new Float64Array(3 * a.n), quats: new Float64Array(4 * a.n), scales: new Float64Array(3 * a.n), opacities: new Float64Array(a.n), coeffs: new Float64Array(3 * a.k * a.n) };
}

const configs = [-1, 0, 1, 2, 3].flatMap((d) => [false, true].map((aa) => [d, aa] as const));

describe('projectBackward vs central differences (float64)', () => {
  for (const [deg, aa] of configs) {
    it(`shDegree ${deg}, antialiased ${aa}`, () => {
      const a = scene(deg, aa, 10 + deg);
      const base = project(a);
      expect(Array.from(base.radii).every((r) => r > 0)).toBe(true);
      // the clamped Jacobian branch is taken for Gaussians 4 (x) and 5 (y), far from the limit
      const cam = cameraFrame(a.camera);
      const tCam = (i: number) => [0, 1, 2].map((r) => a.camera.viewmat[4 * r]! * a.means[3 * i]! + a.camera.viewmat[4 * r + 1]! * a.means[3 * i + 1]! + a.camera.viewmat[4 * r + 2]! * a.means[3 * i + 2]! + a.camera.viewmat[4 * r + 3]!);
      expect(tCam(4)[0]! / tCam(4)[2]!).toBeGreaterThan(cam.limXPos + 0.2);
      expect(tCam(5)[1]! / tCam(5)[2]!).toBeLessThan(-cam.limYNeg - 0.2);
      if (deg >= 0) expect(base.colors[6]).toBe(0); // the clamped SH channel
      const ct = cotangents(a.n, 100 + deg);
      const f = () => {
        const o = project(a);
        expect(Array.from(o.radii).every((r) => r > 0)).toBe(true); // no cull flips under the perturbation
        return dot(ct.means2d, o.means2d) + dot(ct.conics, o.conics) + dot(ct.depths, o.depths) + dot(ct.colors, o.colors) + dot(ct.opacities, o.opacities);
      };
      const g = grads(a);
      K.projectBackward(a, base.radii, ct, g);
      for (const key of ['means', 'quats', 'scales', 'opacities', 'coeffs'] as const) {
        const fd = centralDiff(a[key], f, 1e-6);
        const w = worstGradError(g[key], fd);
        expect(w.rel, `${key}[${w.index}]: analytic ${w.g}, central difference ${w.fd}`).toBeLessThan(1e-6);
      }
      // the clamped channel's gradient is exactly zero; coefficients beyond the degree used get none
      if (deg >= 0) expect(g.coeffs[3 * a.k * 2]).toBe(0);
      if (deg === 1) expect(g.coeffs.slice(3 * 4, 3 * a.k).every((v) => v === 0)).toBe(true);
    });
  }

  it('culled Gaussians (radius 0) get zero gradients even with non-zero cotangents', () => {
    const a = scene(2, true, 7);
    a.means.set(worldFromCamera(a.camera.viewmat, [0, 0, -2]), 0); // Gaussian 0 behind the camera
    const base = project(a);
    expect(base.radii[0]).toBe(0);
    const g = grads(a);
    K.projectBackward(a, base.radii, cotangents(a.n, 3), g);
    expect([...g.means.slice(0, 3), ...g.quats.slice(0, 4), ...g.scales.slice(0, 3), g.opacities[0]!, ...g.coeffs.slice(0, 3 * a.k)].every((v) => v === 0)).toBe(true);
    expect(g.means.slice(3).some((v) => v !== 0)).toBe(true);
  });
});
