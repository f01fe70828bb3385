// Hard cases of the public linalg API against NumPy 1.24 / SciPy 1.10 on every
// device: Hilbert 10, rank-deficient lstsq (NumPy's x, rank, s and residuals
// semantics), defective and complex-pair eig, 1e±150 scales, expm (squaring,
// nilpotent, complex, batched), every norm order/axis/keepdims, cond for every
// p, matrixRank, SciPy's lu for non-square matrices and the QR modes.
//
// golden.json is written by gen_golden.py (regenerate with
// /usr/bin/python3 tests/linalg/api/gen_golden.py); the encoding is documented
// there. Each tolerance is justified next to its check; u = 2^-53 (float64).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';
import { type H, ct, expectNear, expectOn, host, mm, maxAbs, hdiag, sub } from './helpers.js';

const L = rlx.linalg;
type Enc = number | string;
interface Arr {
  shape: number[];
  dtype: 'float64' | 'complex128' | 'int32';
  data: Enc[];
}
type Case = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const G = JSON.parse(readFileSync(new URL('./golden.json', import.meta.url), 'utf8')).cases as Record<string, Case>;
const U = 2 ** -53;

const dec = (v: Enc): number => (typeof v === 'number' ? v : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : NaN);
const ord = (v: Enc | null): rlx.linalg.NormOrder => (v === null ? null : v === 'fro' || v === 'nuc' ? v : dec(v));
/** A golden array as a tensor pinned to device (dtype overrides the stored one, e.g. float32). */
function T(a: Arr, device: string, dtype?: rlx.DType): rlx.Tensor {
  const data = a.dtype === 'int32' ? Int32Array.from(a.data.map(dec)) : Float64Array.from(a.data.map(dec));
  return rlx.tensor(data, { shape: a.shape, dtype: a.dtype }).cast(dtype ?? a.dtype).on(device);
}
/** A golden array on the host. */
function Hh(a: Arr): H {
  const d = a.data.map(dec);
  const n = a.shape.reduce((x, y) => x * y, 1);
  const c = a.dtype === 'complex128';
  return { shape: a.shape, re: Float64Array.from({ length: n }, (_, i) => d[c ? 2 * i : i]!), im: Float64Array.from({ length: n }, (_, i) => (c ? d[2 * i + 1]! : 0)) };
}
const rel = (got: number, want: number, tol: number, what: string) => {
  if (!(Math.abs(got - want) <= tol * Math.abs(want))) throw new Error(`${what}: ${got} vs ${want} (relative tolerance ${tol})`);
};
const scalar = (t: rlx.Tensor) => (t.toArray() as ArrayLike<number>)[0]!;

/** Eigenpairs vs NumPy's: each golden eigenvalue matched to the nearest unused one; vectors compared up to a unit factor, |vᴴ v_np| = 1. */
function matchEig(w: H, v: H | null, gw: H, gv: H | null, tolW: number, tolV: number): void {
  const n = gw.re.length;
  const used = new Set<number>();
  for (let j = 0; j < n; j++) {
    let best = -1,
      bd = Infinity;
    for (let i = 0; i < n; i++) {
      const d = Math.hypot(w.re[i]! - gw.re[j]!, w.im[i]! - gw.im[j]!);
      if (!used.has(i) && d < bd) [bd, best] = [d, i];
    }
    used.add(best);
    if (!(bd <= tolW)) throw new Error(`eigenvalue ${gw.re[j]}+${gw.im[j]}i: nearest at distance ${bd} > ${tolW}`);
    if (v && gv) {
      let sr = 0,
        si = 0;
      for (let r = 0; r < n; r++) {
        const [ar, ai, br, bi] = [v.re[r * n + best]!, v.im[r * n + best]!, gv.re[r * n + j]!, gv.im[r * n + j]!];
        (sr += ar * br + ai * bi), (si += ar * bi - ai * br);
      }
      expect(Math.abs(Math.hypot(sr, si) - 1), `eigenvector ${j} up to phase`).toBeLessThanOrEqual(tolV);
    }
  }
}

