// Tile binning (../contract.ts, "rasterize"): which splats each tile lists,
// in (depth, index) order, with no size limit. Built the same way by
// rasterizeForward and rasterizeBackward (the backward rebuilds the lists
// from its arguments, so both walk identical lists).
//
// One global sort of the visible splats by (depth, index), then a counting
// pass and a filling pass over the splats in that order: every tile's list
// comes out sorted without sorting per tile, and its size is whatever it
// is (counted first, so there is no fixed capacity to overflow).

import type { RasterArgs } from '../contract.js';

export interface TileLists {
  tilesX: number;
  tilesY: number;
  /** [tilesX·tilesY + 1]: tile t's list is ids[offsets[t] .. offsets[t + 1]). Tiles are row-major (t = ty·tilesX + tx). */
  offsets: Float64Array;
  /** Splat indices, each tile's in (depth, index) order. */
  ids: Int32Array;
  /** Milliseconds spent sorting and binning (the rest). */
  sortMs: number;
  binMs: number;
}

const clamp = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x);

/**
 * Writes the tile rectangle [x0, x1) × [y0, y1) of a splat at (u, v) with
 * radius r into rect[4i..4i+3]. A NaN position gives an empty rectangle.
 */
function tileRect(u: number, v: number, r: number, ts: number, tilesX: number, tilesY: number, rect: Int32Array, i: number): void {
  const x0 = clamp(Math.floor((u - r) / ts), 0, tilesX), x1 = clamp(Math.floor((u + r + ts - 1) / ts), 0, tilesX);
  const y0 = clamp(Math.floor((v - r) / ts), 0, tilesY), y1 = clamp(Math.floor((v + r + ts - 1) / ts), 0, tilesY);
  const empty = !(x1 > x0 && y1 > y0); // also true when any bound is NaN
  rect[4 * i] = empty ? 0 : x0;
  rect[4 * i + 1] = empty ? 0 : x1;
  rect[4 * i + 2] = empty ? 0 : y0;
  rect[4 * i + 3] = empty ? 0 : y1;
}

/** Splats with radius > 0, sorted by (depth, index) ascending; NaN depths last (by index). */
export function depthOrder(n: number, radii: Int32Array, depths: ArrayLike<number>): Int32Array {
  let m = 0;
  for (let i = 0; i < n; i++) if (radii[i]! > 0) m++;
  const order = new Int32Array(m);
  m = 0;
  for (let i = 0; i < n; i++) if (radii[i]! > 0) order[m++] = i;
  order.sort((i, j) => {
    const di = depths[i]!, dj = depths[j]!;
    if (di < dj) return -1;
    if (di > dj) return 1;
    const ni = di !== di, nj = dj !== dj; // NaN: never produced by project, ordered last so the comparator stays consistent
    if (ni !== nj) return ni ? 1 : -1;
    return i - j;
  });
  return order;
}

export function binSplats(a: RasterArgs): TileLists {
  const ts = a.tileSize;
  const tilesX = Math.ceil(a.width / ts), tilesY = Math.ceil(a.height / ts);
  const t0 = performance.now();
  const order = depthOrder(a.n, a.radii, a.depths);
  const t1 = performance.now();

  const rect = new Int32Array(4 * a.n);
  const offsets = new Float64Array(tilesX * tilesY + 1);
  for (const i of order) {
    tileRect(a.means2d[2 * i]!, a.means2d[2 * i + 1]!, a.radii[i]!, ts, tilesX, tilesY, rect, i);
    for (let ty = rect[4 * i + 2]!; ty < rect[4 * i + 3]!; ty++)
      for (let tx = rect[4 * i]!; tx < rect[4 * i + 1]!; tx++) offsets[ty * tilesX + tx + 1]++;
  }
  for (let t = 0; t < tilesX * tilesY; t++) offsets[t + 1] += offsets[t]!;
  const ids = new Int32Array(offsets[tilesX * tilesY]!);
  const cursor = offsets.slice(0, tilesX * tilesY);
  for (const i of order) {
    for (let ty = rect[4 * i + 2]!; ty < rect[4 * i + 3]!; ty++)
      for (let tx = rect[4 * i]!; tx < rect[4 * i + 1]!; tx++) ids[cursor[ty * tilesX + tx]++] = i;
  }
  return { tilesX, tilesY, offsets, ids, sortMs: t1 - t0, binMs: performance.now() - t1 };
}
