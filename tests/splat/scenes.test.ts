// The procedural scenes: shapes and dtypes, determinism by seed, the
// geometry each documents (on the sphere, in the plane with the checker
// colours, inside the cube and ranges), unit quaternions whose rotated z axis
// is the surface normal, cameras that see the scene (projected by hand with
// K·(R·p + t)), and the cost of 1M Gaussians.

import { describe, expect, it } from 'vitest';
import { ValueError } from '../../src/tensor/errors.js';
import { SH_C0 } from '../../src/splat/constants.js';
import { checkerboardPlane, randomCloud, sphereShell, type Scene } from '../../src/splat/scenes.js';
import type { Camera } from '../../src/splat/types.js';

/** Rotated z axis of the unit quaternion (w, x, y, z): the third column of its rotation matrix. */
const zAxis = (w: number, x: number, y: number, z: number) => [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)];

/** Fraction of points in front of the camera whose projection lands inside the image. */
function visible(cam: Camera, p: ArrayLike<number>): number {
  const V = cam.viewmat, K = cam.K;
  let inside = 0;
  const n = p.length / 3;
  for (let i = 0; i < n; i++) {
    const [x, y, z] = [0, 1, 2].map((r) => V[4 * r]! * p[3 * i]! + V[4 * r + 1]! * p[3 * i + 1]! + V[4 * r + 2]! * p[3 * i + 2]! + V[4 * r + 3]!) as [number, number, number];
    const u = (K[0]! * x) / z + K[2]!, v = (K[4]! * y) / z + K[5]!;
    if (z > cam.near && u >= 0 && u < cam.width && v >= 0 && v < cam.height) inside++;
  }
  return inside / n;
}

function checkCommon(s: Scene, n: number): void {
  const g = s.gaussians;
  expect(g.means.shape).toEqual([n, 3]);
  expect(g.quats.shape).toEqual([n, 4]);
  expect(g.scales.shape).toEqual([n, 3]);
  expect(g.opacities.shape).toEqual([n]);
  const q = g.quats.toArray(), sc = g.scales.toArray(), o = g.opacities.toArray();
  for (let i = 0; i < n; i++) {
    if (Math.abs(Math.hypot(q[4 * i]!, q[4 * i + 1]!, q[4 * i + 2]!, q[4 * i + 3]!) - 1) > 1e-6) throw new Error(`quaternion ${i} is not unit`);
    if (!(sc[3 * i]! > 0 && sc[3 * i + 1]! > 0 && sc[3 * i + 2]! > 0)) throw new Error(`scale ${i} not positive`);
    if (!(o[i]! > 0 && o[i]! <= 1)) throw new Error(`opacity ${i} out of (0, 1]`);
  }
  for (const cam of s.cameras) {
    expect(cam.viewmat).toHaveLength(16);
    expect(cam.near).toBe(0.01);
    expect(cam.far).toBe(1e10);
  }
}

describe('sphereShell', () => {
  it('Gaussians on the sphere, discs tangent to it, coloured by direction, seen by every camera', () => {
    const s = sphereShell({ n: 500, radius: 1.5, views: 6, width: 80, height: 60 });
    checkCommon(s, 500);
    expect(s.cameras).toHaveLength(6);
    expect(s.cameras[0]!.width).toBe(80);
    const p = s.gaussians.means.toArray(), q = s.gaussians.quats.toArray(), c = s.gaussians.colors!.toArray(), sc = s.gaussians.scales.toArray();
    for (let i = 0; i < 500; i++) {
      const r = Math.hypot(p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!);
      expect(r).toBeCloseTo(1.5, 5);
      const nrm = zAxis(q[4 * i]!, q[4 * i + 1]!, q[4 * i + 2]!, q[4 * i + 3]!);
      for (let k = 0; k < 3; k++) {
        expect(nrm[k]).toBeCloseTo(p[3 * i + k]! / r, 5);
        expect(c[3 * i + k]).toBeCloseTo(0.5 + (0.45 * p[3 * i + k]!) / r, 5);
      }
      expect(sc[3 * i + 2]! / sc[3 * i]!).toBeCloseTo(0.1, 5);
    }
    // the spacing: disc size 0.5·r·√(4π/n) ± 10 %
    const d = 1.5 * Math.sqrt((4 * Math.PI) / 500);
    for (let i = 0; i < 500; i++) expect(Math.abs(sc[3 * i]! / (0.5 * d) - 1)).toBeLessThanOrEqual(0.1 + 1e-6);
    for (const cam of s.cameras) expect(visible(cam, p)).toBe(1);
  });

  it('is deterministic; seeds differ; float64 and sh variants', () => {
    const a = sphereShell({ n: 100, seed: 3 }), b = sphereShell({ n: 100, seed: 3 }), c = sphereShell({ n: 100, seed: 4 });
    expect(a.gaussians.means.tolist()).toEqual(b.gaussians.means.tolist());
    expect(a.gaussians.means.tolist()).not.toEqual(c.gaussians.means.tolist());
    const f64 = sphereShell({ n: 10, dtype: 'float64', shDegree: 3 });
    expect(f64.gaussians.means.dtype).toBe('float64');
    expect(f64.gaussians.sh!.shape).toEqual([10, 16, 3]);
    expect(f64.gaussians.colors).toBeUndefined();
    const col = sphereShell({ n: 10, dtype: 'float64' }).gaussians.colors!.toArray();
    const sh = f64.gaussians.sh!.toArray();
    for (let i = 0; i < 10; i++) {
      for (let ch = 0; ch < 3; ch++) expect(0.5 + SH_C0 * sh[48 * i + ch]!).toBeCloseTo(col[3 * i + ch]!, 12);
      for (let j = 3; j < 48; j++) expect(Math.abs(sh[48 * i + j]!)).toBeLessThanOrEqual(0.1);
    }
  });
});

