// The fft namespace: numpy.fft's functions on tensors (api.ts, freq.ts), the
// IR ops they bind (ops/transforms.ts) and the kernels that run them
// (kernels/: the TypeScript FFT on js; FFTW on native).

import './kernels/register.js';

export { fft, ifft, rfft, irfft, fft2, ifft2, rfft2, irfft2, fftn, ifftn, rfftn, irfftn, type FftNorm } from './api.js';
export { fftfreq, rfftfreq, fftshift, ifftshift } from './freq.js';
export { setPlanner, planner, exportWisdom, importWisdom, type FftPlanner, type FftPlannerEffort, type FftWisdom } from './planner.js';
