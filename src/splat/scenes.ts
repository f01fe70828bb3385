// Procedural scenes for tests, demos and benchmarks (no real capture can be
// downloaded here): a coloured sphere shell, a checkerboard plane and a
// random cloud, each with a ring of cameras looking at it. Plain loops over
// typed arrays, so 1M Gaussians take well under a second.
//
// Randomness: a small seeded generator (mulberry32, 32-bit state; normals by
// Box–Muller), not rlx's counter-based keys, because the scenes are built as
// plain arrays rather than tensor programs. The same options always give the
// same scene (bit for bit), and different seeds give independent-looking
// ones. Scenes have `colors` [N, 3] unless `shDegree` asks for `sh`
// [N, (d+1)², 3]: then the DC term encodes the same colour and the higher
// bands are small seeded values (±0.1), for benchmarks of the SH path.

import { mulberry32 } from '../tensor/random/mulberry32.js';
import { ValueError } from '../tensor/errors.js';
import { lookAt } from './camera.js';
import { SH_C0, SH_OFFSET } from './constants.js';
import { allocFloat, toGaussians, type FloatArray, type GaussianDType } from './io/gaussian-arrays.js';
import type { Camera, Gaussians } from './types.js';

/** A procedural scene: its Gaussians and the cameras that look at it. */
export interface Scene {
  gaussians: Gaussians;
  cameras: Camera[];
}

/** Options every scene takes. */
export interface SceneOptions {
  /** Number of Gaussians. */
  n?: number;
  /** Seed of the scene's random numbers (default 0). */
  seed?: number;
  /** Number of cameras on the ring around the scene (default 8). */
  views?: number;
  /** Image size of the cameras (default 64×64). */
  width?: number;
  height?: number;
  /** Vertical field of view of the cameras in degrees (default 60). */
  fovY?: number;
  /** dtype of the tensors (default 'float32'). */
  dtype?: GaussianDType;
  /** Give `sh` [N, (d+1)², 3] of this degree (0–3) instead of `colors` [N, 3]. */
  shDegree?: number;
}

const generator = mulberry32;

/** Standard normal numbers from a uniform generator (Box–Muller: each pair of uniforms gives two normals, the cosine one first). */
function normalFrom(u: () => number): () => number {
  let spare = NaN;
  return () => {
    if (!Number.isNaN(spare)) {
      const s = spare;
      spare = NaN;
      return s;
    }
    const r = Math.sqrt(-2 * Math.log(1 - u())), t = 2 * Math.PI * u();
    spare = r * Math.sin(t);
    return r * Math.cos(t);
  };
}

interface Common {
  n: number;
  seed: number;
  views: number;
  width: number;
  height: number;
  fovY: number;
  dtype: GaussianDType;
  shDegree: number | undefined;
}

function common(op: string, o: SceneOptions, defaultN: number): Common {
  if (o !== undefined && (o === null || typeof o !== 'object')) throw new ValueError(`${op}: expected an options object, got ${String(o)}`);
  const n = o.n ?? defaultN;
  if (!Number.isInteger(n) || n < 0 || n > 2 ** 26) throw new ValueError(`${op}: n must be an integer in [0, 2^26], got ${String(n)}`);
  const seed = o.seed ?? 0;
  if (!Number.isInteger(seed)) throw new ValueError(`${op}: seed must be an integer, got ${String(seed)}`);
  const views = o.views ?? 8;
  if (!Number.isInteger(views) || views < 0) throw new ValueError(`${op}: views must be a non-negative integer, got ${String(views)}`);
  const dtype = o.dtype ?? 'float32';
  if (dtype !== 'float32' && dtype !== 'float64') throw new ValueError(`${op}: dtype must be 'float32' or 'float64', got ${String(dtype)}`);
  const d = o.shDegree;
  if (d !== undefined && !(Number.isInteger(d) && d >= 0 && d <= 3)) throw new ValueError(`${op}: shDegree must be 0, 1, 2 or 3, got ${String(d)}`);
  return { n, seed, views, width: o.width ?? 64, height: o.height ?? 64, fovY: o.fovY ?? 60, dtype, shDegree: d };
}

