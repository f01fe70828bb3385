// rasterize's forward and backward kernels (../contract.ts, "rasterize"):
// per tile, per pixel, front-to-back alpha compositing over the tile's
// (depth, index)-sorted list (bin.ts), and the exact backward that walks
// each pixel's list back to front, recovering T by division by 1 − α.
//
// A tile's splats are first gathered into one packed float64 buffer
// (reused across tiles and grown as needed) so the per-pixel loop reads
// contiguous memory; nothing is allocated per pixel.

import { ALPHA_MAX, ALPHA_MIN, PIXEL_CENTER, T_STOP } from '../../constants.js';
import type { FloatArray, RasterArgs, RasterCotangents, RasterGrads, RasterOutputs, SplatTimings } from '../contract.js';
import { binSplats, type TileLists } from './bin.js';
import { checkRasterArgs, checkRasterBackward, checkRasterOutputs } from './check.js';

/** Packed per-splat record of a tile: u, v, conic (3), opacity, colour (3), depth. */
const STRIDE = 10;

/** Copies the splats of tile t into buf (grown if needed); returns the buffer. */
function gatherTile(a: RasterArgs, lists: TileLists, t: number, buf: Float64Array): Float64Array {
  const start = lists.offsets[t]!, count = lists.offsets[t + 1]! - start;
  if (buf.length < count * STRIDE) buf = new Float64Array(Math.max(count * STRIDE, 2 * buf.length));
  for (let k = 0; k < count; k++) {
    const i = lists.ids[start + k]!, o = k * STRIDE;
    buf[o] = a.means2d[2 * i]!;
    buf[o + 1] = a.means2d[2 * i + 1]!;
    buf[o + 2] = a.conics[3 * i]!;
    buf[o + 3] = a.conics[3 * i + 1]!;
    buf[o + 4] = a.conics[3 * i + 2]!;
    buf[o + 5] = a.opacities[i]!;
    buf[o + 6] = a.colors[3 * i]!;
    buf[o + 7] = a.colors[3 * i + 1]!;
    buf[o + 8] = a.colors[3 * i + 2]!;
    buf[o + 9] = a.depths[i]!;
  }
  return buf;
}

export function rasterizeForward(a: RasterArgs, out: RasterOutputs, timings?: SplatTimings): void {
  checkRasterArgs('rasterizeForward', a);
  checkRasterOutputs('rasterizeForward', a, out);
  const lists = binSplats(a);
  const t0 = performance.now();
  const { width, height, tileSize: ts } = a;
  const [bg0, bg1, bg2] = a.background as [number, number, number];
  let buf: Float64Array = new Float64Array(256 * STRIDE);
  for (let ty = 0; ty < lists.tilesY; ty++)
    for (let tx = 0; tx < lists.tilesX; tx++) {
      const tile = ty * lists.tilesX + tx;
      buf = gatherTile(a, lists, tile, buf);
      const count = lists.offsets[tile + 1]! - lists.offsets[tile]!;
      const rowEnd = Math.min(height, (ty + 1) * ts), colEnd = Math.min(width, (tx + 1) * ts);
      for (let py = ty * ts; py < rowEnd; py++)
        for (let px = tx * ts; px < colEnd; px++) {
          const x = px + PIXEL_CENTER, y = py + PIXEL_CENTER;
          let T = 1, c0 = 0, c1 = 0, c2 = 0, d = 0, last = 0;
          for (let k = 0; k < count; k++) {
            const o = k * STRIDE;
            const dx = buf[o]! - x, dy = buf[o + 1]! - y;
            const sigma = 0.5 * (buf[o + 2]! * dx * dx + buf[o + 4]! * dy * dy) + buf[o + 3]! * dx * dy;
            if (sigma < 0) continue;
            const alpha = Math.min(ALPHA_MAX, buf[o + 5]! * Math.exp(-sigma));
            if (alpha < ALPHA_MIN) continue;
            const nextT = T * (1 - alpha);
            if (nextT <= T_STOP) break;
            const w = alpha * T;
            c0 += buf[o + 6]! * w;
            c1 += buf[o + 7]! * w;
            c2 += buf[o + 8]! * w;
            d += buf[o + 9]! * w;
            T = nextT;
            last = k + 1;
          }
          const p = py * width + px;
          out.image[3 * p] = c0 + T * bg0;
          out.image[3 * p + 1] = c1 + T * bg1;
          out.image[3 * p + 2] = c2 + T * bg2;
          out.alpha[p] = 1 - T;
          out.depth[p] = d;
          out.finalT[p] = T;
          out.lastIndex[p] = last;
        }
    }
  if (timings) {
    timings.sort = lists.sortMs;
    timings.bin = lists.binMs;
    timings.raster = performance.now() - t0;
  }
}

