// The det and inv kernels' contract (src/linalg/kernels/contract.ts), as one
// test body run on the js kernels (tests/linalg/kernels-js/det-inv.test.ts)
// and the native ones (det-inv.test.ts here): values against a host
// elimination written here, slogdet against det, a·a⁻¹ = I, the info codes
// (inv's zero pivot is solve's), exact zeros for singular input, a scaled
// pivot product that neither overflows nor underflows on the way, empty
// sizes, NaN propagation, inputs left untouched.

import { expect, it } from 'vitest';
import type { FloatArray, LinalgDType, LinalgKernels } from '../../../src/linalg/kernels/contract.js';
import { type M, add, alloc, allocReal, diag, eye, isComplex, mul, pack, random, rel, rng, roundTo, scale, storageOf, unpack, wellConditioned } from './helpers.js';

/** det by Gaussian elimination with partial pivoting in float64 (complex), independent of the kernels. */
export function hostDet(a: M): [number, number] {
  const n = a.m;
  const re = a.re.slice(),
    im = a.im.slice();
  let dr = 1,
    di = 0;
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let i = k + 1; i < n; i++) if (Math.hypot(re[i * n + k]!, im[i * n + k]!) > Math.hypot(re[p * n + k]!, im[p * n + k]!)) p = i;
    if (p !== k) {
      for (let j = 0; j < n; j++) {
        [re[k * n + j], re[p * n + j]] = [re[p * n + j]!, re[k * n + j]!];
        [im[k * n + j], im[p * n + j]] = [im[p * n + j]!, im[k * n + j]!];
      }
      (dr = -dr), (di = -di);
    }
    const pr = re[k * n + k]!,
      pi = im[k * n + k]!;
    [dr, di] = [dr * pr - di * pi, dr * pi + di * pr];
    const den = pr * pr + pi * pi;
    if (den === 0) return [0, 0];
    for (let i = k + 1; i < n; i++) {
      const xr = re[i * n + k]!,
        xi = im[i * n + k]!;
      const lr = (xr * pr + xi * pi) / den,
        li = (xi * pr - xr * pi) / den;
      for (let j = k; j < n; j++) {
        re[i * n + j] -= lr * re[k * n + j]! - li * im[k * n + j]!;
        im[i * n + j] -= lr * im[k * n + j]! + li * re[k * n + j]!;
      }
    }
  }
  return [dr, di];
}

const B = 3;
const single = (d: LinalgDType) => d === 'float32' || d === 'complex64';
/** Relative tolerance of det/inv on the well-conditioned n ≤ 8 matrices below. */
const tolOf = (d: LinalgDType) => (single(d) ? 3e-5 : 1e-13);

/** Entry e of a det output (complex: [re, im]). */
const at = (d: LinalgDType, out: FloatArray, e: number): [number, number] => (isComplex(d) ? [out[2 * e]!, out[2 * e + 1]!] : [out[e]!, 0]);

/** Row-permuted diagonal matrix with the given diagonal (perm[i] = row of entry i). */
function permutedDiag(vals: number[], perm: number[]): M {
  const n = vals.length;
  const a = diag(new Array(n).fill(0));
  vals.forEach((v, i) => (a.re[perm[i]! * n + i] = v));
  return a;
}

