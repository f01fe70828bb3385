// The FFT kernel family: the kernel set of kernels/contract.ts (c2c, r2c, c2r
// over contiguous rows) that the fft ops call, per device. Registered by
// kernels/register.ts.

import { kernelFamily } from '../../compiler/kernel-registry.js';
import type { FftKernels } from './contract.js';

export const FFT_KERNELS = kernelFamily<FftKernels>('fft');
