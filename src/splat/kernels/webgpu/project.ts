// 'splat.project' on webgpu: one invocation per Gaussian (every batch entry's
// Gaussians in one dispatch: the inputs are batch-major, so batch × N
// Gaussians are one flat list), projection.ts's project and shade, then the
// six outputs, all zero for a culled Gaussian (../contract.ts, "project").

import type { GpuOpArgs } from '../../../backends/webgpu/registered.js';
import type { Attrs } from '../../../compiler/ir.js';
import { cameraOf } from '../../ops/project.js';
import { ENTRY, launch, WG } from './common.js';
import { GAUSSIAN_BINDINGS, PROJECTION_WGSL, projectParams } from './projection.js';

const FORWARD = /* wgsl */ `
${GAUSSIAN_BINDINGS}
@group(0) @binding(5) var<storage, read_write> oMeans2d: array<f32>;
@group(0) @binding(6) var<storage, read_write> oConics: array<f32>;
@group(0) @binding(7) var<storage, read_write> oDepths: array<f32>;
@group(0) @binding(8) var<storage, read_write> oRadii: array<i32>;
@group(0) @binding(9) var<storage, read_write> oColors: array<f32>;
@group(0) @binding(10) var<storage, read_write> oOpac: array<f32>;
@group(0) @binding(11) var<storage, read> P: array<u32>;
${PROJECTION_WGSL}
${ENTRY}
  let i = wgi * ${WG}u + li;
  if (i >= P[0]) { return; }
  if (!project(i)) {
    oMeans2d[2u * i] = 0.0; oMeans2d[2u * i + 1u] = 0.0;
    for (var c = 0u; c < 3u; c++) { oConics[3u * i + c] = 0.0; oColors[3u * i + c] = 0.0; }
    oDepths[i] = 0.0; oRadii[i] = 0; oOpac[i] = 0.0;
    return;
  }
  shade(i);
  oMeans2d[2u * i] = u; oMeans2d[2u * i + 1u] = v;
  for (var c = 0u; c < 3u; c++) { oConics[3u * i + c] = conic[c]; oColors[3u * i + c] = col[c]; }
  oDepths[i] = t[2];
  oRadii[i] = select(i32(radius), 2147483647, radius >= 2147483648.0);
  oOpac[i] = opOut;
}`;

/** The project ops' attrs as the kernels use them. */
export function projectAttrs(attrs: Attrs) {
  return { camera: cameraOf(attrs['camera'] as number[]), shDegree: attrs['shDegree'] as number, antialiased: attrs['antialiased'] as boolean };
}

/** Runs 'splat.project' for float32: inputs means, quats, scales, opacities, coeffs; outputs means2d, conics, depths, radii, colors, opacities. */
export function projectForwardGpu(a: GpuOpArgs): void {
  const n = a.batch * a.inShapes[0]![0]!;
  const k = a.inShapes[4]![1]!;
  const { camera, shDegree, antialiased } = projectAttrs(a.attrs);
  launch(a, FORWARD, [...a.ins.slice(0, 5), ...a.outs], projectParams(n, k, shDegree, antialiased, camera), Math.ceil(n / WG));
}
