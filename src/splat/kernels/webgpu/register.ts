// Registers the WGSL splat kernels (this folder) as the webgpu runners of
// the splat ops (backends/webgpu/registered.ts): float32 only (WGSL has no
// f64 type; float64 splats are refused with the reason, a
// LegalizationError from the webgpu dispatch contract).

import type { DType } from '../../../tensor/dtype.js';
import { registerGpuOp } from '../../../backends/webgpu/registered.js';
import { projectBackwardGpu, projectForwardGpu } from './project.js';
import { rasterizeBackwardGpu, rasterizeForwardGpu } from './raster.js';

const float32Only = (op: string) => (inDTypes: readonly DType[]): true | string =>
  inDTypes[0] === 'float32' ? true : `${op} on webgpu computes in float32 only (WGSL has no float64 type); got ${inDTypes[0]} (use the js or native device for float64 splats)`;

registerGpuOp('splat.project', { serves: float32Only('splat.project'), run: projectForwardGpu });
registerGpuOp('splat.projectBackward', { serves: float32Only('splat.projectBackward'), run: projectBackwardGpu });
registerGpuOp('splat.rasterize', { serves: float32Only('splat.rasterize'), run: rasterizeForwardGpu });
registerGpuOp('splat.rasterizeBackward', { serves: float32Only('splat.rasterizeBackward'), run: rasterizeBackwardGpu });
