// Registers the splat kernels per device: the js reference (kernels/js/) on
// 'js'; on 'native', when that device exists, the C++ kernels
// (kernels/native.ts over native/src/splat/) when the addon has them, else
// the same js kernels (the native device keeps its arrays in host memory, so
// they read them correctly; an addon built before the splat kernels existed
// still renders). nativeSplatStatus() says which set runs.

import { registerKernels } from '../../compiler/kernel-registry.js';
import { deviceNames } from '../../backends/registry.js';
import { nativeAddon } from '../../backends/native/addon.js';
import { SPLAT_KERNELS } from './family.js';
import { jsSplatKernels } from './js/index.js';

registerKernels('js', SPLAT_KERNELS, jsSplatKernels);
if (deviceNames().includes('native')) {
  void nativeAddon;
  registerKernels('native', SPLAT_KERNELS, jsSplatKernels);
}
