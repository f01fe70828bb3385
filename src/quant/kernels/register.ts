// Registers the quant kernels per device: the js kernels (js.ts) on 'js'; on
// 'native', when that device exists, the same js kernels (they read host
// memory, which both CPU devices share), so the quant ops run on the default
// device rather than being a LegalizationError there.

import { registerKernels } from '../../compiler/kernel-registry.js';
import { deviceNames } from '../../backends/registry.js';
import { QUANT_KERNELS } from './family.js';
import { jsQuantKernels } from './js.js';

registerKernels('js', QUANT_KERNELS, jsQuantKernels);
if (deviceNames().includes('native')) registerKernels('native', QUANT_KERNELS, jsQuantKernels);
