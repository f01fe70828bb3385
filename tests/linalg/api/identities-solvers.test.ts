// Solver and determinant identities of the public linalg API on every device
// and dtype, on random well-conditioned matrices (q diag(σ) wᴴ with cond ≤ 10):
// a x = b (vector / matrix b, broadcast batch), inv(a) a = I, det(ab) =
// det(a) det(b) and det against host elimination, slogdet, pinv's four
// Moore–Penrose conditions, lstsq normal equations and minimum norm,
// solveTriangular (lower/upper × N/T/C × unit diagonal), choSolve, luSolve.
//
// Tolerances (helpers.ts): residuals ≤ backTol = 200·n·u (relative), solutions
// compared with the host float64 solution ≤ fwdTol = backTol·cond.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';
import { type H, LDTYPES, backTol, cplx, ct, dev, expectNear, expectOn, fwdTol, hcond, heye, host, hrand, hsolveDet, hzeros, maxAbs, mm, rng, rounded, sub } from './helpers.js';

const L = rlx.linalg;
const RUNS = { numRuns: 25 };
const COND = 10;
const caseArb = fc.record({ seed: fc.integer(), n: fc.integer({ min: 1, max: 8 }), k: fc.integer({ min: 1, max: 3 }), batched: fc.boolean(), dtype: fc.constantFrom(...LDTYPES) });

/** A well-conditioned [..lead, n, n] (cond ≤ COND) rounded to dtype. */
const wellCond = (r: () => number, n: number, lead: number[], d: string) => rounded(hcond(r, n, n, lead, cplx(d), 1 + (COND - 1) * r()), d);
const complexMul = (a: [number, number], b: [number, number]): [number, number] => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
const scalars = (h: H): [number, number][] => Array.from(h.re, (x, i) => [x, h.im[i]!]);

