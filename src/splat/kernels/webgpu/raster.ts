// 'splat.rasterize' and 'splat.rasterizeBackward' on webgpu (../contract.ts,
// "rasterize"; the twins of ../js/raster.ts), float32.
//
// Forward: one workgroup of WG invocations per tile, an invocation per
// pixel (a tile of more than WG pixels is done in groups of WG pixels one
// after the other, so any tile size runs one pipeline). The tile's list
// (bin.ts) is walked in batches of WG splats staged in workgroup memory;
// each pixel applies the contract's rule (skip σ < 0, skip α < ALPHA_MIN,
// stop before T·(1 − α) ≤ T_STOP) in list order, and the workgroup leaves
// the list once every pixel of the group has stopped.
//
// Backward: the same workgroups and pixel groups, walking each pixel's list
// from lastIndex − 1 down to 0 in batches (from the group's largest
// lastIndex down), T recovered by division by 1 − α as in the js reference. A batch's
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
import { ENTRY, launch, lit, Params, scratch, WG } from './common.js';
import { binSplatsGpu, RECORD, STAGED, type GpuTileLists, type SplatBuffers } from './bin.js';

/** P of both raster kernels: [width, height, ts, tilesX, tiles, pixelBase, bg r, g, b]. */
function rasterParams(width: number, height: number, ts: number, lists: GpuTileLists, pixelBase: number, bg: readonly number[]): Params {
  return new Params().u32(width, height, ts, lists.tilesX, lists.tilesX * lists.tilesY, pixelBase).f32(bg[0]!, bg[1]!, bg[2]!);
}

const COMMON = /* wgsl */ `
const ALPHA_MAX = ${lit(ALPHA_MAX)};
const ALPHA_MIN = ${lit(ALPHA_MIN)};
const T_STOP = ${lit(T_STOP)};
const HALF = ${lit(PIXEL_CENTER)};
var<workgroup> sp: array<f32, ${WG * STAGED}>;
fn bg(c: u32) -> f32 { return bitcast<f32>(P[6u + c]); }
// Pixel li of pixel group q of the tile: its column and row in the image, and whether it is inside the image and tile.
fn pixelOf(tile: u32, li: u32, q: u32) -> vec3u {
  let ts = P[2];
  let p = li + q * ${WG}u;
  let px = (tile % P[3]) * ts + p % ts;
  let py = (tile / P[3]) * ts + p / ts;
  return vec3u(px, py, select(0u, 1u, p < ts * ts && px < P[0] && py < P[1]));
}
// Groups of WG pixels in a tile.
fn pixelGroups() -> u32 { return (P[2] * P[2] + ${WG - 1}u) / ${WG}u; }
// Stages list entries lo + li (absolute positions in ids) below hi into sp[STAGED·li ..].
fn stage(li: u32, lo: u32, hi: u32) {
  let k = lo + li;
  if (k < hi) {
    let o = ${RECORD}u * ids[k];
    for (var f = 0u; f < ${STAGED}u; f++) { sp[${STAGED}u * li + f] = packed[o + f]; }
  }
}
`;

