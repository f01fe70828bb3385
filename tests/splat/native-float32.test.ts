// The float32 rasterize passes of the native addon (native/src/splat/
// raster_f32.h) compute in float but must take every decision the js
// reference takes in double: skip a splat where α < ALPHA_MIN, stop a pixel
// before T·(1 − α) ≤ T_STOP. A flipped skip moves a pixel by ~α·T·colour ≈
// 0.004 and a flipped stop by up to α·T, far beyond the 1e-4 tolerance, and
// shows in lastIndex. Random scenes rarely land on a threshold, so these
// scenes are built to sit on them: stacks of splats whose product of (1 − α)
// at a pixel centre is T_STOP to ~1e-15, and splats whose α at a chosen pixel
// is ALPHA_MIN to the last float bit. lastIndex must equal the js
// reference's exactly, the rest agree within the usual tolerances.
// (Checked while writing: with the σ band test removed from raster_f32.cc the
// α test fails; with the stop band removed the stop test still passed: the
// float T of these stacks happened to land on the reference's side, so that
// test runs the replay path on a knife edge but does not prove it needed.)

import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../src/backends/native/addon.js';
import { T_STOP } from '../../src/splat/constants.js';
import type { RasterArgs } from '../../src/splat/kernels/contract.js';
import { jsSplatKernels as J } from '../../src/splat/kernels/js/index.js';
import { hasNativeSplat, nativeSplatKernels } from '../../src/splat/kernels/native.js';
import { mulberry32 } from '../harness/prng.js';
import { describeNative } from '../native/native-harness.js';
import { expectClose, expectEqual, rasterCotangents, rasterGrads, rasterize } from './native-helpers.js';
import { alphaEdges, argsOf, H, stopStacks, W, type Splat } from './threshold-scenes.js';

const addon = nativeAddon();
describeNative('native float32 rasterize: decisions at the thresholds are the js reference\'s', () => {
  if (!hasNativeSplat(addon)) {
    it('the addon has the splat kernels', () => {
      throw new Error('the native addon has no splatProjectForward (rebuild it: npm run build:native)');
    });
    return;
  }
  const N = nativeSplatKernels(addon!);
  const r = mulberry32(5);
  const u = (lo: number, hi: number) => lo + (hi - lo) * r();

  function compare(a: RasterArgs): void {
    const fj = rasterize(J, a), fn = rasterize(N, a);
    expectEqual('lastIndex', fn.lastIndex, fj.lastIndex);
    for (const k of ['image', 'alpha', 'depth', 'finalT'] as const) expectClose(k, fn[k], fj[k], 1e-4, 1e-4);
    const ct = rasterCotangents(a, 3);
    const gj = rasterGrads(a), gn = rasterGrads(a);
    J.rasterizeBackward(a, fj, ct, gj);
    N.rasterizeBackward(a, fn, ct, gn);
    for (const k of ['means2d', 'conics', 'colors', 'opacities', 'depths'] as const) expectClose(`grad ${k}`, gn[k], gj[k], 2.5e-4, 2e-3);
  }

  it('stacks whose transmittance reaches T_STOP at a pixel centre stop (or not) exactly where js does', () => {
    const { splats, onEdge } = stopStacks(r); // threshold-scenes.ts: T·(1 − α) = T_STOP to ~1e-7 at 120 pixel centres
    expect(onEdge).toBeGreaterThan(90);
    compare(argsOf(splats));
  });

  it('splats whose α at a chosen pixel is ALPHA_MIN to the last float bit are skipped (or not) exactly where js skips them', () => {
    const { args, near } = alphaEdges(r); // α = ALPHA_MIN to ~6e-8 at one pixel of each of 300 splats
    expect(near).toBeGreaterThan(250);
    compare(args);
  });

  describe('a bright scene where most pixels stop, with the edge splats mixed in', () => {
    it('agrees with js', () => {
      const splats: Splat[] = [];
      for (let i = 0; i < 600; i++) {
        const a = u(0.01, 0.2), c = u(0.01, 0.2), b = u(-0.9, 0.9) * Math.sqrt(a * c);
        splats.push({ u: u(-4, W + 4), v: u(-4, H + 4), c: [a, b, c], o: i % 4 === 0 ? 1 - T_STOP ** (1 / (2 + (i % 3))) : u(0.5, 0.99), z: u(1, 5), col: [u(0, 1), u(0, 1), u(0, 1)] });
      }
      const args = argsOf(splats);
      const fj = rasterize(J, args);
      const stopped = Array.from(fj.finalT).filter((t) => t < 1e-3).length;
      expect(stopped).toBeGreaterThan(W * H * 0.5);
      compare(args);
    });
  });
});
