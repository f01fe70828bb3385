// Shared pieces of the native splat kernel tests: a seeded random scene (a
// cloud in front of a rotated camera, with Gaussians behind it, straddling
// the near plane, off screen and degenerate), allocation of every output and
// gradient array for a kernel set, and the comparison with explicit
// tolerances (|got − want| ≤ atol + rtol·|want|, NaN only where NaN).

import { expect } from 'vitest';
import type { FloatArray, ProjectArgs, ProjectCotangents, ProjectGrads, ProjectOutputs, RasterArgs, RasterCotangents, RasterGrads, RasterOutputs, SplatDType, SplatKernels } from '../../src/splat/kernels/contract.js';
import { mulberry32 } from '../harness/prng.js';
import { arr, camera, viewmat } from './js-helpers.js';

export interface SceneOptions {
  n: number;
  width: number;
  height: number;
  shDegree: number;
  antialiased?: boolean;
  seed: number;
  /** Scale range (log-uniform), default [0.02, 0.3]. */
  scale?: [number, number];
}

/** A random scene: Gaussians mostly in a box in front of the camera (a few behind it or at the near plane). */
export function scene(dtype: SplatDType, o: SceneOptions): ProjectArgs {
  const r = mulberry32(o.seed);
  const u = (lo: number, hi: number) => lo + (hi - lo) * r();
  const n = o.n;
  const k = o.shDegree < 0 ? 1 : (o.shDegree + 1) ** 2;
  const V = viewmat(0.2, -0.3, 0.1, [0.1, -0.2, 4]);
  const means = arr(dtype, 3 * n), quats = arr(dtype, 4 * n), scales = arr(dtype, 3 * n), opac = arr(dtype, n), coeffs = arr(dtype, 3 * k * n);
  const [s0, s1] = o.scale ?? [0.02, 0.3];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < 3; j++) means[3 * i + j] = u(-2, 2);
    for (let j = 0; j < 4; j++) quats[4 * i + j] = u(-1, 1);
    for (let j = 0; j < 3; j++) scales[3 * i + j] = Math.exp(u(Math.log(s0), Math.log(s1)));
    opac[i] = u(0.05, 0.99);
    for (let j = 0; j < 3 * k; j++) coeffs[3 * k * i + j] = o.shDegree < 0 ? u(0, 1) : j < 3 ? u(-1, 1.5) : u(-0.4, 0.4);
  }
  const cam = camera(o.width, o.height, { viewmat: V, fx: 0.9 * o.width, fy: 0.9 * o.width, cx: 0.52 * o.width, cy: 0.47 * o.height });
  return { dtype, n, means, quats, scales, opacities: opac, coeffs, k, shDegree: o.shDegree, camera: cam, antialiased: o.antialiased ?? false };
}

export function projectOutputs(dtype: SplatDType, n: number): ProjectOutputs {
  return { means2d: arr(dtype, 2 * n), conics: arr(dtype, 3 * n), depths: arr(dtype, n), radii: new Int32Array(n), colors: arr(dtype, 3 * n), opacities: arr(dtype, n) };
}

export function rasterOutputs(dtype: SplatDType, px: number): RasterOutputs {
  return { image: arr(dtype, 3 * px), alpha: arr(dtype, px), depth: arr(dtype, px), finalT: arr(dtype, px), lastIndex: new Int32Array(px) };
}

export function projectGrads(a: ProjectArgs): ProjectGrads {
  const n = a.n;
  return { means: arr(a.dtype, 3 * n), quats: arr(a.dtype, 4 * n), scales: arr(a.dtype, 3 * n), opacities: arr(a.dtype, n), coeffs: arr(a.dtype, 3 * a.k * n) };
}

export function rasterGrads(a: RasterArgs): RasterGrads {
  const n = a.n;
  return { means2d: arr(a.dtype, 2 * n), conics: arr(a.dtype, 3 * n), colors: arr(a.dtype, 3 * n), opacities: arr(a.dtype, n), depths: arr(a.dtype, n) };
}

