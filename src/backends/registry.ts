// Backend registry: which devices exist, which are available, and the default.

import { DeviceError } from '../tensor/errors.js';
import type { Backend, BackendStatus } from './backend.js';
import { jsBackend } from './js/index.js';
import { nativeStatus, nativeAddon } from './native/addon.js';
import { createNativeBackend } from './native/index.js';

/**
 * Why 'native' is not a device: the addon's status (not built and why, or
 * failed to load), or, when it is built, that the Backend running every kernel
 * on it is not there yet (until then tests/native exercises the addon directly).
 */
function nativeReason(): string {
  const s = nativeStatus();
  return `native addon ${s.available ? 'built but disabled (RLX_NATIVE=0)' : (s.reason ?? 'unavailable')}`;
}

const registered = new Map<string, Backend>([['js', jsBackend]]);
/** Reasons are computed when asked, so importing the registry loads no addon. */
const unavailable = new Map<string, () => string>([
  ['native', nativeReason],
  // The device layer exists (backends/webgpu/device.ts; `rlx info` probes the adapter); its kernels do not yet.
  ['webgpu', () => 'kernels not implemented yet (the device layer is: rlx info shows the adapter)'],
]);

// The native Backend joins the devices when the addon is built (RLX_NATIVE=0 opts out).
if (process.env['RLX_NATIVE'] !== '0') {
  const addon = nativeAddon();
  if (addon) {
    registered.set('native', createNativeBackend(addon));
    unavailable.delete('native');
  }
}

/** Registers a backend (used by optional backends when they load). */
export function registerBackend(b: Backend): void {
  registered.set(b.name, b);
  unavailable.delete(b.name);
}

/**
 * Every known backend with its availability and, if unavailable, why.
 * @example
 * ```ts
 * backends().find((b) => b.name === 'js')?.available;   // true (the TypeScript backend is always there)
 * backends().map((b) => b.name);   // ['js', 'native', 'webgpu']: the available ones first ('webgpu' is not implemented yet)
 * ```
 */
export function backends(): BackendStatus[] {
  return [
    ...[...registered.keys()].map((name) => ({ name, available: true })),
    ...[...unavailable].map(([name, reason]) => ({ name, available: false, reason: reason() })),
  ];
}

/** Names of the available devices. */
export function deviceNames(): string[] {
  return [...registered.keys()];
}

export function getBackend(name: string): Backend {
  const b = registered.get(name);
  if (!b) throw new DeviceError(`device '${name}' is not available${unavailable.has(name) ? `: ${unavailable.get(name)!()}` : ''}; available: ${deviceNames().join(', ')}`);
  return b;
}

/** The device used when nothing is pinned: the fastest available. */
export function defaultDevice(): string {
  return registered.has('native') ? 'native' : 'js';
}
