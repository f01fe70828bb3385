// Registers the splat kernels per device: the js reference (kernels/js/) on
// 'js'; on 'native', when that device exists, the C++ kernels
// (kernels/native.ts over native/src/splat/) when the addon has them, else
// the same js kernels (the native device keeps its arrays in host memory, so
// they read them correctly; an addon built before the splat kernels existed
// still renders, 20-40x slower). nativeSplatStatus() says which set runs.
// On 'webgpu' the ops run WGSL kernels (webgpu/, float32), registered with
// the webgpu backend's table of GPU runners (its buffers are not host arrays).

import { registerKernels } from '../../compiler/kernel-registry.js';
import { deviceNames } from '../../backends/registry.js';
import { nativeAddon } from '../../backends/native/addon.js';
import { SPLAT_KERNELS } from './family.js';
import { jsSplatKernels } from './js/index.js';
import { hasNativeSplat, nativeSplatKernels } from './native.js';
import './webgpu/register.js'; // the four ops' WGSL runners on 'webgpu' (float32; registering starts no device)

registerKernels('js', SPLAT_KERNELS, jsSplatKernels);
if (deviceNames().includes('native')) {
  const addon = nativeAddon();
  registerKernels('native', SPLAT_KERNELS, addon !== undefined && hasNativeSplat(addon) ? nativeSplatKernels(addon) : jsSplatKernels);
}

/**
 * Which splat kernels the 'native' device runs, and why.
 * @example
 * ```ts
 * const st = splat.nativeSplatStatus();
 * st.kernels;   // 'native' with an addon built with the splat kernels ('js' with an older addon, 'none' without the addon)
 * ```
 */
export function nativeSplatStatus(): { kernels: 'native' | 'js' | 'none'; reason: string } {
  const addon = nativeAddon();
  if (addon === undefined) return { kernels: 'none', reason: 'the native addon is not loaded (nativeStatus() says why)' };
  if (hasNativeSplat(addon)) return { kernels: 'native', reason: 'the addon has the C++ splat kernels (native/src/splat)' };
  return { kernels: 'js', reason: "the addon was built before the splat kernels existed (run npm run build:native); the TS kernels run on 'native'" };
}
