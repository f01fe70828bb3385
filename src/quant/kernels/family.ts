// The quant kernel family: the kernel set of kernels/contract.ts (int8 and
// int4 matrix products) that the quant ops call, per device. Registered by
// kernels/register.ts.

import { kernelFamily } from '../../compiler/kernel-registry.js';
import type { QuantKernels } from './contract.js';

export const QUANT_KERNELS = kernelFamily<QuantKernels>('quant');
