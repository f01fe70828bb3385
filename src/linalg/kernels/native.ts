// The linalg module's native glue: the LAPACKE kernel set (its binding is
// backends/native/lapack.ts) registered as the dense linalg kernels of the
// 'native' device, when that device exists (the addon is built and loaded and
// RLX_NATIVE is not 0). The backend itself knows nothing of linalg.

import { registerKernels } from '../../compiler/kernel-registry.js';
import { deviceNames } from '../../backends/registry.js';
import { nativeAddon } from '../../backends/native/addon.js';
import { nativeLinalgKernels } from '../../backends/native/lapack.js';
import { LINALG_KERNELS } from './family.js';

/** Registers the LAPACKE kernels on 'native' when that device is available. */
export function registerNativeLinalg(): void {
  const addon = nativeAddon();
  if (addon === undefined || !deviceNames().includes('native')) return;
  registerKernels('native', LINALG_KERNELS, nativeLinalgKernels(addon));
}
