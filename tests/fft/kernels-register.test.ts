// The fft kernel family's registrations (src/fft/kernels/register.ts): the js
// kernels on 'js', and the same js kernels on 'native' exactly when that device
// exists (until the FFTW kernels replace them there).

import { describe, expect, it } from 'vitest';
import { deviceNames } from '../../src/backends/registry.js';
import { kernelDevices, kernelsFor, kernelsOn } from '../../src/compiler/kernel-registry.js';
import { FFT_KERNELS } from '../../src/fft/kernels/family.js';
import { jsFftKernels } from '../../src/fft/kernels/js/index.js';
import '../../src/fft/kernels/register.js';

describe('fft kernel registration', () => {
  it("registers the js kernels on 'js'", () => {
    expect(FFT_KERNELS.name).toBe('fft');
    expect(kernelsFor('js', FFT_KERNELS)).toBe(jsFftKernels);
  });

  it("registers them on 'native' exactly when the native device is available", () => {
    const native = deviceNames().includes('native');
    expect(kernelsOn('native', FFT_KERNELS)).toBe(native ? jsFftKernels : undefined);
    expect(kernelDevices(FFT_KERNELS).sort()).toEqual(native ? ['js', 'native'] : ['js']);
  });
});
