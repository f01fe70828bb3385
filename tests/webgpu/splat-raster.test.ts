// 'splat.rasterize' and 'splat.rasterizeBackward' on webgpu (the WGSL runners
// of src/splat/kernels/webgpu/) against the js reference kernels on the same
// float32 inputs: the GPU tile lists equal js/bin.ts's exactly, lastIndex
// exact, image/alpha/depth/finalT within rtol = atol = 1e-4, gradients from
// random cotangents within the float32 tolerances the native kernels are
// held to (rtol 2.5e-4, atol 2e-3; tests/splat/native-kernels.test.ts).

import { describe, expect, it } from 'vitest';
import type { RasterArgs, RasterOutputs } from '../../src/splat/kernels/contract.js';
import { jsSplatKernels as J } from '../../src/splat/kernels/js/index.js';
import { binSplats } from '../../src/splat/kernels/js/bin.js';
import { binSplatsGpu } from '../../src/splat/kernels/webgpu/bin.js';
import { arr, rasterArgsFrom } from '../splat/js-helpers.js';
import { expectClose, expectEqual, project, rasterCotangents, rasterGrads, rasterize, scene } from '../splat/native-helpers.js';
import { f32, gpuCtx, gpuRasterize, gpuRasterizeBackward, status, withSpecials } from './splat-helpers.js';

const FWD = [1e-4, 1e-4] as const;
const BWD = [2.5e-4, 2e-3] as const;

function worst(got: ArrayLike<number>, want: ArrayLike<number>): number {
  let w = 0;
  for (let i = 0; i < want.length; i++) if (!Number.isNaN(want[i]!)) w = Math.max(w, Math.abs(got[i]! - want[i]!) / (1 + Math.abs(want[i]!)));
  return w;
}

/** Forward on GPU and js: lastIndex exact, the rest within FWD; returns both and the worst relative difference. */
function compareForward(label: string, r: RasterArgs) {
  const fj = rasterize(J, r), fg = gpuRasterize([r]);
  expectEqual(`${label} lastIndex`, fg.lastIndex, fj.lastIndex);
  let w = 0;
  for (const k of ['image', 'alpha', 'depth', 'finalT'] as const) {
    expectClose(`${label} ${k}`, fg[k], fj[k], ...FWD);
    w = Math.max(w, worst(fg[k], fj[k]));
  }
  return { fj, fg, worst: w };
}

const GRADS = ['means2d', 'conics', 'colors', 'opacities', 'depths'] as const;

/** Backward on GPU (from the GPU forward's residuals) and js (from its own), random cotangents; within BWD. Returns the worst excess ratio. */
function compareBackward(label: string, r: RasterArgs, fj: RasterOutputs, fg: RasterOutputs, seed: number): number {
  const ct = rasterCotangents(r, seed);
  const gj = rasterGrads(r);
  J.rasterizeBackward(r, fj, ct, gj);
  const gg = gpuRasterizeBackward([r], fg, ct);
  let w = 0;
  for (const k of GRADS) {
    expectClose(`${label} grad ${k}`, gg[k], gj[k], ...BWD);
    for (let i = 0; i < gj[k].length; i++) if (!Number.isNaN(gj[k][i]!)) w = Math.max(w, Math.abs(gg[k][i]! - gj[k][i]!) / (BWD[1] + BWD[0] * Math.abs(gj[k][i]!)));
  }
  return w;
}

const CASES = [
  { name: 'colours', o: { n: 300, width: 96, height: 64, shDegree: -1 } },
  { name: 'SH degree 3, antialiased', o: { n: 300, width: 80, height: 50, shDegree: 3, antialiased: true } },
  { name: 'SH degree 1, large splats, odd image size', o: { n: 120, width: 37, height: 23, shDegree: 1, scale: [0.1, 1] as [number, number] } },
];

