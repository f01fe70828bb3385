// Triangular and factor-based solves and the matrix functions of the public
// linalg API on every device and dtype: solveTriangular (lower/upper × trans
// N/T/C, numeric codes too × unit diagonal, the other triangle and the diagonal
// poisoned where they must not be read), choSolve from both Cholesky factors,
// luSolve with trans 0/1/2 (from perm and from piv only), matrixPower (n from
// -3 to 6), trace/diagonal at every offset, kron, cross. References are host
// float64 arithmetic (helpers.ts); tolerances as there (backTol / fwdTol).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';
import { type H, LDTYPES, backTol, cplx, ct, dev, expectNear, expectOn, fwdTol, hcond, heye, hherm, hinv as hinvOf, host, hrand, hzeros, mm, rng, rounded } from './helpers.js';

const L = rlx.linalg;
const RUNS = { numRuns: 20 };
const caseArb = fc.record({ seed: fc.integer(), n: fc.integer({ min: 1, max: 8 }), k: fc.integer({ min: 1, max: 3 }), batched: fc.boolean(), dtype: fc.constantFrom(...LDTYPES) });
const size = (s: number[]) => s.reduce((a, b) => a * b, 1);

/** Applies f(t, i, j, flatIndex) to every entry of a batched matrix. */
function each(h: H, f: (t: number, i: number, j: number, k: number) => void): void {
  const m = h.shape[h.shape.length - 2]!,
    n = h.shape[h.shape.length - 1]!;
  for (let t = 0; t < size(h.shape.slice(0, -2)); t++) for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) f(t, i, j, t * m * n + i * n + j);
}