/** Positive finite number option. */
function positive(op: string, name: string, v: number | undefined, dflt: number): number {
  const x = v ?? dflt;
  if (typeof x !== 'number' || !(x > 0) || !Number.isFinite(x)) throw new ValueError(`${op}: ${name} must be a positive finite number, got ${String(x)}`);
  return x;
}

/** The arrays of a scene under construction (colours in `rgb`, turned into sh at the end when asked). */
function buffers(c: Common) {
  return { means: allocFloat(c.dtype, 3 * c.n), quats: allocFloat(c.dtype, 4 * c.n), scales: allocFloat(c.dtype, 3 * c.n), opacities: allocFloat(c.dtype, c.n), rgb: allocFloat(c.dtype, 3 * c.n) };
}

/** The Gaussians of the buffers: colors, or sh whose DC term is the colour and higher bands seeded values in ±0.1. */
function finish(c: Common, b: ReturnType<typeof buffers>, rand: () => number): Gaussians {
  if (c.shDegree === undefined) return toGaussians(c.n, c.dtype, { ...b, color: b.rgb });
  const k = (c.shDegree + 1) ** 2;
  const sh: FloatArray = allocFloat(c.dtype, 3 * k * c.n);
  for (let i = 0; i < c.n; i++) {
    for (let ch = 0; ch < 3; ch++) sh[3 * k * i + ch] = (b.rgb[3 * i + ch]! - SH_OFFSET) / SH_C0;
    for (let j = 3; j < 3 * k; j++) sh[3 * k * i + j] = 0.2 * rand() - 0.1;
  }
  return toGaussians(c.n, c.dtype, { ...b, color: sh }, k);
}

/** `views` cameras on a ring of radius `distance` at `elevation` degrees above the xz-plane, looking at the origin (world up +y). */
function ring(c: Common, distance: number, elevation: number): Camera[] {
  const el = (elevation * Math.PI) / 180;
  return Array.from({ length: c.views }, (_, i) => {
    const az = (2 * Math.PI * i) / c.views;
    const eye = [distance * Math.cos(el) * Math.sin(az), distance * Math.sin(el), distance * Math.cos(el) * Math.cos(az)];
    return lookAt({ eye, target: [0, 0, 0], fovY: c.fovY, width: c.width, height: c.height });
  });
}

/** Writes the quaternion (w, x, y, z) turning +z onto the unit vector (nx, ny, nz) at quats[4i..]. */
function zTo(quats: FloatArray, i: number, nx: number, ny: number, nz: number): void {
  // q = (1 + z·n, z × n) normalized: half the rotation angle; n = −z needs another axis.
  let w = 1 + nz, x = -ny, y = nx;
  const len = Math.hypot(w, x, y);
  if (len < 1e-9) (w = 0), (x = 1), (y = 0);
  else (w /= len), (x /= len), (y /= len);
  quats[4 * i] = w;
  quats[4 * i + 1] = x;
  quats[4 * i + 2] = y;
  quats[4 * i + 3] = 0;
}

/** Options of sphereShell. */
export interface SphereShellOptions extends SceneOptions {
  /** Radius of the shell (default 1). */
  radius?: number;
}

/**
 * A sphere shell of flat Gaussians on a Fibonacci lattice, coloured by direction (0.5 + 0.45·normal), with a ring of cameras at 3 radii.
 *
 * Each Gaussian is a disc tangent to the sphere: standard deviation 0.5·d in
 * the tangent plane (d = radius·√(4π/n), the lattice spacing, with a seeded
 * ±10 % jitter) and 0.05·d along the normal; opacity 0.9. The seed also turns
 * the lattice about the y axis. Cameras 20° above the equator. Defaults: n = 2000.
 * @example
 * ```ts
 * const { gaussians, cameras } = splat.scenes.sphereShell({ n: 100, radius: 2, views: 4 });
 * gaussians.means.shape;                  // [100, 3]
 * cameras.length;                         // 4
 * const p = gaussians.means.toArray();
 * Math.hypot(p[0], p[1], p[2]);           // 2.00000
 * ```
 */
