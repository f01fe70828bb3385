// 'splat.project' and 'splat.projectBackward' on webgpu (the WGSL runners of
// src/splat/kernels/webgpu/) against the js reference kernels on the same
// float32 inputs: radii exact, the other outputs within rtol = atol = 1e-4,
// gradients from random cotangents within the float32 tolerances the native
// kernels are held to (rtol 2.5e-4, atol 2e-3; tests/splat/native-kernels).

import { describe, expect, it } from 'vitest';
import { jsSplatKernels as J } from '../../src/splat/kernels/js/index.js';
import { expectClose, expectEqual, project, projectCotangents, projectGrads, scene, type SceneOptions } from '../splat/native-helpers.js';
import { gpuProject, gpuProjectBackward, status, withSpecials } from './splat-helpers.js';

const FWD = [1e-4, 1e-4] as const;
const BWD = [2.5e-4, 2e-3] as const;

const CASES: { name: string; o: Omit<SceneOptions, 'seed'> }[] = [
  { name: 'colours', o: { n: 300, width: 96, height: 64, shDegree: -1 } },
  { name: 'SH degree 3, antialiased', o: { n: 300, width: 80, height: 50, shDegree: 3, antialiased: true } },
  { name: 'SH degree 1, large splats, odd image size', o: { n: 120, width: 37, height: 23, shDegree: 1, scale: [0.1, 1] } },
  { name: 'SH degree 2, huge splats, K = 16', o: { n: 64, width: 40, height: 30, shDegree: 2, scale: [0.5, 30] } },
];

/** Largest |got − want| / (1 + |want|) over the arrays (the figure reported). */
function worst(got: ArrayLike<number>, want: ArrayLike<number>): number {
  let w = 0;
  for (let i = 0; i < want.length; i++) if (!Number.isNaN(want[i]!)) w = Math.max(w, Math.abs(got[i]! - want[i]!) / (1 + Math.abs(want[i]!)));
  return w;
}

describe.runIf(status.available)('webgpu splat.project', () => {
  CASES.forEach(({ name, o }, c) => {
    it(`${name}: forward and backward agree with js (radii exact)`, () => {
      const a = withSpecials(scene('float32', { ...o, seed: 17 + c }));
      if (name.includes('K = 16')) Object.assign(a, { k: 16, coeffs: Float32Array.from({ length: 48 * a.n }, (_, i) => Math.sin(i) * 0.3) });
      const pj = project(J, a), pg = gpuProject([a]);
      expectEqual('radii', pg.radii, pj.radii);
      expect(pj.radii.filter((r) => r > 0).length).toBeGreaterThan(a.n / 4);
      let w = 0;
      for (const k of ['means2d', 'conics', 'depths', 'colors', 'opacities'] as const) {
        expectClose(k, pg[k], pj[k], ...FWD);
        w = Math.max(w, worst(pg[k], pj[k]));
      }
      const ct = projectCotangents(a, 5 + c);
      const gj = projectGrads(a);
      J.projectBackward(a, pj.radii, ct, gj);
      const gg = gpuProjectBackward(a, pj.radii, ct);
      let b = 0;
      for (const k of ['means', 'quats', 'scales', 'opacities', 'coeffs'] as const) {
        expectClose(`grad ${k}`, gg[k], gj[k], ...BWD);
        for (let i = 0; i < gj[k].length; i++) if (!Number.isNaN(gj[k][i]!)) b = Math.max(b, Math.abs(gg[k][i]! - gj[k][i]!) / (BWD[1] + BWD[0] * Math.abs(gj[k][i]!)));
      }
      console.log(`project ${name}: forward max |Δ|/(1+|want|) = ${w.toExponential(2)}; backward max |Δ|/(atol + rtol·|want|) = ${b.toFixed(3)}`);
    });
  });

  it('the huge-scale and overflowing-quaternion Gaussians are drawn as in js (radius clamped to 2³¹ − 1), with the js gradients', () => {
    const a = withSpecials(scene('float32', { n: 12, width: 40, height: 30, shDegree: 0, seed: 4 }));
    a.scales.set([1e20, 3e19, 1e19], 21); // anisotropic, so the rotation matters
    const pj = project(J, a), pg = gpuProject([a]);
    expect(pj.radii[7]).toBe(2147483647);
    expect(pj.radii[8]).toBeGreaterThan(0);
    expectEqual('radii', pg.radii, pj.radii);
    expectClose('conics', pg.conics, pj.conics, ...FWD);
    // Gradients through the scaled covariance (the unscaled Σ would overflow float32): the mean's are O(1), the
    // quaternion's ~1e-41 (subnormal in float32), and both match the double reference.
    const ct = projectCotangents(a, 3);
    const gj = projectGrads(a);
    J.projectBackward(a, pj.radii, ct, gj);
    const gg = gpuProjectBackward(a, pj.radii, ct);
    expect(Math.max(...gj.means.slice(21, 24).map(Math.abs))).toBeGreaterThan(0.1);
    expect(Math.max(...gj.quats.slice(28, 32).map(Math.abs))).toBeGreaterThan(1e-42);
    expectClose('huge-scale quats grad (relative)', gg.quats.slice(28, 32), gj.quats.slice(28, 32), 0.05, 0);
    for (const k of ['means', 'quats', 'scales', 'opacities', 'coeffs'] as const) expectClose(`grad ${k}`, gg[k], gj[k], ...BWD);
  });

  it('Gaussians behind the camera and at the near plane are culled; N = 1; batch of two scenes', () => {
    const a = scene('float32', { n: 40, width: 32, height: 24, shDegree: 0, seed: 9 });
    // Camera-space z of Gaussian i: put some behind (z < 0), at near exactly (culled: z ≤ near) and just past near.
    const V = a.camera.viewmat;
    const place = (i: number, t: number[]) => {
      const d = [t[0]! - V[3]!, t[1]! - V[7]!, t[2]! - V[11]!];
      for (let k = 0; k < 3; k++) a.means[3 * i + k] = V[k]! * d[0]! + V[4 + k]! * d[1]! + V[8 + k]! * d[2]!;
    };
    place(0, [0, 0, -1]);
    place(1, [0.1, 0, -0.001]);
    place(2, [0, 0, 0.5]);
    const pj = project(J, a);
    expect(pj.radii[0]).toBe(0);
    expect(pj.radii[1]).toBe(0);
    const b = scene('float32', { n: 40, width: 32, height: 24, shDegree: 0, seed: 10 });
    const pg = gpuProject([a, b]), pb = project(J, b);
    expectEqual('radii', pg.radii, [...pj.radii, ...pb.radii]);
    for (const k of ['means2d', 'conics', 'depths', 'colors', 'opacities'] as const) expectClose(k, pg[k], [...pj[k], ...pb[k]], ...FWD);
    const one = scene('float32', { n: 1, width: 1, height: 1, shDegree: -1, seed: 2 });
    const p1 = gpuProject([one]);
    expectEqual('radii n=1', p1.radii, project(J, one).radii);
  });

  it('N = 0 writes nothing and does not fail (forward and backward)', () => {
    const a = scene('float32', { n: 0, width: 8, height: 8, shDegree: 1, seed: 1 });
    const p = gpuProject([a]);
    expect(p.radii.length).toBe(0);
    expect(gpuProjectBackward(a, p.radii, projectCotangents(a, 1)).means.length).toBe(0);
  });
});
