// Test helpers: random sparse matrices (with unsorted indices and duplicates on
// purpose), dense references on plain Float64Arrays, and the CSR/CSC invariants.

import fc from 'fast-check';
import { expect } from 'vitest';
import * as sp from '../../../src/sparse/index.js';
import type { SparseDType } from '../../../src/sparse/contract.js';
import { validateCompressed } from '../../../src/sparse/validate.js';
import type { Tensor } from '../../../src/tensor/tensor.js';

export const DTYPES: SparseDType[] = ['float32', 'float64', 'complex64', 'complex128'];
export const lanes = (d: SparseDType): 1 | 2 => (d.startsWith('complex') ? 2 : 1);

/** A dense reference matrix: row-major, interleaved when complex. */
export interface Ref {
  m: number;
  n: number;
  l: 1 | 2;
  v: Float64Array;
}
export type Trip = [number, number, number, number];

export interface Case {
  m: number;
  n: number;
  dtype: SparseDType;
  trips: Trip[];
}

/** Triplets for an m×n matrix: small integers (exact in float32), duplicates likely. */
export const arbTrips = (m: number, n: number, max = 2 * m * n): fc.Arbitrary<Trip[]> =>
  m === 0 || n === 0 ? fc.constant<Trip[]>([]) : fc.array(fc.tuple(fc.nat(m - 1), fc.nat(n - 1), fc.integer({ min: -4, max: 4 }), fc.integer({ min: -4, max: 4 })), { maxLength: max });

export const arbCase = (opts: { maxDim?: number; square?: boolean; dtype?: SparseDType } = {}): fc.Arbitrary<Case> =>
  fc
    .record({ m: fc.nat(opts.maxDim ?? 6), n: fc.nat(opts.maxDim ?? 6), dtype: opts.dtype ? fc.constant(opts.dtype) : fc.constantFrom(...DTYPES) })
    .chain(({ m, n, dtype }) => {
      const nn = opts.square ? m : n;
      return arbTrips(m, nn).map((trips) => ({ m, n: nn, dtype, trips }));
    });

/** The matrix of a case, CSR in triplet order (unsorted, with duplicates) — or CSC/COO. */
export function build(c: Case, format: 'csr' | 'csc' | 'coo' = 'csr'): sp.CsrMatrix | sp.CscMatrix | sp.CooMatrix {
  const l = lanes(c.dtype);
  const vals: number[] = [];
  for (const t of c.trips) l === 1 ? vals.push(t[2]) : vals.push(t[2], t[3]);
  const data = c.dtype === 'float32' || c.dtype === 'complex64' ? new Float32Array(vals) : new Float64Array(vals);
  if (format === 'coo') return sp.coo({ row: c.trips.map((t) => t[0]), col: c.trips.map((t) => t[1]), data, shape: [c.m, c.n], dtype: c.dtype });
  const csc = format === 'csc';
  const major = csc ? c.n : c.m;
  const order = c.trips.map((t, k) => ({ k, maj: csc ? t[1] : t[0], min: csc ? t[0] : t[1] }));
  const indptr = new Int32Array(major + 1);
  for (const o of order) indptr[o.maj + 1]!++;
  for (let i = 0; i < major; i++) indptr[i + 1]! += indptr[i]!;
  const next = indptr.slice(0, major);
  const indices = new Int32Array(order.length);
  const d = data instanceof Float32Array ? new Float32Array(data.length) : new Float64Array(data.length);
  for (const o of order) {
    const q = next[o.maj]!++;
    indices[q] = o.min;
    for (let t = 0; t < l; t++) d[q * l + t] = data[o.k * l + t]!;
  }
  const init = { indptr, indices, data: d, shape: [c.m, c.n] as [number, number], dtype: c.dtype };
  return csc ? sp.csc(init) : sp.csr(init);
}

export function ref(c: Case): Ref {
  const l = lanes(c.dtype);
  const v = new Float64Array(c.m * c.n * l);
  for (const [i, j, re, im] of c.trips) {
    v[(i * c.n + j) * l] += re;
    if (l === 2) v[(i * c.n + j) * 2 + 1] += im;
  }
  return { m: c.m, n: c.n, l, v };
}

export const toRef = (t: Tensor): Ref => {
  const [m, n] = t.shape as [number, number];
  const l = t.dtype.startsWith('complex') ? 2 : 1;
  return { m, n, l, v: Float64Array.from(t.toArray() as ArrayLike<number>) };
};

/** Widens to complex lanes. */
export function asLanes(r: Ref, l: 1 | 2): Ref {
  if (r.l === l) return r;
  const v = new Float64Array(r.m * r.n * 2);
  for (let e = 0; e < r.m * r.n; e++) v[2 * e] = r.v[e]!;
  return { ...r, l: 2, v };
}

export const get = (r: Ref, i: number, j: number): [number, number] => [r.v[(i * r.n + j) * r.l]!, r.l === 2 ? r.v[(i * r.n + j) * 2 + 1]! : 0];

export function refFrom(m: number, n: number, l: 1 | 2, f: (i: number, j: number) => [number, number]): Ref {
  const v = new Float64Array(m * n * l);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      const [re, im] = f(i, j);
      v[(i * n + j) * l] = re;
      if (l === 2) v[(i * n + j) * 2 + 1] = im;
    }
  return { m, n, l, v };
}

export const cmul = (a: [number, number], b: [number, number]): [number, number] => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];

export function refMatmul(a: Ref, b: Ref): Ref {
  const l = Math.max(a.l, b.l) as 1 | 2;
  const A = asLanes(a, l), B = asLanes(b, l);
  return refFrom(a.m, b.n, l, (i, j) => {
    let re = 0, im = 0;
    for (let k = 0; k < a.n; k++) {
      const [x, y] = cmul(get(A, i, k), get(B, k, j));
      re += x;
      im += y;
    }
    return [re, im];
  });
}

export function expectClose(actual: Ref, expected: Ref, tol = 1e-9): void {
  expect([actual.m, actual.n]).toEqual([expected.m, expected.n]);
  const l = Math.max(actual.l, expected.l) as 1 | 2;
  const a = asLanes(actual, l), e = asLanes(expected, l);
  for (let k = 0; k < a.v.length; k++) {
    if (!(Math.abs(a.v[k]! - e.v[k]!) <= tol * (1 + Math.abs(e.v[k]!)))) {
      throw new Error(`mismatch at flat ${k} (${Math.floor(k / l / a.n)}, ${Math.floor(k / l) % a.n}): got ${a.v[k]}, expected ${e.v[k]}`);
    }
  }
}

/** Structural invariants of a compressed matrix, and that its flags tell the truth. */
export function expectValid(A: sp.SparseMatrix, canonical = false): void {
  if (A.format === 'coo') return;
  const C = A as sp.CsrMatrix;
  const flags = validateCompressed(C.format, C.shape, C.indptr, C.indices, C.data.length / lanes(C.dtype));
  if (C.hasSortedIndices) expect(flags.sorted).toBe(true);
  if (C.hasCanonicalFormat) expect(flags.canonical).toBe(true);
  const single = C.dtype === 'float32' || C.dtype === 'complex64';
  expect(C.data instanceof (single ? Float32Array : Float64Array)).toBe(true);
  if (canonical) expect(C.hasCanonicalFormat).toBe(true);
}
