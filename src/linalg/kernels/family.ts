// The dense linalg kernel family: the LAPACK-style kernel set
// (kernels/contract.ts) that the linalg ops call. Registered per device by
// kernels/register.ts (js) and kernels/native.ts (LAPACKE, with the addon).

import { kernelFamily } from '../../compiler/kernel-registry.js';
import type { LinalgKernels } from './contract.js';

export const LINALG_KERNELS = kernelFamily<LinalgKernels>('linalg');
