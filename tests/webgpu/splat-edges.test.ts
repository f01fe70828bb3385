// splat.rasterize on webgpu at the thresholds: the WGSL kernels compute in
// float32 where the js reference computes in double, so a pixel whose
// splat sits on ALPHA_MIN (α = o·e^(−σ) within float rounding of 1/255) or
// whose T·(1 − α) sits on T_STOP can take the other decision (unlike the
// native float32 kernels, which replay such lanes in double; see
// tests/splat/native-float32.test.ts, whose scenes these are). This suite
// pins what the GPU does guarantee: every pixel whose lastIndex or image
// differs from the reference (beyond rtol = atol = 1e-4) has, along its
// list, a decision within 1e-5 (relative) of its threshold.

import { describe, expect, it } from 'vitest';
import { ALPHA_MAX, ALPHA_MIN, PIXEL_CENTER, T_STOP } from '../../src/splat/constants.js';
import type { RasterArgs } from '../../src/splat/kernels/contract.js';
import { jsSplatKernels as J } from '../../src/splat/kernels/js/index.js';
import { binSplats } from '../../src/splat/kernels/js/bin.js';
import { mulberry32 } from '../harness/prng.js';
import { rasterize } from '../splat/native-helpers.js';
import { gpuRasterize, status } from './splat-helpers.js';

const W = 64, H = 48;
interface Splat { u: number; v: number; c: [number, number, number]; o: number; z: number; col: [number, number, number] }

