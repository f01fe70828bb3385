// The native linalg kernels against their defining identities, for all four
// dtypes, a batch of 3 different matrices each, square and m ≠ n shapes.

import { describe, expect, it } from 'vitest';
import type { LinalgDType } from '../../../src/linalg/kernels/contract.js';
import {
  DTYPES, K, M, alloc, allocReal, at, block, ct, describeNative, diag, eye, hermitian, hpd, isComplex, mul, nativeAvailable, nativeReason, pack, random,
  rel, rng, set, storageOf, sub, tol, tr, tri, unpack, unpackComplex, wellConditioned, zeros, norm,
} from './helpers.js';

const B = 3;

/** Replaces the triangle the kernel must not read with large garbage. */
function garbage(a: M, keepLower: boolean): M {
  const g = { m: a.m, n: a.n, re: a.re.slice(), im: a.im.slice() };
  for (let i = 0; i < a.m; i++)
    for (let j = 0; j < a.n; j++) if (keepLower ? j > i : j < i) set(g, i, j, 1e3 + i, -7e2 * j);
  return g;
}

/** The first `cols` columns are orthonormal: aᴴ a = I. */
const expectOrthonormalCols = (d: LinalgDType, a: M, what: string) => expect(rel(mul(ct(a), a), eye(a.n)), what).toBeLessThan(tol(d) * 10);

