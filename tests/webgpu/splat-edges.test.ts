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
import { ALPHA_MAX, ALPHA_MIN, T_STOP } from '../../src/splat/constants.js';
import type { RasterArgs } from '../../src/splat/kernels/contract.js';
import { jsSplatKernels as J } from '../../src/splat/kernels/js/index.js';
import { binSplats } from '../../src/splat/kernels/js/bin.js';
import { mulberry32 } from '../harness/prng.js';
import { rasterize } from '../splat/native-helpers.js';
import { alphaEdges, argsOf, H, sigmaAt, stopStacks, W } from '../splat/threshold-scenes.js';
import { gpuRasterize, status } from './splat-helpers.js';

/** The smallest relative distance to a threshold (α to ALPHA_MIN, T·(1 − α) to T_STOP) along pixel p's list up to position `upTo`, in double. */
function closestCall(a: RasterArgs, lists: ReturnType<typeof binSplats>, px: number, py: number, upTo: number): number {
  const t = Math.floor(py / a.tileSize) * lists.tilesX + Math.floor(px / a.tileSize);
  let T = 1, best = Infinity;
  for (let k = lists.offsets[t]!; k < Math.min(lists.offsets[t + 1]!, lists.offsets[t]! + upTo + 1); k++) {
    const i = lists.ids[k]!;
    const s = sigmaAt(a, i, px, py);
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

  it('stacks whose transmittance reaches T_STOP at a pixel centre: differences only on the knife edge', () => {
    const flipped = check(argsOf(stopStacks(r).splats));
    console.log(`T_STOP edges: ${flipped} pixels differ from js, of ${W * H} pixels (120 knife edges)`);
  });

  it('splats whose α at a chosen pixel is ALPHA_MIN to float rounding: differences only on the knife edge', () => {
    const flipped = check(alphaEdges(r).args);
    console.log(`ALPHA_MIN edges: ${flipped} pixels differ from js, of ${W * H} pixels (300 knife edges)`);
  });
});