/** Registers the contract tests for dtype d on the kernel set K(). */
export function detInvCases(K: () => LinalgKernels, d: LinalgDType): void {
  it('det: the host elimination determinant; slogdet: sign · exp(logabsdet) = det, |sign| = 1; input untouched', () => {
    const r = rng(11);
    for (const n of [1, 2, 5, 8]) {
      // well-conditioned and plain random matrices (pivoting matters for the latter)
      const as = [wellConditioned(d, n, r), roundTo(d, random(d, n, n, r)), roundTo(d, scale(wellConditioned(d, n, r), -0.5))];
      const input = pack(d, as);
      const before = input.slice();
      const out = alloc(d, B),
        sign = alloc(d, B),
        logabs = allocReal(d, B);
      expect(Array.from(K().det(d, B, n, input, out, null))).toEqual([0, 0, 0]);
      expect(Array.from(K().det(d, B, n, input, sign, logabs))).toEqual([0, 0, 0]);
      expect(input).toEqual(before);
      for (let e = 0; e < B; e++) {
        const [wr, wi] = hostDet(as[e]!);
        const [gr, gi] = at(d, out, e);
        const what = `n=${n} entry ${e}`;
        expect(Math.hypot(gr - wr, gi - wi) / Math.hypot(wr, wi), `det ${what}`).toBeLessThan(tolOf(d) * 10 * n);
        const [sr, si] = at(d, sign, e);
        expect(Math.hypot(sr, si), `|sign| ${what}`).toBeCloseTo(1, single(d) ? 6 : 14);
        if (!isComplex(d)) expect(Math.abs(sr), `real sign ${what}`).toBe(1);
        const m = Math.exp(logabs[e]!);
        expect(Math.hypot(sr * m - wr, si * m - wi) / Math.hypot(wr, wi), `sign·exp(logabsdet) ${what}`).toBeLessThan(tolOf(d) * 10 * n);
      }
    }
  });

  it('inv: a a⁻¹ = a⁻¹ a = I; input untouched', () => {
    const r = rng(12);
    for (const n of [1, 3, 8]) {
      const as = Array.from({ length: B }, () => wellConditioned(d, n, r));
      const input = pack(d, as);
      const before = input.slice();
      const out = alloc(d, B * n * n);
      expect(Array.from(K().inv(d, B, n, input, out))).toEqual([0, 0, 0]);
      expect(input).toEqual(before);
      for (let e = 0; e < B; e++) {
        const x = unpack(d, out, e, n, n);
        expect(rel(mul(as[e]!, x), eye(n)), `a a⁻¹, n=${n}`).toBeLessThan(tolOf(d) * 10);
        expect(rel(mul(x, as[e]!), eye(n)), `a⁻¹ a, n=${n}`).toBeLessThan(tolOf(d) * 10);
      }
    }
  });

  it("inv: info is solve's (the zero pivot of a's row-pivoted LU); det of those matrices is exactly 0, slogdet (0, −inf)", () => {
    const mats = [
      [[1, 2], [2, 4]],
      [[0, 0], [0, 0]],
      [[0, 0], [1, 1]],
      [[2, 1, 1], [4, 2, 2], [0, 0, 1]],
      [[1, 2, 3], [1, 2, 3], [4, 5, 7]], // equal rows
      [[1, 0, 0], [0, 1, 0], [0, 0, 0]],
    ]; // every step exact in binary arithmetic, so the zero pivot is exact on any LU
    // Equal columns of non-dyadic entries: whether a pivot comes out exactly zero depends on
    // rounding (x − (x/p)·p), so only the agreement of inv and solve is a contract here.
    const rounding = [[3, 1 / 3, 1 / 3], [1, 1 / 3, 1 / 3], [2, 1 / 7, 1 / 7]];
    const ra = pack(d, [{ m: 3, n: 3, re: Float64Array.from(rounding.flat()), im: new Float64Array(9) }]);
    expect(Array.from(K().inv(d, 1, 3, ra, alloc(d, 9)))).toEqual(Array.from(K().solve(d, 1, 3, 3, ra, pack(d, [eye(3)]), alloc(d, 9))));
    for (const m of mats) {
      const n = m.length;
      const a: M = { m: n, n, re: Float64Array.from(m.flat()), im: new Float64Array(n * n) };
      const input = pack(d, [a]);
      const x = alloc(d, n * n),
        s = alloc(d, n * n);
      const infoInv = K().inv(d, 1, n, input, x);
      const infoSolve = K().solve(d, 1, n, n, input, pack(d, [eye(n)]), s);
      expect(infoInv[0], JSON.stringify(m)).toBeGreaterThan(0);
      expect(Array.from(infoInv), `inv info = solve info, ${JSON.stringify(m)}`).toEqual(Array.from(infoSolve));
      const out = alloc(d, 1),
        sign = alloc(d, 1),
        logabs = allocReal(d, 1);
      expect(K().det(d, 1, n, input, out, null)[0], `det info ${JSON.stringify(m)}`).toBeGreaterThan(0);
      K().det(d, 1, n, input, sign, logabs);
      expect(Math.abs(out[0]!), `det ${JSON.stringify(m)}`).toBe(0);
      expect(Array.from(sign).map(Math.abs)).toEqual(new Array(sign.length).fill(0));
      expect(logabs[0]).toBe(-Infinity);
    }
    // the failing entry of a batch: the others are inverted
    const good = wellConditioned(d, 2, rng(13));
    const x = alloc(d, 3 * 4);
    expect(Array.from(K().inv(d, 3, 2, pack(d, [good, diag([1, 0]), good]), x))).toEqual([0, 2, 0]);
    expect(rel(mul(good, unpack(d, x, 2, 2, 2)), eye(2))).toBeLessThan(tolOf(d) * 10);
  });

  it('det: the pivot product is scaled, so det is finite when the exact value is (a plain product overflows on the way)', () => {
    const [big, small] = single(d) ? [1e30, 1e-30] : [1e200, 1e-200];
    // pivots met in column order of a and of aᵀ alike: big, big (a plain product overflows), small, small
    const a = permutedDiag([big, big, small, small, 3], [1, 0, 3, 2, 4]);
    const r = single(d) ? Math.fround : (x: number) => x;
    const want = [3 * (r(big) * r(small)) ** 2, 0]; // +: two row swaps
    const out = alloc(d, 1),
      sign = alloc(d, 1),
      logabs = allocReal(d, 1);
    K().det(d, 1, 5, pack(d, [a]), out, null);
    K().det(d, 1, 5, pack(d, [a]), sign, logabs);
    expect(Number.isFinite(out[0]!)).toBe(true);
    expect(Math.abs(out[0]! - want[0]!) / want[0]!).toBeLessThan(tolOf(d) * 10);
    expect(sign[0]).toBe(1);
    expect(logabs[0]).toBeCloseTo(Math.log(want[0]!), single(d) ? 5 : 12);
    // beyond the range: det overflows to ±inf or underflows to 0, slogdet is exact
    const n = single(d) ? 20 : 100;
    for (const [s, ln] of [[1e5, 5 * Math.LN10 * n], [1e-5, -5 * Math.LN10 * n]] as const) {
      const c = scale(eye(n), s);
      K().det(d, 1, n, pack(d, [c]), out, null);
      expect(out[0]).toBe(s > 1 ? Infinity : 0);
      K().det(d, 1, n, pack(d, [c]), sign, logabs);
      expect(sign[0]).toBe(1);
      expect(Math.abs(logabs[0]! - ln) / Math.abs(ln)).toBeLessThan(single(d) ? 1e-6 : 1e-14);
    }
  });

  it('empty: det of 0×0 is 1, slogdet (1, 0), inv does nothing; b = 0 is fine', () => {
    const out = alloc(d, 2),
      sign = alloc(d, 2),
      logabs = allocReal(d, 2);
    expect(Array.from(K().det(d, 2, 0, alloc(d, 0), out, null))).toEqual([0, 0]);
    expect(at(d, out, 1)).toEqual([1, 0]);
    K().det(d, 2, 0, alloc(d, 0), sign, logabs);
    expect(at(d, sign, 0)).toEqual([1, 0]);
    expect(Array.from(logabs)).toEqual([0, 0]);
    expect(Array.from(K().inv(d, 2, 0, alloc(d, 0), alloc(d, 0)))).toEqual([0, 0]);
    expect(K().det(d, 0, 3, alloc(d, 0), alloc(d, 0), null).length).toBe(0);
    expect(K().inv(d, 0, 3, alloc(d, 0), alloc(d, 0)).length).toBe(0);
  });

  it('NaN input: det NaN, slogdet (NaN, NaN)', () => {
    const a = add(eye(3), diag([0, Number.NaN, 0]));
    const out = alloc(d, 1),
      sign = alloc(d, 1),
      logabs = allocReal(d, 1);
    K().det(d, 1, 3, pack(d, [a]), out, null);
    K().det(d, 1, 3, pack(d, [a]), sign, logabs);
    expect(out[0]).toBeNaN();
    expect(sign[0]).toBeNaN();
    expect(logabs[0]).toBeNaN();
  });
}

