// PDE builders: the documented stencils, boundary conditions and structural
// properties (symmetry, null spaces, M-matrix signs, reduction to poisson2d); the
// CSR arrays bit-identical to a triplet reference; refusal of sizes that cannot fit.

import { describe, expect, it } from 'vitest';
import * as sp from '../../../src/sparse/index.js';
import { expectValid, toRef, expectClose } from './helpers.js';
import * as ref from './builders-ref.js';
import { ValueError } from '../../../src/tensor/errors.js';

function mulberry(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const dense = (A: sp.CsrMatrix): number[][] => A.toDense().tolist() as number[][];
const rowSums = (A: sp.CsrMatrix): number[] => Array.from(sp.raw.matvec(A, new Float64Array(A.shape[1]).fill(1)));
const isSym = (A: sp.CsrMatrix): boolean => A.sub(A.transpose()).nnz === 0;

describe('poisson', () => {
  it('1-D stencils for each boundary condition', () => {
    expect(dense(sp.poisson1d(3))).toEqual([[2, -1, 0], [-1, 2, -1], [0, -1, 2]]);
    expect(dense(sp.poisson1d(3, { bc: 'neumann' }))).toEqual([[1, -1, 0], [-1, 2, -1], [0, -1, 1]]);
    expect(dense(sp.poisson1d(4, { bc: 'periodic' }))).toEqual([[2, -1, 0, -1], [-1, 2, -1, 0], [0, -1, 2, -1], [-1, 0, -1, 2]]);
    expect(dense(sp.poisson1d(2, { bc: 'periodic' }))).toEqual([[2, -2], [-2, 2]]);
    expect(sp.poisson1d(1, { bc: 'periodic' }).nnz).toBe(0);
    expect(dense(sp.poisson1d(1, { bc: 'neumann' }))).toEqual([[0]].map((r) => r.map(() => 0)));
    expect(sp.poisson1d(0).shape).toEqual([0, 0]);
    expect(() => sp.poisson1d(3, { bc: 'robin' as never })).toThrow(/bc must be/);
  });
  it('2-D and 3-D: diagonals 4 / 6, symmetric, Neumann and periodic rows sum to zero', () => {
    for (const bc of ['dirichlet', 'neumann', 'periodic'] as const) {
      const A2 = sp.poisson2d(5, { bc }), A3 = sp.poisson3d(4, { bc });
      for (const A of [A2, A3]) {
        expectValid(A, true);
        expect(isSym(A)).toBe(true);
        if (bc !== 'dirichlet') expect(rowSums(A).every((s) => s === 0)).toBe(true);
      }
      expect(Array.from(A2.diagonalRaw()).every((d) => (bc === 'neumann' ? d >= 2 && d <= 4 : d === 4))).toBe(true);
      expect(Array.from(A3.diagonalRaw()).every((d) => (bc === 'neumann' ? d >= 3 && d <= 6 : d === 6))).toBe(true);
    }
    // Dirichlet: 5-point stencil counts: n² diagonal + 4n(n−1) neighbours.
    expect(sp.poisson2d(5).nnz).toBe(25 + 4 * 5 * 4);
    expect(sp.poisson3d(4).nnz).toBe(64 + 6 * 16 * 3);
    expect(sp.poisson2d(4, { bc: 'periodic' }).nnz).toBe(16 * 5);
  });
});

describe('variable coefficients', () => {
  it('diffusion2d with κ ≡ 1 is poisson2d, and uses harmonic means', () => {
    expectClose(toRef(sp.diffusion2d(() => 1, 4).toDense()), toRef(sp.poisson2d(4).toDense()), 0);
    const kappa = Float64Array.from({ length: 9 }, (_, p) => 1 + p);
    const A = sp.diffusion2d(kappa, 3);
    expectValid(A, true);
    expect(isSym(A)).toBe(true);
    const entry = (i: number, j: number): number => (A.toDense().tolist() as number[][])[i]![j]!;
    expect(entry(0, 1)).toBeCloseTo((-2 * 1 * 2) / 3, 14);
    expect(entry(0, 3)).toBeCloseTo((-2 * 1 * 4) / 5, 14);
    // Boundary faces of point 0 use κ₀ = 1 twice (left and bottom).
    expect(entry(0, 0)).toBeCloseTo(2 + 4 / 3 + 8 / 5, 14);
    // Function κ is evaluated at ((ix+1)h, (iy+1)h).
    const seen: [number, number][] = [];
    sp.diffusion2d((x, y) => (seen.push([x, y]), 1), 2);
    expect(seen).toEqual([[1 / 3, 1 / 3], [2 / 3, 1 / 3], [1 / 3, 2 / 3], [2 / 3, 2 / 3]]);
    expect(() => sp.diffusion2d(new Float64Array(3), 2)).toThrow(/kappa has 3 values, expected n² = 4/);
    expect(() => sp.diffusion2d(() => 0, 2)).toThrow(/kappa must be finite and > 0/);
  });

  it('convectionDiffusion2d is an upwind M-matrix, non-symmetric, poisson2d at Pe = 0', () => {
    expectClose(toRef(sp.convectionDiffusion2d(4, { peclet: 0 }).toDense()), toRef(sp.poisson2d(4).toDense()), 0);
    const n = 4, h = 1 / 5, pe = 10;
    const A = sp.convectionDiffusion2d(n, { peclet: pe });
    expectValid(A, true);
    expect(isSym(A)).toBe(false);
    const D = A.toDense().tolist() as number[][];
    const p = 1 * n + 1;
    expect(D[p]![p]).toBeCloseTo(4 + 2 * pe * h, 14);
    expect(D[p]![p - 1]).toBeCloseTo(-1 - pe * h, 14); // upwind in x (wind +x)
    expect(D[p]![p + 1]).toBe(-1);
    expect(D[p]![p - n]).toBeCloseTo(-1 - pe * h, 14);
    expect(D[p]![p + n]).toBe(-1);
    for (let i = 0; i < n * n; i++) for (let j = 0; j < n * n; j++) if (i !== j) expect(D[i]![j]).toBeLessThanOrEqual(0);
    const B = sp.convectionDiffusion2d(n, { peclet: pe, wind: [-1, 0] }).toDense().tolist() as number[][];
    expect(B[p]![p + 1]).toBeCloseTo(-1 - pe * h, 14);
    expect(B[p]![p - n]).toBe(-1);
  });

  it('helmholtz2d is complex symmetric: poisson2d − (kh)²(1 + i·damping)·I', () => {
    const n = 3, k = 6, s = (k / 4) ** 2;
    const A = sp.helmholtz2d(n, k, { damping: 0.5 });
    expectValid(A, true);
    expect(A.dtype).toBe('complex128');
    expect(A.sub(A.transpose()).nnz).toBe(0);
    expect(A.sub(A.conjTranspose()).nnz).toBe(9);
    const d = A.diagonalRaw();
    for (let i = 0; i < 9; i++) expect([d[2 * i], d[2 * i + 1]]).toEqual([4 - s, -s * 0.5]);
    expect(A.nnz).toBe(sp.poisson2d(n).nnz);
  });
});

/** Same shape, dtype, flags and arrays, values compared with Object.is (so −0 ≠ 0 and NaN = NaN). */
function expectBitIdentical(A: sp.CsrMatrix, R: sp.CsrMatrix, what: string): void {
  expect([A.shape, A.dtype, A.hasCanonicalFormat], what).toEqual([R.shape, R.dtype, true]);
  expect(Array.from(A.indptr), what).toEqual(Array.from(R.indptr));
  expect(Array.from(A.indices), what).toEqual(Array.from(R.indices));
  expect(A.data.constructor, what).toBe(R.data.constructor);
  const a = A.data, r = R.data;
  expect(a.length, what).toBe(r.length);
  for (let t = 0; t < a.length; t++) if (!Object.is(a[t], r[t])) expect.fail(`${what}: data[${t}] = ${a[t]}, reference ${r[t]}`);
}

describe('builders fill CSR arrays bit-identical to a triplet reference', () => {
  const BCS = ['dirichlet', 'neumann', 'periodic'] as const;
  it('poisson1d/2d/3d, every boundary condition, n = 0…9 (2-D/3-D up to 7)', () => {
    for (const bc of BCS) {
      for (let n = 0; n <= 9; n++) expectBitIdentical(sp.poisson1d(n, { bc }), ref.refPoisson1d(n, bc), `poisson1d(${n}, ${bc})`);
      for (let n = 0; n <= 7; n++) expectBitIdentical(sp.poisson2d(n, { bc }), ref.refPoisson2d(n, bc), `poisson2d(${n}, ${bc})`);
      for (let n = 0; n <= 5; n++) expectBitIdentical(sp.poisson3d(n, { bc }), ref.refPoisson3d(n, bc), `poisson3d(${n}, ${bc})`);
    }
    expect(sp.poisson1d(3).dtype).toBe('float64');
  });

  it('diffusion2d with random, tiny (underflowing), huge and jumping κ', () => {
    const rnd = mulberry(5);
    const kinds: [string, (p: number) => number][] = [
      ['random', () => 0.01 + 10 * rnd()],
      ['tiny', () => 1e-200 * (1 + rnd())], // 2κpκq underflows to 0: couplings −0
      ['huge', () => 1e300 * (1 + rnd())], // 2κpκq overflows: NaN couplings
      ['jumps', (p) => (p % 3 === 0 ? 1e6 : 1e-3)],
    ];
    for (let n = 0; n <= 7; n++)
      for (const [name, f] of kinds) {
        const k = Float64Array.from({ length: n * n }, (_, p) => f(p));
        expectBitIdentical(sp.diffusion2d(k, n), ref.refDiffusion2d(k, n), `diffusion2d(${name}, ${n})`);
      }
    const kf = (x: number, y: number): number => 1 + x * x + Math.sin(7 * y);
    const n = 6, h = 1 / 7;
    const k = Float64Array.from({ length: n * n }, (_, p) => kf(((p % n) + 1) * h, (Math.floor(p / n) + 1) * h));
    expectBitIdentical(sp.diffusion2d(kf, n), ref.refDiffusion2d(k, n), 'diffusion2d(function)');
  });

  it('convectionDiffusion2d for winds in every direction and Péclet numbers', () => {
    const winds: [number, number][] = [[1, 1], [-1, 0], [0, -2], [0.3, -0.7], [-5, 3], [0, 0]];
    for (let n = 0; n <= 7; n++)
      for (const pe of [0, 1, 10, -3, 1e-9])
        for (const w of winds) expectBitIdentical(sp.convectionDiffusion2d(n, { peclet: pe, wind: w }), ref.refConvectionDiffusion2d(n, pe, w), `convectionDiffusion2d(${n}, ${pe}, ${w})`);
    expectBitIdentical(sp.convectionDiffusion2d(5), ref.refConvectionDiffusion2d(5, 1, [1, 1]), 'defaults');
  });

  it('helmholtz2d (complex128), including k = 0, a cancelling diagonal (kh = 2) and huge k', () => {
    for (let n = 0; n <= 6; n++)
      for (const k of [0, 1, 6.5, 2 * (n + 1), -3, 1e200])
        for (const damping of [0, 0.5, -2]) expectBitIdentical(sp.helmholtz2d(n, k, { damping }), ref.refHelmholtz2d(n, k, damping), `helmholtz2d(${n}, ${k}, ${damping})`);
    expect(sp.helmholtz2d(3, 8).nnz).toBe(4 * 3 * 2); // kh = 2, damping 0: the diagonal cancels
  });
});

describe('sizes that cannot be built are refused before allocating', () => {
  it('a ValueError naming the builder, the size and the int32 limit, at once', () => {
    const cases: [() => unknown, RegExp][] = [
      [() => sp.poisson1d(1e9), /^poisson1d: n = 1000000000 gives 2999999998 stored entries, more than the int32 index limit 2147483647/],
      [() => sp.poisson1d(3e9), /^poisson1d: n = 3000000000 gives 3000000000 rows, more than the int32 index limit/],
      [() => sp.poisson2d(30000, { bc: 'periodic' }), /^poisson2d: n = 30000 gives 4500000000 stored entries/],
      [() => sp.poisson3d(1000), /^poisson3d: n = 1000 gives \d+ stored entries, more than the int32 index limit/],
      [() => sp.diffusion2d(() => 1, 50000), /^diffusion2d: n = 50000 gives 2500000000 rows/],
      [() => sp.diffusion2d(() => 1, 30000), /^diffusion2d: n = 30000 gives 4499880000 stored entries/],
      [() => sp.convectionDiffusion2d(30000), /^convectionDiffusion2d: n = 30000 gives 4499880000 stored entries/],
      [() => sp.helmholtz2d(30000, 1), /^helmholtz2d: n = 30000 gives 4499880000 stored entries/],
    ];
    const t0 = performance.now();
    const before = process.memoryUsage().arrayBuffers;
    let calls = 0;
    for (const [f, re] of cases) {
      let err: unknown;
      try {
        f();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ValueError);
      expect((err as Error).message).toMatch(re);
    }
    // κ is not evaluated for a refused size.
    expect(() => sp.diffusion2d(() => (calls++, 1), 40000)).toThrow(ValueError);
    expect(calls).toBe(0);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1 << 20);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});
