// jsSplu against a naive dense LU (helpers.ts) on random sparse matrices of every
// dtype, both input formats, every ordering and trans; model problems by residual;
// pivoting, singularity, log-determinants and multiple right-hand sides.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SingularMatrixError } from '../../../src/tensor/errors-linalg.js';
import type { SparseDType } from '../../../src/sparse/contract.js';
import { jsSplu } from '../../../src/sparse/direct/index.js';
import { ShapeError, ValueError } from '../../../src/tensor/errors.js';
import {
  convectionDiffusion,
  denseFromCsr,
  denseSolve,
  helmholtz,
  isCplx,
  mulberry32,
  opDense,
  poisson2d,
  randomSparse,
  randVec,
  relDiff,
  relResidual,
  roundTo,
  toArrays,
  zeros,
} from './helpers.js';

const DTYPES: SparseDType[] = ['float32', 'float64', 'complex64', 'complex128'];

describe('jsSplu vs dense LU on random sparse matrices', () => {
  it('solve N/T/H matches the dense solve (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0.02, max: 0.5, noNaN: true }),
        fc.constantFrom(...DTYPES),
        fc.constantFrom('csr' as const, 'csc' as const),
        fc.constantFrom('amd' as const, 'rcm' as const, 'natural' as const),
        fc.constantFrom('N' as const, 'T' as const, 'H' as const),
        fc.constantFrom('diag' as const, 'perm' as const),
        // tol 0 (any nonzero diagonal) is deliberately unstable: a diagonal that
        // cancels to ~1e-18 is taken as pivot. It is exercised on structured cases below.
        fc.constantFrom(0.1, 0.5, 1),
        (seed, n, density, dtype, format, ordering, trans, mode, tol) => {
          const rnd = mulberry32(seed);
          const c = isCplx(dtype);
          const a = roundTo(dtype, randomSparse(n, density, c, rnd, mode));
          const lu = jsSplu(toArrays(a, dtype, format), { ordering, pivotTolerance: tol });
          const b = randVec(n * (c ? 2 : 1), rnd);
          const x = lu.solve(b, { trans });
          const ref = denseSolve(opDense(a, trans), b, 1, c);
          expect(relDiff(x, ref.x)).toBeLessThan(1e-9);
          const ld = lu.logDet();
          expect(ld.logabsdet).toBeCloseTo(denseSolve(a, b, 1, c).logabsdet, 8);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('logDet sign matches the dense determinant (real and complex)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 25 }), fc.boolean(), (seed, n, c) => {
        const rnd = mulberry32(seed);
        const a = randomSparse(n, 0.2, c, rnd, 'perm');
        const dtype = c ? 'complex128' : 'float64';
        const ld = jsSplu(toArrays(a, dtype, 'csr')).logDet();
        const ref = denseSolve(a, new Float64Array(n * (c ? 2 : 1)), 1, c);
        expect(ld.logabsdet).toBeCloseTo(ref.logabsdet, 9);
        if (c) {
          const [sr, sm] = ld.sign as [number, number];
          expect(sr).toBeCloseTo(ref.sign[0], 9);
          expect(sm).toBeCloseTo(ref.sign[1], 9);
        } else expect(ld.sign).toBe(ref.sign[0]);
      }),
      { numRuns: 100 },
    );
  });
});

describe('model problems', () => {
  it('poisson2d(30): residual, every ordering, CSR and CSC agree', () => {
    const a = poisson2d(30);
    const rnd = mulberry32(7);
    const b = randVec(900, rnd);
    const xs = (['amd', 'rcm', 'natural'] as const).map((ordering) => {
      const x = jsSplu(a, { ordering }).solve(b);
      expect(relResidual(a, x, b)).toBeLessThan(1e-12);
      return x;
    });
    expect(relDiff(xs[1], xs[0])).toBeLessThan(1e-11);
    expect(relDiff(xs[2], xs[0])).toBeLessThan(1e-11);
    // Poisson is symmetric: its CSR arrays are also its CSC arrays.
    const xc = jsSplu({ ...a, format: 'csc' }).solve(b);
    expect(relDiff(xc, xs[0])).toBeLessThan(1e-11);
  });

  it('convection–diffusion (non-symmetric): N and T residuals, T differs from N', () => {
    const a = convectionDiffusion(25, 3);
    const n = 625;
    const rnd = mulberry32(11);
    const b = randVec(n, rnd);
    const lu = jsSplu(a);
    const xn = lu.solve(b);
    const xt = lu.solve(b, { trans: 'T' });
    expect(relResidual(a, xn, b, 'N')).toBeLessThan(1e-12);
    expect(relResidual(a, xt, b, 'T')).toBeLessThan(1e-12);
    expect(relDiff(xt, xn)).toBeGreaterThan(1e-3);
  });

  it('complex Helmholtz: N, T, H residuals', () => {
    const a = helmholtz(20, 30, 0.05);
    const n = 400;
    const rnd = mulberry32(12);
    const b = randVec(2 * n, rnd);
    const lu = jsSplu(a);
    for (const trans of ['N', 'T', 'H'] as const) expect(relResidual(a, lu.solve(b, { trans }), b, trans)).toBeLessThan(1e-11);
    expect(relDiff(lu.solve(b, { trans: 'T' }), lu.solve(b, { trans: 'H' }))).toBeGreaterThan(1e-3);
  });

  it('fill: AMD and RCM beat natural order on poisson2d(30); AMD beats RCM', () => {
    const a = poisson2d(30);
    const fill = (ordering: 'amd' | 'rcm' | 'natural') => {
      const lu = jsSplu(a, { ordering });
      return lu.nnzL + lu.nnzU;
    };
    const nat = fill('natural'),
      rcm = fill('rcm'),
      amd = fill('amd');
    expect(rcm).toBeLessThan(nat);
    expect(amd).toBeLessThan(nat * 0.6);
    expect(amd).toBeLessThan(rcm);
  });
});

