// Rasterize scenes built to sit on the compositing thresholds (ALPHA_MIN,
// T_STOP), shared by the float32 kernel tests that must take the js
// reference's decisions there (tests/splat/native-float32.test.ts: the
// native kernels replay such pixels in double) or bound where they may not
// (tests/webgpu/splat-edges.test.ts: WGSL has no double). Random scenes
// rarely land on a threshold; these do by construction.

import { ALPHA_MIN, T_STOP } from '../../src/splat/constants.js';
import type { RasterArgs } from '../../src/splat/kernels/contract.js';

export const W = 64,
  H = 48;

/** One 2-D splat: centre (u, v), conic c, opacity o, depth z, colour. */
export interface Splat {
  u: number;
  v: number;
  c: [number, number, number];
  o: number;
  z: number;
  col: [number, number, number];
}

/** The float32 rasterize arguments of a list of splats (every radius covers the image). */
export function argsOf(splats: Splat[], width = W, height = H): RasterArgs {
  const n = splats.length,
    f = Math.fround;
  const a: RasterArgs = {
    dtype: 'float32', n, width, height, tileSize: 16, background: [0.2, 0.3, 0.1],
    means2d: new Float32Array(2 * n), conics: new Float32Array(3 * n), colors: new Float32Array(3 * n),
    opacities: new Float32Array(n), depths: new Float32Array(n), radii: new Int32Array(n).fill(2 * Math.max(width, height)),
  };
  splats.forEach((s, i) => {
    a.means2d.set([f(s.u), f(s.v)], 2 * i);
    a.conics.set(s.c.map(f), 3 * i);
    a.colors.set(s.col.map(f), 3 * i);
    a.opacities[i] = f(s.o);
    a.depths[i] = f(s.z);
  });
  return a;
}

/** σ of splat i at the centre of pixel (px, py), as the js reference computes it from the float32 values. */
export function sigmaAt(a: RasterArgs, i: number, px: number, py: number): number {
  const dx = a.means2d[2 * i]! - (px + 0.5), dy = a.means2d[2 * i + 1]! - (py + 0.5);
  return 0.5 * (a.conics[3 * i]! * dx * dx + a.conics[3 * i + 2]! * dy * dy) + a.conics[3 * i + 1]! * dx * dy;
}

/** The 2k + 1 float32 values around x (x rounded, then k steps of one ulp either way). */
function nearFloats(x: number, k: number): number[] {
  const f = new Float32Array([x]), bits = new Int32Array(f.buffer), b0 = bits[0]!, out: number[] = [];
  for (let j = -k; j <= k; j++) {
    bits[0] = b0 + j;
    out.push(f[0]!);
  }
  return out;
}

/**
 * 120 stacks whose transmittance reaches T_STOP at a pixel centre: at pixel
 * (px, py), m − 1 splats a little off centre (so α goes through exp) bring T
 * to 1.3–3 T_STOP; then one a pixel to the right whose conic makes T·(1 − α)
 * = T_STOP there, the float32 conic closest to it (~1e-7 relative); then two
 * more. Whether the pixel stops before the last ones is decided on that knife
 * edge. `onEdge` counts the stacks within 1e-7 of it.
 */
export function stopStacks(r: () => number): { splats: Splat[]; onEdge: number } {
  const u = (lo: number, hi: number) => lo + (hi - lo) * r();
  const splats: Splat[] = [];
  let z = 1,
    onEdge = 0;
  const oLast = Math.fround(0.9);
  for (let s = 0; s < 120; s++) {
    const m = 3 + (s % 3), px = 2 + ((s * 7) % (W - 6)), py = 2 + ((s * 5) % (H - 4));
    const o1 = Math.fround(1 - (u(1.3, 3) * T_STOP) ** (1 / (m - 1)));
    let T = 1;
    for (let j = 0; j < m - 1; j++) {
      const du = Math.fround(0.1 + 0.3 * r()), c = Math.fround(0.05);
      splats.push({ u: px + 0.5 + du, v: py + 0.5, c: [c, 0, c], o: o1, z: (z += 0.01), col: [u(0, 1), u(0, 1), u(0, 1)] });
      const dx = Math.fround(px + 0.5 + du) - (px + 0.5);
      T = T * (1 - Math.min(0.999, o1 * Math.exp(-(0.5 * (c * dx * dx + c * 0 * 0) + 0 * dx * 0))));
    }
    // σ = ½c₀ at dx = 1: of the float32 values around the c₀ that gives T_STOP exactly, the one closest to it (the reference's arithmetic).
    const nextOf = (c: number) => T * (1 - Math.min(0.999, oLast * Math.exp(-(0.5 * (c * 1 * 1 + c * 0 * 0) + 0 * 1 * 0))));
    const c0 = nearFloats(2 * Math.log(oLast / (1 - T_STOP / T)), 40).reduce((b, c) => (Math.abs(nextOf(c) - T_STOP) < Math.abs(nextOf(b) - T_STOP) ? c : b));
    if (Math.abs(nextOf(c0) / T_STOP - 1) < 1e-7) onEdge++;
    splats.push({ u: px + 1.5, v: py + 0.5, c: [c0, 0, c0], o: oLast, z: (z += 0.01), col: [u(0, 1), u(0, 1), u(0, 1)] });
    for (let j = 0; j < 2; j++) splats.push({ u: px + 0.5, v: py + 0.5, c: [0.05, 0, 0.05], o: 0.5, z: (z += 0.01), col: [u(0, 1), u(0, 1), u(0, 1)] });
  }
  return { splats, onEdge };
}

/**
 * 300 splats whose opacity makes α = o·e^(−σ) at one pixel near their centre
 * ALPHA_MIN, rounded to float32 (within ~6e-8 either way). `near` counts those
 * within 1e-6 of it.
 */
export function alphaEdges(r: () => number): { args: RasterArgs; near: number } {
  const u = (lo: number, hi: number) => lo + (hi - lo) * r();
  const splats: Splat[] = [];
  for (let i = 0; i < 300; i++) {
    const a = u(0.02, 0.3), c = u(0.02, 0.3), b = u(-0.8, 0.8) * Math.sqrt(a * c);
    splats.push({ u: u(0, W), v: u(0, H), c: [a, b, c], o: 0.5, z: u(1, 5), col: [u(0, 1), u(0, 1), u(0, 1)] });
  }
  const args = argsOf(splats);
  let near = 0;
  for (let i = 0; i < splats.length; i++) {
    const px = Math.min(W - 1, Math.max(0, Math.floor(args.means2d[2 * i]!) + ((i % 5) - 2)));
    const py = Math.min(H - 1, Math.max(0, Math.floor(args.means2d[2 * i + 1]!) + ((i % 3) - 1)));
    args.opacities[i] = Math.fround(ALPHA_MIN * Math.exp(sigmaAt(args, i, px, py)));
    const alpha = args.opacities[i]! * Math.exp(-sigmaAt(args, i, px, py));
    if (Math.abs(alpha / ALPHA_MIN - 1) < 1e-6) near++;
  }
  return { args, near };
}