describe('checkerboardPlane', () => {
  it('an exact grid in y = 0 with checker colours, flat along y, seen from 45° above', () => {
    const s = checkerboardPlane({ n: 64 * 64, size: 4, squares: 4 });
    checkCommon(s, 4096);
    const p = s.gaussians.means.toArray(), q = s.gaussians.quats.toArray(), c = s.gaussians.colors!.toArray();
    for (let i = 0; i < 4096; i++) {
      const [x, y, z] = [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!];
      expect(y).toBe(0);
      expect(x).toBeCloseTo(-2 + ((i % 64) + 0.5) / 16, 6);
      expect(z).toBeCloseTo(-2 + (Math.floor(i / 64) + 0.5) / 16, 6);
      const light = (Math.floor(x + 2) + Math.floor(z + 2)) % 2 === 0;
      expect(c[3 * i]).toBeCloseTo(light ? 0.9 : 0.1, 6);
      const nrm = zAxis(q[4 * i]!, q[4 * i + 1]!, q[4 * i + 2]!, q[4 * i + 3]!);
      expect(nrm.map((v) => Math.round(v * 1e6) / 1e6 + 0)).toEqual([0, 1, 0]);
    }
    for (const cam of s.cameras) {
      expect(visible(cam, p)).toBe(1);
      // camera height: distance 1.5·size at 45° elevation → y = 6·sin 45°
      const V = cam.viewmat;
      const eyeY = -(V[1]! * V[3]! + V[5]! * V[7]! + V[9]! * V[11]!);
      expect(eyeY).toBeCloseTo(6 * Math.SQRT1_2, 9);
    }
  });

  it('n that is not a square fills rows in order; jitter moves points only when asked', () => {
    const s = checkerboardPlane({ n: 5, size: 3 });
    expect(s.gaussians.means.tolist()).toEqual([[-1, 0, -1], [0, 0, -1], [1, 0, -1], [-1, 0, 0], [0, 0, 0]]);
    const j = checkerboardPlane({ n: 5, size: 3, jitter: 0.5, seed: 1 }).gaussians.means.toArray();
    expect(Array.from(j)).not.toEqual(Array.from(s.gaussians.means.toArray()));
  });
});

describe('randomCloud', () => {
  it('means in the cube, scales and opacities in their ranges, w ≥ 0, seen by every camera', () => {
    const s = randomCloud({ n: 2000, seed: 9, extent: 2, scaleRange: [0.01, 0.05], opacityRange: [0.2, 0.4] });
    checkCommon(s, 2000);
    const [p, sc, o, q, c] = [s.gaussians.means, s.gaussians.scales, s.gaussians.opacities, s.gaussians.quats, s.gaussians.colors!].map((t) => Array.from(t.toArray()));
    expect(Math.max(...p.map(Math.abs))).toBeLessThanOrEqual(2);
    expect(Math.min(...sc)).toBeGreaterThanOrEqual(Math.fround(0.01) * (1 - 1e-7));
    expect(Math.max(...sc)).toBeLessThanOrEqual(Math.fround(0.05));
    expect(Math.min(...o)).toBeGreaterThanOrEqual(Math.fround(0.2));
    expect(Math.max(...o)).toBeLessThanOrEqual(Math.fround(0.4));
    expect(Math.min(...c)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...c)).toBeLessThan(1);
    expect(Math.min(...q.filter((_, i) => i % 4 === 0))).toBeGreaterThanOrEqual(0);
    // uniform rotations: E[w²] = E[x²] = 1/4
    const mean2 = (k: number) => q.filter((_, i) => i % 4 === k).reduce((a, v) => a + v * v, 0) / 2000;
    for (let k = 0; k < 4; k++) expect(mean2(k)).toBeCloseTo(0.25, 1);
    for (const cam of s.cameras) expect(visible(cam, p)).toBe(1);
  });

  it('rejects bad options with ValueError', () => {
    expect(() => randomCloud({ n: -1 })).toThrow(ValueError);
    expect(() => randomCloud({ n: 1.5 })).toThrow(/n must be an integer/);
    expect(() => randomCloud({ scaleRange: [0, 1] })).toThrow(/scaleRange/);
    expect(() => randomCloud({ opacityRange: [0.5, 2] })).toThrow(/opacityRange/);
    expect(() => sphereShell({ radius: -1 })).toThrow(/radius/);
    expect(() => sphereShell({ shDegree: 4 })).toThrow(/shDegree/);
    expect(() => checkerboardPlane({ squares: 0 })).toThrow(/squares/);
  });
});

describe('scale', () => {
  it('1M Gaussians per scene in a few hundred ms each (benchmarks use 100k and 1M; the bound is loose for loaded machines)', () => {
    for (const make of [sphereShell, checkerboardPlane, randomCloud]) {
      const t0 = performance.now();
      const s = make({ n: 1_000_000, views: 1, width: 800, height: 600 });
      const ms = performance.now() - t0;
      console.log(`${make.name}({n: 1e6}): ${ms.toFixed(0)} ms`);
      expect(s.gaussians.means.shape).toEqual([1_000_000, 3]);
      expect(ms).toBeLessThan(5000);
    }
  });
});
