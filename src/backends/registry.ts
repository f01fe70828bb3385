// Backend registry: which devices exist, which are available, and the default.

import { DeviceError } from '../tensor/errors.js';
import type { Backend, BackendStatus } from './backend.js';
import { jsBackend } from './js/index.js';
import { nativeStatus, nativeAddon } from './native/addon.js';
import { createNativeBackend } from './native/index.js';
import { checkWebgpuLimits, webgpuBackend } from './webgpu/index.js';
import { webgpuDevice } from './webgpu/device.js';

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
  ['webgpu', () => webgpuReason],
]);

/**
 * Devices that start on first use: starting WebGPU spawns its worker and asks
 * Dawn for an adapter (~0.1-0.5 s), which importing rlx or listing backends
 * must not cost. `.on('webgpu')`, a `{device: 'webgpu'}` option or
 * getBackend('webgpu') starts it (`backends({ probe: true })` too).
 */
const lazy = new Map<string, () => Backend>([
  [
    'webgpu',
    () => {
      checkWebgpuLimits(webgpuDevice().info.limits); // webgpuDevice() throws DeviceError saying why there is no adapter
      return webgpuBackend;
    },
  ],
]);
let webgpuReason = 'not started yet: its first use (t.on("webgpu")) starts it; backends({ probe: true }) or rlx info probes the adapter';

/** Starts a lazily started device if it is one and not tried yet; true when the device is available. */
export function ensureDevice(name: string): boolean {
  if (registered.has(name)) return true;
  const start = lazy.get(name);
  if (start === undefined) return false;
  lazy.delete(name);
  try {
    registerBackend(start());
    return true;
  } catch (e) {
    if (name === 'webgpu') webgpuReason = (e as Error).message.replace(/^webgpu: /, '');
    return false;
  }
}

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
 * backends().map((b) => b.name);   // ['js', 'native', 'webgpu']: the available ones first ('webgpu' starts on first use)
 * ```
 */
export function backends(opts: { probe?: boolean } = {}): BackendStatus[] {
  if (opts.probe) for (const name of [...lazy.keys()]) ensureDevice(name);
  return [
    ...[...registered.keys()].map((name) => ({ name, available: true })),
    ...[...unavailable].map(([name, reason]) => ({ name, available: false, reason: reason() })),
  ];
}

/** ': why' for a known device that is unavailable ('' for an unknown name). */
export function unavailableReason(name: string): string {
  const r = unavailable.get(name);
  return r === undefined ? '' : `: ${r()}`;
}

/** Names of the available devices. */
export function deviceNames(): string[] {
  return [...registered.keys()];
}

export function getBackend(name: string): Backend {
  const b = registered.get(name) ?? (ensureDevice(name) ? registered.get(name) : undefined);
  if (!b) throw new DeviceError(`device '${name}' is not available${unavailable.has(name) ? `: ${unavailable.get(name)!()}` : ''}; available: ${deviceNames().join(', ')}`);
  return b;
}

let chosenDefault: string | undefined;

/**
 * The widest float dtype `device` (default: the default device) stores:
 * 'float64', or 'float32' on a device without float64 (webgpu). For scalars
 * that code computes wide when it can (an optimizer's bias corrections).
 */
export function widestFloat(device?: string): 'float64' | 'float32' {
  const b = registered.get(device ?? defaultDevice());
  return b?.widestFloat ?? 'float64';
}

/** The device used when nothing is pinned: the one setDefaultDevice chose, else the fastest CPU device available. */
export function defaultDevice(): string {
  return chosenDefault ?? (registered.has('native') ? 'native' : 'js');
}

/**
 * Sets the device that computations pinned to no device run on (`undefined`
 * restores the automatic choice: 'native' when the addon is built, else
 * 'js'). The device is started now (webgpu: its adapter is requested), so an
 * unavailable one is a DeviceError here, not at the first computation. What
 * the device does not serve (float64 on webgpu, say) stays a
 * LegalizationError: nothing falls back to another device.
 * @example
 * ```ts
 * setDefaultDevice('js');
 * tensor([1, 2]).add(1).device;   // undefined: not pinned; it runs on the default, 'js'
 * setDefaultDevice(undefined);    // back to the automatic choice
 * ```
 */
export function setDefaultDevice(name: string | undefined): void {
  if (name !== undefined) getBackend(name); // DeviceError when unavailable
  chosenDefault = name;
}
