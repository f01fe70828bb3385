// Factorization identities of the public linalg API on every device and every
// LAPACK dtype, on random matrices (fast-check draws seed, sizes, dtype, batch):
// a = p l u, qᴴq = I and q r = a, l lᴴ = a, u diag(s) vh = a, a v = v diag(w).
// Every check is host float64 arithmetic (helpers.ts) on the returned values,
// against inputs whose spectrum is known by construction where possible
// (singular values, eigenvalues), so the references are independent of rlx.
//
// Tolerances (helpers.ts): backward errors ≤ 200·n·u·‖a‖ (float32 ≈ 1.2e-5·n,
// float64 ≈ 2.2e-14·n); spectra of matrices built as q diag(λ) qᴴ are known to
// ‖Δλ‖ ≤ the same bound (Weyl / backward stability of the symmetric eigensolver).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';
import { type H, LDTYPES, hzeros, backTol, cplx, ct, dev, expectNear, expectOn, hcond, heye, hdiag, hherm, host, hrand, hunitary, maxAbs, mm, rng, rounded, single } from './helpers.js';

const L = rlx.linalg;
const RUNS = { numRuns: 30 };
const dtypeArb = fc.constantFrom(...LDTYPES);
const caseArb = fc.record({ seed: fc.integer(), m: fc.integer({ min: 1, max: 8 }), n: fc.integer({ min: 1, max: 8 }), batched: fc.boolean(), dtype: dtypeArb });
const realOf = (d: string) => (single(d) ? 'float32' : 'float64');
const eigDtypeOf = (d: string) => (single(d) ? 'complex64' : 'complex128');

/** Checks entries of a batched [.., m, n] host matrix against a predicate on (i, j). */
function expectPattern(h: H, zeroAt: (i: number, j: number) => boolean, what: string, one?: (i: number, j: number) => boolean): void {
  const m = h.shape[h.shape.length - 2]!,
    n = h.shape[h.shape.length - 1]!;
  for (let t = 0; t < h.re.length / (m * n || 1); t++)
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        const k = t * m * n + i * n + j;
        if (zeroAt(i, j) && (h.re[k] !== 0 || h.im[k] !== 0)) throw new Error(`${what}: entry [${t}, ${i}, ${j}] = ${h.re[k]}+${h.im[k]}i should be 0`);
        if (one?.(i, j) && (h.re[k] !== 1 || h.im[k] !== 0)) throw new Error(`${what}: entry [${t}, ${i}, ${j}] should be 1`);
      }
}

/** Orthonormal columns: qᴴq = I. */
const expectOrthonormal = (q: H, d: string, what: string) => expectNear(mm(ct(q), q), heye(q.shape[q.shape.length - 1]!, q.shape.slice(0, -2)), backTol(d, q.shape[q.shape.length - 2]!), what);

/** Each batch entry's values ascending (or descending). */
function expectSorted(v: H, ascending: boolean, what: string): void {
  const k = v.shape[v.shape.length - 1]!;
  for (let t = 0; t < v.re.length / (k || 1); t++)
    for (let i = 1; i < k; i++) {
      const a = v.re[t * k + i - 1]!,
        b = v.re[t * k + i]!;
      if (ascending ? a > b : a < b) throw new Error(`${what}: not ${ascending ? 'ascending' : 'descending'} at [${t}, ${i}]: ${a}, ${b}`);
    }
}

