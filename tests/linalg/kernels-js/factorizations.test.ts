// Identities of the js LU, solve, Cholesky, triangular solve and QR kernels on
// random well-conditioned matrices of every dtype (fast-check drives seeds and
// sizes). Expected sides are built with the naive algebra in helpers.ts, never
// with the kernels themselves.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsLinalgKernels as K } from '../../../src/linalg/kernels/js/index.js';
import { DTYPES, adj, eye, fromStorage, isCplx, maxAbs, mul, mulberry32, newStore, orthErr, randM, rounded, sub, toStorage, tolFor, transpose, zerosM, type M } from './helpers.js';

const RUNS = 25;
const seedArb = fc.integer({ min: 1, max: 2 ** 31 - 1 });

/** Diagonally boosted random matrix: comfortably nonsingular. */
function wellConditioned(n: number, cplx: boolean, rnd: () => number): M {
  const a = randM(n, n, cplx, rnd);
  for (let i = 0; i < n; i++) a.re[i * n + i] += n;
  return a;
}

describe.each(DTYPES)('%s', (dtype) => {
  const cp = isCplx(dtype);

  it('lu: a[perm] = l u, piv consistent with perm, |l| <= 1', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 3 }), (seed, m, n, b) => {
        const rnd = mulberry32(seed);
        const as = Array.from({ length: b }, () => randM(m, n, cp, rnd));
        const kk = Math.min(m, n);
        const out = newStore(dtype, b * m * n);
        const piv = new Int32Array(b * kk),
          perm = new Int32Array(b * m);
        const info = K.lu(dtype, b, m, n, toStorage(dtype, as), out, piv, perm);
        for (let e = 0; e < b; e++) {
          expect(info[e]).toBe(0);
          const f = fromStorage(cp, out, e, m, n);
          const l = zerosM(m, kk),
            u = zerosM(kk, n);
          for (let i = 0; i < m; i++)
            for (let j = 0; j < n; j++) {
              const p = i * n + j;
              if (j < i && j < kk) {
                l.re[i * kk + j] = f.re[p]!;
                l.im[i * kk + j] = f.im[p]!;
                // Pivoting on |re| + |im| (izamax) bounds |l| by sqrt(2) for complex, 1 for real.
                expect(Math.hypot(f.re[p]!, f.im[p]!)).toBeLessThanOrEqual((cp ? Math.SQRT2 : 1) + 1e-6);
              } else if (i < kk && j >= i) {
                u.re[i * n + j] = f.re[p]!;
                u.im[i * n + j] = f.im[p]!;
              }
              if (i === j && i < kk) l.re[i * kk + i] = 1;
            }
          const a = rounded(dtype, as[e]!);
          const pa = zerosM(m, n);
          const seen = new Set<number>();
          for (let i = 0; i < m; i++) {
            const src = perm[e * m + i]!;
            seen.add(src);
            pa.re.set(a.re.subarray(src * n, src * n + n), i * n);
            pa.im.set(a.im.subarray(src * n, src * n + n), i * n);
          }
          expect(seen.size).toBe(m);
          expect(maxAbs(sub(pa, mul(l, u)))).toBeLessThanOrEqual(tolFor(dtype, n) * Math.max(1, maxAbs(a)));
          // perm is the product of the interchanges in piv.
          const p2 = Array.from({ length: m }, (_, i) => i);
          for (let i = 0; i < kk; i++) {
            const q = piv[e * kk + i]!;
            expect(q).toBeGreaterThanOrEqual(i);
            [p2[i], p2[q]] = [p2[q]!, p2[i]!];
          }
          expect(Array.from(perm.subarray(e * m, e * m + m))).toEqual(p2);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('solve: a x = rhs', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), (seed, n, k, b) => {
        const rnd = mulberry32(seed);
        const as = Array.from({ length: b }, () => wellConditioned(n, cp, rnd));
        const bs = Array.from({ length: b }, () => randM(n, k, cp, rnd));
        const x = newStore(dtype, b * n * k);
        const info = K.solve(dtype, b, n, k, toStorage(dtype, as), toStorage(dtype, bs), x);
        for (let e = 0; e < b; e++) {
          expect(info[e]).toBe(0);
          const xm = fromStorage(cp, x, e, n, k);
          const r = sub(mul(rounded(dtype, as[e]!), xm), rounded(dtype, bs[e]!));
          expect(maxAbs(r)).toBeLessThanOrEqual(tolFor(dtype, n) * n * (1 + maxAbs(xm)));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it.each([true, false])('cholesky lower=%s: l lᴴ = a (or uᴴ u), other triangle zero', (lower) => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 3 }), (seed, n, b) => {
        const rnd = mulberry32(seed);
        const as = Array.from({ length: b }, () => {
          const x = randM(n, n, cp, rnd);
          const h = mul(x, adj(x));
          for (let i = 0; i < n; i++) h.re[i * n + i] += 1;
          return h;
        });
        const out = newStore(dtype, b * n * n);
        const info = K.cholesky(dtype, b, n, toStorage(dtype, as), out, lower);
        for (let e = 0; e < b; e++) {
          expect(info[e]).toBe(0);
          const f = fromStorage(cp, out, e, n, n);
          for (let i = 0; i < n; i++)
            for (let j = 0; j < n; j++) {
              if (lower ? j > i : j < i) expect(f.re[i * n + j] === 0 && f.im[i * n + j] === 0).toBe(true);
              if (i === j) expect(f.re[i * n + i]).toBeGreaterThan(0);
            }
          const prod = lower ? mul(f, adj(f)) : mul(adj(f), f);
          const a = rounded(dtype, as[e]!);
          expect(maxAbs(sub(prod, a))).toBeLessThanOrEqual(tolFor(dtype, n) * maxAbs(a));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('triangularSolve: op(a) x = rhs for lower/upper, trans 0/1/2, unit diagonal', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 3 }), fc.boolean(), fc.constantFrom(0, 1, 2), fc.boolean(), (seed, n, k, lower, trans, unit) => {
        const rnd = mulberry32(seed);
        const b = 2;
        // The opposite triangle holds garbage the kernel must not read.
        const as = Array.from({ length: b }, () => wellConditioned(n, cp, rnd));
        const bs = Array.from({ length: b }, () => randM(n, k, cp, rnd));
        const x = newStore(dtype, b * n * k);
        const info = K.triangularSolve(dtype, b, n, k, toStorage(dtype, as), toStorage(dtype, bs), x, lower, trans as 0 | 1 | 2, unit);
        for (let e = 0; e < b; e++) {
          expect(info[e]).toBe(0);
          const a = rounded(dtype, as[e]!);
          const t = zerosM(n, n);
          for (let i = 0; i < n; i++)
            for (let j = 0; j < n; j++) {
              if (lower ? j > i : j < i) continue;
              t.re[i * n + j] = i === j && unit ? 1 : a.re[i * n + j]!;
              t.im[i * n + j] = i === j && unit ? 0 : a.im[i * n + j]!;
            }
          const op = trans === 0 ? t : trans === 1 ? transpose(t) : adj(t);
          const xm = fromStorage(cp, x, e, n, k);
          const r = sub(mul(op, xm), rounded(dtype, bs[e]!));
          expect(maxAbs(r)).toBeLessThanOrEqual(tolFor(dtype, n) * n * (1 + maxAbs(xm)));
        }
      }),
      { numRuns: 40 },
    );
  });

  it.each([false, true])('qr complete=%s: q r = a, qᴴ q = I, r upper, real diagonal; r-only mode agrees', (complete) => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 2 }), (seed, m, n, b) => {
        const rnd = mulberry32(seed);
        const as = Array.from({ length: b }, () => randM(m, n, cp, rnd));
        const kk = Math.min(m, n);
        const qc = complete ? m : kk,
          rr = complete ? m : kk;
        const q = newStore(dtype, b * m * qc),
          r = newStore(dtype, b * rr * n),
          r2 = newStore(dtype, b * rr * n);
        const st = toStorage(dtype, as);
        expect(Array.from(K.qr(dtype, b, m, n, st, q, r, complete))).toEqual(new Array(b).fill(0));
        K.qr(dtype, b, m, n, st, null, r2, complete);
        expect(Array.from(r2)).toEqual(Array.from(r));
        for (let e = 0; e < b; e++) {
          const qm = fromStorage(cp, q, e, m, qc),
            rm = fromStorage(cp, r, e, rr, n);
          for (let i = 0; i < rr; i++)
            for (let j = 0; j < Math.min(i + 1, n); j++) {
              if (j < i) expect(rm.re[i * n + j] === 0 && rm.im[i * n + j] === 0).toBe(true);
              else expect(rm.im[i * n + i]).toBe(0);
            }
          const a = rounded(dtype, as[e]!);
          const tol = tolFor(dtype, Math.max(m, n));
          expect(orthErr(qm)).toBeLessThanOrEqual(tol);
          expect(maxAbs(sub(mul(qm, rm), a))).toBeLessThanOrEqual(tol * Math.max(1, maxAbs(a)));
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe('size-0 and identity edge cases', () => {
  it('n = 0 works for every kernel without touching anything', () => {
    const e = new Float64Array(0);
    expect(Array.from(K.lu('float64', 1, 0, 0, e, e, new Int32Array(0), new Int32Array(0)))).toEqual([0]);
    expect(Array.from(K.solve('float64', 1, 0, 2, e, e, e))).toEqual([0]);
    expect(Array.from(K.cholesky('complex128', 1, 0, e, e, true))).toEqual([0]);
    expect(Array.from(K.eigh('float64', 1, 0, e, e, e, true))).toEqual([0]);
    expect(Array.from(K.eig('float64', 1, 0, e, e, e))).toEqual([0]);
    expect(Array.from(K.svd('float64', 1, 0, 3, e, e, e, new Float64Array(9), true))).toEqual([0]);
  });

  it('lu of the identity is itself with no interchanges', () => {
    const out = new Float64Array(9);
    const piv = new Int32Array(3),
      perm = new Int32Array(3);
    K.lu('float64', 1, 3, 3, toStorage('float64', [eye(3)]), out, piv, perm);
    expect(Array.from(out)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(Array.from(piv)).toEqual([0, 1, 2]);
  });
});
