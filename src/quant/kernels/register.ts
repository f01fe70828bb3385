// Registers the quant kernels per device: the js kernels (js.ts) on 'js'; on
// 'native', when that device exists, the native kernels (native.ts, over the
// addon's entry points under native/src/quant/) when the addon has them, else
// the same js kernels (they read host memory, which both CPU devices share),
// so the quant ops never are a LegalizationError on the default device.

import { registerKernels } from '../../compiler/kernel-registry.js';
import { deviceNames } from '../../backends/registry.js';
import { nativeAddon } from '../../backends/native/addon.js';
import { QUANT_KERNELS } from './family.js';
import { jsQuantKernels } from './js.js';
import { hasNativeQuant, nativeQuantKernels } from './native.js';

registerKernels('js', QUANT_KERNELS, jsQuantKernels);
if (deviceNames().includes('native')) {
  const addon = nativeAddon();
  registerKernels('native', QUANT_KERNELS, addon !== undefined && hasNativeQuant(addon) ? nativeQuantKernels(addon) : jsQuantKernels);
}