/**
 * Backward of rasterizeForward. Per pixel, back to front from lastIndex − 1
 * with T = finalT: T_k = T_{k+1}/(1 − α_k); the colour (depth) composited
 * behind splat k, S, gives
 *   ∂image/∂α_k = colour·T_k − (S + finalT·background)/(1 − α_k),
 *   ∂depth/∂α_k = depth_k·T_k − S_depth/(1 − α_k),  ∂alpha/∂α_k = finalT/(1 − α_k);
 * then α = o·e^(−σ) (no gradient where ALPHA_MAX clamps) and σ's quadratic form.
 */
export function rasterizeBackward(a: RasterArgs, fwd: { finalT: FloatArray; lastIndex: Int32Array }, ct: RasterCotangents, grads: RasterGrads, timings?: SplatTimings): void {
  checkRasterArgs('rasterizeBackward', a);
  checkRasterBackward('rasterizeBackward', a, fwd, ct, grads);
  const lists = binSplats(a);
  const t0 = performance.now();
  const { width, height, tileSize: ts, n } = a;
  const [bg0, bg1, bg2] = a.background as [number, number, number];
  // Per-splat sums in float64, stored into the dtype's arrays at the end.
  const gMeans = new Float64Array(2 * n), gConics = new Float64Array(3 * n), gColors = new Float64Array(3 * n);
  const gOpac = new Float64Array(n), gDepth = new Float64Array(n);
  let buf: Float64Array = new Float64Array(256 * STRIDE);
  for (let ty = 0; ty < lists.tilesY; ty++)
    for (let tx = 0; tx < lists.tilesX; tx++) {
      const tile = ty * lists.tilesX + tx;
      buf = gatherTile(a, lists, tile, buf);
      const start = lists.offsets[tile]!;
      const rowEnd = Math.min(height, (ty + 1) * ts), colEnd = Math.min(width, (tx + 1) * ts);
      for (let py = ty * ts; py < rowEnd; py++)
        for (let px = tx * ts; px < colEnd; px++) {
          const p = py * width + px;
          const x = px + PIXEL_CENTER, y = py + PIXEL_CENTER;
          const finalT = fwd.finalT[p]!;
          const vC0 = ct.image[3 * p]!, vC1 = ct.image[3 * p + 1]!, vC2 = ct.image[3 * p + 2]!;
          const vD = ct.depth[p]!, vA = ct.alpha[p]!;
          // finalT·background·v_image: the part of ∂L/∂α_k that comes through the background.
          const vBackground = finalT * (bg0 * vC0 + bg1 * vC1 + bg2 * vC2);
          let T = finalT, S0 = 0, S1 = 0, S2 = 0, SD = 0;
          for (let k = fwd.lastIndex[p]! - 1; k >= 0; k--) {
            const o = k * STRIDE;
            const dx = buf[o]! - x, dy = buf[o + 1]! - y;
            const q0 = buf[o + 2]!, q1 = buf[o + 3]!, q2 = buf[o + 4]!;
            const sigma = 0.5 * (q0 * dx * dx + q2 * dy * dy) + q1 * dx * dy;
            if (sigma < 0) continue;
            const opacity = buf[o + 5]!, e = Math.exp(-sigma);
            const raw = opacity * e;
            const alpha = Math.min(ALPHA_MAX, raw);
            if (alpha < ALPHA_MIN) continue;
            const oneMinus = 1 - alpha;
            T /= oneMinus; // T before splat k
            const w = alpha * T;
            const col0 = buf[o + 6]!, col1 = buf[o + 7]!, col2 = buf[o + 8]!, depth = buf[o + 9]!;
            const i = lists.ids[start + k]!;
            gColors[3 * i] += w * vC0;
            gColors[3 * i + 1] += w * vC1;
            gColors[3 * i + 2] += w * vC2;
            gDepth[i] += w * vD;
            const vAlpha =
              T * (col0 * vC0 + col1 * vC1 + col2 * vC2 + depth * vD) -
              (S0 * vC0 + S1 * vC1 + S2 * vC2 + SD * vD + vBackground - finalT * vA) / oneMinus;
            S0 += col0 * w;
            S1 += col1 * w;
            S2 += col2 * w;
            SD += depth * w;
            if (raw > ALPHA_MAX) continue; // clamped: α does not depend on o or σ here
            gOpac[i] += vAlpha * e;
            const vSigma = -vAlpha * raw;
            gConics[3 * i] += 0.5 * dx * dx * vSigma;
            gConics[3 * i + 1] += dx * dy * vSigma;
            gConics[3 * i + 2] += 0.5 * dy * dy * vSigma;
            gMeans[2 * i] += (q0 * dx + q1 * dy) * vSigma;
            gMeans[2 * i + 1] += (q2 * dy + q1 * dx) * vSigma;
          }
        }
    }
  grads.means2d.set(gMeans);
  grads.conics.set(gConics);
  grads.colors.set(gColors);
  grads.opacities.set(gOpac);
  grads.depths.set(gDepth);
  if (timings) {
    timings.sort = lists.sortMs;
    timings.bin = lists.binMs;
    timings.raster = performance.now() - t0;
  }
}