describe('pivoting', () => {
  it('zero diagonal [[0,1],[1,0]] blocks need off-diagonal pivots', () => {
    const n = 10;
    const a = zeros(n);
    for (let i = 0; i < n; i += 2) {
      a.re[i * n + i + 1] = 1 + i;
      a.re[(i + 1) * n + i] = 2;
      if (i + 2 < n) a.re[i * n + i + 2] = 0.5;
    }
    for (const ordering of ['natural', 'amd', 'rcm'] as const)
      for (const pivotTolerance of [0, 0.1, 1]) {
        const lu = jsSplu(toArrays(a, 'float64', 'csr'), { ordering, pivotTolerance });
        const b = randVec(n, mulberry32(3));
        expect(relDiff(lu.solve(b), denseSolve(a, b, 1, false).x)).toBeLessThan(1e-13);
        expect(lu.permutations.pinv.some((k, i) => k !== lu.permutations.q.indexOf(i))).toBe(true);
      }
  });

  it('tiny diagonal: threshold pivoting takes the large off-diagonal, tol 0 keeps the diagonal', () => {
    // [[1e-3, 1], [1, 1]]: |diag| = 1e-3 < 0.1 · 1, so the default swaps rows.
    const a = zeros(2);
    a.re.set([1e-3, 1, 1, 1]);
    const arr = toArrays(a, 'float64', 'csr');
    const swapped = jsSplu(arr, { ordering: 'natural' });
    expect(Array.from(swapped.permutations.pinv)).toEqual([1, 0]);
    const kept = jsSplu(arr, { ordering: 'natural', pivotTolerance: 0 });
    expect(Array.from(kept.permutations.pinv)).toEqual([0, 1]);
    const b = Float64Array.from([1, 2]);
    const ref = denseSolve(a, b, 1, false).x;
    expect(relDiff(swapped.solve(b), ref)).toBeLessThan(1e-14);
    expect(relDiff(kept.solve(b), ref)).toBeLessThan(1e-12);
  });
});

