// Tile binning on the GPU (../contract.ts, "rasterize"; the twin of
// ../js/bin.ts): per tile, the splats whose tile rectangle covers it, in
// (depth, index) order, with no size limit. Built the same way by the
// forward and backward rasterize runners, so both walk identical lists.
//
// 1. prep (one invocation per splat): the packed record the rasterizer
//    reads (u, v, conic, opacity, colour, depth, tile rectangle), the
//    number of tiles it covers, and a sort key: the depth's bits made
//    monotonic as u32 (negative floats flipped; −0 as +0; NaN after +∞) for
//    a splat with radius > 0, 0xffffffff (last) for the rest, which cover
//    no tile anyway.
// 2. A stable radix sort of (key, index) (sort.ts): splats given in index
//    order come out in (depth, index) order.
// 3. The tile counts in that order, their exclusive scan (scan.ts) and
//    total: the number of (tile, splat) pairs, read back to the host (one
//    blocking 4-byte read: the pair buffers are sized by it; the only
//    read-back of a rasterize call).
// 4. expand: each splat writes its pairs (tile id, splat) at its offset, so
//    the pairs are in (depth, index) order; a stable radix sort by tile id
//    (⌈log₂ tiles⌉ bits; none for one tile) groups them by tile keeping
//    that order inside each tile: the lists of js/bin.ts exactly.
// 5. ranges: tile t's list is ids[ranges[2t] .. ranges[2t + 1]).

import { DeviceError } from '../../../tensor/errors.js';
import type { GpuBuffer } from '../../../backends/webgpu/device.js';
import { ENTRY, launch, Params, scratch, WG, WGSL_FINITE, WGSL_FLOORDIV, type GpuCtx } from './common.js';
import { radixSort } from './sort.js';
import { scanExclusive, scanTotal } from './scan.js';

/** Floats per packed splat record: u v c0 c1 c2 o r g b depth, then x0 x1 y0 y1 (u32 bits), 2 unused. */
export const RECORD = 16;
/** The record's fields the rasterizer stages in workgroup memory (the first ten). */
export const STAGED = 10;

// P: [n, base, width, height, ts, tilesX, tilesY].
const PREP = /* wgsl */ `
@group(0) @binding(0) var<storage, read> means2d: array<f32>;
@group(0) @binding(1) var<storage, read> conics: array<f32>;
@group(0) @binding(2) var<storage, read> colors: array<f32>;
@group(0) @binding(3) var<storage, read> opac: array<f32>;
@group(0) @binding(4) var<storage, read> depths: array<f32>;
@group(0) @binding(5) var<storage, read> radii: array<i32>;
@group(0) @binding(6) var<storage, read_write> packed: array<f32>;
@group(0) @binding(7) var<storage, read_write> keys: array<u32>;
@group(0) @binding(8) var<storage, read_write> vals: array<u32>;
@group(0) @binding(9) var<storage, read_write> tileCount: array<u32>;
@group(0) @binding(10) var<storage, read> P: array<u32>;
${WGSL_FINITE}
${WGSL_FLOORDIV}
const BIG = 536870912.0; // 2^29: below it the bounds are computed in exact i32 arithmetic

// clamp(⌊(p − r)/ts⌋, 0, tiles) (hi = false) or clamp(⌊(p + r + ts − 1)/ts⌋, 0, tiles) (hi = true); a non-finite p gives an empty range.
fn bound(p: f32, r: i32, ts: i32, tiles: i32, hi: bool) -> i32 {
  let fp = floor(p);
  var b: i32;
  if (abs(fp) < BIG && f32(r) < BIG) {
    b = floorDiv(select(i32(fp) - r, i32(fp) + r + ts - 1, hi), ts);
  } else {
    // Far outside any image (|u| or r ≥ 2^29): float bounds, then clamped.
    let e = select(fp - f32(r), fp + f32(r) + f32(ts - 1), hi);
    b = i32(clamp(floor(e / f32(ts)), -1.0, f32(tiles) + 1.0));
  }
  return clamp(b, 0, tiles);
}

fn sortKey(z: f32) -> u32 {
  var b = bitcast<u32>(z);
  if ((b & 0x7fffffffu) > 0x7f800000u) { return 0xfffffffeu; }
  if (b == 0x80000000u) { b = 0u; }
  return select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
}

${ENTRY}
  let i = wgi * ${WG}u + li;
  if (i >= P[0]) { return; }
  let g = P[1] + i;
  let u = means2d[2u * g]; let v = means2d[2u * g + 1u];
  let o = ${RECORD}u * i;
  packed[o] = u; packed[o + 1u] = v;
  for (var c = 0u; c < 3u; c++) { packed[o + 2u + c] = conics[3u * g + c]; packed[o + 6u + c] = colors[3u * g + c]; }
  packed[o + 5u] = opac[g];
  packed[o + 9u] = depths[g];
  let r = radii[g];
  var x0 = 0; var x1 = 0; var y0 = 0; var y1 = 0;
  if (r > 0 && finite(u) && finite(v)) {
    let ts = i32(P[4]); let tx = i32(P[5]); let ty = i32(P[6]);
    x0 = bound(u, r, ts, tx, false); x1 = bound(u, r, ts, tx, true);
    y0 = bound(v, r, ts, ty, false); y1 = bound(v, r, ts, ty, true);
    if (!(x1 > x0 && y1 > y0)) { x0 = 0; x1 = 0; y0 = 0; y1 = 0; }
  }
  packed[o + 10u] = bitcast<f32>(x0); packed[o + 11u] = bitcast<f32>(x1);
  packed[o + 12u] = bitcast<f32>(y0); packed[o + 13u] = bitcast<f32>(y1);
  packed[o + 14u] = 0.0; packed[o + 15u] = 0.0;
  tileCount[i] = u32((x1 - x0) * (y1 - y0));
  keys[i] = select(0xffffffffu, sortKey(depths[g]), r > 0);
  vals[i] = i;
}`;

