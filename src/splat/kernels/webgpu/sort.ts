// A stable least-significant-digit radix sort of (u32 key, u32 value) pairs
// on the GPU, 8 bits per pass. Each pass: a histogram of the digit per block
// of WG pairs (workgroup atomics), an exclusive scan of the counts laid out
// digit-major (count[digit·blocks + block]), so every pair of digit d in
// block b lands after all pairs of smaller digits and after the pairs of
// digit d in earlier blocks; then a scatter in which each pair's place
// among the equal digits of its block is the number of them before it
// (counted in workgroup memory). Equal keys therefore keep their input
// order: the property the tile lists need ((depth, index) order from a
// depth sort of splats given in index order, then a tile sort of the pairs).

import type { GpuBuffer } from '../../../backends/webgpu/device.js';
import { ENTRY, launch, Params, scratch, WG, type GpuCtx } from './common.js';
import { scanExclusive } from './scan.js';

/** Digit values per pass (8 bits); the histogram kernel has one invocation per digit, so DIGITS = WG. */
const DIGITS = 256;
if (DIGITS !== WG) throw new Error('internal: the radix histogram needs WG = 256 invocations');

// P: [n, shift, blocks]. counts[d·blocks + block] = #{i in block: digit(key i) = d}.
const HISTOGRAM = /* wgsl */ `
@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> counts: array<u32>;
@group(0) @binding(2) var<storage, read> P: array<u32>;
var<workgroup> h: array<atomic<u32>, ${DIGITS}>;
${ENTRY}
  let blocks = P[2];
  if (wgi >= blocks) { return; }
  atomicStore(&h[li], 0u);
  workgroupBarrier();
  let i = wgi * ${WG}u + li;
  if (i < P[0]) { atomicAdd(&h[(keys[i] >> P[1]) & ${DIGITS - 1}u], 1u); }
  workgroupBarrier();
  counts[li * blocks + wgi] = atomicLoad(&h[li]);
}`;

// P: [n, shift, blocks]. Pair i goes to offsets[d·blocks + block] + #{j < i in block: digit j = d}.
const SCATTER = /* wgsl */ `
@group(0) @binding(0) var<storage, read> keysIn: array<u32>;
@group(0) @binding(1) var<storage, read> valsIn: array<u32>;
@group(0) @binding(2) var<storage, read> offsets: array<u32>;
@group(0) @binding(3) var<storage, read_write> keysOut: array<u32>;
@group(0) @binding(4) var<storage, read_write> valsOut: array<u32>;
@group(0) @binding(5) var<storage, read> P: array<u32>;
var<workgroup> digit: array<u32, ${WG}>;
${ENTRY}
  let blocks = P[2];
  if (wgi >= blocks) { return; }
  let i = wgi * ${WG}u + li;
  var k = 0u;
  var d = ${DIGITS}u;
  if (i < P[0]) { k = keysIn[i]; d = (k >> P[1]) & ${DIGITS - 1}u; }
  digit[li] = d;
  workgroupBarrier();
  if (i < P[0]) {
    var r = 0u;
    for (var j = 0u; j < li; j = j + 1u) { r = r + select(0u, 1u, digit[j] == d); }
    let at = offsets[d * blocks + wgi] + r;
    keysOut[at] = k;
    valsOut[at] = valsIn[i];
  }
}`;

/** Where a sort's result is (one of the two buffer pairs it ping-pongs between). */
export interface Sorted {
  keys: GpuBuffer;
  vals: GpuBuffer;
}

/**
 * Sorts n (keys[i], vals[i]) pairs by the low `bits` bits of the key
 * (stably); the input buffers may be overwritten. With bits = 0 nothing is
 * dispatched and the input is the result.
 */
export function radixSort(ctx: GpuCtx, keys: GpuBuffer, vals: GpuBuffer, n: number, bits: number): Sorted {
  const passes = Math.ceil(bits / 8);
  if (n <= 1 || passes === 0) return { keys, vals };
  const blocks = Math.ceil(n / WG);
  const counts = scratch(ctx, 4 * DIGITS * blocks), offsets = scratch(ctx, 4 * DIGITS * blocks);
  let src: Sorted = { keys, vals };
  let dst: Sorted = { keys: scratch(ctx, 4 * n), vals: scratch(ctx, 4 * n) };
  for (let p = 0; p < passes; p++) {
    const P = () => new Params().u32(n, 8 * p, blocks);
    launch(ctx, HISTOGRAM, [src.keys, counts], P(), blocks);
    scanExclusive(ctx, counts, offsets, DIGITS * blocks);
    launch(ctx, SCATTER, [src.keys, src.vals, offsets, dst.keys, dst.vals], P(), blocks);
    [src, dst] = [dst, src];
  }
  return src;
}