describe.each(DEVICES)('linalg factorization identities on %s', (device) => {
  it('lu: a = p l u (square and m ≠ n), l unit lower with |l| ≤ 1, u upper, p a permutation; luFactor agrees', () => {
    fc.assert(
      fc.property(caseArb, ({ seed, m, n, batched, dtype }) => {
        const lead = batched ? [2] : [];
        const a = rounded(hrand(rng(seed), [...lead, m, n], cplx(dtype)), dtype);
        const k = Math.min(m, n);
        const A = dev(a, dtype, device);
        const { p, l, u } = L.lu(A);
        for (const [t, sh] of [[p, [m, m]], [l, [m, k]], [u, [k, n]]] as const) {
          expect(t.shape).toEqual([...lead, ...sh]);
          expect(t.dtype).toBe(dtype);
          expectOn(t, device);
        }
        const [P, Lh, U] = [host(p), host(l), host(u)];
        expectPattern(Lh, (i, j) => j > i, 'l upper part', (i, j) => i === j);
        expectPattern(U, (i, j) => i > j, 'u lower part');
        // p: 0/1 entries, each row and column holds one 1
        expect(P.re.every((x) => x === 0 || x === 1) && P.im.every((x) => x === 0), 'p is a 0/1 matrix').toBe(true);
        const mm2 = m * m;
        for (let t = 0; t < P.re.length / mm2; t++)
          for (let i = 0; i < m; i++) {
            let rs = 0,
              cs = 0;
            for (let j = 0; j < m; j++) (rs += P.re[t * mm2 + i * m + j]!), (cs += P.re[t * mm2 + j * m + i]!);
            expect([rs, cs]).toEqual([1, 1]);
          }
        // partial pivoting: |l| ≤ 1; LAPACK's complex pivot search maximizes |re| + |im| (i?amax), so there |l| ≤ √2
        expect(maxAbs(Lh)).toBeLessThanOrEqual((cplx(dtype) ? Math.SQRT2 : 1) * (1 + 1e-6));
        expectNear(mm(mm(P, Lh), U), a, backTol(dtype, Math.max(m, n)), `p l u = a [${lead} ${m}x${n} ${dtype}]`);
        // luFactor: packed factors with the same l, u, and rows perm of a give l u
        const f = L.luFactor(A);
        expect(f.lu.shape).toEqual([...lead, m, n]);
        expect(f.piv.shape).toEqual([...lead, k]);
        expect(f.perm.shape).toEqual([...lead, m]);
        const perm = Array.from(f.perm.toArray() as ArrayLike<number>);
        const pa = heye(m, lead);
        for (let t = 0; t < (batched ? 2 : 1); t++)
          for (let i = 0; i < m; i++)
            for (let j = 0; j < m; j++) pa.re[t * mm2 + i * m + j] = perm[t * m + i] === j ? 1 : 0;
        // (pa · a)[i] = a[perm[i]] = (l u)[i]
        expectNear(mm(pa, a), mm(Lh, U), backTol(dtype, Math.max(m, n)), 'a[perm] = l u');
      }),
      RUNS,
    );
  });

  it('qr: q r = a with orthonormal q and upper r in modes reduced, complete and r', () => {
    fc.assert(
      fc.property(caseArb, ({ seed, m, n, batched, dtype }) => {
        const lead = batched ? [2] : [];
        const a = rounded(hrand(rng(seed), [...lead, m, n], cplx(dtype)), dtype);
        const k = Math.min(m, n);
        const A = dev(a, dtype, device);
        const tol = backTol(dtype, Math.max(m, n));
        for (const mode of ['reduced', 'complete'] as const) {
          const { q, r } = L.qr(A, { mode });
          const qc = mode === 'reduced' ? k : m;
          expect(q!.shape).toEqual([...lead, m, qc]);
          expect(r.shape).toEqual([...lead, qc, n]);
          expect([q!.dtype, r.dtype]).toEqual([dtype, dtype]);
          expectOn(r, device);
          const [Q, R] = [host(q!), host(r)];
          expectOrthonormal(Q, dtype, `qᴴq = I (${mode})`);
          expectPattern(R, (i, j) => i > j, `r lower part (${mode})`);
          expectNear(mm(Q, R), a, tol, `q r = a (${mode})`);
        }
        const rOnly = L.qr(A, { mode: 'r' });
        expect(rOnly.q).toBeUndefined();
        expect(rOnly.r.shape).toEqual([...lead, k, n]);
        // mode 'r' is the same factorization: rᴴr = aᴴa pins r up to row phases, and the same algorithm gives the same r
        expectNear(host(rOnly.r), host(L.qr(A).r), tol, "r of mode 'r' = r of mode 'reduced'");
      }),
      RUNS,
    );
  });

  it('cholesky: l lᴴ = a (lower) and uᴴ u = a (upper), reading only that triangle', () => {
    fc.assert(
      fc.property(caseArb, ({ seed, n, batched, dtype }) => {
        const lead = batched ? [2] : [];
        const r = rng(seed);
        const lam = Array.from({ length: n }, () => 1 + 9 * r()); // cond ≤ 10
        const a = rounded(hherm(r, lam, lead, cplx(dtype)), dtype);
        // garbage in the triangle that must not be read
        const junk = (lower: boolean): H => {
          const g = { shape: a.shape, re: a.re.slice(), im: a.im.slice() };
          for (let t = 0; t < (batched ? 2 : 1); t++)
            for (let i = 0; i < n; i++)
              for (let j = 0; j < n; j++)
                if (lower ? j > i : i > j) (g.re[t * n * n + i * n + j] = 1e3 * (i + 1)), (g.im[t * n * n + i * n + j] = cplx(dtype) ? -7 : 0);
          return g;
        };
        const tol = backTol(dtype, n) * 10; // ‖a‖ ≤ 10
        const l = L.cholesky(dev(junk(true), dtype, device));
        const u = L.cholesky(dev(junk(false), dtype, device), { lower: false });
        expectOn(l, device);
        const [Lh, U] = [host(l), host(u)];
        expectPattern(Lh, (i, j) => j > i, 'l upper part');
        expectPattern(U, (i, j) => i > j, 'u lower part');
        for (const [f, name] of [[Lh, 'l'], [U, 'u']] as const)
          for (let t = 0; t < (batched ? 2 : 1); t++)
            for (let i = 0; i < n; i++) {
              const k = t * n * n + i * n + i;
              if (!(f.re[k]! > 0) || f.im[k] !== 0) throw new Error(`${name} diagonal [${t}, ${i}] must be real positive, got ${f.re[k]}+${f.im[k]}i`);
            }
        expectNear(mm(Lh, ct(Lh)), a, tol, `l lᴴ = a ${dtype}`, 10);
        expectNear(mm(ct(U), U), a, tol, `uᴴ u = a ${dtype}`, 10);
        expectNear(U, ct(Lh), tol, 'u = lᴴ (the factor is unique)', 10);
      }),
      RUNS,
    );
  });

  it('svd: u diag(s) vh = a with orthonormal u, v, s descending and equal to the known singular values', () => {
    fc.assert(
      fc.property(caseArb, fc.double({ min: 1, max: 1e3, noNaN: true }), ({ seed, m, n, batched, dtype }, cond) => {
        const lead = batched ? [2] : [];
        const k = Math.min(m, n);
        const a0 = hcond(rng(seed), m, n, lead, cplx(dtype), cond); // σ = cond^(-i/(k-1)), σ_max = 1
        const a = rounded(a0, dtype);
        const A = dev(a, dtype, device);
        const tol = backTol(dtype, Math.max(m, n));
        // the known σ (of the unrounded matrix; rounding moves them by ≤ ‖Δa‖₂ ≤ √(mn)·u)
        const sigma = hzeros([...lead, k]);
        for (let t = 0; t < (batched ? 2 : 1); t++) for (let i = 0; i < k; i++) sigma.re[t * k + i] = k === 1 ? 1 : cond ** (-i / (k - 1));
        for (const fullMatrices of [false, true]) {
          const { u, s, vh } = L.svd(A, { fullMatrices });
          const [ur, vr] = fullMatrices ? [m, n] : [k, k];
          expect(u!.shape).toEqual([...lead, m, ur]);
          expect(s.shape).toEqual([...lead, k]);
          expect(vh!.shape).toEqual([...lead, vr, n]);
          expect(s.dtype).toBe(realOf(dtype));
          expect(u!.dtype).toBe(dtype);
          expectOn(s, device);
          const [U, S, VH] = [host(u!), host(s), host(vh!)];
          expectSorted(S, false, 's');
          expectNear(S, sigma, tol, 's = known singular values');
          expectOrthonormal(U, dtype, 'uᴴu = I');
          expectOrthonormal(ct(VH), dtype, 'vh vhᴴ = I');
          expectNear(mm(mm(U, hdiag(S, ur, vr)), VH), a, tol, `u diag(s) vh = a (full ${fullMatrices})`);
        }
        const only = L.svd(A, { computeUv: false });
        expect(only.u).toBeUndefined();
        expectNear(host(only.s), sigma, tol, 's (computeUv false)');
      }),
      RUNS,
    );
  });

  it('eigh / eigvalsh: a v = v diag(w), vᴴv = I, w ascending and equal to the known eigenvalues; uplo U reads the upper triangle', () => {
    fc.assert(
      fc.property(caseArb, ({ seed, n, batched, dtype }) => {
        const lead = batched ? [2] : [];
        const r = rng(seed);
        const lam = Array.from({ length: n }, () => 4 * r() - 2).sort((x, y) => x - y);
        const a = rounded(hherm(r, lam, lead, cplx(dtype)), dtype);
        const tol = backTol(dtype, n) * 2; // ‖a‖ ≤ 2
        const known = hzeros([...lead, n]);
        for (let t = 0; t < (batched ? 2 : 1); t++) for (let i = 0; i < n; i++) known.re[t * n + i] = lam[i]!;
        for (const uplo of ['L', 'U'] as const) {
          // poison the triangle that must not be read
          const g = { shape: a.shape, re: a.re.slice(), im: a.im.slice() };
          for (let t = 0; t < (batched ? 2 : 1); t++)
            for (let i = 0; i < n; i++)
              for (let j = 0; j < n; j++) if (uplo === 'L' ? j > i : i > j) (g.re[t * n * n + i * n + j] = 99), (g.im[t * n * n + i * n + j] = cplx(dtype) ? 5 : 0);
          const G = dev(g, dtype, device);
          const { eigenvalues, eigenvectors } = L.eigh(G, { uplo });
          expect(eigenvalues.dtype).toBe(realOf(dtype));
          expect(eigenvectors.dtype).toBe(dtype);
          expect(eigenvectors.shape).toEqual([...lead, n, n]);
          expectOn(eigenvalues, device);
          const [W, V] = [host(eigenvalues), host(eigenvectors)];
          expectSorted(W, true, 'w');
          expectNear(W, known, tol, `w = known eigenvalues (uplo ${uplo})`, 2);
          expectOrthonormal(V, dtype, 'vᴴv = I');
          expectNear(mm(a, V), mm(V, hdiag(W)), tol, `a v = v diag(w) (uplo ${uplo})`, 2);
          expectNear(host(L.eigvalsh(G, { uplo })), W, tol, 'eigvalsh = eigh eigenvalues', 2);
        }
      }),
      RUNS,
    );
  });

  it('eig / eigvals: a v = v diag(w) (complex), unit eigenvectors, eigenvalues = the known Schur diagonal', () => {
    fc.assert(
      fc.property(caseArb, ({ seed, n, batched, dtype }) => {
        const lead = batched ? [2] : [];
        const r = rng(seed);
        // a = q t qᴴ, t upper triangular with well-separated diagonal λ_i = i + 0.3·jitter (+ i·im when complex)
        const t = hrand(r, [...lead, n, n], cplx(dtype));
        const lam: [number, number][] = [];
        for (let i = 0; i < n; i++) lam.push([i + 0.3 * r() - 0.5 * n, cplx(dtype) ? r() - 0.5 : 0]);
        for (let b = 0; b < (batched ? 2 : 1); b++)
          for (let i = 0; i < n; i++)
            for (let j = 0; j < n; j++) {
              const k = b * n * n + i * n + j;
              if (i > j) (t.re[k] = 0), (t.im[k] = 0);
              else if (i === j) (t.re[k] = lam[i]![0]), (t.im[k] = lam[i]![1]);
              else (t.re[k]! *= 0.5), (t.im[k]! *= 0.5);
            }
        const q = hunitary(r, n, lead, cplx(dtype));
        const a = rounded(mm(mm(q, t), ct(q)), dtype);
        const A = dev(a, dtype, device);
        const { eigenvalues, eigenvectors } = L.eig(A);
        expect(eigenvalues.dtype).toBe(eigDtypeOf(dtype));
        expect(eigenvectors.dtype).toBe(eigDtypeOf(dtype));
        expect(eigenvalues.shape).toEqual([...lead, n]);
        expectOn(eigenvectors, device);
        const [W, V] = [host(eigenvalues), host(eigenvectors)];
        // eigenvalue condition numbers of this t are modest (separation ≥ 0.7, ‖t‖ ≲ n): allow 20·n·backTol
        const tol = backTol(dtype, n) * 20 * n;
        expectNear(mm(a, V), mm(V, hdiag(W)), tol, 'a v = v diag(w)', n);
        for (let b = 0; b < (batched ? 2 : 1); b++)
          for (let j = 0; j < n; j++) {
            let nn = 0;
            for (let i = 0; i < n; i++) nn += V.re[b * n * n + i * n + j]! ** 2 + V.im[b * n * n + i * n + j]! ** 2;
            expect(Math.abs(Math.sqrt(nn) - 1)).toBeLessThanOrEqual(backTol(dtype, n));
            // each known eigenvalue is found (they are separated by ≥ 0.7, so the match is unambiguous)
            const [lr, li] = lam[j]!;
            let best = Infinity;
            for (let i = 0; i < n; i++) best = Math.min(best, Math.hypot(W.re[b * n + i]! - lr, W.im[b * n + i]! - li));
            if (!(best <= tol * n)) throw new Error(`eigenvalue ${lr}+${li}i not found (closest at ${best})`);
          }
        expectNear(host(L.eigvals(A)), W, tol * n, 'eigvals = eig eigenvalues', n);
      }),
      RUNS,
    );
  });
});
