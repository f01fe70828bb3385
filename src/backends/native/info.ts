// The public "what native code runs here" queries, exported from the package
// root: nativeStatus() (is the addon loaded, and if not why) and blasInfo()
// (which BLAS, its version, core and threads). addon.ts keeps the loading;
// this file is the user-facing wrapper, so blasInfo() can be asked without the
// addon (it throws a DeviceError saying why there is none, never a TypeError).

import { DeviceError } from '../../tensor/errors.js';
import { nativeAddon, nativeStatus, type BlasInfo } from './addon.js';

export { nativeStatus };
export type { NativeStatus, NativeSource, BlasInfo } from './addon.js';

/**
 * The BLAS the native addon is linked to: vendor, openblas_get_config(), the
 * core kernels chosen (corename; nativeStatus().blasCoreChoice says why),
 * threads, processors, threading model, FFTW3 presence. Throws DeviceError
 * naming the reason when the addon is not available (see nativeStatus()).
 * @example
 * ```ts
 * if (nativeStatus().available) {
 *   const b = blasInfo();
 *   console.log(b.vendor, b.corename, b.threads);   // e.g. OpenBLAS Haswell 2
 * }
 * ```
 */
export function blasInfo(): BlasInfo {
  const addon = nativeAddon();
  if (!addon) throw new DeviceError(`blasInfo: the native addon is not available (${nativeStatus().reason ?? 'unknown reason'}); check nativeStatus()`);
  return addon.blasInfo();
}