export function randomFill(dtype: SplatDType, len: number, seed: number): FloatArray {
  const r = mulberry32(seed);
  const a = arr(dtype, len);
  for (let i = 0; i < len; i++) a[i] = 2 * r() - 1;
  return a;
}

export function projectCotangents(a: ProjectArgs, seed: number): ProjectCotangents {
  const n = a.n, d = a.dtype;
  return { means2d: randomFill(d, 2 * n, seed), conics: randomFill(d, 3 * n, seed + 1), depths: randomFill(d, n, seed + 2), colors: randomFill(d, 3 * n, seed + 3), opacities: randomFill(d, n, seed + 4) };
}

export function rasterCotangents(a: RasterArgs, seed: number): RasterCotangents {
  const px = a.width * a.height, d = a.dtype;
  return { image: randomFill(d, 3 * px, seed), alpha: randomFill(d, px, seed + 1), depth: randomFill(d, px, seed + 2) };
}

export const project = (K: SplatKernels, a: ProjectArgs): ProjectOutputs => {
  const out = projectOutputs(a.dtype, a.n);
  K.projectForward(a, out);
  return out;
};

export const rasterize = (K: SplatKernels, a: RasterArgs): RasterOutputs => {
  const out = rasterOutputs(a.dtype, a.width * a.height);
  K.rasterizeForward(a, out);
  return out;
};

/** Every |got − want| ≤ atol + rtol·|want| (NaN exactly where want is NaN); the message names the worst index. */
export function expectClose(label: string, got: ArrayLike<number>, want: ArrayLike<number>, rtol: number, atol: number): void {
  expect(got.length, `${label}: length`).toBe(want.length);
  let worst = -1, worstExcess = 0;
  for (let i = 0; i < want.length; i++) {
    const g = got[i]!, w = want[i]!;
    if (Number.isNaN(w) || Number.isNaN(g)) {
      if (Number.isNaN(w) !== Number.isNaN(g)) throw new Error(`${label}[${i}]: got ${g}, want ${w}`);
      continue;
    }
    const excess = Math.abs(g - w) - (atol + rtol * Math.abs(w));
    if (excess > worstExcess) (worstExcess = excess), (worst = i);
  }
  if (worst >= 0) throw new Error(`${label}[${worst}]: got ${got[worst]}, want ${want[worst]} (|Δ| = ${Math.abs(got[worst]! - want[worst]!)} > ${atol} + ${rtol}·|want|)`);
}

/** Same values, bit for bit (Int32 residuals, thread-count determinism). */
export function expectEqual(label: string, got: ArrayLike<number>, want: ArrayLike<number>): void {
  expect(got.length, `${label}: length`).toBe(want.length);
  for (let i = 0; i < want.length; i++)
    if (!Object.is(got[i], want[i])) throw new Error(`${label}[${i}]: got ${got[i]}, want ${want[i]}`);
}

/** Some Gaussians made special: NaN/∞ parameters, zero quaternion, behind the camera, at the near plane, zero and huge scales. */
export function withSpecials(a: ProjectArgs): ProjectArgs {
  const set = (arr: Float32Array | Float64Array, i: number, v: number) => {
    if (i < arr.length) arr[i] = v;
  };
  set(a.means, 0, NaN);
  set(a.quats, 4 * 1 + 2, Infinity);
  for (let j = 0; j < 4; j++) set(a.quats, 4 * 2 + j, 0);
  set(a.scales, 3 * 3, NaN);
  set(a.opacities, 4, NaN);
  set(a.coeffs, 3 * a.k * 5 + 1, NaN); // propagates into the image
  for (let j = 0; j < 3; j++) set(a.scales, 3 * 6 + j, 0);
  for (let j = 0; j < 3; j++) set(a.scales, 3 * 7 + j, 1e20);
  return a;
}
