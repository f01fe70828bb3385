// fast-check arbitraries for the parity suite: shapes (rank 0-4, dims 0-5 with
// size-0 and size-1 dims drawn often), broadcast-compatible shape pairs and
// triples, float64 data, and the bridge between naive NArr values and rlx tensors.

import fc from 'fast-check';
import { expect } from 'vitest';
import * as rlx from '../../src/index.js';
import { compareAllclose, type Tolerance } from './allclose.js';
import { sizeOf, type NArr } from './naive.js';

/**
 * Runs per property. The defaults keep the whole ops suite well under a minute on
 * two cores; RLX_FC_RUNS=500 (say) turns the same properties into a soak test.
 */
const envRuns = Number(process.env['RLX_FC_RUNS']);
export const RUNS = Number.isFinite(envRuns) && envRuns > 0 ? envRuns : 100;
/** Fewer runs for the expensive properties (every axis subset, matmul, chained views). */
export const FEW = Math.max(5, Math.round(RUNS / 2));

/** A dim in 0..max, with 0 and 1 drawn often (empty and broadcast axes are where bugs live). */
export const dimArb = (max = 5): fc.Arbitrary<number> =>
  fc.oneof({ arbitrary: fc.constant(0), weight: 1 }, { arbitrary: fc.constant(1), weight: 2 }, { arbitrary: fc.integer({ min: 2, max }), weight: 5 });

export interface ShapeOpts {
  minRank?: number;
  maxRank?: number;
  maxDim?: number;
  /** Dims at least 1 (no empty tensors). */
  nonEmpty?: boolean;
}

export function shapeArb(o: ShapeOpts = {}): fc.Arbitrary<number[]> {
  const d = o.nonEmpty ? fc.integer({ min: 1, max: o.maxDim ?? 5 }) : dimArb(o.maxDim ?? 5);
  return fc.array(d, { minLength: o.minRank ?? 0, maxLength: o.maxRank ?? 4 });
}

/**
 * Broadcast-compatible shapes: a common result shape, and for each operand a
 * suffix of it (lower rank) with some dims replaced by 1.
 */
export function broadcastShapesArb(count: number, o: ShapeOpts = {}): fc.Arbitrary<number[][]> {
  return shapeArb(o).chain((out) => {
    const one = fc
      .tuple(fc.integer({ min: 0, max: out.length }), fc.array(fc.boolean(), { minLength: out.length, maxLength: out.length }))
      .map(([drop, ones]) => out.slice(drop).map((d, i) => (ones[i + drop] ? 1 : d)));
    return fc.array(one, { minLength: count, maxLength: count });
  });
}

export interface ValueOpts {
  min?: number;
  max?: number;
  /** Draw from the integers min..max only (ties, exact sums, exact comparisons). */
  integers?: boolean;
  /** Mix NaN and ±Infinity in. */
  specials?: boolean;
}

export function valueArb(o: ValueOpts = {}): fc.Arbitrary<number> {
  const min = o.min ?? -100,
    max = o.max ?? 100;
  const base = o.integers ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  if (!o.specials) return base;
  return fc.oneof({ arbitrary: base, weight: 8 }, { arbitrary: fc.constantFrom(NaN, Infinity, -Infinity), weight: 1 });
}

export const valuesArb = (n: number, o: ValueOpts = {}): fc.Arbitrary<Float64Array> =>
  fc.array(valueArb(o), { minLength: n, maxLength: n }).map((v) => Float64Array.from(v));

/** A real float64 naive array of the given shape. */
export const narrOf = (shape: readonly number[], o: ValueOpts = {}): fc.Arbitrary<NArr> =>
  valuesArb(sizeOf(shape), o).map((data) => ({ shape: [...shape], data }));

/** A complex naive array (interleaved re, im) of the given shape. */
export const cnarrOf = (shape: readonly number[], o: ValueOpts = {}): fc.Arbitrary<NArr> =>
  valuesArb(2 * sizeOf(shape), o).map((data) => ({ shape: [...shape], data, cplx: true }));

export const narrArb = (s: ShapeOpts = {}, v: ValueOpts = {}): fc.Arbitrary<NArr> => shapeArb(s).chain((shape) => narrOf(shape, v));

// ---- bridge to rlx ---------------------------------------------------------------

/** A tensor holding the naive array's values (float64 / complex128 unless dtype says), pinned to device. */
export function toTensor(a: NArr, device: string, dtype?: rlx.DTypeLike): rlx.Tensor {
  const dt = dtype ?? (a.cplx ? 'complex128' : 'float64');
  return rlx.tensor(Float64Array.from(a.data), { shape: a.shape, dtype: dt }).on(device);
}

/** Asserts t has ref's shape and allclose values (complex compared as interleaved pairs). */
export function expectTensor(t: rlx.Tensor, ref: NArr, tol: Tolerance = {}, what = ''): void {
  const got = t.toArray();
  expect(t.shape, `${what} shape`).toEqual(ref.shape);
  const r = compareAllclose(got, ref.data, tol);
  if (!r.pass) throw new Error(`${what ? what + ': ' : ''}${r.message}\n  shape: [${ref.shape.join(', ')}]`);
}

/** Run options for fc.assert. */
export const runs = (n: number = RUNS): { numRuns: number } => ({ numRuns: n });