describe.each(DEVICES)('linalg solver identities on %s', (device) => {
  it('solve: a x = b for matrix and vector b, with broadcast batch dims', () => {
    fc.assert(
      fc.property(caseArb, ({ seed, n, k, batched, dtype }) => {
        const r = rng(seed);
        const lead = batched ? [2] : [];
        const a = wellCond(r, n, lead, dtype);
        const A = dev(a, dtype, device);
        const tol = fwdTol(dtype, n, COND);
        // matrix b with the same batch
        const b = rounded(hrand(r, [...lead, n, k], cplx(dtype)), dtype);
        const x = L.solve(A, dev(b, dtype, device));
        expect(x.shape).toEqual([...lead, n, k]);
        expect(x.dtype).toBe(dtype);
        expectOn(x, device);
        expectNear(host(x), hsolveDet(a, b).x, tol, 'x = host solution');
        expectNear(mm(a, host(x)), b, backTol(dtype, n) * COND, 'a x = b');
        // vector b: 1-D x (batched a broadcasts against it)
        const bv = rounded(hrand(r, [n], cplx(dtype)), dtype);
        const xv = L.solve(A, dev(bv, dtype, device));
        expect(xv.shape).toEqual([...lead, n]);
        const ref = hsolveDet(a, { ...bv, shape: [n, 1] }).x;
        expectNear(host(xv), { ...ref, shape: [...lead, n] }, tol, 'vector x');
        // broadcasting: a [n, n] against b [3, n, k], and a [2, 1, n, n] against b [3, n, k]
        const b3 = rounded(hrand(r, [3, n, k], cplx(dtype)), dtype);
        const a1 = { shape: [n, n], re: a.re.slice(0, n * n), im: a.im.slice(0, n * n) };
        const x3 = L.solve(dev(a1, dtype, device), dev(b3, dtype, device));
        expect(x3.shape).toEqual([3, n, k]);
        expectNear(host(x3), hsolveDet(bcast(a1, 3), b3).x, tol, 'a [n,n] \\ b [3,n,k]');
        if (batched) {
          const x23 = L.solve(dev({ ...a, shape: [2, 1, n, n] }, dtype, device), dev(b3, dtype, device));
          expect(x23.shape).toEqual([2, 3, n, k]);
          const want = hzeros([2, 3, n, k]);
          for (let t = 0; t < 2; t++) {
            const at = { shape: [n, n], re: a.re.slice(t * n * n, (t + 1) * n * n), im: a.im.slice(t * n * n, (t + 1) * n * n) };
            const xt = hsolveDet(bcast(at, 3), b3).x;
            want.re.set(xt.re, t * 3 * n * k), want.im.set(xt.im, t * 3 * n * k);
          }
          expectNear(host(x23), want, tol, 'a [2,1,n,n] \\ b [3,n,k]');
        }
      }),
      RUNS,
    );
  });

  it('inv(a) a = I; det against host elimination, det(ab) = det(a) det(b); slogdet consistent with det', () => {
    fc.assert(
      fc.property(caseArb, ({ seed, n, batched, dtype }) => {
        const r = rng(seed);
        const lead = batched ? [2] : [];
        const a = wellCond(r, n, lead, dtype),
          b = wellCond(r, n, lead, dtype);
        const [A, B] = [dev(a, dtype, device), dev(b, dtype, device)];
        const ai = L.inv(A);
        expect(ai.shape).toEqual([...lead, n, n]);
        expectOn(ai, device);
        expectNear(mm(host(ai), a), heye(n, lead), fwdTol(dtype, n, COND), 'inv(a) a = I');
        expectNear(host(ai), hsolveDet(a, heye(n, lead)).x, fwdTol(dtype, n, COND), 'inv(a) = host inverse');
        // |det| of these matrices is Π σ ∈ [COND^-n, 1]: compare relative to |det|
        const ref = hsolveDet(a, heye(n, lead)).det;
        const d = L.det(A);
        expect(d.shape).toEqual(lead);
        expect(d.dtype).toBe(dtype);
        const dh = host(d);
        const dref = { ...ref, shape: lead };
        const rel = backTol(dtype, n) * COND;
        expectNear(dh, dref, rel, 'det = host det', maxAbs(dref));
        const dab = host(L.det(dev(rounded(mm(a, b), dtype), dtype, device)));
        const prod = scalars(dh).map((x, i) => complexMul(x, scalars(host(L.det(B)))[i]!));
        expectNear(dab, { shape: lead, re: Float64Array.from(prod, (p) => p[0]), im: Float64Array.from(prod, (p) => p[1]) }, rel, 'det(ab) = det(a) det(b)', maxAbs(dab));
        const { sign, logabsdet } = L.slogdet(A);
        expect(sign.dtype).toBe(dtype);
        expect(logabsdet.dtype).toBe(dtype === 'complex64' ? 'float32' : dtype === 'complex128' ? 'float64' : dtype);
        const [S, LA] = [host(sign), host(logabsdet)];
        scalars(S).forEach(([re, im], i) => {
          expect(Math.abs(Math.hypot(re, im) - 1)).toBeLessThanOrEqual(backTol(dtype, 1));
          const e = Math.exp(LA.re[i]!);
          const [dr, di] = [dh.re[i]!, dh.im[i]!];
          expect(Math.hypot(re * e - dr, im * e - di)).toBeLessThanOrEqual(rel * Math.hypot(dr, di));
        });
      }),
      RUNS,
    );
  });

  it('pinv: the four Moore–Penrose conditions, for square, tall and wide a', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 8 }), ({ seed, n, batched, dtype }, m) => {
        const r = rng(seed);
        const lead = batched ? [2] : [];
        const a = rounded(hcond(r, m, n, lead, cplx(dtype), 1 + (COND - 1) * r()), dtype);
        const x = L.pinv(dev(a, dtype, device));
        expect(x.shape).toEqual([...lead, n, m]);
        expectOn(x, device);
        const X = host(x);
        const tol = fwdTol(dtype, Math.max(m, n), COND);
        expectNear(mm(mm(a, X), a), a, tol, 'a x a = a');
        expectNear(mm(mm(X, a), X), X, tol, 'x a x = x');
        const ax = mm(a, X),
          xa = mm(X, a);
        expectNear(ct(ax), ax, tol, '(a x)ᴴ = a x');
        expectNear(ct(xa), xa, tol, '(x a)ᴴ = x a');
      }),
      RUNS,
    );
  });

  it('lstsq: normal equations (m ≥ n), minimum-norm exact solution (m < n), rank, s, residuals', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 8 }), ({ seed, n, k, batched, dtype }, m) => {
        const r = rng(seed);
        const lead = batched ? [2] : [];
        const a = rounded(hcond(r, m, n, lead, cplx(dtype), 1 + (COND - 1) * r()), dtype);
        const b = rounded(hrand(r, [...lead, m, k], cplx(dtype)), dtype);
        const res = L.lstsq(dev(a, dtype, device), dev(b, dtype, device));
        expect(res.x.shape).toEqual([...lead, n, k]);
        expectOn(res.x, device);
        const X = host(res.x);
        const ah = ct(a);
        // reference: x = (aᴴa)⁻¹ aᴴ b when m ≥ n, aᴴ (a aᴴ)⁻¹ b when m < n (host, float64, cond² ≤ 100)
        const ref = m >= n ? hsolveDet(mm(ah, a), mm(ah, b)).x : mm(ah, hsolveDet(mm(a, ah), b).x);
        expectNear(X, ref, fwdTol(dtype, Math.max(m, n), COND * COND), 'x = host least-squares solution');
        const resid = sub(b, mm(a, X));
        if (m >= n) expectNear(mm(ah, resid), hzeros([...lead, n, k]), fwdTol(dtype, m, COND), 'aᴴ (b - a x) = 0');
        else expectNear(mm(a, X), b, fwdTol(dtype, n, COND), 'a x = b');
        expect(Array.from(res.rank.toArray() as ArrayLike<number>)).toEqual(Array(batched ? 2 : 1).fill(Math.min(m, n)));
        expect(res.s.shape).toEqual([...lead, Math.min(m, n)]);
        expect(res.s.dtype).toBe(dtype === 'complex64' ? 'float32' : dtype === 'complex128' ? 'float64' : dtype);
        expect((res.s.toArray() as ArrayLike<number>)[0]).toBeCloseTo(1, single(dtype) ? 4 : 10);
        // NumPy: residuals = Σ |b - a x|² per column when m > n and full rank, else empty
        if (m > n) {
          expect(res.residuals.shape).toEqual([...lead, k]);
          const want = hzeros([...lead, k]);
          for (let t = 0; t < (batched ? 2 : 1); t++)
            for (let i = 0; i < m; i++)
              for (let j = 0; j < k; j++) want.re[t * k + j]! += resid.re[t * m * k + i * k + j]! ** 2 + resid.im[t * m * k + i * k + j]! ** 2;
          expectNear(host(res.residuals), want, fwdTol(dtype, m, COND), 'residuals');
        } else expect(res.residuals.shape).toEqual([...lead, 0]);
        // a 1-D b is one right-hand side (broadcast against a's batch) and gives a 1-D x
        const bv = rounded(hrand(r, [m], cplx(dtype)), dtype);
        const xv = L.lstsq(dev(a, dtype, device), dev(bv, dtype, device)).x;
        expect(xv.shape).toEqual([...lead, n]);
        const bm = bcast({ ...bv, shape: [m, 1] }, batched ? 2 : 1);
        const refv = m >= n ? hsolveDet(mm(ah, a), mm(ah, bm)).x : mm(ah, hsolveDet(mm(a, ah), bm).x);
        expectNear({ ...host(xv), shape: [...lead, n, 1] }, { ...refv, shape: [...lead, n, 1] }, fwdTol(dtype, Math.max(m, n), COND * COND), 'vector b');
      }),
      RUNS,
    );
  });
});

const single = (d: string) => d === 'float32' || d === 'complex64';
/** a [n, n] repeated to [t, n, n]. */
function bcast(a: H, t: number): H {
  const n2 = a.re.length;
  const h = hzeros([t, ...a.shape]);
  for (let i = 0; i < t; i++) h.re.set(a.re, i * n2), h.im.set(a.im, i * n2);
  return h;
}
