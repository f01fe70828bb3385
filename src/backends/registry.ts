// Backend registry: which devices exist, which are available, and the default.

import { DeviceError } from '../tensor/errors.js';
import type { Backend, BackendStatus } from './backend.js';
import { jsBackend } from './js/index.js';

const registered = new Map<string, Backend>([['js', jsBackend]]);
const unavailable = new Map<string, string>([
  ['native', 'not built yet: the C++ addon arrives with the native backend issue'],
  ['webgpu', 'not implemented yet'],
]);

/** Registers a backend (used by optional backends when they load). */
export function registerBackend(b: Backend): void {
  registered.set(b.name, b);
  unavailable.delete(b.name);
}

/** Every known backend with its availability and, if unavailable, why. */
export function backends(): BackendStatus[] {
  return [
    ...[...registered.keys()].map((name) => ({ name, available: true })),
    ...[...unavailable].map(([name, reason]) => ({ name, available: false, reason })),
  ];
}

/** Names of the available devices. */
export function deviceNames(): string[] {
  return [...registered.keys()];
}

export function getBackend(name: string): Backend {
  const b = registered.get(name);
  if (!b) throw new DeviceError(`device '${name}' is not available${unavailable.has(name) ? `: ${unavailable.get(name)}` : ''}; available: ${deviceNames().join(', ')}`);
  return b;
}

/** The device used when nothing is pinned: the fastest available. */
export function defaultDevice(): string {
  return registered.has('native') ? 'native' : 'js';
}