describe.runIf(status.available)('webgpu splat.rasterize', () => {
  it('the GPU tile lists are js/bin.ts\'s exactly (tile sizes 16, 7, 1; many equal depths)', () => {
    const a = scene('float32', { n: 200, width: 50, height: 30, shDegree: 0, seed: 5 });
    const p = project(J, a);
    for (let i = 0; i < a.n; i += 3) p.depths[i] = p.depths[0]!; // ties: ordered by index
    for (const ts of [16, 7, 1]) {
      const r = rasterArgsFrom(p, a.n, 'float32', 50, 30, ts);
      const want = binSplats(r);
      const ctx = gpuCtx();
      try {
        const up = (x: Float32Array | Int32Array) => ctx.upload(x);
        const lists = binSplatsGpu(ctx, { means2d: up(f32(r.means2d)), conics: up(f32(r.conics)), colors: up(f32(r.colors)), opacities: up(f32(r.opacities)), depths: up(f32(r.depths)), radii: up(r.radii), n: a.n, base: 0 }, 50, 30, ts);
        expect(lists.pairs).toBe(want.ids.length);
        const ranges = new Uint32Array(ctx.device.readSync(lists.ranges, 8 * want.offsets.length - 8));
        const ids = new Uint32Array(ctx.device.readSync(lists.ids, 4 * Math.max(1, lists.pairs))).slice(0, lists.pairs);
        for (let t = 0; t + 1 < want.offsets.length; t++) {
          const n = want.offsets[t + 1]! - want.offsets[t]!;
          expect(ranges[2 * t + 1]! - ranges[2 * t]!, `tile ${t} count`).toBe(n);
          if (n > 0) expect(Array.from(ids.slice(ranges[2 * t]!, ranges[2 * t + 1]!)), `tile ${t}`).toEqual(Array.from(want.ids.slice(want.offsets[t]!, want.offsets[t + 1]!)));
        }
      } finally {
        ctx.release();
      }
    }
  });

  CASES.forEach(({ name, o }, c) => {
    it(`${name}: forward and backward agree with js`, () => {
      const a = withSpecials(scene('float32', { ...o, seed: 17 + c }));
      const r = rasterArgsFrom(project(J, a), a.n, 'float32', o.width, o.height, 16, [0.1, 0.5, 0.9]);
      const { worst: w, fj, fg } = compareForward(name, r);
      expect(Math.max(...fj.lastIndex)).toBeGreaterThan(3);
      const b = compareBackward(name, r, fj, fg, 9 + c);
      console.log(`rasterize ${name}: forward max |Δ|/(1+|want|) = ${w.toExponential(2)}; backward max |Δ|/(atol + rtol·|want|) = ${b.toFixed(3)}`);
    });
  });

  it('tile sizes 1, 7, 20 (400 pixels: 2 pixel groups), 64 and 256, and a 1×1 image: forward and backward as js', () => {
    const a = scene('float32', { n: 60, width: 30, height: 20, shDegree: 0, seed: 3 });
    const p = project(J, a);
    for (const [w, h, ts] of [[30, 20, 1], [30, 20, 7], [30, 20, 20], [30, 20, 64], [30, 20, 256], [1, 1, 16]] as const) {
      const r = rasterArgsFrom(p, a.n, 'float32', w, h, ts, [0.3, 0.2, 0.1]);
      const { fj, fg } = compareForward(`${w}×${h} ts ${ts}`, r);
      compareBackward(`${w}×${h} ts ${ts}`, r, fj, fg, 1);
    }
  });

  it('N = 0: background everywhere, empty gradients', () => {
    const r: RasterArgs = { dtype: 'float32', n: 0, width: 5, height: 3, tileSize: 16, background: [0.25, 0.5, 1], means2d: arr('float32', 0), conics: arr('float32', 0), colors: arr('float32', 0), opacities: arr('float32', 0), depths: arr('float32', 0), radii: new Int32Array(0) };
    const f = gpuRasterize([r]);
    expect(Array.from(f.image)).toEqual(new Array(15).fill([0.25, 0.5, 1]).flat());
    expect(Array.from(f.finalT)).toEqual(new Array(15).fill(1));
    expect(Array.from(f.lastIndex)).toEqual(new Array(15).fill(0));
    const g = gpuRasterizeBackward([r], f, rasterCotangents(r, 1));
    expect(g.means2d.length + g.opacities.length).toBe(0);
  });

  it('a NaN colour channel propagates into the pixels the splat covers (only that channel), as in js', () => {
    const r: RasterArgs = {
      dtype: 'float32', n: 2, width: 8, height: 8, tileSize: 4, background: [0, 0, 0],
      means2d: arr('float32', [4, 4, 1, 1]), conics: arr('float32', [0.5, 0, 0.5, 0.5, 0, 0.5]), colors: arr('float32', [0.2, NaN, 0.4, 1, 1, 1]),
      opacities: arr('float32', [0.8, 0.8]), depths: arr('float32', [1, 2]), radii: new Int32Array([3, 3]),
    };
    const { fg } = compareForward('NaN colour', r);
    const centre = 3 * (4 * 8 + 4), corner = 3 * (7 * 8 + 7);
    expect(Number.isNaN(fg.image[centre + 1]!)).toBe(true);
    expect(Number.isFinite(fg.image[centre]!) && Number.isFinite(fg.image[centre + 2]!) && Number.isFinite(fg.image[corner + 1]!)).toBe(true);
  });

  it('3000 splats on one tile (more than a workgroup stages at once): forward and backward as js', () => {
    const n = 3000;
    const r: RasterArgs = {
      dtype: 'float32', n, width: 16, height: 16, tileSize: 16, background: [0, 0, 0],
      means2d: arr('float32', 2 * n).map((_, i) => 8 + ((i * 7919) % 13) - 6), conics: arr('float32', 3 * n).map((_, i) => (i % 3 === 1 ? 0 : 0.05)),
      colors: arr('float32', 3 * n).map((_, i) => (i % 5) / 4), opacities: arr('float32', n).fill(0.004), depths: arr('float32', n).map((_, i) => 1 + (i % 17)),
      radii: new Int32Array(n).fill(20),
    };
    const { fj, fg } = compareForward('3000 on one tile', r);
    expect(Math.max(...fj.lastIndex)).toBeGreaterThan(2000);
    compareBackward('3000 on one tile', r, fj, fg, 2);
  });

  it('a batch of two images: forward and backward', () => {
    const a = scene('float32', { n: 80, width: 40, height: 24, shDegree: 0, seed: 11 }), b = scene('float32', { n: 80, width: 40, height: 24, shDegree: 0, seed: 12 });
    const ra = rasterArgsFrom(project(J, a), 80, 'float32', 40, 24, 16, [0.1, 0.1, 0.1]), rb = rasterArgsFrom(project(J, b), 80, 'float32', 40, 24, 16, [0.1, 0.1, 0.1]);
    const g = gpuRasterize([ra, rb]), ja = rasterize(J, ra), jb = rasterize(J, rb);
    expectEqual('lastIndex', g.lastIndex, [...ja.lastIndex, ...jb.lastIndex]);
    expectClose('image', g.image, [...ja.image, ...jb.image], ...FWD);
    const ca = rasterCotangents(ra, 4), cb = rasterCotangents(rb, 5);
    const gg = gpuRasterizeBackward([ra, rb], g, { image: f32([...ca.image, ...cb.image]), alpha: f32([...ca.alpha, ...cb.alpha]), depth: f32([...ca.depth, ...cb.depth]) });
    const ga = rasterGrads(ra), gb = rasterGrads(rb);
    J.rasterizeBackward(ra, ja, ca, ga);
    J.rasterizeBackward(rb, jb, cb, gb);
    for (const k of GRADS) expectClose(`grad ${k}`, gg[k], [...ga[k], ...gb[k]], ...BWD);
  });
});
