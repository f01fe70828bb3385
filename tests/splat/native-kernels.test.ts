// The C++ splat kernels (src/splat/kernels/native.ts over native/src/splat)
// against the js reference (src/splat/kernels/js/, itself checked by brute
// force and finite differences in js-*.test.ts) on random scenes: forward
// within rtol/atol 1e-4 (float32) and 1e-10 (float64) with radii and
// lastIndex exact; backward with random cotangents within gsplat's float32
// tolerances and tightly in float64. Independently of the js reference: the
// float64 chain rasterize∘project against central differences, results that
// do not depend on the thread count, the edge cases (N = 0, 1×1, NaN, a tile
// with thousands of splats), and the typed errors of the boundary.
//
// describeNative: under RLX_REQUIRE_NATIVE=1 a missing addon fails.

import { afterAll, describe, expect, it } from 'vitest';
import { nativeAddon } from '../../src/backends/native/addon.js';
import { numThreads, setNumThreads } from '../../src/backends/native/threads.js';
import type { ProjectArgs, RasterArgs, SplatDType, SplatKernels, SplatTimings } from '../../src/splat/kernels/contract.js';
import { jsSplatKernels as J } from '../../src/splat/kernels/js/index.js';
import { hasNativeSplat, nativeSplatKernels } from '../../src/splat/kernels/native.js';
import { DTypeError, ShapeError, ValueError } from '../../src/tensor/errors.js';
import { describeNative, REQUIRE_NATIVE } from '../native/native-harness.js';
import { arr, centralDiff, dot, rasterArgsFrom, worstGradError } from './js-helpers.js';
import {
  expectClose, expectEqual, project, projectCotangents, projectGrads, projectOutputs, rasterCotangents, rasterGrads, rasterize, rasterOutputs, scene, withSpecials,
  type SceneOptions,
} from './native-helpers.js';

const addon = nativeAddon();

/** Forward and backward tolerances per dtype: [rtol, atol]. */
const FWD: Record<SplatDType, [number, number]> = { float32: [1e-4, 1e-4], float64: [1e-10, 1e-10] };
const BWD: Record<SplatDType, [number, number]> = { float32: [2.5e-4, 2e-3], float64: [1e-8, 1e-9] };

const CASES: { name: string; o: Omit<SceneOptions, 'seed'> }[] = [
  { name: 'colours', o: { n: 300, width: 96, height: 64, shDegree: -1 } },
  { name: 'SH degree 3, antialiased', o: { n: 300, width: 80, height: 50, shDegree: 3, antialiased: true } },
  { name: 'SH degree 1, large splats, odd image size', o: { n: 120, width: 37, height: 23, shDegree: 1, scale: [0.1, 1] } },
];

