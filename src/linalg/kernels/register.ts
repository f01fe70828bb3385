// Registers the dense linalg kernels per device: the js reference, and the
// LAPACKE kernels when the native backend is available (native.ts).

import { registerKernels } from '../../compiler/kernel-registry.js';
import { LINALG_KERNELS } from './family.js';
import { jsLinalgKernels } from './js/index.js';
import { registerNativeLinalg } from './native.js';

registerKernels('js', LINALG_KERNELS, jsLinalgKernels);
registerNativeLinalg();