// A tile of more than WG pixels is done in groups of WG pixels, one after the other, each walking the whole list.
const FORWARD = /* wgsl */ `
@group(0) @binding(0) var<storage, read> packed: array<f32>;
@group(0) @binding(1) var<storage, read> ranges: array<u32>;
@group(0) @binding(2) var<storage, read> ids: array<u32>;
@group(0) @binding(3) var<storage, read_write> oImage: array<f32>;
@group(0) @binding(4) var<storage, read_write> oAlpha: array<f32>;
@group(0) @binding(5) var<storage, read_write> oDepth: array<f32>;
@group(0) @binding(6) var<storage, read_write> oFinalT: array<f32>;
@group(0) @binding(7) var<storage, read_write> oLast: array<i32>;
@group(0) @binding(8) var<storage, read> P: array<u32>;
${COMMON}
var<workgroup> nDone: atomic<u32>;
var<workgroup> doneNow: u32;
${ENTRY}
  let tile = wgi;
  if (tile >= P[4]) { return; }
  let start = ranges[2u * tile];
  let end = ranges[2u * tile + 1u];
  for (var q = 0u; q < pixelGroups(); q++) {
    if (li == 0u) { atomicStore(&nDone, 0u); }
    workgroupBarrier();
    let pix = pixelOf(tile, li, q);
    var done = pix.z == 0u;
    if (done) { atomicAdd(&nDone, 1u); }
    let x = f32(pix.x) + HALF;
    let y = f32(pix.y) + HALF;
    var t = 1.0; var c0 = 0.0; var c1 = 0.0; var c2 = 0.0; var d = 0.0; var last = 0;
    for (var b = start; b < end; b += ${WG}u) {
      workgroupBarrier();
      if (li == 0u) { doneNow = atomicLoad(&nDone); }
      if (workgroupUniformLoad(&doneNow) >= ${WG}u) { break; } // every pixel of the group has stopped
      stage(li, b, end);
      workgroupBarrier();
      if (!done) { // (a continue here would make the next barrier non-uniform)
        let count = min(${WG}u, end - b);
        for (var j = 0u; j < count; j++) {
          let o = ${STAGED}u * j;
          let dx = sp[o] - x;
          let dy = sp[o + 1u] - y;
          let sigma = 0.5 * (sp[o + 2u] * dx * dx + sp[o + 4u] * dy * dy) + sp[o + 3u] * dx * dy;
          if (sigma < 0.0) { continue; }
          let alpha = min(ALPHA_MAX, sp[o + 5u] * exp(-sigma));
          if (alpha < ALPHA_MIN) { continue; }
          let nextT = t * (1.0 - alpha);
          if (nextT <= T_STOP) { done = true; atomicAdd(&nDone, 1u); break; }
          let w = alpha * t;
          c0 = c0 + sp[o + 6u] * w;
          c1 = c1 + sp[o + 7u] * w;
          c2 = c2 + sp[o + 8u] * w;
          d = d + sp[o + 9u] * w;
          t = nextT;
          last = i32(b - start + j) + 1;
        }
      }
    }
    if (pix.z != 0u) {
      let p = P[5] + pix.y * P[0] + pix.x;
      oImage[3u * p] = c0 + t * bg(0u);
      oImage[3u * p + 1u] = c1 + t * bg(1u);
      oImage[3u * p + 2u] = c2 + t * bg(2u);
      oAlpha[p] = 1.0 - t;
      oDepth[p] = d;
      oFinalT[p] = t;
      oLast[p] = last;
    }
    workgroupBarrier();
  }
}`;

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
    launch(a, FORWARD, [lists.packed, lists.ranges, lists.ids, ...a.outs], rasterParams(width, height, ts, lists, b * width * height, background), lists.tilesX * lists.tilesY);
  }
}

// Gradient record of a splat: ∂L/∂(u, v, c0, c1, c2, r, g, b, opacity, depth) (js/raster.ts's tileGrads layout).
const GRAD = 10;