describeNative('native linalg kernels', () => {
  it('the addon is loaded (required when RLX_REQUIRE_NATIVE=1)', () => {
    expect(nativeAvailable(), nativeReason()).toBe(true);
  });

  describe.each(DTYPES)('%s', (d) => {
    it.each([5, 17])('cholesky %i: l lᴴ = a (lower) and uᴴ u = a (upper), reading one triangle; info = the failing minor', (n) => {
      const r = rng(1 + n);
      const as = Array.from({ length: B }, () => hpd(d, n, r));
      for (const lower of [true, false]) {
        const input = pack(d, as.map((a) => garbage(a, lower)));
        const before = input.slice();
        const out = alloc(d, B * n * n);
        const info = K().cholesky(d, B, n, input, out, lower);
        expect(Array.from(info)).toEqual([0, 0, 0]);
        expect(input).toEqual(before);
        for (let b = 0; b < B; b++) {
          const f = unpack(d, out, b, n, n);
          expect(rel(f, tri(f, lower)), 'other triangle zero').toBe(0);
          const prod = lower ? mul(f, ct(f)) : mul(ct(f), f);
          expect(rel(prod, as[b]!)).toBeLessThan(tol(d));
        }
      }
      // Not positive definite: the leading minor of order 3 fails.
      const bad = diag([1, 2, -1, 4]);
      const info = K().cholesky(d, B, 4, pack(d, [eye(4), bad, diag([1, 1, 1, 0])]), alloc(d, B * 16), true);
      expect(Array.from(info)).toEqual([0, 3, 4]);
    });

    it('triangularSolve: op(a) x = rhs for trans 0/1/2, lower/upper, unit diagonal; zero diagonal → info', () => {
      const r = rng(2);
      const n = 5,
        k = 3;
      const as = Array.from({ length: B }, () => wellConditioned(d, n, r));
      const rhs = Array.from({ length: B }, () => random(d, n, k, r));
      for (const lower of [true, false])
        for (const unit of [false, true])
          for (const trans of [0, 1, 2] as const) {
            const out = alloc(d, B * n * k);
            const info = K().triangularSolve(d, B, n, k, pack(d, as), pack(d, rhs), out, lower, trans, unit);
            expect(Array.from(info)).toEqual([0, 0, 0]);
            for (let b = 0; b < B; b++) {
              const t = tri(as[b]!, lower, unit);
              const op = trans === 0 ? t : tr(t, trans === 2);
              const x = unpack(d, out, b, n, k);
              expect(rel(mul(op, x), rhs[b]!), `lower=${lower} unit=${unit} trans=${trans}`).toBeLessThan(tol(d) * 10);
            }
          }
      const z = as[1]!;
      const zs = { ...z, re: z.re.slice(), im: z.im.slice() };
      set(zs, 2, 2, 0, 0);
      const info = K().triangularSolve(d, B, n, k, pack(d, [as[0]!, zs, as[2]!]), pack(d, rhs), alloc(d, B * n * k), true, 0, false);
      expect(Array.from(info)).toEqual([0, 3, 0]);
      // With a unit diagonal the zero is not read.
      expect(Array.from(K().triangularSolve(d, B, n, k, pack(d, [as[0]!, zs, as[2]!]), pack(d, rhs), alloc(d, B * n * k), true, 0, true))).toEqual([0, 0, 0]);
    });

    it.each([
      [4, 4],
      [5, 3],
      [3, 5],
    ])('lu %ix%i: a[perm] = l u, piv 0-based, perm from piv', (m, n) => {
      const r = rng(3 + m * 7 + n);
      const kk = Math.min(m, n);
      const as = Array.from({ length: B }, () => random(d, m, n, r));
      const input = pack(d, as);
      const before = input.slice();
      const lu = alloc(d, B * m * n),
        piv = new Int32Array(B * kk),
        perm = new Int32Array(B * m);
      const info = K().lu(d, B, m, n, input, lu, piv, perm);
      expect(Array.from(info)).toEqual([0, 0, 0]);
      expect(input).toEqual(before);
      for (let b = 0; b < B; b++) {
        const f = unpack(d, lu, b, m, n);
        const l = tri(block(f, 0, m, 0, kk), true, true);
        const u = tri(block(f, 0, kk, 0, n), false);
        const pa = zeros(m, n);
        const p = Array.from(perm.subarray(b * m, (b + 1) * m));
        expect([...p].sort((x, y) => x - y)).toEqual(Array.from({ length: m }, (_, i) => i));
        // perm is the product of the interchanges piv.
        const q = Array.from({ length: m }, (_, i) => i);
        for (let i = 0; i < kk; i++) {
          const pi = piv[b * kk + i]!;
          expect(pi).toBeGreaterThanOrEqual(i);
          expect(pi).toBeLessThan(m);
          [q[i], q[pi]] = [q[pi]!, q[i]!];
        }
        expect(p).toEqual(q);
        for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) set(pa, i, j, ...at(as[b]!, p[i]!, j));
        expect(rel(mul(l, u), pa)).toBeLessThan(tol(d) * 10);
        // Partial pivoting: |l| <= 1 (complex: LAPACK pivots on |re| + |im|, so |l| <= √2).
        const bound = isComplex(d) ? Math.SQRT2 : 1;
        for (let i = 0; i < l.re.length; i++) expect(Math.hypot(l.re[i]!, l.im[i]!)).toBeLessThanOrEqual(bound + 1e-6);
      }
    });

    it('lu and solve: an exactly singular matrix gives info = the zero pivot', () => {
      const s = zeros(3, 3);
      // Column 1 is zero: the second pivot is exactly 0.
      set(s, 0, 0, 1), set(s, 1, 0, 2), set(s, 2, 0, 3), set(s, 2, 2, 1), set(s, 0, 2, 5);
      const ok = wellConditioned(d, 3, rng(4));
      const info = K().lu(d, B, 3, 3, pack(d, [ok, s, ok]), alloc(d, B * 9), new Int32Array(B * 3), new Int32Array(B * 3));
      expect(Array.from(info)).toEqual([0, 2, 0]);
      const sinfo = K().solve(d, B, 3, 1, pack(d, [ok, s, ok]), alloc(d, B * 3).fill(1), alloc(d, B * 3));
      expect(Array.from(sinfo)).toEqual([0, 2, 0]);
    });

    it.each([1, 3])('solve: a x = rhs (k = %i)', (k) => {
      const r = rng(5 + k);
      const n = 6;
      const as = Array.from({ length: B }, () => wellConditioned(d, n, r));
      const rhs = Array.from({ length: B }, () => random(d, n, k, r));
      const input = pack(d, as);
      const before = input.slice();
      const out = alloc(d, B * n * k);
      expect(Array.from(K().solve(d, B, n, k, input, pack(d, rhs), out))).toEqual([0, 0, 0]);
      expect(input).toEqual(before);
      for (let b = 0; b < B; b++) expect(rel(mul(as[b]!, unpack(d, out, b, n, k)), rhs[b]!)).toBeLessThan(tol(d) * 10);
    });

    it.each([
      [4, 4],
      [6, 3],
      [3, 5],
      [21, 13], // larger than the 8×8 transpose tiles, not a multiple of them
      [13, 21],
    ])('qr %ix%i: q r = a, qᴴ q = I, r upper, reduced and complete, r alone', (m, n) => {
      const r = rng(6 + m * 5 + n);
      const kk = Math.min(m, n);
      const as = Array.from({ length: B }, () => random(d, m, n, r));
      const input = pack(d, as);
      const before = input.slice();
      for (const complete of [false, true]) {
        const rows = complete ? m : kk;
        const q = alloc(d, B * m * rows),
          rr = alloc(d, B * rows * n);
        expect(Array.from(K().qr(d, B, m, n, input, q, rr, complete))).toEqual([0, 0, 0]);
        const rOnly = alloc(d, B * rows * n);
        expect(Array.from(K().qr(d, B, m, n, input, null, rOnly, complete))).toEqual([0, 0, 0]);
        expect(rOnly).toEqual(rr);
        for (let b = 0; b < B; b++) {
          const qb = unpack(d, q, b, m, rows),
            rb = unpack(d, rr, b, rows, n);
          expect(rel(rb, tri(rb, false)), 'r upper').toBe(0);
          expect(rel(mul(qb, rb), as[b]!), `complete=${complete}`).toBeLessThan(tol(d) * 10);
          expectOrthonormalCols(d, qb, `q complete=${complete}`);
        }
      }
      expect(input).toEqual(before);
    });

    it.each([6, 19])('eigh %i: a v = v diag(w), w ascending, vᴴ v = I, one triangle read; values only', (n) => {
      const r = rng(7 + n);
      const as = Array.from({ length: B }, () => hermitian(d, n, r));
      for (const lower of [true, false]) {
        const input = pack(d, as.map((a) => garbage(a, lower)));
        const w = allocReal(d, B * n),
          v = alloc(d, B * n * n);
        expect(Array.from(K().eigh(d, B, n, input, w, v, lower))).toEqual([0, 0, 0]);
        const w2 = allocReal(d, B * n);
        expect(Array.from(K().eigh(d, B, n, input, w2, null, lower))).toEqual([0, 0, 0]);
        for (let b = 0; b < B; b++) {
          const wb = Array.from(w.subarray(b * n, (b + 1) * n));
          for (let i = 1; i < n; i++) expect(wb[i]!).toBeGreaterThanOrEqual(wb[i - 1]!);
          for (let i = 0; i < n; i++) expect(Math.abs(w2[b * n + i]! - wb[i]!)).toBeLessThan(tol(d) * 10 * (1 + Math.abs(wb[i]!)));
          const vb = unpack(d, v, b, n, n);
          expect(rel(mul(as[b]!, vb), mul(vb, diag(wb)))).toBeLessThan(tol(d) * 10);
          expectOrthonormalCols(d, vb, 'v');
        }
      }
    });

    it.each([
      [4, 4],
      [5, 3],
      [3, 5],
    ])('svd %ix%i: u diag(s) vh = a, s descending, orthonormal u and vh; full, reduced, values only', (m, n) => {
      const r = rng(8 + m * 3 + n);
      const kk = Math.min(m, n);
      const as = Array.from({ length: B }, () => random(d, m, n, r));
      const input = pack(d, as);
      const before = input.slice();
      for (const full of [false, true]) {
        const uc = full ? m : kk,
          vr = full ? n : kk;
        const s = allocReal(d, B * kk),
          u = alloc(d, B * m * uc),
          vh = alloc(d, B * vr * n);
        expect(Array.from(K().svd(d, B, m, n, input, s, u, vh, full))).toEqual([0, 0, 0]);
        for (let b = 0; b < B; b++) {
          const sb = Array.from(s.subarray(b * kk, (b + 1) * kk));
          for (let i = 0; i < kk; i++) {
            expect(sb[i]!).toBeGreaterThanOrEqual(0);
            if (i > 0) expect(sb[i]!).toBeLessThanOrEqual(sb[i - 1]!);
          }
          const ub = unpack(d, u, b, m, uc),
            vb = unpack(d, vh, b, vr, n);
          expectOrthonormalCols(d, ub, 'u');
          expectOrthonormalCols(d, ct(vb), 'vhᴴ');
          expect(rel(mul(mul(ub, diag(sb, uc, vr)), vb), as[b]!), `full=${full}`).toBeLessThan(tol(d) * 10);
        }
        const s2 = allocReal(d, B * kk);
        expect(Array.from(K().svd(d, B, m, n, input, s2, null, null, full))).toEqual([0, 0, 0]);
        for (let i = 0; i < s.length; i++) expect(Math.abs(s2[i]! - s[i]!)).toBeLessThan(tol(d) * 10 * (1 + s[i]!));
      }
      expect(input).toEqual(before);
    });

    it.each([5, 19])('eig %i: a v = v diag(w) with complex w and unit columns; conjugate pairs for real input; values only', (n) => {
      const r = rng(9 + n);
      const as = Array.from({ length: B }, () => random(d, n, n, r));
      const input = pack(d, as);
      const before = input.slice();
      const w = new (storageOf(d))(2 * B * n),
        v = new (storageOf(d))(2 * B * n * n);
      expect(Array.from(K().eig(d, B, n, input, w, v))).toEqual([0, 0, 0]);
      expect(input).toEqual(before);
      let pairs = 0;
      for (let b = 0; b < B; b++) {
        const wb = unpackComplex(w, b, 1, n);
        const vb = unpackComplex(v, b, n, n);
        expect(rel(mul(as[b]!, vb), mul(vb, diag(wb.re, n, n, wb.im)))).toBeLessThan(tol(d) * 20);
        for (let j = 0; j < n; j++) expect(norm(block(vb, 0, n, j, j + 1))).toBeCloseTo(1, 5);
        if (!isComplex(d)) {
          for (let j = 0; j < n; j++) {
            if (wb.im[j] === 0) continue;
            // LAPACK's order: λ (im > 0) then conj(λ), vectors conjugate.
            expect(wb.im[j]!).toBeGreaterThan(0);
            expect(wb.re[j + 1]).toBe(wb.re[j]);
            expect(wb.im[j + 1]).toBe(-wb.im[j]!);
            for (let i = 0; i < n; i++) {
              expect(vb.re[i * n + j + 1]).toBe(vb.re[i * n + j]);
              expect(vb.im[i * n + j + 1]).toBe(-vb.im[i * n + j]!);
            }
            pairs++;
            j++;
          }
        }
      }
      if (!isComplex(d)) expect(pairs, 'these random matrices have complex pairs').toBeGreaterThan(0);
      const w2 = new (storageOf(d))(2 * B * n);
      expect(Array.from(K().eig(d, B, n, input, w2, null))).toEqual([0, 0, 0]);
      for (let i = 0; i < w.length; i++) expect(Math.abs(w2[i]! - w[i]!)).toBeLessThan(tol(d) * 100);
    });

    it.each([
      [6, 4],
      [4, 4],
      [3, 5],
    ])('lstsq %ix%i: normal equations, minimum norm, rank and s', (m, n) => {
      const r = rng(10 + m * 11 + n);
      const k = 2,
        kk = Math.min(m, n);
      const as = Array.from({ length: B }, () => random(d, m, n, r));
      const rhs = Array.from({ length: B }, () => random(d, m, k, r));
      const input = pack(d, as);
      const before = input.slice();
      const x = alloc(d, B * n * k),
        s = allocReal(d, B * kk),
        rank = new Int32Array(B);
      expect(Array.from(K().lstsq(d, B, m, n, k, input, pack(d, rhs), x, s, rank, -1))).toEqual([0, 0, 0]);
      expect(input).toEqual(before);
      expect(Array.from(rank)).toEqual([kk, kk, kk]);
      const sv = allocReal(d, B * kk),
        vh = alloc(d, B * n * n);
      K().svd(d, B, m, n, input, sv, alloc(d, B * m * m), vh, true);
      for (let i = 0; i < s.length; i++) expect(Math.abs(s[i]! - sv[i]!)).toBeLessThan(tol(d) * 10 * (1 + sv[i]!));
      for (let b = 0; b < B; b++) {
        const a = as[b]!,
          xb = unpack(d, x, b, n, k);
        const resid = sub(mul(a, xb), rhs[b]!);
        // aᴴ (a x - b) = 0, relative to ‖a‖ ‖b‖.
        expect(norm(mul(ct(a), resid)) / (norm(a) * norm(rhs[b]!))).toBeLessThan(tol(d) * 10);
        // Minimum norm: x has no component in a's null space (vh's rows kk..n).
        if (n > kk) expect(norm(mul(block(unpack(d, vh, b, n, n), kk, n, 0, n), xb)) / norm(xb)).toBeLessThan(tol(d) * 10);
      }
    });

    it('NaN and Infinity inputs reach no illegal-argument path: no throw; svd, eig, lstsq report info > 0 with NaN outputs', () => {
      const n = 4;
      for (const bad of [NaN, Infinity, -Infinity]) {
        const a = alloc(d, n * n).fill(1);
        a[5] = bad;
        const ok = (info: Int32Array) => expect(info[0]).toBeGreaterThanOrEqual(0);
        ok(K().cholesky(d, 1, n, a, alloc(d, n * n), true));
        ok(K().lu(d, 1, n, n, a, alloc(d, n * n), new Int32Array(n), new Int32Array(n)));
        ok(K().solve(d, 1, n, 1, a, alloc(d, n), alloc(d, n)));
        ok(K().triangularSolve(d, 1, n, 1, a, alloc(d, n), alloc(d, n), false, 0, false));
        ok(K().qr(d, 1, n, n, a, alloc(d, n * n), alloc(d, n * n), false));
        ok(K().eigh(d, 1, n, a, allocReal(d, n), alloc(d, n * n), true));
        const s = allocReal(d, n);
        expect(Array.from(K().svd(d, 1, n, n, a, s, alloc(d, n * n), alloc(d, n * n), false))).toEqual([n]);
        expect(Number.isNaN(s[0])).toBe(true);
        const w = allocReal(d, 2 * n);
        expect(Array.from(K().eig(d, 1, n, a, w, allocReal(d, 2 * n * n)))).toEqual([n]);
        expect(Number.isNaN(w[0])).toBe(true);
        const x = alloc(d, n),
          rank = new Int32Array(1).fill(9);
        expect(Array.from(K().lstsq(d, 1, n, n, 1, a, alloc(d, n), x, allocReal(d, n), rank, -1))).toEqual([n]);
        expect(Number.isNaN(x[0])).toBe(true);
        expect(rank[0]).toBe(0);
      }
    });

    it('empty sizes: n = 0 and b = 0 are no-ops with info 0', () => {
      expect(Array.from(K().cholesky(d, 2, 0, alloc(d, 0), alloc(d, 0), true))).toEqual([0, 0]);
      expect(Array.from(K().solve(d, 0, 3, 1, alloc(d, 0), alloc(d, 0), alloc(d, 0)))).toEqual([]);
      const q = alloc(d, 9);
      expect(Array.from(K().qr(d, 1, 3, 0, alloc(d, 0), q, alloc(d, 0), true))).toEqual([0]);
      expect(rel(unpack(d, q, 0, 3, 3), eye(3))).toBe(0);
      const x = alloc(d, 6).fill(7);
      expect(Array.from(K().lstsq(d, 1, 0, 3, 2, alloc(d, 0), alloc(d, 0), x, allocReal(d, 0), new Int32Array(1), -1))).toEqual([0]);
      expect(Array.from(x)).toEqual([0, 0, 0, 0, 0, 0].flatMap((v) => (isComplex(d) ? [v, v] : [v])).slice(0, x.length));
    });
  });
});

