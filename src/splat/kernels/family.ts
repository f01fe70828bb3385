// The splat kernel family: the kernel set of kernels/contract.ts (project and
// rasterize, forward and backward) that the splat ops call, per device.
// Registered by kernels/register.ts.

import { kernelFamily } from '../../compiler/kernel-registry.js';
import type { SplatKernels } from './contract.js';

export const SPLAT_KERNELS = kernelFamily<SplatKernels>('splat');