const BACKWARD = /* wgsl */ `
@group(0) @binding(0) var<storage, read> packed: array<f32>;
@group(0) @binding(1) var<storage, read> ranges: array<u32>;
@group(0) @binding(2) var<storage, read> ids: array<u32>;
@group(0) @binding(3) var<storage, read> finalT: array<f32>;
@group(0) @binding(4) var<storage, read> lastIndex: array<i32>;
@group(0) @binding(5) var<storage, read> ctImage: array<f32>;
@group(0) @binding(6) var<storage, read> ctAlpha: array<f32>;
@group(0) @binding(7) var<storage, read> ctDepth: array<f32>;
@group(0) @binding(8) var<storage, read_write> gacc: array<atomic<u32>>;
@group(0) @binding(9) var<storage, read> P: array<u32>;
${COMMON}
var<workgroup> acc: array<atomic<u32>, ${WG * GRAD}>;
var<workgroup> sid: array<u32, ${WG}>;
var<workgroup> maxLast: atomic<u32>;
var<workgroup> maxLastNow: u32;

fn addLocal(k: u32, x: f32) {
  var old = atomicLoad(&acc[k]);
  loop {
    let r = atomicCompareExchangeWeak(&acc[k], old, bitcast<u32>(bitcast<f32>(old) + x));
    if (r.exchanged) { break; }
    old = r.old_value;
  }
}
fn addGlobal(k: u32, x: f32) {
  var old = atomicLoad(&gacc[k]);
  loop {
    let r = atomicCompareExchangeWeak(&gacc[k], old, bitcast<u32>(bitcast<f32>(old) + x));
    if (r.exchanged) { break; }
    old = r.old_value;
  }
}

${ENTRY}
  let tile = wgi;
  if (tile >= P[4]) { return; }
  let start = ranges[2u * tile];
  let count = ranges[2u * tile + 1u] - start;
  for (var q = 0u; q < pixelGroups(); q++) {
    if (li == 0u) { atomicStore(&maxLast, 0u); }
    workgroupBarrier();
    let pix = pixelOf(tile, li, q);
    let p = P[5] + pix.y * P[0] + pix.x;
    var last = 0u;
    var fT = 0.0; var vC0 = 0.0; var vC1 = 0.0; var vC2 = 0.0; var vD = 0.0; var vA = 0.0;
    if (pix.z != 0u) {
      // A lastIndex past the list (not the forward's) reads no other tile's splats.
      last = min(u32(max(lastIndex[p], 0)), count);
      fT = finalT[p];
      vC0 = ctImage[3u * p]; vC1 = ctImage[3u * p + 1u]; vC2 = ctImage[3u * p + 2u];
      vD = ctDepth[p]; vA = ctAlpha[p];
      atomicMax(&maxLast, last);
    }
    let x = f32(pix.x) + HALF;
    let y = f32(pix.y) + HALF;
    let vBackground = fT * (bg(0u) * vC0 + bg(1u) * vC1 + bg(2u) * vC2);
    var t = fT; var s0 = 0.0; var s1 = 0.0; var s2 = 0.0; var sd = 0.0;
    workgroupBarrier();
    if (li == 0u) { maxLastNow = atomicLoad(&maxLast); }
    var hi = workgroupUniformLoad(&maxLastNow);
    // Batches of list positions [lo, hi), from the group's largest lastIndex down to 0.
    loop {
      if (hi == 0u) { break; }
      let lo = select(0u, hi - ${WG}u, hi > ${WG}u);
      stage(li, start + lo, start + hi);
      if (lo + li < hi) { sid[li] = ids[start + lo + li]; }
      for (var f = 0u; f < ${GRAD}u; f++) { atomicStore(&acc[${GRAD}u * li + f], 0u); }
      workgroupBarrier();
      for (var k = min(hi, last); k > lo; k--) {
        let j = k - 1u - lo;
        let o = ${STAGED}u * j;
        let dx = sp[o] - x;
        let dy = sp[o + 1u] - y;
        let q0 = sp[o + 2u]; let q1 = sp[o + 3u]; let q2 = sp[o + 4u];
        let sigma = 0.5 * (q0 * dx * dx + q2 * dy * dy) + q1 * dx * dy;
        if (sigma < 0.0) { continue; }
        let e = exp(-sigma);
        let rawA = sp[o + 5u] * e;
        let alpha = min(ALPHA_MAX, rawA);
        if (alpha < ALPHA_MIN) { continue; }
        let oneMinus = 1.0 - alpha;
        t = t / oneMinus; // T before splat k
        let w = alpha * t;
        let col0 = sp[o + 6u]; let col1 = sp[o + 7u]; let col2 = sp[o + 8u]; let z = sp[o + 9u];
        let g = ${GRAD}u * j;
        addLocal(g + 5u, w * vC0);
        addLocal(g + 6u, w * vC1);
        addLocal(g + 7u, w * vC2);
        addLocal(g + 9u, w * vD);
        let vAlpha = t * (col0 * vC0 + col1 * vC1 + col2 * vC2 + z * vD) - (s0 * vC0 + s1 * vC1 + s2 * vC2 + sd * vD + vBackground - fT * vA) / oneMinus;
        s0 = s0 + col0 * w; s1 = s1 + col1 * w; s2 = s2 + col2 * w; sd = sd + z * w;
        if (rawA > ALPHA_MAX) { continue; } // clamped: α does not depend on o or σ here
        addLocal(g + 8u, vAlpha * e);
        let vSigma = -vAlpha * rawA;
        addLocal(g, (q0 * dx + q1 * dy) * vSigma);
        addLocal(g + 1u, (q2 * dy + q1 * dx) * vSigma);
        addLocal(g + 2u, 0.5 * dx * dx * vSigma);
        addLocal(g + 3u, dx * dy * vSigma);
        addLocal(g + 4u, 0.5 * dy * dy * vSigma);
      }
      workgroupBarrier();
      if (lo + li < hi) {
        let id = sid[li];
        for (var f = 0u; f < ${GRAD}u; f++) {
          let v = bitcast<f32>(atomicLoad(&acc[${GRAD}u * li + f]));
          if (v != 0.0) { addGlobal(${GRAD}u * id + f, v); }
        }
      }
      workgroupBarrier();
      hi = lo;
    }
  }
}`;

