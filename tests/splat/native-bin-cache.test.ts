// The native backward rasterize takes the tile lists of an earlier forward
// when its splats equal that forward's bit for bit (native/src/splat/bin_cache.h),
// instead of sorting and binning again. Whether it did shows in the timings:
// a kept list costs no sort (timings.sort stays 0), a fresh one does. These
// tests check that a kept list gives the bits of a fresh one, that splats
// differing from every kept forward's are binned afresh (and agree with the
// js reference, which always bins), and that the last few forwards (several
// cameras) are all kept.

import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../src/backends/native/addon.js';
import type { RasterArgs, RasterOutputs, SplatKernels, SplatTimings } from '../../src/splat/kernels/contract.js';
import { jsSplatKernels as J } from '../../src/splat/kernels/js/index.js';
import { hasNativeSplat, nativeSplatKernels } from '../../src/splat/kernels/native.js';
import { describeNative } from '../native/native-harness.js';
import { rasterArgsFrom } from './js-helpers.js';
import { expectClose, expectEqual, project, rasterCotangents, rasterGrads, rasterize, scene } from './native-helpers.js';

const addon = nativeAddon();
const KEYS = ['means2d', 'conics', 'colors', 'opacities', 'depths'] as const;

describeNative('native splat: the backward reuses its forward tile lists', () => {
  if (!hasNativeSplat(addon)) {
    it('the addon has the splat kernels', () => {
      throw new Error('the native addon has no splatProjectForward (rebuild it: npm run build:native)');
    });
    return;
  }
  const N: SplatKernels = nativeSplatKernels(addon!);
  const W = 96, H = 64;
  const argsFor = (seed: number, dtype: 'float32' | 'float64' = 'float32'): RasterArgs => {
    const a = scene(dtype, { n: 400, width: W, height: H, shDegree: -1, seed });
    return rasterArgsFrom(project(J, a), a.n, dtype, W, H, 16, [0.2, 0.1, 0]);
  };
  const timings = (): SplatTimings => ({ project: 0, sort: 0, bin: 0, raster: 0 });
  const backward = (r: RasterArgs, f: RasterOutputs, seed: number) => {
    const g = rasterGrads(r), tm = timings();
    N.rasterizeBackward(r, f, rasterCotangents(r, seed), g, tm);
    return { g, tm };
  };

  it("a backward after its forward sorts nothing and gives the bits of one that bins afresh", () => {
    const r = argsFor(101);
    const f = rasterize(N, r);
    const kept = backward(r, f, 7);
    expect(kept.tm.sort).toBe(0);
    // Five forwards of other scenes push r's lists out (at most 4 are kept): the same backward now bins afresh.
    for (let s = 0; s < 5; s++) rasterize(N, argsFor(200 + s));
    const fresh = backward(r, f, 7);
    expect(fresh.tm.sort).toBeGreaterThan(0);
    for (const k of KEYS) expectEqual(k, kept.g[k], fresh.g[k]);
    expect(kept.g.means2d.some((x) => x !== 0)).toBe(true);
  });

  it('splats that differ from the forward (depths reversed: other lists) are binned afresh and agree with js', () => {
    const r = argsFor(102, 'float64');
    const f = rasterize(N, r);
    const depths = Float64Array.from(r.depths).reverse(); // same tiles (same list lengths: lastIndex stays in range), other orders
    const r2: RasterArgs = { ...r, depths };
    const { g, tm } = backward(r2, f, 8);
    expect(tm.sort).toBeGreaterThan(0);
    const gj = rasterGrads(r2);
    J.rasterizeBackward(r2, f, rasterCotangents(r2, 8), gj);
    for (const k of KEYS) expectClose(k, g[k], gj[k], 1e-8, 1e-9);
    // One bit of one depth is enough to miss.
    const r3: RasterArgs = { ...r, depths: Float64Array.from(r.depths) };
    const i = r3.radii.findIndex((x) => x > 0);
    r3.depths[i] = r3.depths[i]! * (1 + Number.EPSILON);
    expect(backward(r3, f, 8).tm.sort).toBeGreaterThan(0);
    expect(backward(r, f, 8).tm.sort).toBe(0);
  });

  it("a float32 forward's records hold its splats' inputs: a backward whose conics, colours or opacities differ in one splat prepares and bins afresh", () => {
    const r = argsFor(111);
    const f = rasterize(N, r);
    const i = r.radii.findIndex((x) => x > 0);
    const changed = (k: 'conics' | 'colors' | 'opacities', scale: number): RasterArgs => {
      const a = Float32Array.from(r[k]);
      a[k === 'opacities' ? i : 3 * i] = a[k === 'opacities' ? i : 3 * i]! * scale;
      return { ...r, [k]: a };
    };
    const variants = [changed('conics', 1.5), changed('colors', 0.5), changed('opacities', 0.5)];
    const got = variants.map((v) => backward(v, f, 12));
    for (const g of got) expect(g.tm.sort).toBeGreaterThan(0); // not the forward's: binned (and prepared) afresh
    // Each agrees with js on its own inputs, and the change reached the gradients.
    variants.forEach((v, j) => {
      const gj = rasterGrads(v);
      J.rasterizeBackward(v, f, rasterCotangents(v, 12), gj);
      for (const k of KEYS) expectClose(`variant ${j} ${k}`, got[j]!.g[k], gj[k], 2.5e-4, 2e-3);
    });
    const base = backward(r, f, 12);
    expect(base.tm.sort).toBe(0); // the forward's own splats: kept
    expect(got[1]!.g.opacities[i]).not.toBe(base.g.opacities[i]);
  });

  it('a culled splat (radius 0) has no record: its other inputs do not decide whether the lists are kept', () => {
    const r = argsFor(112);
    const f = rasterize(N, r);
    const culled = r.radii.findIndex((x) => x === 0);
    expect(culled).toBeGreaterThanOrEqual(0);
    const means2d = Float32Array.from(r.means2d);
    means2d[2 * culled] = means2d[2 * culled]! + 1000;
    const kept = backward({ ...r, means2d }, f, 13);
    expect(kept.tm.sort).toBe(0);
    for (let s = 0; s < 5; s++) rasterize(N, argsFor(500 + s));
    const fresh = backward({ ...r, means2d }, f, 13);
    expect(fresh.tm.sort).toBeGreaterThan(0);
    for (const k of KEYS) expectEqual(k, kept.g[k], fresh.g[k]);
  });

  it('the lists of the last four forwards (four cameras) are all kept', () => {
    const rs = [301, 302, 303, 304].map((s) => argsFor(s));
    const fs = rs.map((r) => rasterize(N, r));
    rs.forEach((r, c) => {
      const { g, tm } = backward(r, fs[c]!, 9);
      expect(tm.sort).toBe(0);
      const gj = rasterGrads(r);
      J.rasterizeBackward(r, fs[c]!, rasterCotangents(r, 9), gj);
      for (const k of KEYS) expectClose(k, g[k], gj[k], 2.5e-4, 2e-3);
    });
  });
});