describe('singular matrices', () => {
  it('an empty column is structurally singular and names that column', () => {
    const a = zeros(4);
    a.re.set([1, 2, 0, 0, 3, 4, 0, 1, 0, 5, 0, 0, 1, 0, 0, 1]);
    try {
      jsSplu(toArrays(a, 'float64', 'csr'), { ordering: 'natural' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SingularMatrixError);
      expect((e as SingularMatrixError).op).toBe('splu');
      expect((e as SingularMatrixError).index).toBe(2);
    }
  });

  it('structural rank deficiency without an empty column', () => {
    // columns 1 and 2 live only in row 2: structural rank 2
    const a = zeros(3);
    a.re.set([1, 0, 0, 1, 0, 0, 1, 1, 1]);
    for (const ordering of ['natural', 'amd', 'rcm'] as const)
      expect(() => jsSplu(toArrays(a, 'float64', 'csc'), { ordering })).toThrow(SingularMatrixError);
  });

  it('numerically singular (dependent rows, exact cancellation), real and complex', () => {
    const a = zeros(3);
    a.re.set([1, 2, 3, 2, 4, 6, 1, 0, 1]);
    expect(() => jsSplu(toArrays(a, 'float64', 'csr'))).toThrow(SingularMatrixError);
    a.im.set([1, 1, 0, 2, 2, 0, 0, 0, 1]);
    expect(() => jsSplu(toArrays(a, 'complex128', 'csr'))).toThrow(SingularMatrixError);
    // explicit stored zeros are structural entries, still singular numerically
    const z = zeros(2);
    expect(() => jsSplu(toArrays(z, 'float64', 'csr', () => true))).toThrow(/pivot/);
  });
});

describe('right-hand sides and API', () => {
  it('multiple right-hand sides (n×k row-major) equal column-by-column solves', () => {
    for (const c of [false, true]) {
      const rnd = mulberry32(21);
      const n = 30,
        k = 4;
      const a = randomSparse(n, 0.1, c, rnd, 'perm');
      const lu = jsSplu(toArrays(a, c ? 'complex128' : 'float64', 'csr'));
      const per = c ? 2 : 1;
      const B = randVec(n * k * per, rnd);
      for (const trans of ['N', 'T', 'H'] as const) {
        const X = lu.solve(B, { trans });
        expect(relDiff(X, denseSolve(opDense(a, trans), B, k, c).x)).toBeLessThan(1e-10);
        const col = new Float64Array(n * per);
        for (let i = 0; i < n; i++) for (let r = 0; r < per; r++) col[i * per + r] = B[(i * k + 2) * per + r];
        const x2 = lu.solve(col, { trans });
        for (let i = 0; i < n; i++) for (let r = 0; r < per; r++) expect(X[(i * k + 2) * per + r]).toBe(x2[i * per + r]);
      }
    }
  });

  it('nnz counts, dispose, bad shapes and options', () => {
    const a = poisson2d(5);
    const lu = jsSplu(a, { ordering: 'natural' });
    // banded: L has the band below, U above, each with the diagonal
    const dense = denseFromCsr(a);
    expect(dense.n).toBe(25);
    expect(lu.nnzL).toBeGreaterThanOrEqual(25 + 40);
    expect(lu.nnzU).toBeGreaterThanOrEqual(25 + 40);
    expect(() => lu.solve(new Float64Array(24))).toThrow(ShapeError);
    lu.dispose();
    expect(() => lu.solve(new Float64Array(25))).toThrow(/disposed/);
    expect(() => jsSplu({ ...a, shape: [25, 24] })).toThrow(ShapeError);
    expect(() => jsSplu(a, { pivotTolerance: 2 })).toThrow(ValueError);
    expect(() => jsSplu(a, { ordering: 'colamd' as never })).toThrow(ValueError);
    const bad = { ...a, indices: a.indices.slice() };
    bad.indices[3] = 99;
    expect(() => jsSplu(bad)).toThrow(ValueError);
  });

  it('duplicates are summed; float32 input is promoted', () => {
    const a = {
      shape: [2, 2] as [number, number],
      dtype: 'float32' as const,
      indptr: Int32Array.from([0, 3, 4]),
      indices: Int32Array.from([0, 1, 0, 1]),
      data: Float32Array.from([1, 2, 1, 3]),
      format: 'csr' as const,
    };
    // A = [[2, 2], [0, 3]]
    const x = jsSplu(a).solve(Float64Array.from([4, 3]));
    expect(Array.from(x)).toEqual([1, 1]);
    expect(jsSplu(a).logDet()).toEqual({ sign: 1, logabsdet: Math.log(6) });
  });

  it('0×0 and 1×1', () => {
    const e = jsSplu({ shape: [0, 0], dtype: 'float64', indptr: Int32Array.from([0]), indices: new Int32Array(0), data: new Float64Array(0) });
    expect(e.solve(new Float64Array(0)).length).toBe(0);
    expect(e.logDet()).toEqual({ sign: 1, logabsdet: 0 });
    const one = jsSplu({ shape: [1, 1], dtype: 'complex128', indptr: Int32Array.from([0, 1]), indices: Int32Array.from([0]), data: Float64Array.from([0, 2]) });
    expect(Array.from(one.solve(Float64Array.from([2, 0])))).toEqual([0, -1]);
    expect(Array.from(one.solve(Float64Array.from([2, 0]), { trans: 'H' }), (v) => v + 0)).toEqual([0, 1]);
  });
});

describe('scaling', () => {
  it('complex pivots near the overflow / underflow limits', () => {
    for (const s of [1e-160, 1e160]) {
      // (s·A) x = s·b has the x of A x = b; the dense reference runs unscaled
      // (its own |pivot|² would over/underflow).
      const a = zeros(3);
      a.re.set([2, 1, 0, 1, 3, 1, 0, 1, 4]);
      a.im.set([1, 0, 0, 0, -1, 0, 0, 0, 2]);
      const as = { n: 3, re: a.re.map((v) => v * s), im: a.im.map((v) => v * s) };
      const lu = jsSplu(toArrays(as, 'complex128', 'csr'));
      const b = Float64Array.from([1, 0, 2, 1, 0, -1]);
      const x = lu.solve(b.map((v) => v * s));
      expect(x.every(Number.isFinite)).toBe(true);
      expect(relDiff(x, denseSolve(a, b, 1, true).x)).toBeLessThan(1e-13);
    }
  });
});