/** det and inv of random matrices agree between two kernel sets (native vs js reference). */
export function detInvAgree(A: () => LinalgKernels, Bk: () => LinalgKernels, d: LinalgDType): void {
  it('det, slogdet and inv agree with the js reference kernels', () => {
    const r = rng(21);
    const n = 7;
    const as = Array.from({ length: B }, () => roundTo(d, random(d, n, n, r)));
    const input = pack(d, as);
    const outs = [A, Bk].map((k) => {
      const det = alloc(d, B),
        sign = alloc(d, B),
        logabs = allocReal(d, B),
        x = alloc(d, B * n * n);
      k().det(d, B, n, input, det, null);
      k().det(d, B, n, input, sign, logabs);
      k().inv(d, B, n, input, x);
      return { det, sign, logabs, x };
    });
    const [p, q] = outs as [(typeof outs)[0], (typeof outs)[0]];
    // random matrices: cond up to ~1e3, so relative agreement to ~cond·eps
    const t = single(d) ? 1e-3 : 1e-11;
    for (let e = 0; e < B; e++) {
      const [ar, ai] = at(d, p.det, e),
        [br, bi] = at(d, q.det, e);
      expect(Math.hypot(ar - br, ai - bi) / Math.hypot(br, bi)).toBeLessThan(t);
      expect(Math.abs(p.logabs[e]! - q.logabs[e]!)).toBeLessThan(t);
      expect(rel(unpack(d, p.x, e, n, n), unpack(d, q.x, e, n, n))).toBeLessThan(t);
    }
    expect(p.det.constructor).toBe(storageOf(d));
  });
}