// P: [n]. cnt[s] = tileCount[order[s]].
const GATHER_COUNTS = /* wgsl */ `
@group(0) @binding(0) var<storage, read> order: array<u32>;
@group(0) @binding(1) var<storage, read> tileCount: array<u32>;
@group(0) @binding(2) var<storage, read_write> cnt: array<u32>;
@group(0) @binding(3) var<storage, read> P: array<u32>;
${ENTRY}
  let s = wgi * ${WG}u + li;
  if (s < P[0]) { cnt[s] = tileCount[order[s]]; }
}`;

// P: [n, tilesX]. The pairs of the splat at sorted position s, from offset[s], its rectangle row-major.
const EXPAND = /* wgsl */ `
@group(0) @binding(0) var<storage, read> order: array<u32>;
@group(0) @binding(1) var<storage, read> offset: array<u32>;
@group(0) @binding(2) var<storage, read> packed: array<f32>;
@group(0) @binding(3) var<storage, read_write> tileKeys: array<u32>;
@group(0) @binding(4) var<storage, read_write> pairIds: array<u32>;
@group(0) @binding(5) var<storage, read> P: array<u32>;
${ENTRY}
  let s = wgi * ${WG}u + li;
  if (s >= P[0]) { return; }
  let id = order[s];
  let o = ${RECORD}u * id;
  let x0 = bitcast<i32>(packed[o + 10u]); let x1 = bitcast<i32>(packed[o + 11u]);
  let y0 = bitcast<i32>(packed[o + 12u]); let y1 = bitcast<i32>(packed[o + 13u]);
  var at = offset[s];
  for (var ty = y0; ty < y1; ty++) {
    for (var tx = x0; tx < x1; tx++) {
      tileKeys[at] = u32(ty) * P[1] + u32(tx);
      pairIds[at] = id;
      at = at + 1u;
    }
  }
}`;

// P: [tiles]. ranges = 0.
const CLEAR_RANGES = /* wgsl */ `
@group(0) @binding(0) var<storage, read_write> ranges: array<u32>;
@group(0) @binding(1) var<storage, read> P: array<u32>;
${ENTRY}
  let t = wgi * ${WG}u + li;
  if (t < P[0]) { ranges[2u * t] = 0u; ranges[2u * t + 1u] = 0u; }
}`;

// P: [pairs]. The first and one-past-last pair of each tile present.
const MARK_RANGES = /* wgsl */ `
@group(0) @binding(0) var<storage, read> tileKeys: array<u32>;
@group(0) @binding(1) var<storage, read_write> ranges: array<u32>;
@group(0) @binding(2) var<storage, read> P: array<u32>;
${ENTRY}
  let k = wgi * ${WG}u + li;
  let m = P[0];
  if (k >= m) { return; }
  let t = tileKeys[k];
  if (k == 0u || tileKeys[k - 1u] != t) { ranges[2u * t] = k; }
  if (k == m - 1u || tileKeys[k + 1u] != t) { ranges[2u * t + 1u] = k + 1u; }
}`;

