// Edge cases of the js splat kernels (issue 17): Gaussians behind the
// camera, on and straddling the near plane, beyond far; zero and huge
// scales; NaN and infinite parameters (culled, per the contract) and NaN
// colours (propagate); N = 0; a 1×1 image; 3000 splats on one tile (no
// truncation: against the brute-force compositor, forward and the backward's
// T recovery); float32 gradients vs float64; argument errors.

import { describe, expect, it } from 'vitest';
import type { ProjectArgs, RasterArgs, RasterGrads } from '../../src/splat/kernels/contract.js';
import { jsSplatKernels as K } from '../../src/splat/kernels/js/index.js';
import { MAX_RADIUS } from '../../src/splat/kernels/js/projection.js';
import { arr, bruteRasterize, camera, mulberry32, pixelList, project, randomArray, rasterArgsFrom, rasterize, viewmat, worldFromCamera } from './js-helpers.js';
import { ALPHA_MAX, ALPHA_MIN, PIXEL_CENTER, T_STOP } from '../../src/splat/constants.js';
import '../harness/allclose.js';

function scene(means: number[][], o: Partial<ProjectArgs> = {}): ProjectArgs {
  const n = means.length;
  return {
    dtype: 'float64', n, k: 1, shDegree: -1, antialiased: false, camera: camera(32, 24, { fx: 30, fy: 30, cx: 16, cy: 12, near: 0.1, far: 50 }),
    means: Float64Array.from(means.flat()), quats: Float64Array.from({ length: 4 * n }, (_, j) => (j % 4 === 0 ? 1 : 0.1)),
    scales: new Float64Array(3 * n).fill(0.1), opacities: new Float64Array(n).fill(0.6), coeffs: new Float64Array(3 * n).fill(0.5), ...o,
  };
}

function backward(a: ProjectArgs, radii: Int32Array) {
  const n = a.n;
  const ct = { means2d: arr(a.dtype, 2 * n).fill(1), conics: arr(a.dtype, 3 * n).fill(1), depths: arr(a.dtype, n).fill(1), colors: arr(a.dtype, 3 * n).fill(1), opacities: arr(a.dtype, n).fill(1) };
  const g = { means: arr(a.dtype, 3 * n), quats: arr(a.dtype, 4 * n), scales: arr(a.dtype, 3 * n), opacities: arr(a.dtype, n), coeffs: arr(a.dtype, 3 * a.k * n) };
  K.projectBackward(a, radii, ct, g);
  return g;
}

const allZero = (x: ArrayLike<number>, from: number, to: number) => Array.from(x).slice(from, to).every((v) => v === 0);

