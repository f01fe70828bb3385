// One thread setting for the native backend: OpenBLAS and the kernel
// interpreter's pool get the same count. Their work never overlaps within an
// executable (kernels run one after another), so each may use every thread
// without oversubscribing the cores. Which of the two threads a GEMM is
// decided per GEMM (native/src/gemm_spread.h): small products run on one
// OpenBLAS thread, batches of small products one per pool thread, the rest on
// OpenBLAS's threads.

import { ValueError } from '../../tensor/errors.js';
import { nativeAddon } from './addon.js';
import type { InterpAddon } from './program.js';

/**
 * Sets the threads native kernels use (BLAS and fused kernels); returns the value applied. No-op without the addon.
 * @example
 * ```ts
 * const before = numThreads();
 * setNumThreads(1);   // 1  (the value applied)
 * numThreads();       // 1
 * setNumThreads(before);
 * ```
 */
export function setNumThreads(n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > 1024) throw new ValueError(`setNumThreads: expected an integer in [1, 1024], got ${n}`);
  const addon = nativeAddon();
  if (!addon) return 1;
  addon.setNumThreads(n);
  (addon as unknown as InterpAddon).interpSetThreads(n);
  return numThreads();
}

/**
 * Threads native kernels use (1 when the addon is not built).
 * @example
 * ```ts
 * numThreads() >= 1;   // true (1 without the native addon)
 * ```
 */
export function numThreads(): number {
  const addon = nativeAddon();
  return addon ? (addon as unknown as InterpAddon).interpGetThreads() : 1;
}