export function sphereShell(opts: SphereShellOptions = {}): Scene {
  const op = 'scenes.sphereShell';
  const c = common(op, opts, 2000);
  const radius = positive(op, 'radius', opts.radius, 1);
  const rand = generator(c.seed);
  const b = buffers(c);
  const spacing = radius * Math.sqrt((4 * Math.PI) / Math.max(1, c.n));
  const golden = Math.PI * (3 - Math.sqrt(5));
  const turn = 2 * Math.PI * rand();
  for (let i = 0; i < c.n; i++) {
    const ny = 1 - (2 * (i + 0.5)) / c.n;
    const ring_ = Math.sqrt(Math.max(0, 1 - ny * ny));
    const phi = turn + golden * i;
    const nx = ring_ * Math.cos(phi), nz = ring_ * Math.sin(phi);
    b.means[3 * i] = radius * nx;
    b.means[3 * i + 1] = radius * ny;
    b.means[3 * i + 2] = radius * nz;
    zTo(b.quats, i, nx, ny, nz);
    const s = 0.5 * spacing * (0.9 + 0.2 * rand());
    b.scales[3 * i] = s;
    b.scales[3 * i + 1] = s;
    b.scales[3 * i + 2] = 0.1 * s;
    b.opacities[i] = 0.9;
    b.rgb[3 * i] = 0.5 + 0.45 * nx;
    b.rgb[3 * i + 1] = 0.5 + 0.45 * ny;
    b.rgb[3 * i + 2] = 0.5 + 0.45 * nz;
  }
  return { gaussians: finish(c, b, rand), cameras: ring(c, 3 * radius, 20) };
}

/** Options of checkerboardPlane. */
export interface CheckerboardPlaneOptions extends SceneOptions {
  /** Side length of the square plane (default 2). */
  size?: number;
  /** Squares per side of the checkerboard (default 8). */
  squares?: number;
  /** Seeded jitter of the positions, in grid spacings (default 0: an exact grid). */
  jitter?: number;
}

/**
 * A square checkerboard in the plane y = 0 (centred at the origin) made of flat Gaussians on a grid, with a ring of cameras looking down at 45°.
 *
 * The n Gaussians fill a ⌈√n⌉ × ⌈√n⌉ grid row by row (spacing h = size/⌈√n⌉):
 * standard deviation 0.6·h in the plane and 0.05·h across it, opacity 0.95;
 * colour 0.9 (light squares, where ⌊x/sq⌋ + ⌊z/sq⌋ is even, sq = size/squares
 * measured from the corner) or 0.1. Cameras at distance 1.5·size. Defaults: n = 4096.
 * @example
 * ```ts
 * const { gaussians } = splat.scenes.checkerboardPlane({ n: 4, size: 2, squares: 2 });
 * gaussians.means.tolist();    // [[-0.5, 0, -0.5], [0.5, 0, -0.5], [-0.5, 0, 0.5], [0.5, 0, 0.5]]
 * gaussians.colors!.tolist();  // [[0.9, 0.9, 0.9], [0.1, 0.1, 0.1], [0.1, 0.1, 0.1], [0.9, 0.9, 0.9]]
 * ```
 */
export function checkerboardPlane(opts: CheckerboardPlaneOptions = {}): Scene {
  const op = 'scenes.checkerboardPlane';
  const c = common(op, opts, 4096);
  const size = positive(op, 'size', opts.size, 2);
  const squares = opts.squares ?? 8;
  if (!Number.isInteger(squares) || squares < 1) throw new ValueError(`${op}: squares must be a positive integer, got ${String(squares)}`);
  const jitter = opts.jitter ?? 0;
  if (!(jitter >= 0 && Number.isFinite(jitter))) throw new ValueError(`${op}: jitter must be a non-negative finite number, got ${String(jitter)}`);
  const rand = generator(c.seed);
  const b = buffers(c);
  const side = Math.max(1, Math.ceil(Math.sqrt(c.n)));
  const h = size / side;
  const square = size / squares;
  for (let i = 0; i < c.n; i++) {
    const u = ((i % side) + 0.5) * h + (jitter ? jitter * h * (rand() - 0.5) : 0);
    const v = (Math.floor(i / side) + 0.5) * h + (jitter ? jitter * h * (rand() - 0.5) : 0);
    b.means[3 * i] = u - size / 2;
    b.means[3 * i + 1] = 0;
    b.means[3 * i + 2] = v - size / 2;
    zTo(b.quats, i, 0, 1, 0);
    b.scales[3 * i] = 0.6 * h;
    b.scales[3 * i + 1] = 0.6 * h;
    b.scales[3 * i + 2] = 0.05 * h;
    b.opacities[i] = 0.95;
    const light = (Math.floor(u / square) + Math.floor(v / square)) % 2 === 0;
    b.rgb.fill(light ? 0.9 : 0.1, 3 * i, 3 * i + 3);
  }
  return { gaussians: finish(c, b, rand), cameras: ring(c, 1.5 * size, 45) };
}

