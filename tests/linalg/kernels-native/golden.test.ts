// The native linalg kernels against NumPy goldens (gen_golden.py, run with
// /usr/bin/python3: Debian's numpy 1.24 / scipy 1.10, writes golden.json).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { LinalgDType } from '../../../src/linalg/kernels/contract.js';
import { K, M, alloc, allocReal, describeNative, isComplex, pack, storageOf, unpack, unpackComplex, zeros } from './helpers.js';

type Cx = { re: number[][] | number[]; im: number[][] | number[] };
const G = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'golden.json'), 'utf8')) as Record<string, Record<string, unknown>>;

const real = (rows: number[][]): M => {
  const a = zeros(rows.length, rows[0]!.length);
  rows.forEach((r, i) => r.forEach((x, j) => (a.re[i * a.n + j] = x)));
  return a;
};
const cplx = (c: Cx): M => {
  const re = c.re as number[][],
    im = c.im as number[][];
  const a = real(re);
  im.forEach((r, i) => r.forEach((x, j) => (a.im[i * a.n + j] = x)));
  return a;
};
const cvec = (c: Cx) => ({ re: c.re as number[], im: c.im as number[] });
const single = (d: LinalgDType) => d === 'float32' || d === 'complex64';
/** max |x - y| over two arrays. */
const maxDiff = (x: ArrayLike<number>, y: ArrayLike<number>) => {
  expect(x.length).toBe(y.length);
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]! - y[i]!));
  return m;
};

