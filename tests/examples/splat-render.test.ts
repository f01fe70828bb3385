// examples/splat-render.mjs: a sphere shell's rendered silhouette has the
// pinhole camera's disc radius f·tan(asin(R/d)), a checkerboard plane's
// expected depth at the image centre is the camera's distance, and the PNGs
// it writes are valid images of the right size.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadExample } from './load.js';
import { pngSize } from './png-size.js';

interface SplatRender {
  run(opts?: { n?: number; views?: number; width?: number; height?: number; outDir?: string }): {
    width: number;
    height: number;
    results: { d: number; expectedRadius: number; measuredRadius: number; pixelSigma: number; file?: string }[];
    board: { distance: number; centreDepth: number; centreAlpha: number; file?: string };
  };
}

const dir = mkdtempSync(join(tmpdir(), 'rlx-splat-render-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('examples/splat-render.mjs', () => {
  it('silhouette radius = f·tan(asin(R/d)) within the splats\' size; plane depth = camera distance; valid PNGs', async () => {
    const { run } = await loadExample<SplatRender>('splat-render');
    const o = run({ outDir: dir });
    expect(o.results).toHaveLength(4);
    for (const r of o.results) {
      expect(r.d).toBeCloseTo(3, 10); // the ring is at 3 radii
      // The alpha > 1/2 disc reaches past the sphere's rim by a fraction of a splat's σ in pixels (measured: +1.1 px, σ ≈ 1.5 px).
      expect(Math.abs(r.measuredRadius - r.expectedRadius)).toBeLessThan(r.pixelSigma);
      expect(pngSize(r.file!)).toEqual([o.width, o.height]);
    }
    // One opaque layer: depth/alpha at the centre is the distance to the plane along the axis, to within a grid
    // spacing (2/64: the nearer splats get slightly more weight front to back; measured 2.979 for 3).
    expect(o.board.centreAlpha).toBeGreaterThan(0.99);
    expect(Math.abs(o.board.centreDepth - o.board.distance)).toBeLessThan(2 / 64);
    expect(pngSize(o.board.file!)).toEqual([o.width, o.height]);
  }, 120_000);
});