describe('depth culling', () => {
  it('behind the camera, at near, behind near, at far, beyond far: culled (radius 0, every output 0)', () => {
    const a = scene([[0, 0, -2], [0, 0, 0.1], [0, 0, 0.05], [0, 0, 50], [0, 0, 80], [0, 0, 3]]);
    const p = project(a);
    expect(Array.from(p.radii).slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(p.radii[5]).toBeGreaterThan(0);
    for (const [x, k] of [[p.means2d, 2], [p.conics, 3], [p.depths, 1], [p.colors, 3], [p.opacities, 1]] as const) expect(allZero(x, 0, 5 * k)).toBe(true);
  });
  it('straddling the near plane (centre just in front): drawn, covering the whole image, finite gradients', () => {
    const a = scene([[0.001, 0, 0.11]], { scales: Float64Array.of(0.2, 0.2, 0.2) });
    const p = project(a);
    expect(p.radii[0]).toBeGreaterThan(100);
    const r = rasterize(rasterArgsFrom(p, 1, 'float64', 32, 24, 8));
    expect(Array.from(r.lastIndex).every((l) => l === 1)).toBe(true);
    const g = backward(a, p.radii);
    expect([...g.means, ...g.quats, ...g.scales, ...g.opacities, ...g.coeffs].every(Number.isFinite)).toBe(true);
  });
});

describe('scales', () => {
  it('zero scale: a blur-sized splat (conic 1/0.3, radius ⌈3√(0.3 + √0.1)⌉ = 3), antialiased opacity 0, finite gradients', () => {
    for (const antialiased of [false, true]) {
      const a = scene([[0.2, 0.1, 2]], { scales: new Float64Array(3), antialiased });
      const p = project(a);
      expect(p.radii[0]).toBe(3);
      expect(p.conics[0]).toBeCloseTo(1 / 0.3, 14);
      expect(p.conics[2]).toBeCloseTo(1 / 0.3, 14);
      expect(p.opacities[0]).toBe(antialiased ? 0 : 0.6);
      const g = backward(a, p.radii);
      expect([...g.means, ...g.quats, ...g.scales, ...g.opacities, ...g.coeffs].every(Number.isFinite)).toBe(true);
    }
  });
  it('huge finite scale (1e12): radius stored as the Int32 maximum, the splat covers every tile', () => {
    const a = scene([[0, 0, 2]], { scales: Float64Array.of(1e12, 1e12, 1e12) });
    const p = project(a);
    expect(p.radii[0]).toBe(MAX_RADIUS);
    const r = rasterize(rasterArgsFrom(p, 1, 'float64', 32, 24, 8));
    expect(Array.from(r.lastIndex).every((l) => l === 1)).toBe(true);
    expect(r.alpha[0]).toBeCloseTo(0.6, 10); // conic ~ 0: α = opacity everywhere
  });
  it('overflowing scale (1e200: Σ is infinite, det NaN): culled', () => {
    const p = project(scene([[0, 0, 2]], { scales: Float64Array.of(1e200, 1, 1) }));
    expect(p.radii[0]).toBe(0);
  });
});

describe('non-finite parameters', () => {
  it('NaN or ±∞ in a mean, quaternion, scale or opacity, or a zero quaternion: that Gaussian is culled, the others not', () => {
    const base = scene([[0, 0, 2], [0.1, 0, 2], [0, 0.1, 2], [0.1, 0.1, 2], [-0.1, 0, 2], [0, -0.1, 2], [0.05, 0.05, 2]]);
    base.means[3 * 0 + 1] = NaN;
    base.quats[4 * 1 + 2] = NaN;
    base.scales[3 * 2] = NaN;
    base.opacities[3] = NaN;
    base.means[3 * 4 + 2] = Infinity;
    base.quats.fill(0, 4 * 5, 4 * 5 + 4);
    const p = project(base);
    expect(Array.from(p.radii).map((r) => r > 0)).toEqual([false, false, false, false, false, false, true]);
    expect([...p.means2d, ...p.conics, ...p.depths, ...p.colors, ...p.opacities].every(Number.isFinite)).toBe(true);
    const g = backward(base, p.radii);
    expect(allZero(g.means, 0, 18) && allZero(g.quats, 0, 24) && allZero(g.opacities, 0, 6)).toBe(true);
    expect([...g.means, ...g.quats, ...g.scales, ...g.opacities, ...g.coeffs].every(Number.isFinite)).toBe(true);
  });
  it('a NaN colour or SH coefficient propagates into the image where the splat is drawn, and nowhere else', () => {
    for (const sh of [false, true]) {
      const a = scene([[0, 0, 2], [0.3, 0.2, 3]], sh ? { shDegree: 1, k: 4, coeffs: new Float64Array(24).fill(0.1) } : {});
      a.coeffs[sh ? 3 * 4 + 3 * 2 + 1 : 3 + 1] = NaN; // Gaussian 1, green (SH: band 1, coefficient 2, which is non-zero along this view)
      const p = project(a);
      expect(p.radii[1]).toBeGreaterThan(0);
      expect(Number.isNaN(p.colors[4]!)).toBe(true);
      expect(Number.isFinite(p.colors[3]!) && Number.isFinite(p.colors[5]!)).toBe(true);
      const ra = rasterArgsFrom(p, 2, 'float64', 32, 24, 8);
      const r = rasterize(ra);
      let nanPixels = 0;
      for (let y = 0; y < 24; y++)
        for (let x = 0; x < 32; x++) {
          const pix = y * 32 + x;
          const drawn = pixelList(ra, x, y).indexOf(1) >= 0 && pixelList(ra, x, y).indexOf(1) < r.lastIndex[pix]!;
          if (Number.isNaN(r.image[3 * pix + 1]!)) nanPixels++;
          if (!drawn) expect(Number.isNaN(r.image[3 * pix + 1]!)).toBe(false);
          expect(Number.isFinite(r.image[3 * pix]!) && Number.isFinite(r.alpha[pix]!)).toBe(true);
        }
      expect(nanPixels).toBeGreaterThan(0);
    }
  });
});

describe('degenerate sizes', () => {
  it('N = 0: empty outputs; the image is the background; backward writes nothing', () => {
    const a = scene([]);
    const p = project(a);
    expect(p.radii.length).toBe(0);
    const ra = rasterArgsFrom(p, 0, 'float64', 5, 3, 16, [0.2, 0.4, 0.8]);
    const r = rasterize(ra);
    for (let q = 0; q < 15; q++) expect([r.image[3 * q], r.image[3 * q + 1], r.image[3 * q + 2], r.alpha[q], r.depth[q], r.finalT[q], r.lastIndex[q]]).toEqual([0.2, 0.4, 0.8, 0, 0, 1, 0]);
    const g: RasterGrads = { means2d: new Float64Array(0), conics: new Float64Array(0), colors: new Float64Array(0), opacities: new Float64Array(0), depths: new Float64Array(0) };
    K.rasterizeBackward(ra, r, { image: new Float64Array(45).fill(1), alpha: new Float64Array(15).fill(1), depth: new Float64Array(15).fill(1) }, g);
    expect(backward(a, p.radii).means.length).toBe(0);
  });
  it('a 1×1 image (tiles larger than the image) matches the brute-force compositor', () => {
    const cam = camera(1, 1, { fx: 2, fy: 2, cx: 0.5, cy: 0.5 });
    const a = scene([[0, 0, 2], [0.01, 0, 3], [0, 0.3, 2.5], [5, 0, 2]], { camera: cam, scales: Float64Array.of(0.5, 0.4, 0.6, 0.2, 0.3, 0.4, 0.3, 0.3, 0.3, 0.1, 0.1, 0.1) });
    const p = project(a);
    for (const ts of [1, 16]) {
      const ra = rasterArgsFrom(p, 4, 'float64', 1, 1, ts, [0.1, 0.1, 0.1]);
      const r = rasterize(ra), b = bruteRasterize(ra);
      expect(r.lastIndex[0]).toBeGreaterThanOrEqual(2);
      expect(r.image).toBeAllclose(b.image, { rtol: 1e-14, atol: 1e-15 });
      expect(r.alpha).toBeAllclose(b.alpha, { rtol: 1e-14, atol: 1e-15 });
    }
  });
});

describe('3000 splats on one tile: no truncation', () => {
  // One 16×16 tile; 3000 splats of low α (0.0045…0.006 at their centres) in random depth order, so a pixel
  // composites ~1500–2300 of them before T_STOP; colours depend on the index, so a truncated list shows.
  const n = 3000;
  const rand = mulberry32(77);
  const rows = Array.from({ length: n }, (_, i) => [7.3 + 2 * rand(), 7.6 + 2 * rand(), 0.01, 0.001, 0.012, 0.0045 + 0.0015 * rand(), 1 + 10 * rand(), 8, (i % 7) / 6, (i % 11) / 10, (i % 13) / 12]);
  const a: RasterArgs = {
    dtype: 'float64', n, width: 16, height: 16, tileSize: 16, background: [0, 0, 0],
    means2d: Float64Array.from(rows.flatMap((r) => [r[0]!, r[1]!])), conics: Float64Array.from(rows.flatMap((r) => [r[2]!, r[3]!, r[4]!])),
    opacities: Float64Array.from(rows.map((r) => r[5]!)), depths: Float64Array.from(rows.map((r) => r[6]!)), radii: Int32Array.from(rows.map((r) => r[7]!)),
    colors: Float64Array.from(rows.flatMap((r) => [r[8]!, r[9]!, r[10]!])),
  };
  const r = rasterize(a);
  it('forward equals the brute-force compositor, with lists walked past 2048', () => {
    const b = bruteRasterize(a);
    expect(Math.max(...r.lastIndex)).toBeGreaterThan(2048);
    expect(Array.from(r.lastIndex)).toEqual(Array.from(b.lastIndex));
    for (const key of ['image', 'alpha', 'depth', 'finalT'] as const) expect(r[key], key).toBeAllclose(b[key], { rtol: 1e-12, atol: 1e-14 });
  });
  it('backward recovers T over the whole list: colour gradients equal the brute-force weights α·T', () => {
    const pix = r.lastIndex.indexOf(Math.max(...r.lastIndex)); // the pixel with the longest walk
    const px = pix % 16, py = Math.floor(pix / 16);
    expect(r.lastIndex[pix]).toBeGreaterThan(2048);
    const ct = { image: new Float64Array(3 * 256), alpha: new Float64Array(256), depth: new Float64Array(256) };
    ct.image[3 * pix] = 1; // d image[pix].red / d colour[i].red = α_i T_i
    const g: RasterGrads = { means2d: new Float64Array(2 * n), conics: new Float64Array(3 * n), colors: new Float64Array(3 * n), opacities: new Float64Array(n), depths: new Float64Array(n) };
    K.rasterizeBackward(a, r, ct, g);
    const want = new Float64Array(n);
    let T = 1;
    for (const i of pixelList(a, px, py)) {
      const dx = a.means2d[2 * i]! - (px + PIXEL_CENTER), dy = a.means2d[2 * i + 1]! - (py + PIXEL_CENTER);
      const s = 0.5 * (a.conics[3 * i]! * dx * dx + a.conics[3 * i + 2]! * dy * dy) + a.conics[3 * i + 1]! * dx * dy;
      const al = Math.min(ALPHA_MAX, a.opacities[i]! * Math.exp(-s));
      if (s < 0 || al < ALPHA_MIN) continue;
      if (T * (1 - al) <= T_STOP) break;
      want[i] = al * T;
      T *= 1 - al;
    }
    expect(want.filter((w) => w > 0).length).toBeGreaterThan(1500);
    expect(Array.from({ length: n }, (_, i) => g.colors[3 * i]!)).toBeAllclose(want, { rtol: 1e-9, atol: 1e-16 });
  });
});

describe('float32 storage: gradients agree with float64', () => {
  it('project → rasterize backward on a random 40×30 scene (SH degree 3, antialiased)', () => {
    const rand = mulberry32(3);
    const n = 40, k = 16;
    const V = viewmat(0.1, 0.3, 0, [0, 0, 0.5]);
    const means = Array.from({ length: n }, () => worldFromCamera(V, [rand() * 2 - 1, rand() * 1.5 - 0.75, 2 + 3 * rand()])).flat();
    const base = { quats: randomArray(rand, 4 * n), scales: randomArray(rand, 3 * n, 0.05, 0.3), opacities: randomArray(rand, n, 0.3, 0.9), coeffs: randomArray(rand, 3 * k * n, -0.3, 0.3) };
    const cotan = { image: randomArray(rand, 3600), alpha: randomArray(rand, 1200), depth: randomArray(rand, 1200) };
    const run = (dtype: 'float32' | 'float64') => {
      const a: ProjectArgs = { dtype, n, k, shDegree: 3, antialiased: true, camera: camera(40, 30, { viewmat: V, fx: 35, fy: 35, cx: 20, cy: 15 }), means: arr(dtype, means), quats: arr(dtype, base.quats), scales: arr(dtype, base.scales), opacities: arr(dtype, base.opacities), coeffs: arr(dtype, base.coeffs) };
      const p = project(a);
      const ra = rasterArgsFrom(p, n, dtype, 40, 30, 8);
      const r = rasterize(ra);
      const rg: RasterGrads = { means2d: arr(dtype, 2 * n), conics: arr(dtype, 3 * n), colors: arr(dtype, 3 * n), opacities: arr(dtype, n), depths: arr(dtype, n) };
      K.rasterizeBackward(ra, r, { image: arr(dtype, cotan.image), alpha: arr(dtype, cotan.alpha), depth: arr(dtype, cotan.depth) }, rg);
      const pg = { means: arr(dtype, 3 * n), quats: arr(dtype, 4 * n), scales: arr(dtype, 3 * n), opacities: arr(dtype, n), coeffs: arr(dtype, 3 * k * n) };
      K.projectBackward(a, p.radii, rg, pg);
      return { r, pg, radii: p.radii };
    };
    const d = run('float64'), s = run('float32');
    expect(Array.from(s.radii)).toEqual(Array.from(d.radii));
    expect(d.radii.filter((x) => x > 0).length).toBeGreaterThan(30);
    expect(s.r.image).toBeAllclose(d.r.image, { rtol: 1e-5, atol: 1e-5 });
    expect(s.pg.means).toBeInstanceOf(Float32Array);
    for (const key of ['means', 'quats', 'scales', 'opacities', 'coeffs'] as const) {
      const big = Math.max(...Array.from(d.pg[key], Math.abs));
      expect(s.pg[key], key).toBeAllclose(d.pg[key], { rtol: 1e-3, atol: 1e-4 * big });
    }
  });
});

describe('argument errors (caller bugs: plain Errors naming the kernel)', () => {
  it('wrong length, wrong array type, bad shDegree/k, bad tileSize', () => {
    const a = scene([[0, 0, 2]]);
    const out = () => ({ means2d: new Float64Array(2), conics: new Float64Array(3), depths: new Float64Array(1), radii: new Int32Array(1), colors: new Float64Array(3), opacities: new Float64Array(1) });
    expect(() => K.projectForward({ ...a, means: new Float64Array(2) }, out())).toThrow(/projectForward: means must have 3 values, got 2/);
    expect(() => K.projectForward({ ...a, means: new Float32Array(3) }, out())).toThrow(/means must be a Float64Array/);
    expect(() => K.projectForward({ ...a, shDegree: 2, k: 4 }, out())).toThrow(/k must be an integer ≥ 9 for shDegree 2, got 4/);
    expect(() => K.projectForward(a, { ...out(), radii: new Int32Array(2) })).toThrow(/out.radii must have 1 values/);
    const ra = rasterArgsFrom(project(a), 1, 'float64', 4, 4, 0);
    expect(() => rasterize(ra)).toThrow(/rasterizeForward: tileSize must be a positive integer, got 0/);
  });
});
