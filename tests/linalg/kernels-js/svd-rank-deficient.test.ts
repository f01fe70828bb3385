// The js SVD kernel on exactly rank-deficient input (issue 13): repeated rows,
// repeated columns, exact multiples and zero rows keep every later rotation in
// the same low-dimensional span, so the one-sided Jacobi's leftover column only
// shrinks by a factor eps per sweep, into the subnormals, where the convergence
// test could never be met (ConvergenceError on 262 of 300 random 3 × 3 matrices
// with two equal rows). Checked: info 0, u diag(s) vh = a, orthonormal u and v,
// the number of (near) zero singular values the structure forces, and the
// singular values against the native (LAPACK) kernel when the addon is built.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsLinalgKernels as K } from '../../../src/linalg/kernels/js/index.js';
import * as rlx from '../../../src/index.js';
import { K as nativeK, nativeAvailable } from '../kernels-native/helpers.js';
import { DTYPES, adj, alloc, fromStorage, isCplx, isSingle, maxAbs, mul, mulberry32, newStore, orthErr, randM, rounded, sub, toStorage, tolFor, zerosM, type M } from './helpers.js';

type Kind = 'dupRow' | 'dupCol' | 'multipleRow' | 'zeroRow';

/** A random m × n matrix with one exact structural dependency; returns it and its rank bound. */
function structured(kind: Kind, m: number, n: number, cplx: boolean, rnd: () => number): { a: M; rank: number } {
  const a = randM(m, n, cplx, rnd);
  const i = Math.floor(rnd() * m),
    j = (i + 1 + Math.floor(rnd() * (m - 1))) % m;
  const c0 = Math.floor(rnd() * n),
    c1 = (c0 + 1 + Math.floor(rnd() * (n - 1))) % n;
  for (let k = 0; k < n && kind !== 'dupCol'; k++) {
    // Row j becomes row i, -2 × row i (exact in every dtype), or zero.
    const f = kind === 'dupRow' ? 1 : kind === 'multipleRow' ? -2 : 0;
    a.re[j * n + k] = f * a.re[i * n + k]!;
    a.im[j * n + k] = f * a.im[i * n + k]!;
  }
  if (kind === 'dupCol')
    for (let r = 0; r < m; r++) {
      a.re[r * n + c1] = a.re[r * n + c0]!;
      a.im[r * n + c1] = a.im[r * n + c0]!;
    }
  return { a, rank: kind === 'dupCol' ? Math.min(m, n - 1) : Math.min(m - 1, n) };
}

const KINDS: Kind[] = ['dupRow', 'dupCol', 'multipleRow', 'zeroRow'];

describe.each(DTYPES)('js svd on exactly rank-deficient %s input', (dtype) => {
  const cp = isCplx(dtype),
    single = isSingle(dtype);

  it.each([false, true])('full=%s: converges, u diag(s) vh = a, orthonormal factors, forced zero singular values', (full) => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 2, max: 7 }), fc.integer({ min: 2, max: 7 }), fc.constantFrom(...KINDS), (seed, m, n, kind) => {
        const rnd = mulberry32(seed);
        const { a: a0, rank } = structured(kind, m, n, cp, rnd);
        const a = rounded(dtype, a0);
        const kk = Math.min(m, n);
        const uc = full ? m : kk,
          vr = full ? n : kk;
        const s = alloc('real', kk, single),
          s2 = alloc('real', kk, single);
        const u = newStore(dtype, m * uc),
          vh = newStore(dtype, vr * n);
        expect(Array.from(K.svd(dtype, 1, m, n, toStorage(dtype, [a]), s, u, vh, full))).toEqual([0]);
        expect(Array.from(K.svd(dtype, 1, m, n, toStorage(dtype, [a]), s2, null, null, full))).toEqual([0]);
        const tol = tolFor(dtype, Math.max(m, n));
        const scale = Math.max(1, maxAbs(a));
        for (let i = 0; i < kk; i++) {
          expect(s[i]!).toBeGreaterThanOrEqual(0);
          if (i > 0) expect(s[i]!).toBeLessThanOrEqual(s[i - 1]!);
          expect(Math.abs(s2[i]! - s[i]!)).toBeLessThanOrEqual(tol * scale);
        }
        // The structure forces kk - rank zero singular values (the last ones).
        for (let i = rank; i < kk; i++) expect(s[i]!).toBeLessThanOrEqual(tol * scale);
        const um = fromStorage(cp, u, 0, m, uc),
          vm = fromStorage(cp, vh, 0, vr, n);
        expect(orthErr(um)).toBeLessThanOrEqual(tol);
        expect(orthErr(adj(vm))).toBeLessThanOrEqual(tol);
        const us = zerosM(m, kk);
        for (let i = 0; i < m; i++)
          for (let j = 0; j < kk; j++) {
            us.re[i * kk + j] = um.re[i * uc + j]! * s[j]!;
            us.im[i * kk + j] = um.im[i * uc + j]! * s[j]!;
          }
        const vk = zerosM(kk, n);
        vk.re.set(vm.re.subarray(0, kk * n));
        vk.im.set(vm.im.subarray(0, kk * n));
        expect(maxAbs(sub(mul(us, vk), a))).toBeLessThanOrEqual(tol * scale);
        if (nativeAvailable()) {
          const sn = alloc('real', kk, single);
          expect(Array.from(nativeK().svd(dtype, 1, m, n, toStorage(dtype, [a]), sn, null, null, false))).toEqual([0]);
          for (let i = 0; i < kk; i++) expect(Math.abs(sn[i]! - s[i]!)).toBeLessThanOrEqual(tol * scale);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('norm(ord=±2) and cond on the js device with two equal rows', () => {
  // a = [[3, 1, 4], [3, 1, 4], [1, 5, 9]] has rank 2, so σ3 = 0 and, exactly,
  // σ1² + σ2² = ‖a‖_F² = 2·26 + 107 = 159 and (Cauchy–Binet) σ1² σ2² = the sum of
  // the squared 2 × 2 minors = 2 ‖(3, 1, 4) × (1, 5, 9)‖² = 2 ‖(-11, -23, 14)‖² = 1692:
  // σ1,2² = (159 ± √18513) / 2.
  const a = rlx.tensor(new Float64Array([3, 1, 4, 3, 1, 4, 1, 5, 9]), { shape: [3, 3], dtype: 'float64' }).on('js');
  it('norm(ord=2), norm(ord=-2), cond', () => {
    expect(rlx.linalg.norm(a, { ord: 2 }).item() as number).toBeCloseTo(Math.sqrt((159 + Math.sqrt(18513)) / 2), 12);
    expect(rlx.linalg.norm(a, { ord: -2 }).item() as number).toBeLessThan(1e-13);
    const c = rlx.linalg.cond(a).item() as number;
    expect(c > 1e14).toBe(true);
  });
});
