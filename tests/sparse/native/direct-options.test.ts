// UMFPACK's controls (strategy, ordering, refinement) through sparse.splu and
// umfpackFactor: every combination solves non-symmetric real and complex
// systems (trans N/T/H) to a small residual against a dense reference,
// refinement brings the componentwise backward error to a few ulps where one
// unrefined solve does not, singular matrices stay SingularMatrixError, bad
// options are typed errors. KLU's logDet on matrices with a block triangular
// form, row scaling and permutations, and after refactor.

import { expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import { kluFactor, umfpackFactor } from '../../../src/sparse/kernels/native-direct.js';
import type { CompressedArrays, SparseDType } from '../../../src/sparse/contract.js';
import { SingularMatrixError } from '../../../src/tensor/errors-linalg.js';
import { denseLogDet, denseMul, describeNative, fromDense, itUmfpack, maxAbs, maxDiff, per, poisson2d, rng, toC, toDense } from './util.js';

const STRATEGIES = ['auto', 'symmetric', 'unsymmetric'] as const;
const ORDERINGS = ['amd', 'metis', 'cholmod', 'best', 'natural'] as const;
const CODES = { strategy: { auto: 0, unsymmetric: 1, symmetric: 3 }, ordering: { cholmod: 0, amd: 1, metis: 3, best: 4, natural: 5 } } as const;

/** A random non-symmetric matrix with a weak (sometimes zero) diagonal, dense form complex-interleaved. */
function randomNonsym(n: number, dtype: SparseDType, seed: number): { a: CompressedArrays; dense: Float64Array } {
  const r = rng(seed);
  const p = per(dtype);
  const d = new Float64Array(n * n * p);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      if (i !== j && r() < 0.6) continue;
      if (i === j && i % 3 === 0) continue; // zero diagonal entries force off-diagonal pivots
      for (let q = 0; q < p; q++) d[(i * n + j) * p + q] = r() - 0.5;
    }
  const a = fromDense(d, n, n, dtype);
  return { a, dense: toDense(a) };
}

const randB = (n: number, dtype: SparseDType, seed: number) => {
  const r = rng(seed);
  return Float64Array.from({ length: n * per(dtype) }, () => r() - 0.5);
};

/** ‖op(A) x − b‖∞ / (‖A‖ ‖x‖ n + ‖b‖), dense A. */
function relResidual(dense: Float64Array, n: number, x: Float64Array, b: Float64Array, dtype: SparseDType, op: 'N' | 'T' | 'H') {
  const Ax = denseMul(dense, n, n, toC(x, dtype), 1, op);
  return maxDiff(Ax, toC(b, dtype)) / (maxAbs(dense) * maxAbs(x) * n + maxAbs(b));
}

/** max_i |A x − b|_i / (|A| |x| + |b|)_i for real CSR A. */
function backwardError(a: CompressedArrays, x: Float64Array, b: Float64Array): number {
  let w = 0;
  for (let i = 0; i < a.shape[0]; i++) {
    let s = b[i]!,
      m = Math.abs(b[i]!);
    for (let q = a.indptr[i]!; q < a.indptr[i + 1]!; q++) (s -= a.data[q]! * x[a.indices[q]!]!), (m += Math.abs(a.data[q]! * x[a.indices[q]!]!));
    if (s !== 0) w = Math.max(w, Math.abs(s) / m);
  }
  return w;
}