describe.each(DEVICES)('linalg triangular solves and matrix functions on %s', (device) => {
  it('solveTriangular: op(T) x = b for lower/upper, trans N/T/C (and 0/1/2), unitDiagonal, reading only the triangle', () => {
    fc.assert(
      fc.property(caseArb, fc.boolean(), fc.constantFrom<rlx.linalg.Trans>(0, 1, 2, 'N', 'T', 'C'), fc.boolean(), ({ seed, n, k, batched, dtype }, lower, trans, unitDiagonal) => {
        const r = rng(seed);
        const lead = batched ? [2] : [];
        // stored matrix: random everywhere (the unread parts are junk), diagonal ≥ 2 in modulus so T is well conditioned
        const stored = rounded(hrand(r, [...lead, n, n], cplx(dtype)), dtype);
        each(stored, (_, i, j, q) => {
          if (i === j) stored.re[q] = unitDiagonal ? 1e4 : 2 + stored.re[q]!; // a unit diagonal is not read: poison it
          else stored.re[q]! *= 0.3 / Math.sqrt(n);
        });
        const T = hzeros(stored.shape);
        each(stored, (_, i, j, q) => {
          if (i === j) (T.re[q] = unitDiagonal ? 1 : stored.re[q]!), (T.im[q] = unitDiagonal ? 0 : stored.im[q]!);
          else if (lower ? i > j : i < j) (T.re[q] = stored.re[q]!), (T.im[q] = stored.im[q]!);
        });
        const code = trans === 'N' ? 0 : trans === 'T' ? 1 : trans === 'C' ? 2 : trans;
        const op = code === 0 ? T : ct(T, code === 2);
        const b = rounded(hrand(r, [...lead, n, k], cplx(dtype)), dtype);
        const x = L.solveTriangular(dev(stored, dtype, device), dev(b, dtype, device), { lower, trans, unitDiagonal });
        expect(x.shape).toEqual([...lead, n, k]);
        expect(x.dtype).toBe(dtype);
        expectOn(x, device);
        expectNear(mm(op, host(x)), b, fwdTol(dtype, n, 4), `op(T) x = b (lower ${lower}, trans ${trans}, unit ${unitDiagonal})`);
        // vector b
        const xv = L.solveTriangular(dev(stored, dtype, device), dev({ shape: [n], re: b.re.slice(0, n), im: b.im.slice(0, n) }, dtype, device), { lower, trans, unitDiagonal });
        expect(xv.shape).toEqual([...lead, n]);
        const bv = hzeros([...lead, n, 1]);
        for (let t = 0; t < (batched ? 2 : 1); t++) bv.re.set(b.re.slice(0, n), t * n), bv.im.set(b.im.slice(0, n), t * n);
        expectNear(mm(op, { ...host(xv), shape: [...lead, n, 1] }), bv, fwdTol(dtype, n, 4), 'vector b');
      }),
      RUNS,
    );
  });

  it('choSolve: a x = b from the lower and the upper Cholesky factor', () => {
    fc.assert(
      fc.property(caseArb, ({ seed, n, k, batched, dtype }) => {
        const r = rng(seed);
        const lead = batched ? [2] : [];
        const a = rounded(hherm(r, Array.from({ length: n }, () => 1 + 9 * r()), lead, cplx(dtype)), dtype);
        const A = dev(a, dtype, device);
        const b = rounded(hrand(r, [...lead, n, k], cplx(dtype)), dtype);
        for (const lower of [true, false]) {
          const x = L.choSolve(L.cholesky(A, { lower }), dev(b, dtype, device), { lower });
          expect(x.shape).toEqual([...lead, n, k]);
          expectOn(x, device);
          expectNear(mm(a, host(x)), b, fwdTol(dtype, n, 10), `a x = b (lower ${lower})`, 10);
        }
      }),
      RUNS,
    );
  });

  it('luSolve: op(a) x = b for trans 0, 1, 2 from luFactor (with perm, and from piv alone)', () => {
    fc.assert(
      fc.property(caseArb, ({ seed, n, k, batched, dtype }) => {
        const r = rng(seed);
        const lead = batched ? [2] : [];
        const a = rounded(hcond(r, n, n, lead, cplx(dtype), 1 + 9 * r()), dtype);
        const f = L.luFactor(dev(a, dtype, device));
        const b = rounded(hrand(r, [...lead, n, k], cplx(dtype)), dtype);
        for (const trans of [0, 1, 2] as const) {
          const op = trans === 0 ? a : ct(a, trans === 2);
          for (const factors of [f, { lu: f.lu, piv: f.piv }]) {
            const x = L.luSolve(factors, dev(b, dtype, device), { trans });
            expect(x.shape).toEqual([...lead, n, k]);
            expectOn(x, device);
            expectNear(mm(op, host(x)), b, fwdTol(dtype, n, 10), `op(a) x = b (trans ${trans}, perm ${'perm' in factors})`);
          }
        }
      }),
      RUNS,
    );
  });

  it('matrixPower: a^p by host repeated products (p < 0 through the host inverse, p = 0 the identity)', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: -3, max: 6 }), ({ seed, n, batched, dtype }, p) => {
        const r = rng(seed);
        const lead = batched ? [2] : [];
        // σ ∈ [1/2, 1]: every power stays within [2^-6, 2^3] in norm
        const a = rounded(hcond(r, n, n, lead, cplx(dtype), 2), dtype);
        const got = L.matrixPower(dev(a, dtype, device), p);
        expect(got.shape).toEqual([...lead, n, n]);
        expect(got.dtype).toBe(dtype);
        expectOn(got, device);
        let base = a;
        if (p < 0) base = hinvOf(a);
        let want = heye(n, lead);
        for (let i = 0; i < Math.abs(p); i++) want = mm(want, base);
        expectNear(host(got), want, fwdTol(dtype, n, 2 ** Math.abs(p)) * Math.max(1, Math.abs(p)), `a^${p}`);
      }),
      RUNS,
    );
  });

  it('trace and diagonal at every offset of batched non-square matrices', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 6 }), ({ seed, n, batched, dtype }, m) => {
        const lead = batched ? [2, 1] : [];
        const a = rounded(hrand(rng(seed), [...lead, m, n], cplx(dtype)), dtype);
        const A = dev(a, dtype, device);
        for (let off = -m - 1; off <= n + 1; off++) {
          const len = Math.max(0, off >= 0 ? Math.min(m, n - off) : Math.min(m + off, n));
          const want = hzeros([...lead, len]);
          const tr = hzeros(lead);
          for (let t = 0; t < size(lead); t++)
            for (let i = 0; i < len; i++) {
              const [row, col] = off >= 0 ? [i, i + off] : [i - off, i];
              const q = t * m * n + row * n + col;
              (want.re[t * len + i] = a.re[q]!), (want.im[t * len + i] = a.im[q]!);
              (tr.re[t]! += a.re[q]!), (tr.im[t]! += a.im[q]!);
            }
          const d = L.diagonal(A, { offset: off });
          expect(d.shape, `diagonal offset ${off} of ${m}x${n}`).toEqual([...lead, len]);
          expectNear(host(d), want, 0, `diagonal offset ${off}`);
          const t = L.trace(A, { offset: off });
          expect(t.shape).toEqual(lead);
          expect(t.dtype).toBe(dtype);
          expectNear(host(t), tr, backTol(dtype, len), `trace offset ${off}`);
        }
      }),
      RUNS,
    );
  });

  it('kron: (a ⊗ b)[i·p + k, j·q + l] = a[i, j] b[k, l], with NumPy rank padding', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), ({ seed, n, dtype }, p, q) => {
        const r = rng(seed);
        const m = Math.min(n, 4);
        const a = rounded(hrand(r, [m, 2], cplx(dtype)), dtype),
          b = rounded(hrand(r, [p, q], cplx(dtype)), dtype);
        const got = host(L.kron(dev(a, dtype, device), dev(b, dtype, device)));
        const want = hzeros([m * p, 2 * q]);
        for (let i = 0; i < m; i++)
          for (let j = 0; j < 2; j++)
            for (let k = 0; k < p; k++)
              for (let l = 0; l < q; l++) {
                const [ar, ai, br, bi] = [a.re[i * 2 + j]!, a.im[i * 2 + j]!, b.re[k * q + l]!, b.im[k * q + l]!];
                want.re[(i * p + k) * 2 * q + j * q + l] = ar * br - ai * bi;
                want.im[(i * p + k) * 2 * q + j * q + l] = ar * bi + ai * br;
              }
        expectNear(got, want, backTol(dtype, 1), 'kron 2-D');
        // 1-D ⊗ 2-D: the vector is a [1, m] row
        const v = { shape: [m], re: a.re.slice(0, m), im: a.im.slice(0, m) };
        const kv = L.kron(dev(v, dtype, device), dev(b, dtype, device));
        expect(kv.shape).toEqual([p, m * q]);
        // 3-D ⊗ 2-D: shape [2, m·p, 2·q]
        expect(L.kron(dev({ ...hzeros([2, m, 2]) }, dtype, device), dev(b, dtype, device)).shape).toEqual([2, m * p, 2 * q]);
      }),
      RUNS,
    );
  });

  it('cross: a × b of 3-vectors along the last axis or axis 0, broadcasting', () => {
    fc.assert(
      fc.property(caseArb, ({ seed, dtype }) => {
        const r = rng(seed);
        const a = rounded(hrand(r, [4, 3], cplx(dtype)), dtype),
          b = rounded(hrand(r, [3], cplx(dtype)), dtype);
        const want = hzeros([4, 3]);
        const mul = (x: H, i: number, y: H, j: number): [number, number] => [x.re[i]! * y.re[j]! - x.im[i]! * y.im[j]!, x.re[i]! * y.im[j]! + x.im[i]! * y.re[j]!];
        for (let t = 0; t < 4; t++)
          for (let c = 0; c < 3; c++) {
            const [i1, i2] = [(c + 1) % 3, (c + 2) % 3];
            const p1 = mul(a, t * 3 + i1, b, i2),
              p2 = mul(a, t * 3 + i2, b, i1);
            (want.re[t * 3 + c] = p1[0] - p2[0]), (want.im[t * 3 + c] = p1[1] - p2[1]);
          }
        const got = L.cross(dev(a, dtype, device), dev(b, dtype, device));
        expect(got.shape).toEqual([4, 3]);
        expectNear(host(got), want, backTol(dtype, 2), 'cross (last axis, broadcast)');
        // the same along axis 0 of the transposes
        const g0 = L.cross(dev(ct(a, false), dtype, device), dev({ ...b, shape: [3, 1] }, dtype, device), { axis: 0 });
        expect(g0.shape).toEqual([3, 4]);
        expectNear(host(g0), ct(want, false), backTol(dtype, 2), 'cross axis 0');
      }),
      { numRuns: 8 },
    );
  });
});
