// Registers the FFT kernels per device: the js kernels (kernels/js/) on 'js';
// on 'native', when that device exists, the FFTW kernels (kernels/native.ts,
// on the addon's entry points under native/src/fft/) when the addon was built
// with FFTW, else the same js kernels.
//
// Why js on native without FFTW: FFTW is optional (GPL; RLX_NO_FFTW=1 or no
// libfftw3-dev builds the addon without it). The native device keeps its
// arrays in host memory, so the js kernels read them correctly, and without a
// registration every fft op on the default device would be a
// LegalizationError. nativeFftStatus() (kernels/native.ts) says which set runs.

import { registerKernels } from '../../compiler/kernel-registry.js';
import { deviceNames } from '../../backends/registry.js';
import { nativeAddon } from '../../backends/native/addon.js';
import { FFT_KERNELS } from './family.js';
import { jsFftKernels } from './js/index.js';
import { hasNativeFft, nativeFftKernels } from './native.js';

registerKernels('js', FFT_KERNELS, jsFftKernels);
if (deviceNames().includes('native')) {
  const addon = nativeAddon();
  registerKernels('native', FFT_KERNELS, addon !== undefined && hasNativeFft(addon) ? nativeFftKernels(addon) : jsFftKernels);
}
