// Exclusive prefix sum of a u32 array on the GPU (the radix sort's digit
// offsets, the tile binning's pair offsets): blocks of WG elements scanned
// in workgroup memory (Hillis–Steele), the block totals scanned the same
// way (recursively, so any length), then added back to their blocks.

import type { GpuBuffer } from '../../../backends/webgpu/device.js';
import { ENTRY, launch, Params, scratch, WG, type GpuCtx } from './common.js';

// P: [L, blocks]. dst[i] = Σ_{j<i in the block} src[j]; sums[block] = the block's total.
const SCAN_BLOCK = /* wgsl */ `
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;
@group(0) @binding(3) var<storage, read> P: array<u32>;
var<workgroup> s: array<u32, ${WG}>;
${ENTRY}
  if (wgi >= P[1]) { return; }
  let i = wgi * ${WG}u + li;
  var x = 0u;
  if (i < P[0]) { x = src[i]; }
  s[li] = x;
  workgroupBarrier();
  for (var off = 1u; off < ${WG}u; off = off * 2u) {
    var t = 0u;
    if (li >= off) { t = s[li - off]; }
    workgroupBarrier();
    s[li] = s[li] + t;
    workgroupBarrier();
  }
  if (i < P[0]) { dst[i] = s[li] - x; }
  if (li == ${WG - 1}u) { sums[wgi] = s[li]; }
}`;

// P: [L, blocks]. dst[i] += add[block of i].
const ADD_BLOCK = /* wgsl */ `
@group(0) @binding(0) var<storage, read_write> dst: array<u32>;
@group(0) @binding(1) var<storage, read> add: array<u32>;
@group(0) @binding(2) var<storage, read> P: array<u32>;
${ENTRY}
  if (wgi >= P[1]) { return; }
  let i = wgi * ${WG}u + li;
  if (i < P[0]) { dst[i] = dst[i] + add[wgi]; }
}`;

// P: [L]. total[0] = dst[L − 1] + src[L − 1] (0 when L = 0): the sum of all of src.
const TOTAL = /* wgsl */ `
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read> dst: array<u32>;
@group(0) @binding(2) var<storage, read_write> total: array<u32>;
@group(0) @binding(3) var<storage, read> P: array<u32>;
${ENTRY}
  if (wgi > 0u || li > 0u) { return; }
  let L = P[0];
  if (L == 0u) { total[0] = 0u; } else { total[0] = dst[L - 1u] + src[L - 1u]; }
}`;

/** dst[i] = Σ_{j<i} src[j] for i < length (src and dst distinct buffers of at least `length` u32). */
export function scanExclusive(ctx: GpuCtx, src: GpuBuffer, dst: GpuBuffer, length: number): void {
  if (length === 0) return;
  const blocks = Math.ceil(length / WG);
  const sums = scratch(ctx, 4 * blocks);
  launch(ctx, SCAN_BLOCK, [src, dst, sums], new Params().u32(length, blocks), blocks);
  if (blocks === 1) return;
  const offsets = scratch(ctx, 4 * blocks);
  scanExclusive(ctx, sums, offsets, blocks);
  launch(ctx, ADD_BLOCK, [dst, offsets], new Params().u32(length, blocks), blocks);
}

/** Writes Σ src[0..length) into total[0] (after scanExclusive(src, dst, length)). */
export function scanTotal(ctx: GpuCtx, src: GpuBuffer, dst: GpuBuffer, length: number, total: GpuBuffer): void {
  launch(ctx, TOTAL, [src, dst, total], new Params().u32(length), 1);
}
