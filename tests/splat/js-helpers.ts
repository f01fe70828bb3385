// Shared helpers of the js splat kernel tests: allocation of the contract's
// output/gradient arrays, small cameras and scenes, the ⟨cotangent, output⟩
// finite-difference check, and a brute-force compositor (per pixel: every
// splat whose tile rectangle holds the pixel's tile, sorted by (depth,
// index)) written separately from raster.ts to check it against.

import { ALPHA_MAX, ALPHA_MIN, PIXEL_CENTER, T_STOP } from '../../src/splat/constants.js';
import type { FloatArray, ProjectArgs, ProjectOutputs, RasterArgs, RasterOutputs, SplatCamera, SplatDType } from '../../src/splat/kernels/contract.js';
import { jsSplatKernels as K } from '../../src/splat/kernels/js/index.js';
import { mulberry32 } from '../harness/prng.js';

export { mulberry32 };

export const arr = (dtype: SplatDType, n: number | ArrayLike<number>): FloatArray =>
  typeof n === 'number' ? (dtype === 'float32' ? new Float32Array(n) : new Float64Array(n)) : dtype === 'float32' ? Float32Array.from(n) : Float64Array.from(n);

export function project(a: ProjectArgs): ProjectOutputs {
  const out: ProjectOutputs = {
    means2d: arr(a.dtype, 2 * a.n), conics: arr(a.dtype, 3 * a.n), depths: arr(a.dtype, a.n),
    radii: new Int32Array(a.n), colors: arr(a.dtype, 3 * a.n), opacities: arr(a.dtype, a.n),
  };
  K.projectForward(a, out);
  return out;
}

export function rasterize(a: RasterArgs): RasterOutputs {
  const px = a.width * a.height;
  const out: RasterOutputs = { image: arr(a.dtype, 3 * px), alpha: arr(a.dtype, px), depth: arr(a.dtype, px), finalT: arr(a.dtype, px), lastIndex: new Int32Array(px) };
  K.rasterizeForward(a, out);
  return out;
}

/** RasterArgs from project's outputs. */
export function rasterArgsFrom(p: ProjectOutputs, n: number, dtype: SplatDType, width: number, height: number, tileSize: number, background: readonly number[] = [0, 0, 0]): RasterArgs {
  return { dtype, n, width, height, tileSize, background, means2d: p.means2d, conics: p.conics, colors: p.colors, opacities: p.opacities, depths: p.depths, radii: p.radii };
}

/** A camera at the origin looking down +z (identity viewmat unless given). */
export function camera(width: number, height: number, o: Partial<SplatCamera> = {}): SplatCamera {
  return { viewmat: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], fx: width, fy: width, cx: width / 2, cy: height / 2, width, height, near: 0.01, far: 1e10, ...o };
}

/** Row-major 4×4 world → camera from Euler angles (x, then y, then z) and a translation. */
export function viewmat(ax: number, ay: number, az: number, t: readonly [number, number, number]): number[] {
  const [cx, sx, cy, sy, cz, sz] = [Math.cos(ax), Math.sin(ax), Math.cos(ay), Math.sin(ay), Math.cos(az), Math.sin(az)];
  const Rx = [1, 0, 0, 0, cx, -sx, 0, sx, cx], Ry = [cy, 0, sy, 0, 1, 0, -sy, 0, cy], Rz = [cz, -sz, 0, sz, cz, 0, 0, 0, 1];
  const mul = (A: number[], B: number[]) => Array.from({ length: 9 }, (_, e) => A[3 * Math.floor(e / 3)]! * B[e % 3]! + A[3 * Math.floor(e / 3) + 1]! * B[3 + (e % 3)]! + A[3 * Math.floor(e / 3) + 2]! * B[6 + (e % 3)]!);
  const R = mul(Rz, mul(Ry, Rx));
  return [R[0]!, R[1]!, R[2]!, t[0], R[3]!, R[4]!, R[5]!, t[1], R[6]!, R[7]!, R[8]!, t[2], 0, 0, 0, 1];
}

/** World point whose camera-space position under viewmat V is t: μ = Wᵀ(t − w). */
export function worldFromCamera(V: readonly number[], t: readonly number[]): number[] {
  const d = [t[0]! - V[3]!, t[1]! - V[7]!, t[2]! - V[11]!];
  return [0, 1, 2].map((k) => V[k]! * d[0]! + V[4 + k]! * d[1]! + V[8 + k]! * d[2]!);
}

/** Σ ct·out over float arrays. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

export function randomArray(rand: () => number, n: number, lo = -1, hi = 1): Float64Array {
  return Float64Array.from({ length: n }, () => lo + (hi - lo) * rand());
}

/**
 * Central differences of f along every component of x (mutated and
 * restored): returns (f(x + h e_j) − f(x − h e_j)) / 2h for each j.
 */