/** Options of randomCloud. */
export interface RandomCloudOptions extends SceneOptions {
  /** Means are uniform in the cube [−extent, extent]³ (default 1). */
  extent?: number;
  /** Scales are log-uniform in [min, max] per axis (default [0.02, 0.1]). */
  scaleRange?: readonly [number, number];
  /** Opacities are uniform in [min, max] (default [0.5, 1]; within (0, 1]). */
  opacityRange?: readonly [number, number];
}

/**
 * A cloud of random Gaussians: uniform means in a cube, uniformly random rotations, log-uniform scales, uniform colours and opacities; cameras on a ring at 3·extent·√3.
 *
 * Rotations are normalized 4-D normal vectors with w ≥ 0. Cameras 20° above
 * the xz-plane. Defaults: n = 1000.
 * @example
 * ```ts
 * const a = splat.scenes.randomCloud({ n: 1000, seed: 7 });
 * const b = splat.scenes.randomCloud({ n: 1000, seed: 7 });
 * JSON.stringify(a.gaussians.quats.tolist()) === JSON.stringify(b.gaussians.quats.tolist());   // true
 * a.gaussians.colors!.shape;                                                           // [1000, 3]
 * ```
 */
export function randomCloud(opts: RandomCloudOptions = {}): Scene {
  const op = 'scenes.randomCloud';
  const c = common(op, opts, 1000);
  const extent = positive(op, 'extent', opts.extent, 1);
  const [smin, smax] = opts.scaleRange ?? [0.02, 0.1];
  if (!(smin > 0 && smax >= smin && Number.isFinite(smax))) throw new ValueError(`${op}: scaleRange must be [min, max] with 0 < min ≤ max, got ${JSON.stringify(opts.scaleRange)}`);
  const [omin, omax] = opts.opacityRange ?? [0.5, 1];
  if (!(omin > 0 && omax >= omin && omax <= 1)) throw new ValueError(`${op}: opacityRange must be [min, max] with 0 < min ≤ max ≤ 1, got ${JSON.stringify(opts.opacityRange)}`);
  const rand = generator(c.seed);
  const normal = normalFrom(rand);
  const b = buffers(c);
  const lmin = Math.log(smin), lspan = Math.log(smax) - lmin;
  for (let i = 0; i < c.n; i++) {
    for (let k = 0; k < 3; k++) b.means[3 * i + k] = extent * (2 * rand() - 1);
    let w = normal(), x = normal(), y = normal(), z = normal();
    const len = Math.hypot(w, x, y, z) || 1;
    const sign = w < 0 ? -1 : 1;
    w = (sign * w) / len; x = (sign * x) / len; y = (sign * y) / len; z = (sign * z) / len;
    b.quats[4 * i] = w;
    b.quats[4 * i + 1] = x;
    b.quats[4 * i + 2] = y;
    b.quats[4 * i + 3] = z;
    for (let k = 0; k < 3; k++) b.scales[3 * i + k] = Math.min(smax, Math.exp(lmin + lspan * rand()));
    b.opacities[i] = omin + (omax - omin) * rand();
    for (let k = 0; k < 3; k++) b.rgb[3 * i + k] = rand();
  }
  return { gaussians: finish(c, b, rand), cameras: ring(c, 3 * extent * Math.sqrt(3), 20) };
}