describe.each(DEVICES)('linalg NumPy/SciPy goldens on %s', (device) => {
  it('Hilbert 10 (cond 1.6e13): cond, inv residual, eigvalsh, det, slogdet, matrixRank', () => {
    const c = G['hilbert10']!;
    const a = T(c.a, device);
    const cond = c.cond as number;
    // σ_min ≈ 1.1e-13 is known to ~u·‖a‖ absolutely, i.e. to cond·u ≈ 2e-3 relatively: allow 10·cond·u
    rel(scalar(L.cond(a)), cond, 10 * cond * U, 'cond 2');
    // cond 1 goes through inv(a), whose relative error is ~cond·u too
    rel(scalar(L.cond(a, 1)), c.cond1, 10 * cond * U, 'cond 1');
    // ‖inv(a) a − I‖ of a backward-stable inverse is ≲ n·cond·u ≈ 0.02 (NumPy's own is in invResidual)
    const ai = L.inv(a);
    expectOn(ai, device);
    const resid = maxAbs(sub(mm(host(ai), Hh(c.a)), { shape: [10, 10], re: Float64Array.from({ length: 100 }, (_, i) => (i % 11 === 0 ? 1 : 0)), im: new Float64Array(100) }));
    expect(resid).toBeLessThanOrEqual(10 * cond * U);
    expect(resid, 'within 100× of NumPy/LAPACK').toBeLessThanOrEqual(100 * (c.invResidual as number));
    // symmetric eigenvalues are backward stable: |Δλ| ≤ c·n·u·‖a‖₂ absolutely (‖a‖₂ ≈ 1.75)
    expectNear(host(L.eigvalsh(a)), Hh(c.eigvalsh), 20 * 10 * U * 1.75, 'eigvalsh', 1);
    // det = Π u_ii: each pivot carries a relative error up to ~cond·u in the worst case
    rel(scalar(L.det(a)), c.det, 10 * cond * U, 'det');
    const { sign, logabsdet } = L.slogdet(a);
    expect(scalar(sign)).toBe(c.sign);
    expect(Math.abs(scalar(logabsdet) - c.logabsdet)).toBeLessThanOrEqual(10 * cond * U);
    expect(scalar(L.matrixRank(a))).toBe(c.rank);
  });

  it('lstsq: minimum-norm x, rank, s and residuals with NumPy semantics (rank-deficient, tall, wide, vector, complex, rcond)', () => {
    for (const name of ['lstsq_rankdef', 'lstsq_rankdef_vector', 'lstsq_tall', 'lstsq_tall_vector', 'lstsq_wide', 'lstsq_complex_rank2', 'lstsq_rcond']) {
      const c = G[name]!;
      const r = L.lstsq(T(c.a, device), T(c.b, device), c.rcond !== undefined ? { rcond: c.rcond } : {});
      expectOn(r.x, device);
      const s0 = (c.s.data as number[])[0]!;
      // min-norm x: perturbation theory gives ‖Δx‖/‖x‖ ≲ cond_r·u (cond_r = s_0 / s_rank-1 ≤ 30 here, ×‖r‖ terms): 1e-12
      expectNear(host(r.x), Hh(c.x), 1e-12, `${name}: x`);
      expect(scalar(r.rank), `${name}: rank`).toBe(c.rank);
      // singular values are backward stable: |Δs| ≤ c·n·u·s_0
      expectNear(host(r.s), Hh(c.s), 100 * U * 6, `${name}: s`, s0);
      // NumPy: residuals only when m > n and the rank is full, else an empty [0]
      expect(r.residuals.shape, `${name}: residuals shape`).toEqual(c.residuals.shape);
      expectNear(host(r.residuals), Hh(c.residuals), 1e-12, `${name}: residuals`);
    }
  });

  it('eig of a Jordan block (defective), of a real matrix with complex pairs, and of a complex matrix', () => {
    // Jordan block of size 3: eigenvalues of a perturbation ε are off by ~ε^(1/3) ≈ 5e-6 for ε = u·‖a‖; vectors likewise
    const j = G['eig_jordan']!;
    const ej = L.eig(T(j.a, device));
    expect(ej.eigenvalues.dtype).toBe('complex128');
    expectOn(ej.eigenvalues, device);
    matchEig(host(ej.eigenvalues), host(ej.eigenvectors), Hh(j.w), Hh(j.v), 1e-4, 1e-4);
    // residual a v − v diag(w) is small even where v is ill determined (backward stability)
    const res = (a: H, e: typeof ej) => maxAbs(sub(mm(a, host(e.eigenvectors)), mm(host(e.eigenvectors), hdiag(host(e.eigenvalues)))));
    expect(res(Hh(j.a), ej)).toBeLessThanOrEqual(1e-13);
    for (const name of ['eig_real_complex_pairs', 'eig_complex']) {
      const c = G[name]!;
      const e = L.eig(T(c.a, device));
      // simple, well-separated eigenvalues: |Δλ| ≤ cond(λ)·u·‖a‖ ≪ 1e-12; eigenvectors to 1e-10
      matchEig(host(e.eigenvalues), host(e.eigenvectors), Hh(c.w), Hh(c.v), 1e-12, 1e-10);
      expect(res(Hh(c.a), e)).toBeLessThanOrEqual(1e-13 * 8);
      expectNear(host(L.eigvals(T(c.a, device))), host(e.eigenvalues), 1e-13, `${name}: eigvals`);
      if (name === 'eig_real_complex_pairs') {
        // a real matrix's eigenvalues come in conjugate pairs
        const w = host(e.eigenvalues);
        const conj: H = { shape: w.shape, re: w.re, im: w.im.map((x) => -x) };
        matchEig(w, null, conj, null, 1e-12, 0);
        expect(Array.from(w.im).filter((x) => Math.abs(x) > 0.1).length).toBe(4);
        // float32: complex64 eigenpairs; |Δλ| ≲ cond(λ)·u·‖a‖ with u = 6e-8, ‖a‖ ≈ 5: 1e-4 leaves ample room
        const e32 = L.eig(T(c.a, device, 'float32'));
        expect(e32.eigenvalues.dtype).toBe('complex64');
        matchEig(host(e32.eigenvalues), host(e32.eigenvectors), Hh(c.w), Hh(c.v), 1e-4, 1e-4);
      }
    }
  });

  it('1e-150 and 1e150 scales: solve, det (under/overflows like NumPy), slogdet, svd, norms, cond', () => {
    for (const name of ['scale_tiny', 'scale_huge']) {
      const c = G[name]!;
      const a = T(c.a, device);
      const sc = c.scale as number;
      // base is well conditioned (cond ≈ 3.5): 100·n·u relative
      const tol = 100 * 4 * U;
      expectNear(host(L.solve(a, T(c.b, device))), Hh(c.x), tol, `${name}: solve`);
      expect(scalar(L.det(a)), `${name}: det`).toBe(dec(c.det)); // 0 for tiny (1e-600 underflows), inf for huge
      const { sign, logabsdet } = L.slogdet(a);
      expect(scalar(sign)).toBe(c.sign);
      rel(scalar(logabsdet), c.logabsdet, tol, `${name}: logabsdet`);
      const s = L.svd(a, { computeUv: false }).s;
      expectNear(host(s), Hh(c.s), tol, `${name}: singular values`, (c.s.data as number[])[0]);
      const full = L.svd(a);
      expectNear(mm(mm(host(full.u!), hdiag(host(full.s))), host(full.vh!)), Hh(c.a), tol, `${name}: u s vh = a`, 10 * sc);
      for (const [key, o] of [['fro', 'fro'], ['nuc', 'nuc'], ['two', 2], ['one', 1], ['inf', Infinity]] as const) rel(scalar(L.norm(a, { ord: o })), c[key], tol, `${name}: norm ${String(o)}`);
      rel(scalar(L.norm(a)), c.fro, tol, `${name}: norm default`);
      rel(scalar(L.cond(a)), c.cond, tol, `${name}: cond`);
    }
  });

  it('expm vs scipy.linalg.expm: small, Moler–Van Loan (squaring), large norm, nilpotent, complex, zero, batched; float32 too', () => {
    for (const name of ['expm_small', 'expm_moler_van_loan', 'expm_large_norm', 'expm_nilpotent', 'expm_complex', 'expm_zero', 'expm_batch']) {
      const c = G[name]!;
      const want = Hh(c.expm);
      const n = c.a.shape[c.a.shape.length - 1] as number;
      const norm1 = (c.norm1 as number | undefined) ?? 25;
      // scaling and squaring is forward stable to ~‖a‖₁·u·n per the Padé/squaring error analysis (Higham 2005); ×100 headroom
      const got = L.expm(T(c.a, device));
      expectOn(got, device);
      expectNear(host(got), want, 100 * Math.max(1, norm1) * n * U, `${name} (float64)`, Math.max(1, maxAbs(want)));
      if (name === 'expm_small' || name === 'expm_complex' || name === 'expm_nilpotent') {
        // single precision: degree-7 Padé, u = 2^-24
        const d = c.a.dtype === 'complex128' ? 'complex64' : 'float32';
        const g32 = L.expm(T(c.a, device, d));
        expect(g32.dtype).toBe(d);
        expectNear(host(g32), want, 100 * Math.max(1, norm1) * n * 2 ** -24, `${name} (${d})`, Math.max(1, maxAbs(want)));
      }
    }
  });

  it('norm: every matrix and vector order, real and complex, with axis and keepdims', () => {
    const c = G['norm']!;
    for (const e of c.norms as { x: string; ord: Enc | null; axis?: number | number[] | null; keepdims?: boolean; value: Arr }[]) {
      const x = T(c.inputs[e.x], device);
      const opts: rlx.linalg.NormOptions = { ord: ord(e.ord) };
      if (e.axis !== undefined) opts.axis = Array.isArray(e.axis) ? (e.axis as [number, number]) : e.axis;
      if (e.keepdims !== undefined) opts.keepdims = e.keepdims;
      const what = `norm(${e.x}, ord ${e.ord}, axis ${JSON.stringify(e.axis)}, keepdims ${e.keepdims})`;
      const got = L.norm(x, opts);
      expect(got.shape, what).toEqual(e.value.shape);
      expect(got.dtype, what).toBe('float64');
      // sums of ≤ 24 terms and an SVD of a 3x4: 100·n·u relative
      expectNear(host(got), Hh(e.value), 100 * 24 * U, what, Math.max(...Hh(e.value).re.map(Math.abs), 1e-300));
    }
  });

  it('cond for p in None, ±1, ±2, ±inf, fro (single and batched complex)', () => {
    const c = G['cond']!;
    const a = T(c.a, device),
      b = T(c.batch, device);
    (c.ps as (Enc | null)[]).forEach((p, i) => {
      // cond(a) ≈ 4: inv(a) and the SVD are accurate to ~100·n·u relative
      rel(scalar(L.cond(a, ord(p))), c.values[i], 100 * 4 * U, `cond p=${p}`);
      const got = L.cond(b, ord(p));
      expect(got.shape).toEqual([2]);
      expectNear(host(got), Hh(c.batchValues[i]), 100 * 4 * U, `batched cond p=${p}`);
    });
  });

  it('cond of a singular batch entry is inf for p = ±1, ±inf, fro (NumPy), the other entry unaffected', () => {
    const c = G['cond_singular']!;
    (c.ps as Enc[]).forEach((p, i) => {
      const got = Array.from(L.cond(T(c.a, device), ord(p)).toArray() as Float64Array);
      const want = (c.values[i] as Arr).data.map(dec);
      expect(got[0], `p=${p}`).toBe(Infinity);
      rel(got[1]!, want[1]!, 100 * 2 * U, `p=${p}`);
    });
  });

  it('matrixRank: stacked ranks 2, 1, 0, 4; Hilbert 12 (rank 11 at the default tol, 6 at tol 1e-6); vectors', () => {
    const c = G['matrix_rank']!;
    const r = L.matrixRank(T(c.stack, device));
    expect(r.dtype).toBe('int32');
    expect(Array.from(r.toArray() as Int32Array)).toEqual(c.ranks.data);
    // σ_11 = 2.6e-14 vs the default tol 4.8e-15 and σ_12 ≈ 1e-16: a 5× margin either way
    expect(scalar(L.matrixRank(T(c.hilbert12, device)))).toBe(c.hilbert12Rank);
    expect(scalar(L.matrixRank(T(c.hilbert12, device), { tol: 1e-6 }))).toBe(c.tolRank);
    expect(scalar(L.matrixRank(rlx.tensor([0, 2]).on(device)))).toBe(c.vecRank);
    expect(scalar(L.matrixRank(rlx.zeros([3]).on(device)))).toBe(c.zeroVecRank);
  });

  it("lu matches scipy.linalg.lu (p, l, u) for 4x6, 6x4 and complex 4x6", () => {
    for (const name of ['lu_4x6', 'lu_6x4', 'lu_complex_4x6']) {
      const c = G[name]!;
      const { p, l, u } = L.lu(T(c.a, device));
      // partial pivoting picks the same rows (no ties in these inputs), so the factors agree to rounding: 100·n·u
      expect(Array.from(host(p).re), `${name}: p`).toEqual(Array.from(Hh(c.p).re));
      expectNear(host(l), Hh(c.l), 100 * 6 * U, `${name}: l`);
      expectNear(host(u), Hh(c.u), 100 * 6 * U, `${name}: u`);
    }
  });

  it('qr modes reduced, complete and r match NumPy (LAPACK Householder sign convention)', () => {
    for (const name of ['qr_5x3', 'qr_3x5', 'qr_complex_4x3']) {
      const c = G[name]!;
      const a = T(c.a, device);
      const tol = 100 * 5 * U;
      const red = L.qr(a);
      expectNear(mm(host(red.q!), host(red.r)), Hh(c.a), tol, `${name}: q r = a`);
      // |r_ii| is convention-free: check it first, then the entries under LAPACK's sign convention
      const diag = (h: H) => Array.from({ length: Math.min(...h.shape) }, (_, i) => Math.hypot(h.re[i * h.shape[1]! + i]!, h.im[i * h.shape[1]! + i]!));
      diag(host(red.r)).forEach((x, i) => expect(Math.abs(x - diag(Hh(c.r))[i]!)).toBeLessThanOrEqual(tol * 10));
      expectNear(host(red.q!), Hh(c.q), tol, `${name}: q (reduced)`);
      expectNear(host(red.r), Hh(c.r), tol, `${name}: r (reduced)`);
      const comp = L.qr(a, { mode: 'complete' });
      expectNear(host(comp.r), Hh(c.rc), tol, `${name}: r (complete)`);
      // the trailing columns of a complete q are any orthonormal basis of the complement; LAPACK's are determined by the reflectors
      expectNear(host(comp.q!), Hh(c.qc), tol, `${name}: q (complete)`);
      expectNear(mm(ct(host(comp.q!)), host(comp.q!)), { ...Hh(c.qc), ...idOf(c.qc.shape[0]) }, tol, `${name}: complete q unitary`);
      expectNear(host(L.qr(a, { mode: 'r' }).r), Hh(c.r_only), tol, `${name}: r (mode r)`);
    }
  });
});

const idOf = (n: number): H => ({ shape: [n, n], re: Float64Array.from({ length: n * n }, (_, i) => (i % (n + 1) === 0 ? 1 : 0)), im: new Float64Array(n * n) });