describeNative('UMFPACK controls and KLU log-determinants', () => {
  itUmfpack('every strategy x ordering solves non-symmetric real and complex systems (N/T/H) vs a dense reference', () => {
    for (const dtype of ['float64', 'complex128'] as const)
      for (const seed of [1, 2]) {
        const n = 30;
        const { a, dense } = randomNonsym(n, dtype, seed);
        const b = randB(n, dtype, seed + 10);
        const want = denseLogDet(dense, n);
        for (const strategy of STRATEGIES)
          for (const ordering of ORDERINGS) {
            const f = umfpackFactor(a, { strategy: CODES.strategy[strategy], ordering: CODES.ordering[ordering] });
            for (const trans of dtype === 'float64' ? (['N', 'T'] as const) : (['N', 'T', 'H'] as const))
              expect(relResidual(dense, n, f.solve(b, { trans }), b, dtype, trans), `${dtype} ${strategy} ${ordering} ${trans}`).toBeLessThan(1e-14);
            expect(f.logDet().logabsdet).toBeCloseTo(want.logabsdet, 9);
            f.dispose();
          }
      }
  });

  itUmfpack('refinement: an unrefined unsymmetric-strategy solve of a Poisson matrix is refined to a backward error of a few ulps', () => {
    const a = poisson2d(60);
    const n = a.shape[0];
    const b = randB(n, 'float64', 3);
    const eps = 2 ** -52;
    const omega = (strategy: number, refine: number) => {
      const f = umfpackFactor(a, { strategy, refine });
      const w = backwardError(a, f.solve(b), b);
      f.dispose();
      return w;
    };
    for (const strategy of [0, 1, 3]) expect(omega(strategy, 2), `strategy ${strategy}`).toBeLessThanOrEqual(8 * eps);
    // without refinement the unsymmetric strategy (COLAMD on AᵀA, free row pivots) is measurably worse here
    const raw = omega(1, 0);
    expect(raw).toBeGreaterThan(omega(1, 2));
    // the public API takes the same options
    const A = rlx.sparse.csr({ indptr: a.indptr, indices: a.indices, data: a.data as Float64Array, shape: [n, n] });
    for (const strategy of STRATEGIES) {
      const F = rlx.sparse.splu(A, { strategy, ordering: 'amd', refine: 2 });
      expect(backwardError(a, F.solveRaw(b), b), strategy).toBeLessThanOrEqual(8 * eps);
      F.dispose();
    }
  });

  itUmfpack('singular matrices throw SingularMatrixError under every strategy', () => {
    const n = 6;
    const d = new Float64Array(n * n);
    for (let i = 0; i < n; i++) if (i !== 3) (d[i * n + i] = 2), (d[i * n + ((i + 1) % n)] = 1);
    const A = rlx.sparse.csr(fromDense(d, n, n, 'float64') as Parameters<typeof rlx.sparse.csr>[0]);
    const twin = rlx.sparse.csr(fromDense([1, 2, 0, 1, 2, 0, 0, 0, 5], 3, 3, 'float64') as Parameters<typeof rlx.sparse.csr>[0]);
    for (const strategy of STRATEGIES) {
      expect(() => rlx.sparse.splu(A, { strategy }), strategy).toThrow(SingularMatrixError);
      expect(() => rlx.sparse.splu(twin, { strategy }), strategy).toThrow(SingularMatrixError);
    }
  });

  itUmfpack('bad controls are typed errors naming the option and the choices', () => {
    const A = rlx.sparse.poisson2d(3);
    expect(() => rlx.sparse.splu(A, { strategy: 'diagonal' as never })).toThrow(rlx.ValueError);
    expect(() => rlx.sparse.splu(A, { strategy: 'diagonal' as never })).toThrow(/strategy must be one of 'auto', 'unsymmetric', 'symmetric', got "diagonal"/);
    expect(() => rlx.sparse.splu(A, { ordering: 'colamd' as never })).toThrow(/ordering must be one of .*'metis'.* got "colamd"/);
    for (const refine of [-1, 1.5, NaN, 101]) expect(() => rlx.sparse.splu(A, { refine }), String(refine)).toThrow(/refine must be an integer in \[0, 100\]/);
    // the addon checks the codes too (2 is UMFPACK's obsolete 2-by-2 strategy and its "given" ordering)
    const a = poisson2d(3);
    expect(() => umfpackFactor(a, { strategy: 2 })).toThrow(/strategy must be 0 \(auto\), 1 \(unsymmetric\) or 3 \(symmetric\)/);
    expect(() => umfpackFactor(a, { ordering: 2 })).toThrow(/ordering must be/);
    expect(() => umfpackFactor(a, { refine: -1 })).toThrow(/refine/);
  });

  it('klu logDet matches a dense LU: block triangular, row-scaled, permuted, real and complex, and after refactor', () => {
    for (const dtype of ['float64', 'complex128'] as const)
      for (const seed of [1, 2, 3]) {
        const n = 16;
        const r = rng(seed);
        const p = per(dtype);
        const d = new Float64Array(n * n * p);
        // upper block triangular in a shuffled order (KLU's BTF finds the blocks), rows of very different scales
        const perm = Array.from({ length: n }, (_, i) => i).sort(() => r() - 0.5);
        const block = (i: number) => Math.floor(i / 4);
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) {
            if (block(j) < block(i) || (i !== j && r() < 0.5)) continue;
            for (let q = 0; q < p; q++) d[(perm[i]! * n + j) * p + q] = (r() - 0.5) * 10 ** (perm[i]! % 4);
          }
        const a = fromDense(d, n, n, dtype);
        const want = denseLogDet(toDense(a), n);
        const f = kluFactor(a);
        const got = f.logDet();
        expect(got.logabsdet).toBeCloseTo(want.logabsdet, 9);
        expect(got.sign).toBeCloseTo(want.sign, 9);
        expect(got.signIm).toBeCloseTo(want.signIm, 9);
        // new values, same pattern
        const data2 = (a.data as Float64Array).map((v, k) => v * (1 + 0.5 * Math.sin(k)));
        f.refactor(data2);
        const want2 = denseLogDet(toDense({ ...a, data: data2 }), n);
        expect(f.logDet().logabsdet).toBeCloseTo(want2.logabsdet, 9);
        expect(f.logDet().sign).toBeCloseTo(want2.sign, 9);
        f.dispose();
      }
  });
});