describeNative('native linalg kernels vs NumPy goldens', () => {
  // Hilbert(8), ‖H‖₂ ≈ 1.7: symmetric eigensolvers are backward stable, so each eigenvalue is
  // within ~n·eps·‖H‖ (float64: ~2e-15; float32: ~1e-6, which loses the smallest ones entirely).
  it.each(['float64', 'complex128', 'float32', 'complex64'] as const)('Hilbert(8) eigvalsh (%s)', (d) => {
    const g = G['hilbert8']!;
    const h = real(g['a'] as number[][]);
    const w = allocReal(d, 8);
    expect(Array.from(K().eigh(d, 1, 8, pack(d, [h]), w, null, true))).toEqual([0]);
    expect(maxDiff(w, g['eigvalsh'] as number[])).toBeLessThan(single(d) ? 5e-6 : 1e-14);
  });

  // cond = s_max / s_min ≈ 1.5e10; s_min ≈ 1.1e-10 carries an absolute error ~eps·s_max ≈ 4e-16,
  // i.e. a relative error up to ~4e-6 in s_min and cond.
  it.each(['float64', 'complex128'] as const)('Hilbert(8) singular values and cond (%s)', (d) => {
    const g = G['hilbert8']!;
    const s = allocReal(d, 8);
    expect(Array.from(K().svd(d, 1, 8, 8, pack(d, [real(g['a'] as number[][])]), s, null, null, false))).toEqual([0]);
    const gs = g['s'] as number[];
    for (let i = 0; i < 8; i++) expect(Math.abs(s[i]! - gs[i]!)).toBeLessThan(1e-15 * 4 + 1e-14 * gs[i]!);
    const cond = s[0]! / s[7]!;
    expect(Math.abs(cond / (g['cond'] as number) - 1)).toBeLessThan(2e-5);
  });

  // Rank 3 of 4 with rcond = -1 (eps·max(m, n), NumPy's rcond=None); the rank-3 part is well
  // conditioned (s ≈ 8.7 … 1.6), so the minimum-norm x agrees to ~1e-14.
  it.each(['float64', 'complex128'] as const)('rank-deficient lstsq: x, rank and s (%s)', (d) => {
    const g = G['lstsq_rankdef']!;
    const a = real(g['a'] as number[][]),
      b = real(g['b'] as number[][]);
    const x = alloc(d, 8),
      s = allocReal(d, 4),
      rank = new Int32Array(1);
    expect(Array.from(K().lstsq(d, 1, 6, 4, 2, pack(d, [a]), pack(d, [b]), x, s, rank, -1))).toEqual([0]);
    expect(rank[0]).toBe(g['rank']);
    expect(rank[0]).toBe(3);
    expect(maxDiff(unpack(d, x, 0, 4, 2).re, real(g['x'] as number[][]).re)).toBeLessThan(1e-13);
    expect(maxDiff(unpack(d, x, 0, 4, 2).im, new Float64Array(8))).toBeLessThan(1e-13);
    const gs = g['s'] as number[];
    expect(maxDiff(s.subarray(0, 3), gs.slice(0, 3))).toBeLessThan(1e-13);
    expect(Math.abs(s[3]!)).toBeLessThan(1e-14);
    // An explicit rcond below the zero singular value's noise keeps the full rank.
    const rank2 = new Int32Array(1);
    K().lstsq(d, 1, 6, 4, 2, pack(d, [a]), pack(d, [b]), alloc(d, 8), allocReal(d, 4), rank2, 0);
    expect(rank2[0]).toBeGreaterThanOrEqual(3);
  });

  // Same dgeev/zgeev on the same matrix as NumPy: values and LAPACK-normalized vectors agree to rounding.
  describe.each(['eig_rotation', 'eig_jordan'])('%s', (name) => {
    it.each(['float64', 'float32', 'complex128'] as const)('w and v (%s)', (d) => {
      const g = G[name]!;
      const a = real(g['a'] as number[][]);
      const n = a.n;
      const w = new (storageOf(d))(2 * n),
        v = new (storageOf(d))(2 * n * n);
      expect(Array.from(K().eig(d, 1, n, pack(d, [a]), w, v))).toEqual([0]);
      const gw = cvec(g['w'] as Cx),
        gv = cplx(g['v'] as Cx);
      const t = single(d) ? 1e-6 : 1e-14;
      const ww = unpackComplex(w, 0, 1, n),
        vv = unpackComplex(v, 0, n, n);
      expect(maxDiff(ww.re, gw.re)).toBeLessThan(t);
      expect(maxDiff(ww.im, gw.im)).toBeLessThan(t);
      if (isComplex(d)) {
        // zgeev (complex input) may pick another phase per vector than dgeev: compare up to one.
        for (let j = 0; j < n; j++) {
          let pr = 0,
            pi = 0;
          for (let i = 0; i < n; i++) {
            const [xr, xi, yr, yi] = [gv.re[i * n + j]!, gv.im[i * n + j]!, vv.re[i * n + j]!, vv.im[i * n + j]!];
            (pr += xr * yr + xi * yi), (pi += xr * yi - xi * yr);
          }
          const h = Math.hypot(pr, pi);
          const [cr, ci] = [pr / h, pi / h];
          for (let i = 0; i < n; i++) {
            const [xr, xi] = [gv.re[i * n + j]!, gv.im[i * n + j]!];
            expect(Math.abs(vv.re[i * n + j]! - (cr * xr - ci * xi))).toBeLessThan(t);
            expect(Math.abs(vv.im[i * n + j]! - (cr * xi + ci * xr))).toBeLessThan(t);
          }
        }
        return;
      }
      expect(maxDiff(vv.re, gv.re)).toBeLessThan(t);
      expect(maxDiff(vv.im, gv.im)).toBeLessThan(t);
      if (name === 'eig_rotation') expect(Array.from(ww.im)).toEqual([1, -1]);
      else expect(Array.from(ww.re)).toEqual([2, 2, 2]);
    });
  });

  // Singular values to rounding (well conditioned, s ≈ 15 … 2.5); u and vh to a sign per singular pair.
  it.each(['float64', 'complex128', 'float32', 'complex64'] as const)('svd 5x3 (%s)', (d) => {
    const g = G['svd_5x3']!;
    const s = allocReal(d, 3),
      u = alloc(d, 15),
      vh = alloc(d, 9);
    expect(Array.from(K().svd(d, 1, 5, 3, pack(d, [real(g['a'] as number[][])]), s, u, vh, false))).toEqual([0]);
    const gs = g['s'] as number[];
    const t = single(d) ? 2e-5 : 1e-13;
    for (let i = 0; i < 3; i++) expect(Math.abs(s[i]! / gs[i]! - 1)).toBeLessThan(t);
    const U = unpack(d, u, 0, 5, 3),
      V = unpack(d, vh, 0, 3, 3);
    const gu = real(g['u'] as number[][]),
      gv = real(g['vh'] as number[][]);
    for (let j = 0; j < 3; j++) {
      // The phase of pair j: u[:, j] = e^{iφ} gu[:, j] and vh[j, :] = e^{-iφ} gvh[j, :] (φ ∈ {0, π} for real input).
      let pr = 0,
        pi = 0;
      for (let i = 0; i < 5; i++) (pr += U.re[i * 3 + j]! * gu.re[i * 3 + j]!), (pi += U.im[i * 3 + j]! * gu.re[i * 3 + j]!);
      const h = Math.hypot(pr, pi);
      const [cr, ci] = [pr / h, pi / h];
      if (!isComplex(d)) expect(Math.abs(cr)).toBe(1);
      for (let i = 0; i < 5; i++) {
        expect(Math.abs(U.re[i * 3 + j]! - cr * gu.re[i * 3 + j]!)).toBeLessThan(t * 10);
        expect(Math.abs(U.im[i * 3 + j]! - ci * gu.re[i * 3 + j]!)).toBeLessThan(t * 10);
      }
      for (let i = 0; i < 3; i++) {
        expect(Math.abs(V.re[j * 3 + i]! - cr * gv.re[j * 3 + i]!)).toBeLessThan(t * 10);
        expect(Math.abs(V.im[j * 3 + i]! + ci * gv.re[j * 3 + i]!)).toBeLessThan(t * 10);
      }
    }
  });

  // r as NumPy returns it, diagonal signs (phases) included: the LQ-of-aᵀ route must match geqrf.
  it.each(['float64', 'float32', 'complex128', 'complex64'] as const)('qr r with LAPACK signs (%s)', (d) => {
    const g = G['qr_4x3']!;
    const r = alloc(d, 9);
    K().qr(d, 1, 4, 3, pack(d, [real(g['a'] as number[][])]), null, r, false);
    const t = single(d) ? 1e-5 : 1e-13;
    expect(maxDiff(unpack(d, r, 0, 3, 3).re, real(g['r'] as number[][]).re) / 15).toBeLessThan(t);
    if (!isComplex(d)) return;
    const gc = G['qr_complex_3x3']!;
    const rc = alloc(d, 9);
    K().qr(d, 1, 3, 3, pack(d, [cplx(gc['a'] as Cx)]), alloc(d, 9), rc, true);
    const R = unpack(d, rc, 0, 3, 3),
      gr = cplx(gc['r'] as Cx);
    expect(maxDiff(R.re, gr.re) / 5).toBeLessThan(t);
    expect(maxDiff(R.im, gr.im) / 5).toBeLessThan(t);
  });
});
