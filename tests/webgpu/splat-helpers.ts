// Shared pieces of the WGSL splat kernel tests (tests/webgpu/splat-*.test.ts):
// a GpuCtx / GpuOpArgs built by hand over the device (buffers created and
// freed here, pipelines cached by source), so the runners of
// src/splat/kernels/webgpu/ run without the webgpu runtime, and the
// read-back of their outputs as typed arrays.

import type { DType } from '../../src/tensor/dtype.js';
import type { Attrs } from '../../src/compiler/ir.js';
import { webgpuDevice, webgpuStatus, type GpuBuffer, type GpuPipeline } from '../../src/backends/webgpu/device.js';
import { gpuOp, type GpuOpArgs } from '../../src/backends/webgpu/registered.js';
import type { GpuCtx } from '../../src/splat/kernels/webgpu/common.js';
import type { ProjectArgs, ProjectCotangents, ProjectGrads, RasterArgs, RasterCotangents, RasterGrads, RasterOutputs } from '../../src/splat/kernels/contract.js';
import { cameraAttr } from '../../src/splat/ops/project.js';
import { withSpecials as withNativeSpecials } from '../splat/native-helpers.js';
import '../../src/splat/kernels/webgpu/register.js';

export const status = webgpuStatus();

/** Pipelines by WGSL source, per device (a device started after a loss compiles its own). */
const pipelineCache = new WeakMap<object, Map<string, GpuPipeline>>();

/** A context whose buffers are collected in `made` (free them with release). */
export function gpuCtx(): GpuCtx & { made: GpuBuffer[]; release(): void } {
  const device = webgpuDevice();
  const made: GpuBuffer[] = [];
  let pipelines = pipelineCache.get(device);
  if (pipelines === undefined) pipelineCache.set(device, (pipelines = new Map()));
  return {
    device,
    made,
    scratch(bytes) {
      const b = device.createBuffer(Math.max(4, Math.ceil(bytes / 4) * 4));
      made.push(b);
      return b;
    },
    upload(data) {
      const b = device.createBuffer(Math.max(4, Math.ceil(data.byteLength / 4) * 4));
      device.write(b, data);
      made.push(b);
      return b;
    },
    pipeline(code) {
      let p = pipelines!.get(code);
      if (p === undefined) pipelines!.set(code, (p = device.pipeline(code)));
      return p;
    },
    release() {
      for (const b of made) device.free(b);
      made.length = 0;
    },
  };
}

export type HostArray = Float32Array | Int32Array | Uint32Array;

export interface OpInput {
  data: HostArray;
  /** Core shape (batch dims removed). */
  shape: number[];
  dtype: DType;
}

/**
 * Runs registered op `name`'s GPU runner on host inputs (batch entries
 * stacked batch-major in each data array) and reads its outputs back.
 * Output buffers are filled with a NaN pattern first, so an element the
 * runner forgets to write shows.
 */
export function runGpuOp(name: string, ins: OpInput[], outs: { shape: number[]; dtype: DType }[], attrs: Attrs, batch = 1): HostArray[] {
  const op = gpuOp(name);
  if (op === undefined) throw new Error(`no GPU runner for ${name}`);
  const ctx = gpuCtx();
  const d = ctx.device;
  const size = (s: number[]) => s.reduce((a, b) => a * b, 1);
  const inBufs = ins.map((x) => ctx.upload(x.data));
  const outBufs = outs.map((o) => {
    const bytes = Math.max(4, 4 * batch * size(o.shape));
    return ctx.upload(new Uint32Array(bytes / 4).fill(0x7fc00001));
  });
  const args: GpuOpArgs = {
    device: d,
    batch,
    ins: inBufs,
    inShapes: ins.map((x) => x.shape),
    inDTypes: ins.map((x) => x.dtype),
    outs: outBufs,
    outShapes: outs.map((o) => o.shape),
    outDTypes: outs.map((o) => o.dtype),
    attrs,
    scratch: ctx.scratch,
    upload: ctx.upload,
    pipeline: ctx.pipeline,
  };
  try {
    op.run(args);
    return outs.map((o, i) => {
      const raw = d.readSync(outBufs[i]!, 4 * batch * size(o.shape));
      return o.dtype === 'int32' ? new Int32Array(raw) : new Float32Array(raw);
    });
  } finally {
    ctx.release();
  }
}

/** tests/splat's special Gaussians (NaN/∞ parameters, zero quaternion, behind the camera, at the near plane, zero and huge scales, an SH NaN), plus a quaternion whose norm overflows float32 (not float64). */
export function withSpecials(a: ProjectArgs): ProjectArgs {
  withNativeSpecials(a);
  for (let j = 0; j < 4 && 4 * 8 + j < a.quats.length; j++) a.quats[4 * 8 + j] = 3e37 * (j + 1);
  return a;
}

/** The GPU runner of splat.project on a's arrays (batch entries stacked when a list is given). */
export function gpuProject(list: ProjectArgs[]) {
  const a = list[0]!;
  const cat = (f: (x: ProjectArgs) => Float32Array | Float64Array) => Float32Array.from(list.flatMap((x) => Array.from(f(x))));
  const n = a.n;
  const [means2d, conics, depths, radii, colors, opacities] = runGpuOp(
    'splat.project',
    [
      { data: cat((x) => x.means), shape: [n, 3], dtype: 'float32' },
      { data: cat((x) => x.quats), shape: [n, 4], dtype: 'float32' },
      { data: cat((x) => x.scales), shape: [n, 3], dtype: 'float32' },
      { data: cat((x) => x.opacities), shape: [n], dtype: 'float32' },
      { data: cat((x) => x.coeffs), shape: [n, a.k, 3], dtype: 'float32' },
    ],
    [
      { shape: [n, 2], dtype: 'float32' },
      { shape: [n, 3], dtype: 'float32' },
      { shape: [n], dtype: 'float32' },
      { shape: [n], dtype: 'int32' },
      { shape: [n, 3], dtype: 'float32' },
      { shape: [n], dtype: 'float32' },
    ],
    { camera: cameraAttr(a.camera), shDegree: a.shDegree, antialiased: a.antialiased },
    list.length,
  ) as [Float32Array, Float32Array, Float32Array, Int32Array, Float32Array, Float32Array];
  return { means2d, conics, depths, radii, colors, opacities };
}


