// The js splat kernels (the SplatKernels contract, ../contract.ts): plain
// TypeScript, float64 arithmetic for both storage dtypes, results stored
// into the dtype's arrays. This is the specification the native kernels
// are tested against: sh.ts (SH colour), projection.ts + project.ts
// (project), bin.ts (tile lists), raster.ts (rasterize).

import type { SplatKernels } from '../contract.js';
import { projectBackward, projectForward } from './project.js';
import { rasterizeBackward, rasterizeForward } from './raster.js';

export const jsSplatKernels: SplatKernels = {
  projectForward,
  projectBackward,
  rasterizeForward,
  rasterizeBackward,
};