// P: [count]. gacc = 0.
const CLEAR = /* wgsl */ `
@group(0) @binding(0) var<storage, read_write> gacc: array<u32>;
@group(0) @binding(1) var<storage, read> P: array<u32>;
${ENTRY}
  let i = wgi * ${WG}u + li;
  if (i < P[0]) { gacc[i] = 0u; }
}`;

// P: [n, base]. The accumulators of the entry's splats into the five gradients (at splat base + i).
const UNPACK = /* wgsl */ `
@group(0) @binding(0) var<storage, read> gacc: array<f32>;
@group(0) @binding(1) var<storage, read_write> gMeans2d: array<f32>;
@group(0) @binding(2) var<storage, read_write> gConics: array<f32>;
@group(0) @binding(3) var<storage, read_write> gColors: array<f32>;
@group(0) @binding(4) var<storage, read_write> gOpac: array<f32>;
@group(0) @binding(5) var<storage, read_write> gDepths: array<f32>;
@group(0) @binding(6) var<storage, read> P: array<u32>;
${ENTRY}
  let i = wgi * ${WG}u + li;
  if (i >= P[0]) { return; }
  let g = P[1] + i;
  let o = ${GRAD}u * i;
  gMeans2d[2u * g] = gacc[o]; gMeans2d[2u * g + 1u] = gacc[o + 1u];
  for (var c = 0u; c < 3u; c++) { gConics[3u * g + c] = gacc[o + 2u + c]; gColors[3u * g + c] = gacc[o + 5u + c]; }
  gOpac[g] = gacc[o + 8u];
  gDepths[g] = gacc[o + 9u];
}`;

/**
 * Runs 'splat.rasterizeBackward' for float32: inputs the six splat inputs,
 * finalT, lastIndex and the cotangents of image, alpha, depth; outputs the
 * gradients of means2d, conics, colors, opacities, depths.
 */
export function rasterizeBackwardGpu(a: GpuOpArgs): void {
  const { width, height, ts, background } = rasterAttrs(a);
  const [finalT, lastIndex, ctImage, ctAlpha, ctDepth] = a.ins.slice(6) as GpuBuffer[];
  const n = a.inShapes[0]![0]!;
  if (n === 0) return;
  const gacc = scratch(a, 4 * GRAD * n);
  for (let b = 0; b < a.batch; b++) {
    launch(a, CLEAR, [gacc], new Params().u32(GRAD * n), Math.ceil((GRAD * n) / WG));
    if (width * height > 0) {
      const lists = binSplatsGpu(a, splatsOf(a, b), width, height, ts);
      if (lists.pairs > 0)
        launch(a, BACKWARD, [lists.packed, lists.ranges, lists.ids, finalT!, lastIndex!, ctImage!, ctAlpha!, ctDepth!, gacc],
          rasterParams(width, height, ts, lists, b * width * height, background), lists.tilesX * lists.tilesY);
    }
    launch(a, UNPACK, [gacc, ...a.outs], new Params().u32(n, b * n), Math.ceil(n / WG));
  }
}
