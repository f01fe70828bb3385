// Registers the FFT kernels per device: the js kernels (kernels/js/) on 'js',
// and, for now, the same js kernels on 'native' when that device exists.
//
// Why js on native: the native device keeps its arrays in host memory, so the
// js kernels read them correctly, and without a registration every fft op on
// the default device (native, when the addon is built) would be a
// LegalizationError. This is temporary: the native FFTW kernels
// (kernels/native.ts, on the addon's entry points under native/src/fft/) will
// replace this 'native' registration when they land.

import { registerKernels } from '../../compiler/kernel-registry.js';
import { deviceNames } from '../../backends/registry.js';
import { FFT_KERNELS } from './family.js';
import { jsFftKernels } from './js/index.js';

registerKernels('js', FFT_KERNELS, jsFftKernels);
// Temporary until the native FFTW kernels: see the header.
if (deviceNames().includes('native')) registerKernels('native', FFT_KERNELS, jsFftKernels);
