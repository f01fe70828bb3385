// Shared pieces of the vmap tests: seeded random tensors, batched shapes for an
// inAxes choice, and the reference check
//
//   vmap(f, {inAxes, outAxes})(...args)  ==  stack([f(example i) for i], outAxes)
//
// Both sides run the same kernels on the same values, so results are compared
// bit for bit (Object.is per element: NaN equals NaN, -0 differs from +0),
// together with shape, dtype and device. The tests run once per available
// backend (describe.each(DEVICES)); gen(device) makes inputs pinned to it.

import fc from 'fast-check';
import { expect } from 'vitest';
import * as rlx from '../../src/index.js';
import { vmap } from '../../src/compiler/transforms/vmap.js';
import { mulberry32 as rng } from '../harness/prng.js';
export { rng };

export type Ax = number | null;

const envRuns = Number(process.env['RLX_FC_RUNS']);
/** Runs per property (RLX_FC_RUNS scales them, as in the ops suite). */
export const RUNS = Number.isFinite(envRuns) && envRuns > 0 ? Math.max(5, Math.round(envRuns / 2)) : 50;
export const runs = (n = RUNS) => ({ numRuns: n });

export interface ValueKind {
  /** Include NaN / ±Infinity / -0 now and then. */
  specials?: boolean;
  /** Only small integers (ties, exact equality). */
  ints?: boolean;
}

/** Values: mostly reals in [-3, 3] on a coarse grid (ties happen), some small integers, optional specials. */
export function values(n: number, seed: number, k: ValueKind = {}): Float64Array {
  const r = rng(seed);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = r();
    if (k.specials && u < 0.06) out[i] = [NaN, Infinity, -Infinity, -0][Math.floor(r() * 4)]!;
    else if (k.ints || u < 0.25) out[i] = Math.floor(r() * 5) - 2;
    else out[i] = Math.round((r() * 6 - 3) * 64) / 64;
  }
  return out;
}

export const sizeOf = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

/** Seeded tensor constructors whose tensors are pinned to `device` (the tests' inputs). */
export function gen(device: string) {
  return {
    /** A float64 tensor of the given shape with seeded values. */
    randn(shape: readonly number[], seed: number, k: ValueKind = {}): rlx.Tensor {
      return rlx.tensor(values(sizeOf(shape), seed, k), { shape: [...shape] }).on(device);
    },
    /** An int32 tensor with values in [lo, hi]. */
    randInt(shape: readonly number[], seed: number, lo: number, hi: number): rlx.Tensor {
      const r = rng(seed);
      const v = Int32Array.from({ length: sizeOf(shape) }, () => lo + Math.floor(r() * (hi - lo + 1)));
      return rlx.tensor(v, { shape: [...shape], dtype: 'int32' }).on(device);
    },
  };
}

/** Position of the batch axis for inAxes `ax` in a batched tensor of per-example rank r. */
export const axisPos = (ax: number, r: number): number => (ax < 0 ? ax + r + 1 : ax);

/** The shape of a batched argument: per-example shape with B inserted at the inAxes position. */
export function batchedShape(shape: readonly number[], B: number, ax: Ax): number[] {
  if (ax === null) return [...shape];
  const d = axisPos(ax, shape.length);
  return [...shape.slice(0, d), B, ...shape.slice(d)];
}

/** inAxes drawn from {0, 1, -1, null}. */
export const axArb: fc.Arbitrary<Ax> = fc.constantFrom<Ax>(0, 1, -1, null);
/** outAxes drawn from {0, 1, -1}. */
export const outArb: fc.Arbitrary<number> = fc.constantFrom(0, 1, -1);

/** An inAxes choice valid for per-example rank r (1 becomes 0 for scalars). */
export const fitAx = (ax: Ax, r: number): Ax => (ax === 1 && r < 1 ? 0 : ax);

/** inAxes with at least one batched argument. */
export function someBatched(axes: Ax[]): Ax[] {
  return axes.every((a) => a === null) ? [0, ...axes.slice(1)] : axes;
}

/** Elementwise bitwise equality (Object.is), with the first difference in the message. */
export function expectSameBits(got: ArrayLike<number>, want: ArrayLike<number>, what: string): void {
  expect(got.length, `${what}: length`).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    if (!Object.is(got[i], want[i])) {
      throw new Error(`${what}: element ${i} differs: vmap gave ${String(got[i])}, the per-example loop ${String(want[i])}\n  vmap: [${Array.from(got).slice(0, 16).join(', ')}]\n  loop: [${Array.from(want).slice(0, 16).join(', ')}]`);
    }
  }
}

export interface CheckOpts {
  /** allclose instead of bitwise (say why at the call site). */
  rtol?: number;
  atol?: number;
}

/**
 * Checks vmap(f) against the per-example loop. `args` are the batched tensors
 * (unbatched ones as they are), `inAxes` one entry per argument, `out` the
 * outAxes choice (1 becomes 0 when the per-example output is a scalar).
 */
export function expectVmap(f: (...xs: rlx.Tensor[]) => rlx.Tensor, args: rlx.Tensor[], inAxes: Ax[], out: number, what: string, o: CheckOpts = {}): void {
  const k = inAxes.findIndex((a) => a !== null);
  const B = args[k]!.shape[axisPos(inAxes[k]!, args[k]!.ndim - 1)]!;
  const per = Array.from({ length: B }, (_, i) => f(...args.map((a, j) => (inAxes[j] === null ? a : a.select(inAxes[j]!, i)))));
  const oa = out === 1 && per[0]!.ndim < 1 ? 0 : out;
  const want = rlx.stack(per, oa);
  const got = vmap(f, { inAxes, outAxes: oa })(...args) as rlx.Tensor;
  const tag = `${what} (inAxes ${JSON.stringify(inAxes)}, outAxes ${oa}, B ${B})`;
  expect(got.shape, `${tag}: shape`).toEqual(want.shape);
  expect(got.dtype, `${tag}: dtype`).toBe(want.dtype);
  expect(got.device, `${tag}: device (the inputs' one)`).toBe(args[k]!.device);
  if (o.rtol !== undefined || o.atol !== undefined) {
    const g = got.toArray(),
      w = want.toArray();
    const rt = o.rtol ?? 0,
      at = o.atol ?? 0;
    for (let i = 0; i < w.length; i++) {
      const a = g[i]!,
        b = w[i]!;
      const ok = Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)) || Math.abs(a - b) <= at + rt * Math.abs(b);
      if (!ok) throw new Error(`${tag}: element ${i}: ${a} vs ${b}`);
    }
    return;
  }
  expectSameBits(got.toArray(), want.toArray(), tag);
}
