// The kernel registry: which implementation of a kernel family runs on which
// device. One table keyed by (device, family), filled by the modules that own
// the kernels (src/linalg/kernels/register.ts registers the js LAPACK-style
// reference and, with the addon, the LAPACKE kernels; src/sparse registers its
// CSR products, direct solvers and raw SpMV/vector kernels; a new module, an
// FFT say, registers its own family), read by registered ops' kernel calls and
// by the backends' dispatch answers.
//
// Why one registry: a device without a kernel for a family is a
// LegalizationError from the dispatch contract, decided in one place. There is
// no fallback to another device's kernels: on a GPU the js kernels would read
// the wrong memory. Where two CPU devices share host memory and a device runs
// another's implementation, its module registers that implementation for it
// explicitly, so the table says so.

import { LegalizationError } from '../tensor/errors.js';

/**
 * A family of kernels (the interface K a module defines: its kernel set).
 * Declared once by the module that owns it; typed, so an op's kernel call
 * sees K and a registration must provide K.
 */
export interface KernelFamily<K> {
  readonly name: string;
  /** Type-only: the kernel set's interface. */
  readonly __kernels?: K;
}

const FAMILIES = new Map<string, KernelFamily<unknown>>();
const TABLE = new Map<KernelFamily<unknown>, Map<string, unknown>>();

/** Declares a kernel family (one per name; declaring a name twice is a programming error). */
export function kernelFamily<K>(name: string): KernelFamily<K> {
  if (FAMILIES.has(name)) throw new Error(`internal: kernel family '${name}' is declared twice`);
  const f: KernelFamily<K> = Object.freeze({ name });
  FAMILIES.set(name, f as KernelFamily<unknown>);
  TABLE.set(f as KernelFamily<unknown>, new Map());
  return f;
}

/** Registers (or replaces) `kernels` as family's implementation on `device`. */
export function registerKernels<K>(device: string, family: KernelFamily<K>, kernels: K): void {
  TABLE.get(family as KernelFamily<unknown>)!.set(device, kernels);
}

/** Removes family's implementation on `device` (tests; a module unloading its kernels). */
export function unregisterKernels<K>(device: string, family: KernelFamily<K>): void {
  TABLE.get(family as KernelFamily<unknown>)!.delete(device);
}

/** Whether `device` has an implementation of family. */
export function hasKernels<K>(device: string, family: KernelFamily<K>): boolean {
  return TABLE.get(family as KernelFamily<unknown>)!.has(device);
}

/** family's implementation on `device`, or undefined (a caller with a js path of its own for host arrays). */
export function kernelsOn<K>(device: string, family: KernelFamily<K>): K | undefined {
  return TABLE.get(family as KernelFamily<unknown>)!.get(device) as K | undefined;
}

/**
 * family's implementation on `device`; a LegalizationError naming the op, its
 * dtype, the device and the devices that do have the family otherwise.
 */
export function kernelsFor<K>(device: string, family: KernelFamily<K>, op = family.name, dtype = '-'): K {
  const m = TABLE.get(family as KernelFamily<unknown>)!;
  const k = m.get(device);
  if (k === undefined) throw new LegalizationError(op, dtype, device, `no '${family.name}' kernels on this device; registered on: ${[...m.keys()].join(', ') || 'none'}`);
  return k as K;
}

/** The devices that implement family. */
export function kernelDevices<K>(family: KernelFamily<K>): string[] {
  return [...TABLE.get(family as KernelFamily<unknown>)!.keys()];
}

/** Every family with the devices that implement it (scripts/op-table.mjs, explain). */
export function kernelTable(): { family: string; devices: string[] }[] {
  return [...TABLE].map(([f, m]) => ({ family: f.name, devices: [...m.keys()] }));
}
