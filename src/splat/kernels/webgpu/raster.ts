// 'splat.rasterize' and 'splat.rasterizeBackward' on webgpu (../contract.ts,
// "rasterize"; the twins of ../js/raster.ts), float32.
//
// Forward: one workgroup per tile (WG invocations; a tile of ts² pixels
// gives each invocation ⌈ts²/WG⌉ pixels, so any tile size runs). The tile's
// list (bin.ts) is walked in batches of WG splats staged in workgroup
// memory; each pixel applies the contract's rule (skip σ < 0, skip
// α < ALPHA_MIN, stop before T·(1 − α) ≤ T_STOP) in list order, and the
// workgroup leaves the list once every pixel has stopped.
//
// Backward: the same workgroups, walking each pixel's list from
// lastIndex − 1 down to 0 in batches (from the tile's largest lastIndex
// down), T recovered by division by 1 − α as in the js reference. A batch's
// per-splat gradient sums are first added in workgroup memory, then once
// per splat and batch to a per-splat accumulator in global memory; both are
// float adds by compare-exchange on the bits (WGSL has no float atomics), so
// the order of the additions (and the last bits of the sums) varies from
// run to run. A last pass writes the accumulators into the five gradients.
//
// Arithmetic is f32 (the js reference computes in double): the skip and
// stop decisions agree with it except where σ or T·(1 − α) lands within
// float rounding of a threshold (a flipped decision shows in lastIndex).

import type { GpuBuffer } from '../../../backends/webgpu/device.js';
import type { GpuOpArgs } from '../../../backends/webgpu/registered.js';
import { ALPHA_MAX, ALPHA_MIN, PIXEL_CENTER, T_STOP } from '../../constants.js';
import { ENTRY, launch, lit, Params, scratch, WG, type GpuCtx } from './common.js';
import { binSplatsGpu, RECORD, STAGED, type GpuTileLists, type SplatBuffers } from './bin.js';

/** P of both raster kernels: [width, height, ts, tilesX, tiles, pixelBase, bg r, g, b]. */
function rasterParams(width: number, height: number, ts: number, lists: GpuTileLists, pixelBase: number, bg: readonly number[]): Params {
  return new Params().u32(width, height, ts, lists.tilesX, lists.tilesX * lists.tilesY, pixelBase).f32(bg[0]!, bg[1]!, bg[2]!);
}

const COMMON = (ppt: number) => /* wgsl */ `
const PPT = ${ppt}u;
const ALPHA_MAX = ${lit(ALPHA_MAX)};
const ALPHA_MIN = ${lit(ALPHA_MIN)};
const T_STOP = ${lit(T_STOP)};
const HALF = ${lit(PIXEL_CENTER)};
var<workgroup> sp: array<f32, ${WG * STAGED}>;
fn bg(c: u32) -> f32 { return bitcast<f32>(P[6u + c]); }
// Pixel q of this invocation: its column and row in the image, and whether it is inside the image and tile.
fn pixelOf(tile: u32, li: u32, q: u32) -> vec3u {
  let ts = P[2];
  let p = li + q * ${WG}u;
  let px = (tile % P[3]) * ts + p % ts;
  let py = (tile / P[3]) * ts + p / ts;
  return vec3u(px, py, select(0u, 1u, p < ts * ts && px < P[0] && py < P[1]));
}
// Stages list entries lo + li (absolute positions in ids) below hi into sp[STAGED·li ..].
fn stage(li: u32, lo: u32, hi: u32) {
  let k = lo + li;
  if (k < hi) {
    let o = ${RECORD}u * ids[k];
    for (var f = 0u; f < ${STAGED}u; f++) { sp[${STAGED}u * li + f] = packed[o + f]; }
  }
}
`;

