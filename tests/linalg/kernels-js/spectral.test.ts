// Identities of the js eigh, svd, eig and lstsq kernels on random matrices of
// every dtype: a v = v diag(w) with orthonormal v, u diag(s) vh = a with
// orthonormal u and v (thin and full, tall and wide, rank-deficient), and the
// normal equations aᴴ (a x - b) = 0 for least squares. The expected sides use
// the naive algebra in helpers.ts.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsLinalgKernels as K } from '../../../src/linalg/kernels/js/index.js';
import { DTYPES, adj, alloc, fromStorage, hermitian, isCplx, isSingle, maxAbs, mul, mulberry32, newStore, orthErr, randM, rounded, scaleCols, sub, toStorage, tolFor, zerosM, type M } from './helpers.js';

const RUNS = 20;
const seedArb = fc.integer({ min: 1, max: 2 ** 31 - 1 });

/** A random m x n matrix of rank at most r (product of m x r and r x n). */
function lowRank(m: number, n: number, r: number, cplx: boolean, rnd: () => number): M {
  return mul(randM(m, r, cplx, rnd), randM(r, n, cplx, rnd));
}

describe.each(DTYPES)('%s', (dtype) => {
  const cp = isCplx(dtype),
    single = isSingle(dtype);

  it.each([true, false])('eigh lower=%s: a v = v diag(w), vᴴ v = I, w ascending, values-only agrees', (lower) => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 2 }), (seed, n, b) => {
        const rnd = mulberry32(seed);
        const hs = Array.from({ length: b }, () => hermitian(n, cp, rnd));
        // Garbage in the unread triangle must not matter.
        const st = hs.map((h) => {
          const g = zerosM(n, n);
          g.re.set(h.re);
          g.im.set(h.im);
          for (let i = 0; i < n; i++)
            for (let j = 0; j < n; j++)
              if (lower ? j > i : j < i) {
                g.re[i * n + j] = 99;
                g.im[i * n + j] = -7;
              }
          return g;
        });
        const w = alloc('real', b * n, single),
          w2 = alloc('real', b * n, single),
          v = newStore(dtype, b * n * n);
        expect(Array.from(K.eigh(dtype, b, n, toStorage(dtype, st), w, v, lower))).toEqual(new Array(b).fill(0));
        K.eigh(dtype, b, n, toStorage(dtype, st), w2, null, lower);
        for (let e = 0; e < b; e++) {
          const a = rounded(dtype, hs[e]!);
          const vm = fromStorage(cp, v, e, n, n);
          const we = Array.from(w.subarray(e * n, e * n + n));
          const tol = tolFor(dtype, n);
          for (let i = 1; i < n; i++) expect(we[i]!).toBeGreaterThanOrEqual(we[i - 1]!);
          for (let i = 0; i < n; i++) expect(Math.abs(w2[e * n + i]! - we[i]!)).toBeLessThanOrEqual(tol * n);
          expect(orthErr(vm)).toBeLessThanOrEqual(tol);
          expect(maxAbs(sub(mul(a, vm), scaleCols(vm, we)))).toBeLessThanOrEqual(tol * n);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it.each([false, true])('svd full=%s: u diag(s) vh = a, orthonormal u and v, s descending >= 0', (full) => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 8 }), (seed, m, n, rk) => {
        const rnd = mulberry32(seed);
        const b = 2;
        // Entry 0 full rank, entry 1 of rank min(rk, m, n) (possibly zero).
        const as = [randM(m, n, cp, rnd), rk >= Math.min(m, n) ? randM(m, n, cp, rnd) : rk === 0 ? zerosM(m, n) : lowRank(m, n, rk, cp, rnd)];
        const kk = Math.min(m, n);
        const uc = full ? m : kk,
          vr = full ? n : kk;
        const s = alloc('real', b * kk, single),
          s2 = alloc('real', b * kk, single);
        const u = newStore(dtype, b * m * uc),
          vh = newStore(dtype, b * vr * n);
        expect(Array.from(K.svd(dtype, b, m, n, toStorage(dtype, as), s, u, vh, full))).toEqual([0, 0]);
        expect(Array.from(K.svd(dtype, b, m, n, toStorage(dtype, as), s2, null, null, full))).toEqual([0, 0]);
        for (let e = 0; e < b; e++) {
          const a = rounded(dtype, as[e]!);
          const tol = tolFor(dtype, Math.max(m, n));
          const se = Array.from(s.subarray(e * kk, e * kk + kk));
          for (let i = 0; i < kk; i++) {
            expect(se[i]!).toBeGreaterThanOrEqual(0);
            if (i > 0) expect(se[i]!).toBeLessThanOrEqual(se[i - 1]!);
            expect(Math.abs(s2[e * kk + i]! - se[i]!)).toBeLessThanOrEqual(tol * (1 + se[0]!));
          }
          const um = fromStorage(cp, u, e, m, uc),
            vm = fromStorage(cp, vh, e, vr, n);
          expect(orthErr(um)).toBeLessThanOrEqual(tol);
          expect(orthErr(adj(vm))).toBeLessThanOrEqual(tol);
          // u[:, :kk] diag(s) vh[:kk, :]
          const us = zerosM(m, kk);
          for (let i = 0; i < m; i++)
            for (let j = 0; j < kk; j++) {
              us.re[i * kk + j] = um.re[i * uc + j]! * se[j]!;
              us.im[i * kk + j] = um.im[i * uc + j]! * se[j]!;
            }
          const vk = zerosM(kk, n);
          vk.re.set(vm.re.subarray(0, kk * n));
          vk.im.set(vm.im.subarray(0, kk * n));
          expect(maxAbs(sub(mul(us, vk), a))).toBeLessThanOrEqual(tol * Math.max(1, maxAbs(a)));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('eig: a v = v diag(w), unit columns with the largest component real, real-input pair structure', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 2 }), (seed, n, b) => {
        const rnd = mulberry32(seed);
        const as = Array.from({ length: b }, () => randM(n, n, cp, rnd));
        const w = alloc('real', 2 * b * n, single),
          w2 = alloc('real', 2 * b * n, single),
          v = alloc('real', 2 * b * n * n, single);
        expect(Array.from(K.eig(dtype, b, n, toStorage(dtype, as), w, v))).toEqual(new Array(b).fill(0));
        K.eig(dtype, b, n, toStorage(dtype, as), w2, null);
        expect(Array.from(w2)).toEqual(Array.from(w));
        for (let e = 0; e < b; e++) {
          const a = rounded(dtype, as[e]!);
          const vm = fromStorage(true, v, e, n, n);
          const wd = fromStorage(true, w, e, 1, n);
          // v diag(w)
          const vw = zerosM(n, n);
          for (let i = 0; i < n; i++)
            for (let j = 0; j < n; j++) {
              const xr = vm.re[i * n + j]!,
                xi = vm.im[i * n + j]!;
              vw.re[i * n + j] = xr * wd.re[j]! - xi * wd.im[j]!;
              vw.im[i * n + j] = xr * wd.im[j]! + xi * wd.re[j]!;
            }
          // Random matrices can have mildly ill-conditioned eigenvectors; the residual is backward-error sized anyway.
          const tol = tolFor(dtype, n);
          expect(maxAbs(sub(mul(a, vm), vw))).toBeLessThanOrEqual(tol * n * Math.max(1, maxAbs(a)));
          for (let j = 0; j < n; j++) {
            let nrm = 0,
              big = 0,
              at = 0;
            for (let i = 0; i < n; i++) {
              const m2 = vm.re[i * n + j]! ** 2 + vm.im[i * n + j]! ** 2;
              nrm += m2;
              if (m2 > big) [big, at] = [m2, i];
            }
            expect(Math.abs(Math.sqrt(nrm) - 1)).toBeLessThanOrEqual(tol);
            expect(Math.abs(vm.im[at * n + j]!)).toBeLessThanOrEqual(single ? 1e-6 : 0);
          }
          if (!cp) {
            // dgeev's structure: real eigenvalues have real vectors; complex ones come in adjacent
            // exactly conjugate pairs (positive imaginary part first) with conjugate vectors.
            for (let j = 0; j < n; j++) {
              if (wd.im[j] === 0) {
                for (let i = 0; i < n; i++) expect(vm.im[i * n + j]).toBe(0);
                continue;
              }
              expect(wd.im[j]!).toBeGreaterThan(0);
              expect(j + 1).toBeLessThan(n);
              expect(wd.re[j + 1]).toBe(wd.re[j]);
              expect(wd.im[j + 1]).toBe(-wd.im[j]!);
              for (let i = 0; i < n; i++) {
                expect(vm.re[i * n + j + 1]).toBe(vm.re[i * n + j]);
                expect(vm.im[i * n + j + 1]).toBe(-vm.im[i * n + j]!);
              }
              j++;
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('lstsq: aᴴ (a x - b) = 0 and rank, for full-rank and rank-deficient a', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 8 }), (seed, m, n, k, rk) => {
        const rnd = mulberry32(seed);
        const kk = Math.min(m, n);
        const r = Math.min(rk, kk);
        const as = [randM(m, n, cp, rnd), lowRank(m, n, r, cp, rnd)];
        const bs = [randM(m, k, cp, rnd), randM(m, k, cp, rnd)];
        const x = newStore(dtype, 2 * n * k);
        const s = alloc('real', 2 * kk, single);
        const rank = new Int32Array(2);
        expect(Array.from(K.lstsq(dtype, 2, m, n, k, toStorage(dtype, as), toStorage(dtype, bs), x, s, rank, -1))).toEqual([0, 0]);
        expect(rank[0]).toBe(kk);
        // float32's default cutoff eps32 max(m, n) can keep a rounding-noise singular value of a rank-r product.
        if (!single) expect(rank[1]).toBe(r);
        for (let e = 0; e < 2; e++) {
          if (single && e === 1) continue;
          const a = rounded(dtype, as[e]!);
          const xm = fromStorage(cp, x, e, n, k);
          const g = mul(adj(a), sub(mul(a, xm), rounded(dtype, bs[e]!)));
          expect(maxAbs(g)).toBeLessThanOrEqual(tolFor(dtype, Math.max(m, n)) * Math.max(m, n) * (1 + maxAbs(xm)) * Math.max(1, maxAbs(a)) ** 2);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
