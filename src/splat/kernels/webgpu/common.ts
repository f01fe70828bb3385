// Pieces shared by the WGSL splat kernels (this folder): how a dispatch is
// laid out over more than 65535 workgroups, parameter buffers, float
// literals, and the WGSL helpers every kernel repeats (finiteness by the
// bits, float addition by compare-exchange).
//
// Conventions of the kernels here: every buffer is a flat array of 32-bit
// scalars (f32, i32 or u32; an `array<vecN>` would raise the binding's
// minimum size); P, the parameter buffer, is `array<u32>` with floats
// stored as their bits; the workgroup grid is 2-D (x = min(count, 65535),
// y = ⌈count / x⌉) and a kernel recovers its linear workgroup index as
// wg.x + wg.y·num_workgroups.x (WG_INDEX), then returns past the count.

import type { GpuBuffer, GpuPipeline, WebGpuDevice } from '../../../backends/webgpu/device.js';
import type { GpuOpArgs } from '../../../backends/webgpu/registered.js';

/** Invocations per workgroup of every one-dimensional kernel here. */
export const WG = 256;

/** What a stage needs of a GPU runner's arguments (GpuOpArgs without the op's buffers). */
export type GpuCtx = Pick<GpuOpArgs, 'device' | 'scratch' | 'upload' | 'pipeline'>;

/** A WGSL f32 literal of a JS number (always with a point or exponent, so it is a float). */
export function lit(x: number): string {
  if (!Number.isFinite(x)) throw new Error(`internal: WGSL literal of ${x}`);
  const s = String(x);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

/** Parameter words: u32/i32 as they are, f32 as bits. */
export class Params {
  private readonly words: number[] = [];
  private readonly view = new DataView(new ArrayBuffer(4));
  u32(...xs: number[]): this {
    for (const x of xs) this.words.push(x >>> 0);
    return this;
  }
  i32(...xs: number[]): this {
    for (const x of xs) this.words.push(x | 0);
    return this;
  }
  f32(...xs: number[]): this {
    for (const x of xs) {
      this.view.setFloat32(0, x, true);
      this.words.push(this.view.getUint32(0, true));
    }
    return this;
  }
  get length(): number {
    return this.words.length;
  }
  array(): Uint32Array {
    return Uint32Array.from(this.words.map((w) => w >>> 0));
  }
}

/** The 2-D grid of `count` workgroups: [x, y] with x ≤ the adapter's limit. */
export function grid(device: WebGpuDevice, count: number): [number, number] {
  const lim = device.info.limits['maxComputeWorkgroupsPerDimension'] ?? 65535;
  if (count <= lim) return [Math.max(count, 0), 1];
  const x = lim, y = Math.ceil(count / lim);
  if (y > lim) throw new Error(`internal: ${count} workgroups exceed a ${lim}×${lim} grid`);
  return [x, y];
}

/** Dispatches `code` over `count` workgroups (nothing when count is 0), with P bound after `buffers`. */
export function launch(ctx: GpuCtx, code: string, buffers: readonly GpuBuffer[], p: Params, count: number): void {
  if (count <= 0) return;
  const pipe: GpuPipeline = ctx.pipeline(code);
  ctx.device.dispatch(pipe, [...buffers, ctx.upload(p.array())], grid(ctx.device, count));
}

/** A buffer of at least `bytes` bytes (4 at least: a binding may not be empty). */
export const scratch = (ctx: GpuCtx, bytes: number): GpuBuffer => ctx.scratch(Math.max(16, Math.ceil(bytes / 4) * 4));

/** The entry point's builtins (wg, nwg, li) and the linear workgroup index wgi. */
export const ENTRY = `@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) li: u32) {
  let wgi = wg.x + wg.y * nwg.x;`;

/** WGSL helpers: finiteness by the exponent bits (WGSL has no isNan/isInf, and a compiler may assume there are none). */
export const WGSL_FINITE = /* wgsl */ `
fn finite(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }
fn isnan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
fn pf(k: u32) -> f32 { return bitcast<f32>(P[k]); }
`;

/** Floor division of integers (WGSL's / truncates toward zero). */
export const WGSL_FLOORDIV = /* wgsl */ `
fn floorDiv(a: i32, b: i32) -> i32 {
  let q = a / b;
  return select(q, q - 1, (a % b != 0) && (a < 0));
}
`;