describeNative('native splat kernels', () => {
  if (!hasNativeSplat(addon)) {
    it('the addon has the splat kernels', () => {
      throw new Error('the native addon has no splatProjectForward (rebuild it: npm run build:native)');
    });
    return;
  }
  const N: SplatKernels = nativeSplatKernels(addon!);
  const threads0 = numThreads();
  afterAll(() => void setNumThreads(threads0));

  for (const dtype of ['float64', 'float32'] as const)
    describe(dtype, () => {
      CASES.forEach(({ name, o }, c) => {
        const a = withSpecials(scene(dtype, { ...o, seed: 17 + c }));
        const [fr, fa] = FWD[dtype], [br, ba] = BWD[dtype];

        it(`${name}: project forward and backward agree with js`, () => {
          const pj = project(J, a), pn = project(N, a);
          expectEqual('radii', pn.radii, pj.radii);
          expect(pj.radii.filter((r) => r > 0).length).toBeGreaterThan(a.n / 4);
          for (const k of ['means2d', 'conics', 'depths', 'colors', 'opacities'] as const) expectClose(k, pn[k], pj[k], fr, fa);
          const ct = projectCotangents(a, 5 + c);
          const gj = projectGrads(a), gn = projectGrads(a);
          J.projectBackward(a, pj.radii, ct, gj);
          N.projectBackward(a, pj.radii, ct, gn);
          for (const k of ['means', 'quats', 'scales', 'opacities', 'coeffs'] as const) expectClose(`grad ${k}`, gn[k], gj[k], br, ba);
        });

        it(`${name}: rasterize forward and backward agree with js`, () => {
          const r = rasterArgsFrom(project(J, a), a.n, dtype, o.width, o.height, 16, [0.1, 0.5, 0.9]);
          const fj = rasterize(J, r), fn = rasterize(N, r);
          expectEqual('lastIndex', fn.lastIndex, fj.lastIndex);
          for (const k of ['image', 'alpha', 'depth', 'finalT'] as const) expectClose(k, fn[k], fj[k], fr, fa);
          const ct = rasterCotangents(r, 9 + c);
          const gj = rasterGrads(r), gn = rasterGrads(r);
          J.rasterizeBackward(r, fj, ct, gj);
          N.rasterizeBackward(r, fn, ct, gn);
          for (const k of ['means2d', 'conics', 'colors', 'opacities', 'depths'] as const) expectClose(`grad ${k}`, gn[k], gj[k], br, ba);
        });
      });

      it('tile sizes 1, 7 and 64 and a 1×1 image give the js results', () => {
        const a = scene(dtype, { n: 60, width: 30, height: 20, shDegree: 0, seed: 3 });
        const p = project(J, a);
        for (const [w, h, ts] of [[30, 20, 1], [30, 20, 7], [30, 20, 64], [1, 1, 16]] as const) {
          const r = rasterArgsFrom(p, a.n, dtype, w, h, ts);
          const fj = rasterize(J, r), fn = rasterize(N, r);
          expectEqual(`lastIndex ts ${ts}`, fn.lastIndex, fj.lastIndex);
          expectClose(`image ts ${ts}`, fn.image, fj.image, FWD[dtype][0], FWD[dtype][1]);
          const ct = rasterCotangents(r, 1);
          const gj = rasterGrads(r), gn = rasterGrads(r);
          J.rasterizeBackward(r, fj, ct, gj);
          N.rasterizeBackward(r, fn, ct, gn);
          expectClose(`grad means2d ts ${ts}`, gn.means2d, gj.means2d, BWD[dtype][0], BWD[dtype][1]);
          expectClose(`grad opacities ts ${ts}`, gn.opacities, gj.opacities, BWD[dtype][0], BWD[dtype][1]);
        }
      });

      it('box edges exactly on a tile boundary, and one ulp either side, list the splat on the tiles js lists it on', () => {
        // A tiny front splat per case whose box edge u − r (or u + r + ts − 1) is k·ts exactly, or a float ulp off; a large
        // back splat covers every pixel, so one list entry more or less in front of it shifts lastIndex.
        const nextUp = (x: number) => {
          const f = dtype === 'float32' ? new Float32Array([x]) : new Float64Array([x]);
          const b = dtype === 'float32' ? new Int32Array(f.buffer) : new BigInt64Array(f.buffer);
          if (dtype === 'float32') (b as Int32Array)[0]! += x >= 0 ? 1 : -1;
          else (b as BigInt64Array)[0]! += x >= 0 ? 1n : -1n;
          return f[0]!;
        };
        const nextDown = (x: number) => -nextUp(-x);
        for (const ts of [7, 13, 16]) {
          // k·ts − one ulp is where x·(1/ts) rounds up to k in float64 for ts = 13 and k = 9, 17 (bin.cc's floor_div).
          const W = 19 * ts, H = 3 * ts, means: number[] = [], radii: number[] = [];
          for (const k of [1, 2, 9, 17])
            for (const r of [1, 2, 5])
              for (const f of [(x: number) => x, nextUp, nextDown]) {
                means.push(f(k * ts + r), f(ts + r)); // u − r and v − r on the boundary (or an ulp off)
                radii.push(r);
                means.push(f(k * ts - r - ts + 1) + ts, ts + 0.5); // u + r + ts − 1 on the boundary (or an ulp off)
                radii.push(r);
              }
          const n = radii.length + 1;
          means.push(W / 2, H / 2);
          radii.push(4 * W);
          const conics: number[] = [], opac: number[] = [], depths: number[] = [], colors: number[] = [];
          for (let i = 0; i < n; i++) {
            const back = i === n - 1;
            conics.push(...(back ? [1e-4, 0, 1e-4] : [4, 0, 4]));
            opac.push(back ? 0.9 : 0.5);
            depths.push(back ? 10 : 1 + i / n);
            colors.push(0.3, 0.6, 0.9);
          }
          const r: RasterArgs = {
            dtype, n, width: W, height: H, tileSize: ts, background: [0, 0, 0], means2d: arr(dtype, means), conics: arr(dtype, conics),
            colors: arr(dtype, colors), opacities: arr(dtype, opac), depths: arr(dtype, depths), radii: new Int32Array(radii),
          };
          const fj = rasterize(J, r), fn = rasterize(N, r);
          expect(fj.lastIndex.every((x) => x > 0)).toBe(true); // the back splat is added everywhere
          expectEqual(`lastIndex ts ${ts}`, fn.lastIndex, fj.lastIndex);
        }
      });

      it('N = 0: background everywhere, empty gradients', () => {
        const a = scene(dtype, { n: 0, width: 5, height: 3, shDegree: 2, seed: 1 });
        const p = project(N, a);
        const r = rasterArgsFrom(p, 0, dtype, 5, 3, 16, [0.25, 0.5, 1]);
        const f = rasterize(N, r);
        expect(Array.from(f.image.slice(0, 3))).toEqual([0.25, 0.5, 1]);
        expect(Array.from(f.finalT)).toEqual(new Array(15).fill(1));
        const g = rasterGrads(r);
        N.rasterizeBackward(r, f, rasterCotangents(r, 1), g);
        N.projectBackward(a, p.radii, projectCotangents(a, 1), projectGrads(a));
      });

      it('every element of every output is written (the ops declare writesAll: outputs may arrive unzeroed), native and js', () => {
        // Outputs filled with a sentinel must come back as from zeroed ones, bit for bit: culled Gaussians (withSpecials),
        // SH, partial tiles; then N = 0.
        const fill = <A extends Float32Array | Float64Array | Int32Array>(x: A): A => (x.fill(x instanceof Int32Array ? -777 : 12345.5), x);
        const sentinel = <O extends object>(o: O): O => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fill(v as Float32Array)])) as O;
        for (const n of [200, 0]) {
          const a = withSpecials(scene(dtype, { n, width: 37, height: 23, shDegree: 2, antialiased: true, seed: 41 }));
          for (const K of [N, J]) {
            const p0 = project(K, a), p1 = sentinel(projectOutputs(dtype, n));
            K.projectForward(a, p1);
            for (const k of Object.keys(p0) as (keyof typeof p0)[]) expectEqual(`project ${k}`, p1[k], p0[k]);
            const pct = projectCotangents(a, 3), g0 = projectGrads(a), g1 = sentinel(projectGrads(a));
            K.projectBackward(a, p0.radii, pct, g0);
            K.projectBackward(a, p0.radii, pct, g1);
            for (const k of Object.keys(g0) as (keyof typeof g0)[]) expectEqual(`projectBackward ${k}`, g1[k], g0[k]);
            const r = rasterArgsFrom(p0, n, dtype, 37, 23, 8, [0.1, 0.2, 0.3]);
            const f0 = rasterize(K, r), f1 = sentinel(rasterOutputs(dtype, 37 * 23));
            K.rasterizeForward(r, f1);
            for (const k of Object.keys(f0) as (keyof typeof f0)[]) expectEqual(`rasterize ${k}`, f1[k], f0[k]);
            const rct = rasterCotangents(r, 4), h0 = rasterGrads(r), h1 = sentinel(rasterGrads(r));
            K.rasterizeBackward(r, f0, rct, h0);
            K.rasterizeBackward(r, f0, rct, h1);
            for (const k of Object.keys(h0) as (keyof typeof h0)[]) expectEqual(`rasterizeBackward ${k}`, h1[k], h0[k]);
          }
        }
      });

      it('a NaN colour channel propagates into the pixels the splat covers (only that channel), as in js', () => {
        const r: RasterArgs = {
          dtype, n: 2, width: 8, height: 8, tileSize: 4, background: [0, 0, 0],
          means2d: arr(dtype, [4, 4, 1, 1]), conics: arr(dtype, [0.5, 0, 0.5, 0.5, 0, 0.5]), colors: arr(dtype, [0.2, NaN, 0.4, 1, 1, 1]),
          opacities: arr(dtype, [0.8, 0.8]), depths: arr(dtype, [1, 2]), radii: new Int32Array([3, 3]),
        };
        const fj = rasterize(J, r), fn = rasterize(N, r);
        const centre = 3 * (4 * 8 + 4), corner = 3 * (7 * 8 + 7);
        expect(Number.isNaN(fn.image[centre + 1]!)).toBe(true);
        expect(Number.isFinite(fn.image[centre]!) && Number.isFinite(fn.image[centre + 2]!) && Number.isFinite(fn.image[corner + 1]!)).toBe(true);
        expectClose('image', fn.image, fj.image, FWD[dtype][0], FWD[dtype][1]);
        expectEqual('lastIndex', fn.lastIndex, fj.lastIndex);
      });

      it('3000 splats on one tile (no list limit): same as js', () => {
        const n = 3000;
        const r: RasterArgs = {
          dtype, n, width: 16, height: 16, tileSize: 16, background: [0, 0, 0],
          means2d: arr(dtype, 2 * n).map((_, i) => 8 + ((i * 7919) % 13) - 6), conics: arr(dtype, 3 * n).map((_, i) => (i % 3 === 1 ? 0 : 0.05)),
          colors: arr(dtype, 3 * n).map((_, i) => (i % 5) / 4), opacities: arr(dtype, n).fill(0.004), depths: arr(dtype, n).map((_, i) => 1 + (i % 17)),
          radii: new Int32Array(n).fill(20),
        };
        const fj = rasterize(J, r), fn = rasterize(N, r);
        expectEqual('lastIndex', fn.lastIndex, fj.lastIndex);
        expect(Math.max(...fn.lastIndex)).toBeGreaterThan(2000);
        expectClose('image', fn.image, fj.image, FWD[dtype][0], FWD[dtype][1]);
        const ct = rasterCotangents(r, 2);
        const gj = rasterGrads(r), gn = rasterGrads(r);
        J.rasterizeBackward(r, fj, ct, gj);
        N.rasterizeBackward(r, fn, ct, gn);
        expectClose('grad opacities', gn.opacities, gj.opacities, BWD[dtype][0], BWD[dtype][1]);
        expectClose('grad means2d', gn.means2d, gj.means2d, BWD[dtype][0], BWD[dtype][1]);
      });

      it('many splats with tied depths (lists built in several parts) are listed in the js reference order, whatever the thread count', () => {
        // Binning scatters the splats in index ranges (4 per thread, from 8,192 splats each) into the tile lists, then sorts
        // each list by depth: ties must keep index order across ranges and through the sort's passes.
        const a = scene(dtype, { n: 150_000, width: 64, height: 48, shDegree: -1, seed: 23, scale: [0.01, 0.05] });
        const r = rasterArgsFrom(project(J, a), a.n, dtype, 64, 48, 16);
        for (let i = 0; i < a.n; i++) r.depths[i] = 1 + (i % 97) * 0.0137; // 97 depths (every key byte varies) shared by ~1,500 splats each
        expect(r.radii.filter((x) => x > 0).length).toBeGreaterThan(2 * 32768);
        const fj = rasterize(J, r);
        const run = (threads: number) => {
          setNumThreads(threads);
          return rasterize(N, r);
        };
        const one = run(1), three = run(3);
        expectEqual('lastIndex, 1 thread', one.lastIndex, fj.lastIndex);
        expectEqual('lastIndex, 3 threads', three.lastIndex, fj.lastIndex);
        expectEqual('image, 3 threads against 1', three.image, one.image);
      });

      it('results do not depend on the thread count (bit for bit)', () => {
        const a = scene(dtype, { n: 400, width: 64, height: 48, shDegree: 2, seed: 8 });
        const run = (threads: number) => {
          setNumThreads(threads);
          const p = project(N, a);
          const r = rasterArgsFrom(p, a.n, dtype, 64, 48, 16);
          const f = rasterize(N, r);
          const g = rasterGrads(r);
          N.rasterizeBackward(r, f, rasterCotangents(r, 3), g);
          return [p.means2d, p.conics, f.image, f.lastIndex, g.means2d, g.conics, g.opacities, g.colors] as ArrayLike<number>[];
        };
        const one = run(1), three = run(3);
        one.forEach((x, i) => expectEqual(`array ${i}`, three[i]!, x));
      });
    });

  it('float64: rasterize∘project against central differences (every Gaussian parameter)', () => {
    const a = scene('float64', { n: 6, width: 24, height: 16, shDegree: 2, antialiased: true, seed: 11, scale: [0.2, 0.5] });
    a.camera = { ...a.camera, viewmat: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 4, 0, 0, 0, 1] };
    const ctR = (r: RasterArgs) => rasterCotangents(r, 21);
    const loss = () => {
      const p = project(N, a);
      const r = rasterArgsFrom(p, a.n, 'float64', 24, 16, 8, [0.2, 0.1, 0.3]);
      const f = rasterize(N, r);
      const ct = ctR(r);
      return dot(ct.image, f.image) + dot(ct.alpha, f.alpha) + dot(ct.depth, f.depth);
    };
    const p = project(N, a);
    expect(p.radii.every((r) => r > 0)).toBe(true);
    const r = rasterArgsFrom(p, a.n, 'float64', 24, 16, 8, [0.2, 0.1, 0.3]);
    const f = rasterize(N, r);
    const gr = rasterGrads(r);
    N.rasterizeBackward(r, f, ctR(r), gr);
    const g = projectGrads(a);
    N.projectBackward(a, p.radii, { means2d: gr.means2d, conics: gr.conics, depths: gr.depths, colors: gr.colors, opacities: gr.opacities }, g);
    for (const k of ['means', 'quats', 'scales', 'opacities', 'coeffs'] as const) {
      const fd = centralDiff(a[k], loss, 1e-6);
      const w = worstGradError(g[k], fd);
      expect(w.rel, `${k}: ${JSON.stringify(w)}`).toBeLessThan(1e-4);
    }
  });

  it('fills the timings', () => {
    const a = scene('float32', { n: 200, width: 64, height: 48, shDegree: 0, seed: 2 });
    const r = rasterArgsFrom(project(N, a), a.n, 'float32', 64, 48, 16);
    const t: SplatTimings = {};
    const f = rasterize(N, r);
    N.rasterizeForward(r, f, t);
    for (const k of ['bin', 'sort', 'raster'] as const) expect(t[k]).toBeGreaterThanOrEqual(0);
  });

  describe('typed errors before any memory is touched', () => {
    const a = scene('float32', { n: 4, width: 8, height: 8, shDegree: -1, seed: 1 });
    const p = project(N, a);
    const r = rasterArgsFrom(p, 4, 'float32', 8, 8, 16);
    it('dtype, array types, lengths, counts', () => {
      expect(() => N.projectForward({ ...a, dtype: 'float16' as SplatDType }, p)).toThrow(DTypeError);
      expect(() => N.projectForward({ ...a, means: new Float64Array(12) }, p)).toThrow(DTypeError);
      expect(() => N.projectForward({ ...a, means: new Float32Array(11) }, p)).toThrow(ShapeError);
      expect(() => N.projectForward({ ...a, k: 4 }, p)).toThrow(ShapeError);
      expect(() => N.projectForward({ ...a, n: -1 }, p)).toThrow(ShapeError);
      expect(() => N.projectForward({ ...a, camera: { ...a.camera, viewmat: [1, 2] } }, p)).toThrow(ShapeError);
      expect(() => N.rasterizeForward({ ...r, tileSize: 0 }, rasterize(N, r))).toThrow(ShapeError);
      expect(() => N.rasterizeForward({ ...r, radii: new Float32Array(4) as unknown as Int32Array }, rasterize(N, r))).toThrow(DTypeError);
    });
    it('an output overlapping an input is a ValueError', () => {
      const out = project(N, a);
      expect(() => N.projectForward(a, { ...out, opacities: a.opacities })).toThrow(ValueError);
    });
    it('a lastIndex past its tile list is a ValueError from the addon (never an out-of-bounds read)', () => {
      const f = rasterize(N, r);
      f.lastIndex[0] = 99;
      expect(() => N.rasterizeBackward(r, f, rasterCotangents(r, 1), rasterGrads(r))).toThrow(ValueError);
      f.lastIndex[0] = -1;
      expect(() => N.rasterizeBackward(r, f, rasterCotangents(r, 1), rasterGrads(r))).toThrow(ValueError);
    });
    it('the lastIndex error names the pixel, in any tile (a partial last tile column and row included)', () => {
      const b = scene('float32', { n: 40, width: 37, height: 23, shDegree: -1, seed: 3 });
      const rb = rasterArgsFrom(project(N, b), 40, 'float32', 37, 23, 8);
      for (const [y, x] of [[22, 36], [9, 17], [0, 36], [22, 0]] as const) {
        const f = rasterize(N, rb);
        N.rasterizeBackward(rb, f, rasterCotangents(rb, 1), rasterGrads(rb)); // the forward's own lastIndex passes
        f.lastIndex[y * 37 + x] = 1e6;
        expect(() => N.rasterizeBackward(rb, f, rasterCotangents(rb, 1), rasterGrads(rb))).toThrow(new RegExp(`lastIndex\\[${y}, ${x}\\] = 1000000 is outside`));
        f.lastIndex[y * 37 + x] = -3;
        expect(() => N.rasterizeBackward(rb, f, rasterCotangents(rb, 1), rasterGrads(rb))).toThrow(new RegExp(`lastIndex\\[${y}, ${x}\\] = -3 is outside`));
      }
    });
  });
});

it.runIf(REQUIRE_NATIVE)('RLX_REQUIRE_NATIVE=1: the addon has the splat kernels', () => {
  expect(hasNativeSplat(addon)).toBe(true);
});