const forwardCode = (ppt: number) => /* wgsl */ `
@group(0) @binding(0) var<storage, read> packed: array<f32>;
@group(0) @binding(1) var<storage, read> ranges: array<u32>;
@group(0) @binding(2) var<storage, read> ids: array<u32>;
@group(0) @binding(3) var<storage, read_write> oImage: array<f32>;
@group(0) @binding(4) var<storage, read_write> oAlpha: array<f32>;
@group(0) @binding(5) var<storage, read_write> oDepth: array<f32>;
@group(0) @binding(6) var<storage, read_write> oFinalT: array<f32>;
@group(0) @binding(7) var<storage, read_write> oLast: array<i32>;
@group(0) @binding(8) var<storage, read> P: array<u32>;
${COMMON(ppt)}
var<workgroup> nDone: atomic<u32>;
var<workgroup> doneNow: u32;
${ENTRY}
  let tile = wgi;
  if (tile >= P[4]) { return; }
  let start = ranges[2u * tile];
  let end = ranges[2u * tile + 1u];
  let ts = P[2];
  let inTile = min(ts, P[0] - (tile % P[3]) * ts) * min(ts, P[1] - (tile / P[3]) * ts);
  var T: array<f32, PPT>;
  var C0: array<f32, PPT>;
  var C1: array<f32, PPT>;
  var C2: array<f32, PPT>;
  var D: array<f32, PPT>;
  var last: array<i32, PPT>;
  var done: array<bool, PPT>;
  for (var q = 0u; q < PPT; q++) {
    T[q] = 1.0; C0[q] = 0.0; C1[q] = 0.0; C2[q] = 0.0; D[q] = 0.0; last[q] = 0;
    done[q] = pixelOf(tile, li, q).z == 0u;
  }
  for (var b = start; b < end; b += ${WG}u) {
    workgroupBarrier();
    if (li == 0u) { doneNow = atomicLoad(&nDone); }
    if (workgroupUniformLoad(&doneNow) >= inTile) { break; }
    stage(li, b, end);
    workgroupBarrier();
    let count = min(${WG}u, end - b);
    for (var q = 0u; q < PPT; q++) {
      if (done[q]) { continue; }
      let pix = pixelOf(tile, li, q);
      let x = f32(pix.x) + HALF;
      let y = f32(pix.y) + HALF;
      var t = T[q]; var c0 = C0[q]; var c1 = C1[q]; var c2 = C2[q]; var d = D[q]; var l = last[q];
      for (var j = 0u; j < count; j++) {
        let o = ${STAGED}u * j;
        let dx = sp[o] - x;
        let dy = sp[o + 1u] - y;
        let sigma = 0.5 * (sp[o + 2u] * dx * dx + sp[o + 4u] * dy * dy) + sp[o + 3u] * dx * dy;
        if (sigma < 0.0) { continue; }
        let alpha = min(ALPHA_MAX, sp[o + 5u] * exp(-sigma));
        if (alpha < ALPHA_MIN) { continue; }
        let nextT = t * (1.0 - alpha);
        if (nextT <= T_STOP) { done[q] = true; atomicAdd(&nDone, 1u); break; }
        let w = alpha * t;
        c0 = c0 + sp[o + 6u] * w;
        c1 = c1 + sp[o + 7u] * w;
        c2 = c2 + sp[o + 8u] * w;
        d = d + sp[o + 9u] * w;
        t = nextT;
        l = i32(b - start + j) + 1;
      }
      T[q] = t; C0[q] = c0; C1[q] = c1; C2[q] = c2; D[q] = d; last[q] = l;
    }
  }
  for (var q = 0u; q < PPT; q++) {
    let pix = pixelOf(tile, li, q);
    if (pix.z == 0u) { continue; }
    let p = P[5] + pix.y * P[0] + pix.x;
    oImage[3u * p] = C0[q] + T[q] * bg(0u);
    oImage[3u * p + 1u] = C1[q] + T[q] * bg(1u);
    oImage[3u * p + 2u] = C2[q] + T[q] * bg(2u);
    oAlpha[p] = 1.0 - T[q];
    oDepth[p] = D[q];
    oFinalT[p] = T[q];
    oLast[p] = last[q];
  }
}`;

/** Pixels per invocation for tiles of ts² pixels. */
const ppt = (ts: number) => Math.ceil((ts * ts) / WG);

/** The rasterize ops' attrs. */
function rasterAttrs(a: GpuOpArgs) {
  const at = a.attrs;
  return { width: at['width'] as number, height: at['height'] as number, ts: at['tileSize'] as number, background: at['background'] as number[] };
}

/** The splat inputs of batch entry b. */
function splatsOf(a: GpuOpArgs, b: number): SplatBuffers {
  const [means2d, conics, colors, opacities, depths, radii] = a.ins as [GpuBuffer, GpuBuffer, GpuBuffer, GpuBuffer, GpuBuffer, GpuBuffer];
  const n = a.inShapes[0]![0]!;
  return { means2d, conics, colors, opacities, depths, radii, n, base: b * n };
}

/** Runs 'splat.rasterize' for float32: inputs means2d, conics, colors, opacities, depths, radii; outputs image, alpha, depth, finalT, lastIndex. */
export function rasterizeForwardGpu(a: GpuOpArgs): void {
  const { width, height, ts, background } = rasterAttrs(a);
  if (width * height === 0) return;
  for (let b = 0; b < a.batch; b++) {
    const lists = binSplatsGpu(a, splatsOf(a, b), width, height, ts);
    launch(a, forwardCode(ppt(ts)), [lists.packed, lists.ranges, lists.ids, ...a.outs], rasterParams(width, height, ts, lists, b * width * height, background), lists.tilesX * lists.tilesY);
  }
}

export type { GpuCtx };
void scratch;