/** The splat inputs of one rasterize call's batch entry. */
export interface SplatBuffers {
  means2d: GpuBuffer;
  conics: GpuBuffer;
  colors: GpuBuffer;
  opacities: GpuBuffer;
  depths: GpuBuffer;
  radii: GpuBuffer;
  /** Splats per batch entry, and this entry's first splat (element offsets are base × the per-splat width). */
  n: number;
  base: number;
}

/** The tile lists of one image on the GPU. */
export interface GpuTileLists {
  tilesX: number;
  tilesY: number;
  /** [n × RECORD] f32 records of the entry's splats (index = splat index within the entry). */
  packed: GpuBuffer;
  /** [2 × tiles] u32: tile t's list is ids[ranges[2t] .. ranges[2t + 1]). */
  ranges: GpuBuffer;
  /** [pairs] u32 splat indices (within the entry), each tile's in (depth, index) order. */
  ids: GpuBuffer;
  pairs: number;
}

/** Builds the tile lists of one image (scratch buffers from ctx). */
export function binSplatsGpu(ctx: GpuCtx, s: SplatBuffers, width: number, height: number, ts: number): GpuTileLists {
  const tilesX = Math.ceil(width / ts), tilesY = Math.ceil(height / ts), tiles = tilesX * tilesY;
  const n = s.n;
  const packed = scratch(ctx, 4 * RECORD * n);
  const ranges = scratch(ctx, 8 * tiles);
  launch(ctx, CLEAR_RANGES, [ranges], new Params().u32(tiles), Math.ceil(tiles / WG));
  if (n === 0) return { tilesX, tilesY, packed, ranges, ids: scratch(ctx, 4), pairs: 0 };

  const keys = scratch(ctx, 4 * n), vals = scratch(ctx, 4 * n), tileCount = scratch(ctx, 4 * n);
  launch(ctx, PREP, [s.means2d, s.conics, s.colors, s.opacities, s.depths, s.radii, packed, keys, vals, tileCount],
    new Params().u32(n, s.base, width, height, ts, tilesX, tilesY), Math.ceil(n / WG));
  const order = radixSort(ctx, keys, vals, n, 32).vals;

  const cnt = scratch(ctx, 4 * n), offset = scratch(ctx, 4 * n), total = scratch(ctx, 4);
  launch(ctx, GATHER_COUNTS, [order, tileCount, cnt], new Params().u32(n), Math.ceil(n / WG));
  scanExclusive(ctx, cnt, offset, n);
  scanTotal(ctx, cnt, offset, n, total);
  // The one read-back: the pair buffers are sized by the total (lists have no fixed capacity).
  const pairs = new Uint32Array(ctx.device.readSync(total, 4))[0]!;
  const maxBytes = Math.min(ctx.device.info.limits['maxStorageBufferBindingSize'] ?? 2 ** 27, ctx.device.info.limits['maxBufferSize'] ?? 2 ** 28);
  if (4 * pairs > maxBytes)
    throw new DeviceError(`webgpu: splat rasterize: ${pairs} (tile, splat) pairs need ${4 * pairs} bytes per list buffer, over the adapter's ${maxBytes} (use fewer or smaller splats, a larger tileSize, or the native device)`);
  if (pairs === 0) return { tilesX, tilesY, packed, ranges, ids: scratch(ctx, 4), pairs };

  const tileKeys = scratch(ctx, 4 * pairs), pairIds = scratch(ctx, 4 * pairs);
  launch(ctx, EXPAND, [order, offset, packed, tileKeys, pairIds], new Params().u32(n, tilesX), Math.ceil(n / WG));
  const bits = Math.ceil(Math.log2(tiles));
  const byTile = radixSort(ctx, tileKeys, pairIds, pairs, bits);
  launch(ctx, MARK_RANGES, [byTile.keys, ranges], new Params().u32(pairs), Math.ceil(pairs / WG));
  return { tilesX, tilesY, packed, ranges, ids: byTile.vals, pairs };
}