/** The GPU runner of splat.projectBackward (one scene). */
export function gpuProjectBackward(a: ProjectArgs, radii: Int32Array, ct: ProjectCotangents): ProjectGrads {
  const n = a.n;
  const F = (x: ArrayLike<number>) => Float32Array.from(x);
  const [means, quats, scales, opacities, coeffs] = runGpuOp(
    'splat.projectBackward',
    [
      { data: F(a.means), shape: [n, 3], dtype: 'float32' },
      { data: F(a.quats), shape: [n, 4], dtype: 'float32' },
      { data: F(a.scales), shape: [n, 3], dtype: 'float32' },
      { data: F(a.opacities), shape: [n], dtype: 'float32' },
      { data: F(a.coeffs), shape: [n, a.k, 3], dtype: 'float32' },
      { data: Int32Array.from(radii), shape: [n], dtype: 'int32' },
      { data: F(ct.means2d), shape: [n, 2], dtype: 'float32' },
      { data: F(ct.conics), shape: [n, 3], dtype: 'float32' },
      { data: F(ct.depths), shape: [n], dtype: 'float32' },
      { data: F(ct.colors), shape: [n, 3], dtype: 'float32' },
      { data: F(ct.opacities), shape: [n], dtype: 'float32' },
    ],
    [
      { shape: [n, 3], dtype: 'float32' },
      { shape: [n, 4], dtype: 'float32' },
      { shape: [n, 3], dtype: 'float32' },
      { shape: [n], dtype: 'float32' },
      { shape: [n, a.k, 3], dtype: 'float32' },
    ],
    { camera: cameraAttr(a.camera), shDegree: a.shDegree, antialiased: a.antialiased },
  ) as Float32Array[];
  return { means: means!, quats: quats!, scales: scales!, opacities: opacities!, coeffs: coeffs! };
}

export const f32 = (x: ArrayLike<number>) => Float32Array.from(x);

/** The splat inputs of a (batch entries stacked when a list is given), as op inputs. */
export function rasterInputs(list: RasterArgs[]) {
  const n = list[0]!.n;
  const cat = (f: (x: RasterArgs) => ArrayLike<number>) => list.flatMap((x) => Array.from(f(x)));
  return [
    { data: f32(cat((x) => x.means2d)), shape: [n, 2], dtype: 'float32' as const },
    { data: f32(cat((x) => x.conics)), shape: [n, 3], dtype: 'float32' as const },
    { data: f32(cat((x) => x.colors)), shape: [n, 3], dtype: 'float32' as const },
    { data: f32(cat((x) => x.opacities)), shape: [n], dtype: 'float32' as const },
    { data: f32(cat((x) => x.depths)), shape: [n], dtype: 'float32' as const },
    { data: Int32Array.from(cat((x) => x.radii)), shape: [n], dtype: 'int32' as const },
  ];
}

const attrsOf = (r: RasterArgs) => ({ width: r.width, height: r.height, tileSize: r.tileSize, background: [...r.background] });

export function gpuRasterize(list: RasterArgs[]): RasterOutputs {
  const r = list[0]!;
  const h = r.height, w = r.width;
  const [image, alpha, depth, finalT, lastIndex] = runGpuOp(
    'splat.rasterize',
    rasterInputs(list),
    [
      { shape: [h, w, 3], dtype: 'float32' },
      { shape: [h, w], dtype: 'float32' },
      { shape: [h, w], dtype: 'float32' },
      { shape: [h, w], dtype: 'float32' },
      { shape: [h, w], dtype: 'int32' },
    ],
    attrsOf(r),
    list.length,
  ) as [Float32Array, Float32Array, Float32Array, Float32Array, Int32Array];
  return { image, alpha, depth, finalT, lastIndex };
}

export function gpuRasterizeBackward(list: RasterArgs[], fwd: RasterOutputs, ct: RasterCotangents): RasterGrads {
  const r = list[0]!;
  const h = r.height, w = r.width, n = r.n;
  const [means2d, conics, colors, opacities, depths] = runGpuOp(
    'splat.rasterizeBackward',
    [
      ...rasterInputs(list),
      { data: f32(fwd.finalT), shape: [h, w], dtype: 'float32' },
      { data: Int32Array.from(fwd.lastIndex), shape: [h, w], dtype: 'int32' },
      { data: f32(ct.image), shape: [h, w, 3], dtype: 'float32' },
      { data: f32(ct.alpha), shape: [h, w], dtype: 'float32' },
      { data: f32(ct.depth), shape: [h, w], dtype: 'float32' },
    ],
    [
      { shape: [n, 2], dtype: 'float32' },
      { shape: [n, 3], dtype: 'float32' },
      { shape: [n, 3], dtype: 'float32' },
      { shape: [n], dtype: 'float32' },
      { shape: [n], dtype: 'float32' },
    ],
    attrsOf(r),
    list.length,
  ) as Float32Array[];
  return { means2d: means2d!, conics: conics!, colors: colors!, opacities: opacities!, depths: depths! };
}