function argsOf(splats: Splat[]): RasterArgs {
  const n = splats.length, f = Math.fround;
  const a: RasterArgs = {
    dtype: 'float32', n, width: W, height: H, tileSize: 16, background: [0.2, 0.3, 0.1],
    means2d: new Float32Array(2 * n), conics: new Float32Array(3 * n), colors: new Float32Array(3 * n),
    opacities: new Float32Array(n), depths: new Float32Array(n), radii: new Int32Array(n).fill(2 * W),
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

const sigmaAt = (a: RasterArgs, i: number, x: number, y: number): number => {
  const dx = a.means2d[2 * i]! - x, dy = a.means2d[2 * i + 1]! - y;
  return 0.5 * (a.conics[3 * i]! * dx * dx + a.conics[3 * i + 2]! * dy * dy) + a.conics[3 * i + 1]! * dx * dy;
};

/** The smallest relative distance to a threshold (α to ALPHA_MIN, T·(1 − α) to T_STOP) along pixel p's list up to position `upTo`, in double. */
function closestCall(a: RasterArgs, lists: ReturnType<typeof binSplats>, px: number, py: number, upTo: number): number {
  const t = Math.floor(py / a.tileSize) * lists.tilesX + Math.floor(px / a.tileSize);
  const x = px + PIXEL_CENTER, y = py + PIXEL_CENTER;
  let T = 1, best = Infinity;
  for (let k = lists.offsets[t]!; k < Math.min(lists.offsets[t + 1]!, lists.offsets[t]! + upTo + 1); k++) {
    const i = lists.ids[k]!;
    const s = sigmaAt(a, i, x, y);
    if (s < 0) continue;
    const alpha = Math.min(ALPHA_MAX, a.opacities[i]! * Math.exp(-s));
    best = Math.min(best, Math.abs(alpha / ALPHA_MIN - 1));
    if (alpha < ALPHA_MIN) continue;
    const next = T * (1 - alpha);
    best = Math.min(best, Math.abs(next / T_STOP - 1));
    if (next <= T_STOP) break;
    T = next;
  }
  return best;
}

function check(a: RasterArgs): number {
  const fj = rasterize(J, a), fg = gpuRasterize([a]);
  const lists = binSplats(a);
  let differ = 0;
  for (let p = 0; p < W * H; p++) {
    const px = p % W, py = Math.floor(p / W);
    let same = fj.lastIndex[p] === fg.lastIndex[p];
    for (let c = 0; c < 3; c++) {
      const g = fg.image[3 * p + c]!, w = fj.image[3 * p + c]!;
      if (!(Math.abs(g - w) <= 1e-4 + 1e-4 * Math.abs(w))) same = false;
    }
    if (same) continue;
    differ++;
    expect(closestCall(a, lists, px, py, Math.max(fj.lastIndex[p]!, fg.lastIndex[p]!)), `pixel ${px},${py}: differs from js away from every threshold`).toBeLessThan(1e-5);
  }
  return differ;
}

describe.runIf(status.available)('webgpu splat.rasterize at the thresholds', () => {
  const r = mulberry32(5);
  const u = (lo: number, hi: number) => lo + (hi - lo) * r();

  it('stacks whose transmittance reaches T_STOP at a pixel centre: differences only on the knife edge', () => {
    const splats: Splat[] = [];
    let z = 1;
    const oLast = Math.fround(0.9);
    for (let s = 0; s < 120; s++) {
      const m = 3 + (s % 3), px = 2 + ((s * 7) % (W - 6)), py = 2 + ((s * 5) % (H - 4));
      const o1 = Math.fround(1 - (u(1.3, 3) * T_STOP) ** (1 / (m - 1)));
      let T = 1;
      for (let j = 0; j < m - 1; j++) {
        const du = Math.fround(0.1 + 0.3 * r()), c = Math.fround(0.05);
        splats.push({ u: px + 0.5 + du, v: py + 0.5, c: [c, 0, c], o: o1, z: (z += 0.01), col: [u(0, 1), u(0, 1), u(0, 1)] });
        const dx = Math.fround(px + 0.5 + du) - (px + 0.5);
        T *= 1 - Math.min(ALPHA_MAX, o1 * Math.exp(-0.5 * c * dx * dx));
      }
      // The conic that brings T·(1 − α) to T_STOP exactly at dx = 1 (rounded to float32).
      const c0 = Math.fround(2 * Math.log(oLast / (1 - T_STOP / T)));
      splats.push({ u: px + 1.5, v: py + 0.5, c: [c0, 0, c0], o: oLast, z: (z += 0.01), col: [u(0, 1), u(0, 1), u(0, 1)] });
      for (let j = 0; j < 2; j++) splats.push({ u: px + 0.5, v: py + 0.5, c: [0.05, 0, 0.05], o: 0.5, z: (z += 0.01), col: [u(0, 1), u(0, 1), u(0, 1)] });
    }
    const flipped = check(argsOf(splats));
    console.log(`T_STOP edges: ${flipped} pixels differ from js, of ${W * H} pixels (120 knife edges)`);
  });

  it('splats whose α at a chosen pixel is ALPHA_MIN to float rounding: differences only on the knife edge', () => {
    const splats: Splat[] = [];
    for (let i = 0; i < 300; i++) {
      const a = u(0.02, 0.3), c = u(0.02, 0.3), b = u(-0.8, 0.8) * Math.sqrt(a * c);
      splats.push({ u: u(0, W), v: u(0, H), c: [a, b, c], o: 0.5, z: u(1, 5), col: [u(0, 1), u(0, 1), u(0, 1)] });
    }
    const args = argsOf(splats);
    for (let i = 0; i < splats.length; i++) {
      const px = Math.min(W - 1, Math.max(0, Math.floor(args.means2d[2 * i]!) + ((i % 5) - 2)));
      const py = Math.min(H - 1, Math.max(0, Math.floor(args.means2d[2 * i + 1]!) + ((i % 3) - 1)));
      args.opacities[i] = Math.fround(ALPHA_MIN * Math.exp(sigmaAt(args, i, px + 0.5, py + 0.5)));
    }
    const flipped = check(args);
    console.log(`ALPHA_MIN edges: ${flipped} pixels differ from js, of ${W * H} pixels (300 knife edges)`);
  });
});
