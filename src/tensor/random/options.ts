// The counter layout option shared by every draw, and the argument checks that
// all the entry points in this folder apply to keys and counts.
//
// Why this file exists: JAX has two threefry counter layouts ('partitionable',
// its default, and 'legacy'; see ../random-bits.ts), and every function taking
// a key must pick one and validate its inputs the same way, with the same
// error messages.

/** Which of JAX's two threefry counter layouts to follow. */
export type ThreefryLayout = 'partitionable' | 'legacy';

/** Layout used when none is given: JAX's current default (jax_threefry_partitionable=True). */
export const DEFAULT_LAYOUT: ThreefryLayout = 'partitionable';

/** Options common to the samplers. */
export interface RandomOptions {
  /** Counter layout; defaults to DEFAULT_LAYOUT. */
  layout?: ThreefryLayout;
}

/** Throws unless key is a 2-word Uint32Array key. */
export function checkKey(op: string, key: Uint32Array): void {
  if (!(key instanceof Uint32Array) || key.length !== 2) {
    const got = key instanceof Uint32Array ? `Uint32Array of length ${key.length}` : String(key);
    throw new RangeError(`${op}: key must be a Uint32Array of length 2 (from keyData/splitKeyData/foldIn), got ${got}`);
  }
}

/** Throws unless n is a non-negative safe integer. */
export function checkCount(op: string, name: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`${op}: ${name} must be a non-negative integer, got ${String(n)}`);
  }
}

/** The layout asked for in opts (DEFAULT_LAYOUT if none), checked. */
export function layoutOf(op: string, opts: RandomOptions | undefined): ThreefryLayout {
  const layout = opts?.layout ?? DEFAULT_LAYOUT;
  if (layout !== 'partitionable' && layout !== 'legacy') {
    throw new RangeError(`${op}: layout must be 'partitionable' or 'legacy', got ${String(layout)}`);
  }
  return layout;
}