export function centralDiff(x: FloatArray, f: () => number, h: number): Float64Array {
  const out = new Float64Array(x.length);
  for (let j = 0; j < x.length; j++) {
    const x0 = x[j]!;
    x[j] = x0 + h;
    const fp = f();
    x[j] = x0 - h;
    const fm = f();
    x[j] = x0;
    out[j] = (fp - fm) / (2 * h);
  }
  return out;
}

/**
 * The worst |g − fd| / (floor·max|fd| + |fd|) over an array: relative error,
 * with a floor at a fraction of the array's largest entry (central
 * differences of a sum over many pixels carry ~1e-9 of rounding noise, which
 * dominates a near-zero entry).
 */
export function worstGradError(g: ArrayLike<number>, fd: ArrayLike<number>, floor = 1e-2): { index: number; g: number; fd: number; rel: number } {
  let big = 0;
  for (let j = 0; j < fd.length; j++) big = Math.max(big, Math.abs(fd[j]!));
  const scale = Math.max(floor * big, 1e-12);
  let worst = { index: -1, g: 0, fd: 0, rel: 0 };
  for (let j = 0; j < g.length; j++) {
    const rel = Math.abs(g[j]! - fd[j]!) / (scale + Math.abs(fd[j]!));
    if (!(rel <= worst.rel)) worst = { index: j, g: g[j]!, fd: fd[j]!, rel };
  }
  return worst;
}

/** Tile rectangle of the contract's binning rule, as [x0, x1, y0, y1]. */
export function tileRect(u: number, v: number, r: number, ts: number, width: number, height: number): [number, number, number, number] {
  const tx = Math.ceil(width / ts), ty = Math.ceil(height / ts);
  const c = (x: number, hi: number) => Math.min(Math.max(x, 0), hi);
  return [c(Math.floor((u - r) / ts), tx), c(Math.floor((u + r + ts - 1) / ts), tx), c(Math.floor((v - r) / ts), ty), c(Math.floor((v + r + ts - 1) / ts), ty)];
}

/** The pixel's composited splat list (contract rule, brute force): indices sorted by (depth, index). */
export function pixelList(a: RasterArgs, px: number, py: number): number[] {
  const tx = Math.floor(px / a.tileSize), ty = Math.floor(py / a.tileSize);
  const list: number[] = [];
  for (let i = 0; i < a.n; i++) {
    if (a.radii[i]! <= 0) continue;
    const [x0, x1, y0, y1] = tileRect(a.means2d[2 * i]!, a.means2d[2 * i + 1]!, a.radii[i]!, a.tileSize, a.width, a.height);
    if (tx >= x0 && tx < x1 && ty >= y0 && ty < y1) list.push(i);
  }
  return list.sort((i, j) => a.depths[i]! - a.depths[j]! || i - j);
}

/** Brute-force rasterize (one pixel at a time, every splat tested), float64. */
export function bruteRasterize(a: RasterArgs): { image: Float64Array; alpha: Float64Array; depth: Float64Array; finalT: Float64Array; lastIndex: Int32Array } {
  const px = a.width * a.height;
  const r = { image: new Float64Array(3 * px), alpha: new Float64Array(px), depth: new Float64Array(px), finalT: new Float64Array(px), lastIndex: new Int32Array(px) };
  for (let y = 0; y < a.height; y++)
    for (let x = 0; x < a.width; x++) {
      const list = pixelList(a, x, y);
      let T = 1, last = 0;
      const C = [0, 0, 0];
      let D = 0;
      for (let pos = 0; pos < list.length; pos++) {
        const i = list[pos]!;
        const dx = a.means2d[2 * i]! - (x + PIXEL_CENTER), dy = a.means2d[2 * i + 1]! - (y + PIXEL_CENTER);
        const s = 0.5 * (a.conics[3 * i]! * dx * dx + a.conics[3 * i + 2]! * dy * dy) + a.conics[3 * i + 1]! * dx * dy;
        if (s < 0) continue;
        const al = Math.min(ALPHA_MAX, a.opacities[i]! * Math.exp(-s));
        if (al < ALPHA_MIN) continue;
        if (T * (1 - al) <= T_STOP) break;
        for (let c = 0; c < 3; c++) C[c]! += a.colors[3 * i + c]! * al * T;
        D += a.depths[i]! * al * T;
        T *= 1 - al;
        last = pos + 1;
      }
      const p = y * a.width + x;
      for (let c = 0; c < 3; c++) r.image[3 * p + c] = C[c]! + T * a.background[c]!;
      r.alpha[p] = 1 - T;
      r.depth[p] = D;
      r.finalT[p] = T;
      r.lastIndex[p] = last;
    }
  return r;
}
